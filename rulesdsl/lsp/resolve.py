"""What the word under the cursor names: a define, pattern, tier, table, formula, option,
context value, ladder, card or tile, or a built-in name of the expression language.

The place decides first (a word in `patterns: [...]` is a pattern, in an expression a
define before a context value before an option, as the language resolves names); where
the place says nothing the word is looked up among every kind of name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.ruleset import Ruleset
from ..runtime.expressions import _FUNCTIONS, ATTRIBUTES
from .cursor import (
    CARD,
    CONTEXT,
    DEFINE,
    EXPRESSION,
    FORMULA,
    LADDER,
    OPTION,
    PATTERN,
    RULESET,
    TABLE,
    TIER,
    Place,
)
from .names import Index, inputs_of
from .views import parse_kind

BUILTIN = "builtin"  # an attribute or function of the expression language
INPUT = "input"  # a table's or formula's input, inside its own rows or expression
# Where a place says nothing: every kind of name, the likeliest first.
ANY_NAME = (DEFINE, PATTERN, TIER, TABLE, FORMULA, OPTION, CONTEXT, LADDER)
# In an expression, in the order the language resolves names (docs/language.md).
IN_EXPRESSION = (INPUT, BUILTIN, DEFINE, CONTEXT, OPTION, CARD)


@dataclass(frozen=True)
class Symbol:
    kind: str
    name: str


def element_of(index: Index, ruleset: Ruleset | None, place: Place | None) -> list[str]:
    """The scopes whose attributes an expression at this place reads."""
    family = ruleset.family if ruleset is not None else index.family()
    if family == "tiles":
        if place is not None and place.path[:1] in (("scoring",), ("win",)):
            return ["hand", "set", "tile"]
        return ["tile"]
    return ["card"]


def known(kind: str, name: str, index: Index, ruleset: Ruleset | None) -> bool:
    if index.has(kind, name):
        return True
    if ruleset is None:
        return False
    if kind == DEFINE:
        return ruleset.defines is not None and name in ruleset.defines.raw
    if kind == PATTERN:
        return ruleset.pattern(name) is not None
    if kind == TIER:
        return any(t.name == name for t in ruleset.tiers)
    if kind == TABLE:
        return name in ruleset.tables
    if kind == FORMULA:
        return name in ruleset.formulas
    if kind == OPTION:
        return name in ruleset.options
    if kind == CONTEXT:
        return name in ruleset.context
    if kind == LADDER:
        return name in ruleset.ranks
    return False


def resolve(word: str, place: Place | None, index: Index,
            ruleset: Ruleset | None) -> Symbol | None:
    """The symbol a word names at a place, or None."""
    kinds: tuple[str, ...] = place.kinds if place is not None else ()
    if place is not None and place.path == ("extends",) and not place.on_key:
        return Symbol(RULESET, place.scalar.strip())
    order: list[str] = []
    for kind in kinds:
        order.extend(IN_EXPRESSION if kind == EXPRESSION else (kind,))
    if place is None or not kinds:
        order.extend(ANY_NAME)
    tiles = (ruleset.family if ruleset is not None else index.family()) == "tiles"
    for kind in order:
        if kind == CARD:
            if parse_kind(word, tiles) is not None:
                return Symbol(CARD, word)
        elif kind == INPUT:
            if place is not None and word in inputs_of(index, place.path):
                return Symbol(INPUT, word)
        elif kind == BUILTIN:
            scopes = element_of(index, ruleset, place)
            if word in _FUNCTIONS or any(word in ATTRIBUTES.get(s, {}) for s in scopes):
                return Symbol(BUILTIN, word)
        elif known(kind, word, index, ruleset):
            return Symbol(kind, word)
    return None
