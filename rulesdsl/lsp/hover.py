"""Hover: what a name means in this ruleset.

A define shows its expression and the cards it selects in a sample hand, a pattern its
rule and smallest example with its readings, a tier its cards, a table or formula its
inputs and rows, an option its choices, a context value its allowed values, a card its
tier, trump, wild and points. Computed values come from the document's last good compile
(so hover keeps working while the file is mid-edit); written ones from the text as it is.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..model.ruleset import Ruleset
from ..runtime.expressions import _FUNCTIONS, ATTRIBUTES
from .cursor import CARD, CONTEXT, DEFINE, FORMULA, LADDER, OPTION, PATTERN, RULESET, TABLE, TIER
from .names import SECTIONS, Index
from .resolve import BUILTIN, INPUT, Symbol, element_of
from .views import View, parse_kind

MAX_ROWS = 8  # table rows shown in a hover


def hover_markdown(symbol: Symbol, index: Index, ruleset: Ruleset | None,
                   view: View | None) -> str | None:
    """Markdown for a symbol, or None when there is nothing to say."""
    name = symbol.name
    if symbol.kind == RULESET:
        return f"**extends** `{name}`: this file starts from that ruleset (go to definition " \
               "opens it)."
    if symbol.kind == BUILTIN:
        return _builtin(name, element_of(index, ruleset, None))
    if symbol.kind == INPUT:
        return f"**input** `{name}`: a value the engine gives this table or formula."
    if symbol.kind == CARD:
        return _card(name, index, ruleset, view)
    written = _written(symbol.kind, name, index, ruleset)
    lines = [_title(symbol.kind, name, written)]
    maker = {DEFINE: _define, PATTERN: _pattern, TIER: _tier, TABLE: _table,
             FORMULA: _formula, OPTION: _option, CONTEXT: _context, LADDER: _ladder}[symbol.kind]
    lines.extend(maker(name, written, ruleset, view))
    return "\n\n".join(line for line in lines if line)


def _title(kind: str, name: str, written: Any) -> str:
    if kind == DEFINE and isinstance(written, (str, bool, int)):
        return f"**define** `{name}` = `{_yaml(written)}`"
    return f"**{kind}** `{name}`"


def _written(kind: str, name: str, index: Index, ruleset: Ruleset | None) -> Any:
    """The name's definition as written (current text first, else the last compile's)."""
    for data in (index.data, ruleset.resolved if ruleset is not None else None):
        if not isinstance(data, dict):
            continue
        if kind in SECTIONS:
            section = data.get(SECTIONS[kind])
            if isinstance(section, dict) and name in section:
                return section[name]
        items: Any = None
        if kind == PATTERN:
            patterns = data.get("patterns")
            items = patterns.get("list") if isinstance(patterns, dict) else None
        elif kind == TIER:
            items = data.get("order")
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and item.get("name") == name:
                return {"position": i + 1, "of": len(items),
                        **{k: v for k, v in item.items() if k != "name"}}
    return None


def _yaml(value: Any) -> str:
    """A value as a rule file writes it inline."""
    if isinstance(value, str):
        return value
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000,
                          sort_keys=False).strip()
    return text[:-4] if text.endswith("\n...") else text


def _cards(cards: list[str]) -> str:
    return f"`{' '.join(cards)}`" if cards else "none"


def _pending(ruleset: Ruleset | None) -> str:
    return "" if ruleset is not None else "_Cards and examples show once the file validates._"


# ---------------------------------------------------------------- per kind


def _define(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    if view is None:
        return [_pending(ruleset)]
    cards = view.define_cards(name)
    if cards is None:
        return ["_Not a yes/no definition over cards, or not in the last good compile._"]
    what = "tile" if view.ruleset.family == "tiles" else "card"
    plural = "" if len(cards) == 1 else "s"
    return [f"Selects {len(cards)} {what}{plural}{view.context_note()}: {_cards(cards)}"]


def _pattern(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    out = []
    if isinstance(written, dict):
        rule = {k: v for k, v in written.items() if k not in ("position", "of", "doc")}
        out.append(f"`{_yaml(rule)}`")
        if written.get("doc"):
            out.append(str(written["doc"]))
    if view is None:
        return out + [_pending(ruleset)]
    entry = view.pattern(name)
    if entry is None:
        return out + ["_Not in the last good compile._"]
    if entry.get("example") is None:
        return out + [f"No example{view.context_note()}: {entry.get('note') or 'none found'}."]
    out.append(f"Smallest example{view.context_note()}: {_cards(entry['example'])}")
    if entry.get("readings"):
        out.append("Reads as: " + "; ".join(entry["readings"]))
    return out


def _tier(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    out = []
    if isinstance(written, dict):
        rule = ", ".join(f"{k}: `{_yaml(v)}`" for k, v in written.items()
                         if k not in ("position", "of", "doc"))
        out.append(f"Tier {written['position']} of {written['of']} in `order` "
                   f"(highest first){'; ' + rule if rule else ''}")
    if view is None:
        return out + [_pending(ruleset)]
    cards = view.tier_cards(name)
    out.append(f"Takes{view.context_note()}: {_cards(cards)}" if cards else
               f"Takes no card{view.context_note()}.")
    return out


def _table(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    if not isinstance(written, dict):
        return []
    out = [f"Inputs: `{', '.join(map(str, written.get('input') or []))}`"]
    outputs = written.get("output")
    if isinstance(outputs, dict):
        out.append("Outputs: " + ", ".join(f"`{k}` ({_yaml(v)})" for k, v in outputs.items()))
    rows = written.get("rows")
    if isinstance(rows, list) and rows:
        shown = "\n".join(f"- {_yaml(row)}" for row in rows[:MAX_ROWS])
        more = f"\n- … {len(rows) - MAX_ROWS} more rows" if len(rows) > MAX_ROWS else ""
        out.append(f"Rows (the first that holds applies):\n{shown}{more}")
    return out


def _formula(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    if not isinstance(written, dict):
        return []
    inputs = ", ".join(map(str, written.get("input") or []))
    return [f"`{name}({inputs}) = {_yaml(written.get('expr', ''))}`"]


def _option(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    if not isinstance(written, dict):
        return []
    out = [f"Default: `{_yaml(written.get('default'))}`"]
    if isinstance(written.get("choices"), list):
        out.append("Choices: " + ", ".join(f"`{_yaml(c)}`" for c in written["choices"]))
    if written.get("doc"):
        out.append(str(written["doc"]))
    return out


def _context(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    out = []
    if isinstance(written, dict):
        out.append(f"A per-hand value: `{_yaml(written)}`")
    if view is not None:
        for c in view.shown:
            if c["name"] == name:
                out.append(f"Sample value: `{c['value']}`; allowed: "
                           f"{', '.join(map(str, c['allowed'])) or 'any'}")
    return out


def _ladder(name: str, written: Any, ruleset: Ruleset | None, view: View | None) -> list[str]:
    if isinstance(written, list):
        return ["Ranks, lowest first: `" + " ".join(map(str, written)) + "`"]
    return []


def _card(name: str, index: Index, ruleset: Ruleset | None, view: View | None) -> str:
    tiles = (ruleset.family if ruleset is not None else index.family()) == "tiles"
    kind = parse_kind(name, tiles)
    what = "tile" if tiles else "card"
    if kind is None:
        return f"**{what}** `{name}`"
    if view is None:
        return f"**{what}** `{name}`\n\n{_pending(ruleset)}"
    facts = view.card_facts(kind)
    return f"**{what}** `{name}`{view.context_note()}: " + ", ".join(facts)


def _builtin(name: str, scopes: list[str]) -> str:
    if name in _FUNCTIONS:
        return f"**function** `{name}(…)` of the expression language (docs/language.md)"
    for scope in scopes:
        found = ATTRIBUTES.get(scope, {}).get(name)
        if found is not None:
            return f"**attribute** `{name}` of a {scope}: a {found[0]}"
    return f"`{name}`"
