"""Completion: the names a position can take.

In an expression: defines, context values, options (and a table's or formula's inputs
inside it), the element's attributes, the functions, and the deck's cards or tiles. Where
a position names something (`patterns: [...]`, `{pattern: ...}`, `by:`, `{option: ...}`,
a play key naming a table or formula, an example's `expect:`), the names of that kind.
In an example's or a deck's cards, the cards or tiles of the deck, in the notation.
Names come from the text as it is (merged over its parents), cards from the last good
compile's deck.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from ..model.ruleset import Ruleset
from ..resources import bundled_rulesets
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
from .hover import _yaml
from .names import SECTIONS, Index, all_kinds, inputs_of
from .resolve import element_of
from .views import View

_ITEM_KIND = {
    DEFINE: lsp.CompletionItemKind.Variable,
    CONTEXT: lsp.CompletionItemKind.Constant,
    OPTION: lsp.CompletionItemKind.Property,
    PATTERN: lsp.CompletionItemKind.Struct,
    TIER: lsp.CompletionItemKind.EnumMember,
    TABLE: lsp.CompletionItemKind.Module,
    FORMULA: lsp.CompletionItemKind.Function,
    LADDER: lsp.CompletionItemKind.Enum,
    CARD: lsp.CompletionItemKind.Value,
    RULESET: lsp.CompletionItemKind.File,
}
MAX_SIBLINGS = 200  # rule files offered from this file's folder (a large folder is cut)
# Sort groups: the file's own names first, then built-ins, then cards.
_ORDER = {DEFINE: "0", CONTEXT: "1", OPTION: "2", PATTERN: "0", TIER: "0", TABLE: "0",
          FORMULA: "0", LADDER: "0", RULESET: "0", "input": "0", "builtin": "3", CARD: "4"}


def completions(place: Place | None, index: Index, ruleset: Ruleset | None,
                view: View | None) -> list[lsp.CompletionItem]:
    if place is None or not place.kinds:
        return []
    items: dict[str, lsp.CompletionItem] = {}

    def add(label: str, kind: str, detail: str | None = None,
            item_kind: lsp.CompletionItemKind | None = None) -> None:
        if label and label not in items:
            items[label] = lsp.CompletionItem(
                label=label, kind=item_kind or _ITEM_KIND.get(kind, lsp.CompletionItemKind.Text),
                detail=detail, sort_text=f"{_ORDER.get(kind, '5')}{label}")

    for kind in place.kinds:
        if kind == EXPRESSION:
            for name in inputs_of(index, place.path):
                add(name, "input", "input", lsp.CompletionItemKind.Variable)
            for sub in (DEFINE, CONTEXT, OPTION):
                for name in _names(sub, index, ruleset):
                    add(name, sub, _detail(sub, name, index))
            for scope in element_of(index, ruleset, place):
                for name, (typ, _) in ATTRIBUTES.get(scope, {}).items():
                    add(name, "builtin", f"{scope} attribute: {typ}",
                        lsp.CompletionItemKind.Field)
            for name in _FUNCTIONS:
                add(name, "builtin", "function", lsp.CompletionItemKind.Function)
        elif kind == CARD:
            family = ruleset.family if ruleset is not None else index.family()
            what = "tile" if family == "tiles" else "card"
            for name in (view.kinds() if view is not None else all_kinds(family)):
                add(name, CARD, what)
        elif kind == RULESET:
            for name in _rulesets(index.path):
                add(name, RULESET, "ruleset")
        else:
            for name in _names(kind, index, ruleset):
                add(name, kind, _detail(kind, name, index))
            if kind == PATTERN and place.path[-1:] == ("expect",):
                add("none", PATTERN, "no pattern reads these cards",
                    lsp.CompletionItemKind.Keyword)
    return list(items.values())


def _names(kind: str, index: Index, ruleset: Ruleset | None) -> list[str]:
    """The names of a kind: the text's own, then any only the last compile knows."""
    names = index.names(kind)
    if ruleset is not None:
        extra: list[str] = []
        if kind == DEFINE and ruleset.defines is not None:
            extra = list(ruleset.defines.raw)
        elif kind == PATTERN:
            extra = [p.name for p in ruleset.patterns]
        elif kind == TIER:
            extra = [t.name for t in ruleset.tiers]
        elif kind == TABLE:
            extra = list(ruleset.tables)
        elif kind == FORMULA:
            extra = list(ruleset.formulas)
        elif kind == OPTION:
            extra = list(ruleset.options)
        elif kind == CONTEXT:
            extra = list(ruleset.context)
        elif kind == LADDER:
            extra = list(ruleset.ranks)
        names = names + [n for n in extra if n not in names]
    return names


def _detail(kind: str, name: str, index: Index) -> str:
    """A short description: a define's expression, an option's default, a context type."""
    section = index.data.get(SECTIONS.get(kind, ""))
    value: Any = section.get(name) if isinstance(section, dict) else None
    if kind == DEFINE and value is not None:
        return f"define: {_yaml(value)}"[:80]
    if kind == OPTION and isinstance(value, dict):
        return f"option, default {_yaml(value.get('default'))}"[:80]
    if kind == CONTEXT and isinstance(value, dict):
        return f"context: {value.get('type')}"
    if kind in (TABLE, FORMULA) and isinstance(value, dict):
        return f"{kind}({', '.join(map(str, value.get('input') or []))})"[:80]
    return kind


def _rulesets(path: Path) -> list[str]:
    """What `extends:` may name: rule files next to this one, then the bundled ids."""
    out: list[str] = []
    try:
        for other in sorted(path.parent.iterdir()):
            if other.suffix in (".yaml", ".yml") and other.name != path.name and other.is_file():
                out.append(other.name)
                if len(out) >= MAX_SIBLINGS:
                    break
    except OSError:
        pass
    return out + sorted(bundled_rulesets())
