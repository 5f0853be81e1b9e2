"""Where the cursor is in a rule file, and what the language expects there.

A file being edited is often not valid YAML, so the place is read from PyYAML's token
stream rather than from a parsed document: a marker word is written at the cursor and the
tokens are followed up to the scalar holding it, keeping a stack of the mappings and
lists around it. The path found (`("order", "[]", "select")`) is then looked up in the
ruleset schema (the same one `rulesdsl schema` prints), which says whether the value is an
expression or the name of a pattern, tier, table, formula, option or ladder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml

from ..language.schema import EXPR, NAME
from .text import _LOADER

# The word written at the cursor: letters only, so it joins the word being typed and is a
# valid plain scalar and expression name wherever the cursor is.
MARKER = "qqRulesdslCursorqq"
LIST = "[]"  # a list item in a path

# What a position refers to.
EXPRESSION = "expression"
CARD = "card"
DEFINE = "define"
PATTERN = "pattern"
TIER = "tier"
TABLE = "table"
FORMULA = "formula"
OPTION = "option"
CONTEXT = "context"
LADDER = "ladder"
RULESET = "ruleset"

# Sections whose keys are the names they define.
KEY_DEFINES = {
    ("define",): DEFINE,
    ("options",): OPTION,
    ("tables",): TABLE,
    ("formulas",): FORMULA,
    ("context",): CONTEXT,
    ("ranks",): LADDER,
    ("examples", LIST, "options"): OPTION,  # an example's option values, by option name
    ("examples", LIST, "context"): CONTEXT,
}
# List items whose `name` defines a name other positions use.
NAME_DEFINES = {
    ("patterns", "list", LIST, "name"): PATTERN,
    ("order", LIST, "name"): TIER,
}
# Example and deck keys whose strings are cards or tiles in the project's notation.
CARD_KEYS = {
    "pattern", "beats", "over", "trump", "points", "order", "kitty", "to_deal", "actions",
    "legal", "illegal", "action", "absent", "cards", "discards", "drawn", "wall", "wall_end",
    "win_tile", "seat_wind", "hand", "flowers",
}
CARD_SEATS = {"hands", "discards", "exposed_flowers", "exposed"}  # per seat: cards or tiles


@dataclass(frozen=True)
class Place:
    """A cursor's position in the YAML structure."""

    path: tuple[str, ...]  # keys from the root, LIST for a list item
    on_key: bool = False  # on a mapping key: path[-1] is that key as written
    quoted: bool = False  # inside a quoted scalar
    scalar: str = ""  # the whole scalar under the cursor (marker removed)
    kinds: tuple[str, ...] = field(default=())  # what it refers to, most likely first
    defines: bool = False  # the position defines the name (a define's key, a pattern's name)


@dataclass
class _Frame:
    kind: str  # "map" | "seq"
    key: str | None = None
    state: str = "start"  # map: start | key | keyed | value | done
    indentless: bool = False  # a block list at its key's indentation (no start token)


def place_at(text: str, offset: int) -> Place | None:
    """The place of the cursor at string index `offset`, or None where no value is (a
    comment, a blank line between sections). Text after the cursor is kept when it scans,
    so a quoted scalar closes where the author closed it."""
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    head = text[:offset]
    # Just after "key:" a value needs its space, or the marker would extend the key.
    glue = " " if head.endswith(":") else ""
    line_tail = text[offset:line_end]
    # The whole text, then this line only, then with a quote closed (one being typed).
    for tail in (text[offset:], line_tail, line_tail + '"', line_tail + "'", "", '"', "'"):
        found, complete = _follow(head + glue + MARKER + tail)
        if found is not None:
            return _classified(found)
        if complete and tail == text[offset:]:
            return None  # the whole text scanned and no scalar holds the cursor
    return None


def _follow(text: str) -> tuple[Place | None, bool]:
    """(the place of the marker, whether the scan reached the end without an error)."""
    frames: list[_Frame] = []
    try:
        for token in yaml.scan(text, Loader=_LOADER):
            if isinstance(token, (yaml.BlockMappingStartToken, yaml.FlowMappingStartToken)):
                frames.append(_Frame("map"))
            elif isinstance(token, (yaml.BlockSequenceStartToken, yaml.FlowSequenceStartToken)):
                frames.append(_Frame("seq"))
            elif isinstance(token, yaml.BlockEndToken):
                while frames and frames[-1].indentless:
                    frames.pop()
                _pop(frames)
            elif isinstance(token, (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)):
                _pop(frames)
            elif isinstance(token, yaml.KeyToken):
                while frames and frames[-1].indentless:
                    frames.pop()
                if frames and frames[-1].kind == "map":
                    frames[-1].state = "key"
            elif isinstance(token, yaml.ValueToken):
                if frames and frames[-1].kind == "map":
                    frames[-1].state = "value"
            elif isinstance(token, yaml.BlockEntryToken):
                if frames and frames[-1].kind == "map" and frames[-1].state == "value":
                    frames.append(_Frame("seq", indentless=True))
            elif isinstance(token, yaml.FlowEntryToken):
                if frames and frames[-1].kind == "map":
                    frames[-1].state = "start"
            elif isinstance(token, yaml.ScalarToken):
                if MARKER in token.value:
                    return _place(frames, token), True
                top = frames[-1] if frames else None
                if top is not None and top.kind == "map":
                    if top.state == "key":
                        top.key, top.state = token.value, "keyed"
                    elif top.state == "value":
                        top.state = "done"
            elif isinstance(token, yaml.AliasToken):
                if frames and frames[-1].kind == "map" and frames[-1].state == "value":
                    frames[-1].state = "done"
    except (yaml.YAMLError, RecursionError):
        return None, False
    return None, True


