"""A quick yes/no JSON Schema check for the keywords the ruleset schema uses.

Most rule files are valid, and for a valid file jsonschema only says "no errors" — after
~0.1 s of importing it and more of walking the schema. This module compiles the schema
once into plain Python predicates that decide validity exactly as jsonschema's Draft
2020-12 validator does; rulesdsl.language.structure asks jsonschema only when this check
does not say "valid", so every message still comes from jsonschema.

Anything this module does not decide exactly (a keyword it does not know, a float where an
integer is wanted, a value that is not plain JSON) raises `Unsure`, and the caller falls
back to jsonschema: the quick check may only ever skip work, never change a verdict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that never affect validity (draft 2020-12 annotations; `format` is not
# asserted by a validator built without a format checker, as structure.py builds it).
_ANNOTATIONS = frozenset({"description", "examples", "title", "$schema", "$id", "$comment",
                          "default", "$defs", "deprecated", "readOnly", "writeOnly",
                          "markdownDescription"})
_PLAIN = (dict, list, str, int, float, bool, type(None))


class Unsure(Exception):
    """The quick check cannot decide this exactly; ask jsonschema."""


def _equal(one: Any, two: Any) -> bool:
    """jsonschema's equality: true and 1 differ, 1 and 1.0 do not, lists and mappings
    compare item by item."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(_equal(x, y) for x, y in zip(one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(k in two and _equal(x, two[k])
                                            for k, x in one.items())
    if isinstance(one, (list, dict)) or isinstance(two, (list, dict)):
        return False
    if isinstance(one, bool) or isinstance(two, bool):
        return type(one) is type(two) and one == two
    return bool(one == two)


def _is_type(value: Any, name: str) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "integer":
        if isinstance(value, float):
            raise Unsure  # 2.0 is an integer to jsonschema; leave such files to it
        return isinstance(value, int) and not isinstance(value, bool)
    raise Unsure


class _Compiler:
    def __init__(self, root: dict[str, Any]):
        self.root = root
        self.refs: dict[str, Check] = {}

    def ref(self, target: str) -> Check:
        if not target.startswith("#/$defs/") or "/" in target[8:] or "~" in target:
            raise Unsure
        if target not in self.refs:
            cell: list[Check] = []
            self.refs[target] = lambda v: cell[0](v)  # recursive schemas see this first
            cell.append(self.compile(self.root["$defs"][target[8:]]))
        return self.refs[target]

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise Unsure
        checks: list[Check] = []
        for key, arg in schema.items():
            if key in _ANNOTATIONS:
                continue
            make = getattr(self, "k_" + key.lstrip("$"), None)
            if make is None:
                raise Unsure  # a keyword this module does not implement
            checks.append(make(arg, schema))
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)

    # -- keywords (each returns a predicate; `schema` is the keyword's own schema)

    def k_ref(self, target: str, schema: dict) -> Check:
        return self.ref(target)

    def k_type(self, names: str | list[str], schema: dict) -> Check:
        wanted = [names] if isinstance(names, str) else list(names)
        return lambda v: any(_is_type(v, n) for n in wanted)

    def k_enum(self, options: list, schema: dict) -> Check:
        return lambda v: any(_equal(o, v) for o in options)

    def k_const(self, value: Any, schema: dict) -> Check:
        return lambda v: _equal(value, v)

    def k_properties(self, props: dict[str, Any], schema: dict) -> Check:
        compiled = {name: self.compile(sub) for name, sub in props.items()}

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            return all(c(v[name]) for name, c in compiled.items() if name in v)
        return check

    def k_additionalProperties(self, extra: Any, schema: dict) -> Check:
        if "patternProperties" in schema:
            raise Unsure
        known = schema.get("properties", {})
        sub = self.compile(extra)

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            return all(sub(item) for key, item in v.items() if key not in known)
        return check

    def k_required(self, names: list[str], schema: dict) -> Check:
        return lambda v: not isinstance(v, dict) or all(n in v for n in names)

    def k_propertyNames(self, names: Any, schema: dict) -> Check:
        sub = self.compile(names)
        return lambda v: not isinstance(v, dict) or all(sub(key) for key in v)

    def k_items(self, items: Any, schema: dict) -> Check:
        if "prefixItems" in schema:
            raise Unsure
        sub = self.compile(items)
        return lambda v: not isinstance(v, list) or all(sub(x) for x in v)

    def k_minItems(self, n: int, schema: dict) -> Check:
        return lambda v: not isinstance(v, list) or len(v) >= n

    def k_maxItems(self, n: int, schema: dict) -> Check:
        return lambda v: not isinstance(v, list) or len(v) <= n

    def k_uniqueItems(self, unique: bool, schema: dict) -> Check:
        if not unique:
            return lambda v: True

        def check(v: Any) -> bool:
            if not isinstance(v, list):
                return True
            if any(isinstance(x, float) for x in v):
                raise Unsure  # jsonschema sorts first; NaN makes that order its own
            return all(not _equal(x, y) for i, x in enumerate(v) for y in v[i + 1:])
        return check

    def k_minimum(self, low: float, schema: dict) -> Check:
        return lambda v: not _is_type(v, "number") or v >= low

    def k_maximum(self, high: float, schema: dict) -> Check:
        return lambda v: not _is_type(v, "number") or v <= high

    def k_multipleOf(self, step: float, schema: dict) -> Check:
        # As jsonschema decides it: a float step by the quotient, an int one by the rest.
        def check(v: Any) -> bool:
            if not _is_type(v, "number"):
                return True
            if isinstance(step, float):
                quotient = v / step
                try:
                    return int(quotient) == quotient
                except OverflowError:
                    raise Unsure from None
            return not v % step
        return check

    def k_pattern(self, pattern: str, schema: dict) -> Check:
        regex = re.compile(pattern)
        return lambda v: not isinstance(v, str) or regex.search(v) is not None

    def k_oneOf(self, subs: list, schema: dict) -> Check:
        compiled = [self.compile(s) for s in subs]
        return lambda v: sum(1 for c in compiled if c(v)) == 1

    def k_anyOf(self, subs: list, schema: dict) -> Check:
        compiled = [self.compile(s) for s in subs]
        return lambda v: any(c(v) for c in compiled)

    def k_allOf(self, subs: list, schema: dict) -> Check:
        compiled = [self.compile(s) for s in subs]
        return lambda v: all(c(v) for c in compiled)

    def k_not(self, sub: Any, schema: dict) -> Check:
        compiled = self.compile(sub)
        return lambda v: not compiled(v)


def _plain(value: Any, depth: int = 0) -> None:
    """Raise Unsure for a value that is not plain JSON data (a YAML date, say)."""
    if not isinstance(value, _PLAIN):
        raise Unsure
    if isinstance(value, dict):
        for key, item in value.items():
            _plain(key, depth + 1)
            _plain(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _plain(item, depth + 1)


# Compiled schemas, keyed by id; the schema itself is kept so its id stays its own.
_COMPILED: dict[int, tuple[dict[str, Any], Check | None]] = {}


def is_valid(schema: dict[str, Any], instance: Any) -> bool:
    """True only when jsonschema would find no error; False means "ask jsonschema"."""
    entry = _COMPILED.get(id(schema))
    if entry is None or entry[0] is not schema:
        try:
            check: Check | None = _Compiler(schema).compile(schema)
        except Unsure:
            check = None
        if len(_COMPILED) > 8:
            _COMPILED.clear()
        entry = _COMPILED[id(schema)] = (schema, check)
    check = entry[1]
    if check is None:
        return False
    try:
        _plain(instance)
        return check(instance)
    except (Unsure, RecursionError):
        return False
