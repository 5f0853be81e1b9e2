"""Every problem at once: reading past structure problems.

When a rule file's structure is wrong the compiler cannot run on it as it is. Here the
wrong values are set aside (an unknown key removed, a wrong value replaced by one the
schema offers as an example) so the compiler reads the rest, and of what it then finds
only the kinds a set-aside value cannot cause are kept: expressions, unknown names and
malformed examples, away from the places already reported. A rule it would refuse only
because of a stand-in value is never reported.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..errors import Problem

# What the compiler may report past structure problems: nothing a stand-in can cause.
KEPT = ("RD301", "RD302", "RD303", "RD401", "RD501")
_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")
_BY_TYPE = {"integer": 1, "number": 1, "boolean": False, "string": None, "array": [],
            "object": {}}


def path_of(text: str) -> tuple:
    """A problem's YAML path back as keys and indices (`a.b[0]` → ('a', 'b', 0))."""
    return tuple(int(m.group(1)) if m.group(1) is not None else m.group(2)
                 for m in _PATH_PART.finditer(text))


def set_aside(data: Any, schema: dict[str, Any], problems: list[Problem]) -> Any | None:
    """A copy of `data` with each wrong value set aside, or None when a problem is at the
    root (nothing is left to read)."""
    out = copy.deepcopy(data)
    for problem in problems:
        if problem.code == "RD202":
            continue  # a missing key: nothing to set aside (the compiler may stop there)
        path = path_of(problem.path)
        if not path:
            return None
        key = problem.code == "RD201"  # an unknown key goes; a wrong value is replaced
        parent = _walk(out, path[:-1])
        last = path[-1]
        stand_in = None if key else _example(_subschema(schema, schema, path))
        if isinstance(parent, dict) and last in parent:
            if stand_in is None:
                del parent[last]
            else:
                parent[last] = stand_in
        elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
            if stand_in is None:
                return None  # removing an item would shift its neighbours' places
            parent[last] = stand_in
    return out


def kept(found: list[Problem], reported: list[Problem]) -> list[Problem]:
    """Of what the compiler found past the set-aside values, the problems no stand-in
    can cause, away from the places already reported."""
    places = [p.path for p in reported]
    return [q for q in found if q.severity == "error" and q.code in KEPT and not any(
        q.path.startswith(s) or s.startswith(q.path) for s in places)]


def _walk(data: Any, path: tuple) -> Any:
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def _subschema(root: dict[str, Any], schema: Any, path: tuple) -> dict[str, Any] | None:
    """The schema of the value at `path`, following $ref, alternatives (the first that
    goes on), properties, patternProperties, additionalProperties and items."""
    if not isinstance(schema, dict):
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _subschema(root, root.get("$defs", {}).get(ref[len("#/$defs/"):]), path)
    for alternatives in ("anyOf", "oneOf", "allOf"):
        for option in schema.get(alternatives, ()):
            found = _subschema(root, option, path)
            if found is not None:
                return found
    if not path:
        return schema
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = schema.get("items")
        return _subschema(root, items, rest) if isinstance(items, dict) else None
    props = schema.get("properties", {})
    if head in props:
        return _subschema(root, props[head], rest)
    for pattern, sub in schema.get("patternProperties", {}).items():
        if re.search(pattern, str(head)):
            return _subschema(root, sub, rest)
    extra = schema.get("additionalProperties")
    return _subschema(root, extra, rest) if isinstance(extra, dict) else None


def _example(schema: dict[str, Any] | None) -> Any:
    """A value the schema accepts, or None to remove the value instead."""
    if not schema:
        return None
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if schema.get("examples"):
        return schema["examples"][0]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    value = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if kind in ("integer", "number") and "minimum" in schema:
        value = schema["minimum"]
    return copy.deepcopy(value)
