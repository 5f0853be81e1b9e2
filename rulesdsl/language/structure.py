"""Checking a rule file's structure against the JSON Schema, with located messages."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..errors import Problem, did_you_mean, format_path, spell
from .quickcheck import is_valid
from .schema import END
from .yamlio import Document

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

_TYPE_WORDS = {
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "nothing",
}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


def _type_words(types: Any) -> str:
    if isinstance(types, str):
        types = [types]
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types)


def _finite(value: Any, path: tuple, found: list[tuple[tuple, float]]) -> Any:
    """The data with every non-finite number as None, each one noted in `found`: `.inf`
    crashes jsonschema's multipleOf, and a number that is not one gets its own message."""
    if isinstance(value, float) and not math.isfinite(value):
        found.append((path, value))
        return None
    if isinstance(value, dict):
        out = {k: _finite(v, path + (k,), found) for k, v in value.items()}
        return value if all(out[k] is value[k] for k in value) else out
    if isinstance(value, list):
        items = [_finite(v, path + (i,), found) for i, v in enumerate(value)]
        return value if all(a is b for a, b in zip(items, value)) else items
    return value


def check_structure(doc: Document, schema: dict[str, Any],
                    data: Any | None = None) -> list[Problem]:
    infinite: list[tuple[tuple, float]] = []
    target = _finite(doc.data if data is None else data, (), infinite)
    if not infinite and is_valid(schema, target):
        return []  # the common case, decided without importing jsonschema
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    problems: list[Problem] = []
    seen: set[tuple] = set()
    for error in validator.iter_errors(target):
        for problem in _convert(doc, error):
            key = (problem.line, problem.column, problem.path, problem.message)
            if key not in seen:
                seen.add(key)
                problems.append(problem)
    # A misspelled key already says "did you mean 'x'?": drop the "missing key 'x'" it causes.
    meant = {(p.path.rsplit(".", 1)[0] if "." in p.path else "", p.suggestion)
             for p in problems if p.message.startswith("unknown key") and p.suggestion}
    problems = [p for p in problems
                if not (p.message.startswith("missing key ")
                        and (p.path, f"did you mean {p.message[12:]}?") in meant)]
    if infinite:  # the schema saw None there: say what the file holds instead
        places = {format_path(path) for path, _ in infinite}
        problems = [p for p in problems if p.path not in places]
        problems += [doc.problem(path, f"{value} is not a finite number",
                                 expected="a whole number or a finite decimal")
                     for path, value in infinite]
    problems.sort(key=lambda p: (p.file, p.line, p.column))
    return problems