def _pop(frames: list[_Frame]) -> None:
    if frames:
        frames.pop()
    if frames and frames[-1].kind == "map" and frames[-1].state == "value":
        frames[-1].state = "done"


def _place(frames: list[_Frame], token: Any) -> Place:
    path: list[str] = []
    for frame in frames[:-1]:
        path.append(LIST if frame.kind == "seq" else str(frame.key))
    quoted = token.style in ("'", '"')
    scalar = token.value.replace(MARKER, "")
    if not frames:
        return Place((), quoted=quoted, scalar=scalar)
    top = frames[-1]
    if top.kind == "seq":
        return Place(tuple(path + [LIST]), quoted=quoted, scalar=scalar)
    if top.state == "value":
        return Place(tuple(path + [str(top.key)]), quoted=quoted, scalar=scalar)
    # After a key token, or a scalar where a key goes (one being typed): a key.
    return Place(tuple(path + [scalar]), on_key=True, quoted=quoted, scalar=scalar)


# ---------------------------------------------------------------- what the place names


def _classified(place: Place) -> Place:
    kinds, defines = classify(place.path, place.on_key)
    return Place(place.path, place.on_key, place.quoted, place.scalar, kinds, defines)


def classify(path: tuple[str, ...], on_key: bool) -> tuple[tuple[str, ...], bool]:
    """(what a name at this place may refer to, most likely first; whether it defines it)."""
    if on_key:
        kind = KEY_DEFINES.get(path[:-1])
        if kind is None:
            return (), False
        return (kind,), path[0] != "examples"
    if path == ("extends",):
        return (RULESET,), False
    if path in NAME_DEFINES:
        return (NAME_DEFINES[path],), True
    kinds: list[str] = []
    for leaf in schema_at(path):
        for kind in _leaf_kinds(leaf):
            if kind not in kinds:
                kinds.append(kind)
    if path[:1] == ("examples",) and path[-1:] == ("expect",):
        kinds.append(PATTERN)  # a `pattern:` example expects a pattern's name (or none)
    if not kinds and _holds_cards(path):
        kinds.append(CARD)
    if EXPRESSION in kinds:
        kinds.append(CARD)  # card and tile literals are expressions too
    return tuple(kinds), False


def _holds_cards(path: tuple[str, ...]) -> bool:
    """Is this an example's, a deck's or a pattern's string of cards or tiles?"""
    keys = [k for k in path if k != LIST]
    if len(keys) < 2:
        return False
    if keys[0] == "examples":
        return keys[-1] in CARD_KEYS or keys[-2] in CARD_SEATS
    return keys in (["deck", "remove"], ["patterns", "list", "cards"])


def _leaf_kinds(leaf: dict[str, Any]) -> list[str]:
    if leaf.get("type") == EXPR["type"]:
        return [EXPRESSION]
    if leaf.get("pattern") != NAME["pattern"]:
        return []
    words = str(leaf.get("description", "")).lower()
    if words.startswith(("the pattern's", "tier name", "the alternate", "the wild",
                         "the item", "the limit", "the kind", "an input")):
        return []  # a name defined there, or an input: nothing elsewhere to find
    out = []
    for word, kind in (("pattern", PATTERN), ("tier", TIER), ("ladder", LADDER),
                       ("option", OPTION), ("table", TABLE), ("formula", FORMULA)):
        if word in words:
            out.append(kind)
    return out


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    from ..compiler.schema import ruleset_schema

    return ruleset_schema()


def schema_at(path: tuple[str, ...]) -> list[dict[str, Any]]:
    """The schemas that may describe the value at `path` (alternatives expanded)."""
    root = _schema()
    nodes = _expand(root, root)
    for step in path:
        following: list[dict[str, Any]] = []
        for node in nodes:
            for child in _children(node, step):
                following.extend(_expand(child, root))
        nodes = following
        if not nodes:
            break
    return nodes


def _expand(node: Any, root: dict[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    """A schema with its `$ref` followed and its anyOf/oneOf/allOf branches listed."""
    if not isinstance(node, dict) or depth > 16:
        return []
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = root.get("$defs", {}).get(ref.rsplit("/", 1)[-1])
        return _expand(target, root, depth + 1)
    out = [node]
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key) or []:
            out.extend(_expand(branch, root, depth + 1))
    return out


def _children(node: dict[str, Any], step: str) -> list[Any]:
    if step == LIST:
        items = node.get("items")
        return ([items] if isinstance(items, dict) else []) + list(node.get("prefixItems") or [])
    props = node.get("properties") or {}
    if step in props:
        return [props[step]]
    extra = node.get("additionalProperties")
    return [extra] if isinstance(extra, dict) else []