def _convert(doc: Document, error: ValidationError) -> list[Problem]:
    path = tuple(error.absolute_path)
    v = error.validator
    instance = error.instance
    if v in ("oneOf", "anyOf") and error.context:
        return _convert_alternatives(doc, error)
    if "propertyNames" in error.absolute_schema_path and isinstance(instance, str):
        # A bad key: point at the key itself, say which keys are allowed.
        allowed = [str(x) for x in error.validator_value] if v == "enum" else []
        return [doc.problem(path + (instance,), f"{instance!r} is not allowed as a key here",
                            key=True, expected=_allowed_words(allowed) if allowed else
                            _pattern_words(str(error.validator_value)),
                            suggestion=did_you_mean(instance, allowed) if allowed else None)]
    if v == "additionalProperties" and isinstance(instance, dict):
        allowed = list(error.schema.get("properties", {}))
        extras = [k for k in instance if k not in allowed]
        out = []
        for extra in extras:
            out.append(doc.problem(path + (extra,), f"unknown key {extra!r}", key=True,
                                   expected=_allowed_words(allowed),
                                   suggestion=did_you_mean(extra, allowed)))
        if not allowed and not extras:
            out.append(doc.problem(path, "no keys are allowed here"))
        if not out:
            out.append(doc.problem(path, error.message))
        return out
    if v == "required" and isinstance(instance, dict):
        missing = [k for k in error.validator_value if k not in instance]
        props = error.schema.get("properties", {})
        return [doc.problem(path, f"missing key {k!r}", expected=_key_hint(k, props.get(k, {})))
                for k in missing]
    if v == "type":
        return [doc.problem(path, f"{_describe(instance)} is not allowed here",
                            expected=_type_words(error.validator_value))]
    if v == "enum":
        options = [str(o) for o in error.validator_value]
        return [doc.problem(path, f"{_describe(instance)} is not one of the allowed values",
                            expected="one of " + ", ".join(options),
                            suggestion=did_you_mean(str(instance), options))]
    if v == "const":
        if path == ("language",):
            return [doc.problem(path, f"language version {instance!r} is not supported by this "
                                "rulesdsl", expected=f"language: {error.validator_value}")]
        return [doc.problem(path, f"{_describe(instance)} is not allowed here",
                            expected=spell(error.validator_value))]
    if v == "pattern":
        return [doc.problem(path, f"{_describe(instance)} is not a valid name here",
                            expected=_pattern_words(error.validator_value))]
    if v == "minimum":
        return [doc.problem(path, f"{instance} is below the minimum",
                            expected=f"at least {error.validator_value}")]
    if v == "maximum":
        return [doc.problem(path, f"{instance} is over the limit of {error.validator_value}",
                            expected=f"at most {error.validator_value}")]
    if v == "minItems":
        return [doc.problem(path, "the list is too short",
                            expected=f"at least {error.validator_value} item(s)")]
    if v == "maxItems":
        return [doc.problem(path, f"the list has {len(instance)} items, over the limit of "
                            f"{error.validator_value}",
                            expected=f"at most {error.validator_value} items")]
    if v == "uniqueItems":
        return [doc.problem(path, "the list repeats an item", expected="each item once")]
    if v == "propertyNames":
        # The offending key is error.instance; point at it.
        if isinstance(instance, str):
            return [doc.problem(path + (instance,), f"{instance!r} is not allowed as a key",
                                key=True)]
        return [doc.problem(path, error.message)]
    return [doc.problem(path, error.message)]


def _convert_alternatives(doc: Document, error: ValidationError) -> list[Problem]:
    subs = list(error.context or [])
    depth = max(len(e.relative_path) for e in subs)
    if depth > 0:
        deepest = [e for e in subs if len(e.relative_path) == depth]
        out: list[Problem] = []
        for sub in deepest[:1]:
            out.extend(_convert(doc, sub))
        return out
    path = tuple(error.absolute_path)
    types = []
    for e in subs:
        if e.validator == "type":
            vv = e.validator_value
            types.extend([vv] if isinstance(vv, str) else vv)
        elif e.validator == "enum":
            types.append("one of " + ", ".join(map(str, e.validator_value)))
        elif e.validator == "const":
            types.append(repr(e.validator_value))
    non_type = [e for e in subs if e.validator not in ("type", "enum", "const")]
    if non_type:
        return _convert(doc, non_type[0])
    words = " or ".join(dict.fromkeys(_TYPE_WORDS.get(t, t) for t in types)) or None
    return [doc.problem(path, f"{_describe(error.instance)} is not allowed here", expected=words)]


def _key_hint(key: str, schema: dict[str, Any]) -> str:
    """What a missing key should hold, from the schema's own words."""
    if "enum" in schema:
        return f"{key}: one of " + ", ".join(map(str, schema["enum"]))
    if "const" in schema:
        return f"{key}: {schema['const']}"
    description = schema.get("description")
    return f"{key}: {description[0].lower()}{description[1:].rstrip('.')}" if description \
        else f"a {key!r} key"


def _allowed_words(allowed: list[str]) -> str | None:
    if not allowed:
        return None
    words = ", ".join(allowed)
    if len(words) > 240:
        return "a key of the language (`rulesdsl doc --language` lists them)"
    return "one of " + words


def _pattern_words(pattern: str) -> str:
    if pattern.startswith("^[a-z0-9]"):
        return "a lower-case slug of letters, digits and '-'"
    if pattern.startswith("^[A-Za-z_]"):
        return "a name of letters, digits and '_', not starting with a digit"
    return f"text matching {pattern.removesuffix(END[1:])}"  # shown without its guard
