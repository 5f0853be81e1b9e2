"""The tile family's own top-level sections, `win:` and `scoring:`, compiled: limit hands,
scoring items (base points and fan, per set or tile or for the whole hand) and the
formulas that total each hand."""

from __future__ import annotations

from typing import Any

from ...errors import did_you_mean
from ...model.ruleset import LimitHand, ScoringItem
from ...runtime.expressions import BOOL, HAND, INT, SET, TILE, Scope


def read_sections(reader: Any) -> dict[str, Any]:
    """The Ruleset fields these sections fill (reader: the compiler)."""
    d = reader.data
    formulas = reader.formulas
    if (d.get("deal") or {}).get("turn_up", "none") == "none":
        for name, decl in (d.get("context") or {}).items():
            if isinstance(decl, dict) and decl.get("type") == "tile":
                # the tile context is the tile turned up: with none turned up, never set
                reader.error(("context", name), f"{name!r} is the tile turned up after the "
                             "deal, and deal.turn_up turns none up", key=True,
                             expected="deal: {turn_up: wild}, or no tile context")
    win = d.get("win")
    scoring = d.get("scoring")
    tile_defines = reader.defines
    hand_scope_with_tiles = Scope(element=HAND, values=reader.values_types,
                                  defines=None)
    hand_scope_with_tiles.parent = Scope(element=None, values=reader.values_types,
                                         defines=tile_defines)
    if (win or {}).get("seven_pairs"):
        if d.get("wilds"):
            reader.error(("win", "seven_pairs"), "seven pairs are read without wilds, and "
                         "this ruleset has wilds", key=True,
                         expected="no wilds, or no seven_pairs")
        if (3 * win.get("sets", 4) + 2 * win.get("pairs", 1)) % 2:
            reader.error(("win", "seven_pairs"), "a complete hand of this shape has an odd "
                         "number of tiles: it cannot be pairs only", key=True,
                         expected="sets and pairs making an even number of tiles")
    limit_hands = []
    for i, lh in enumerate((win or {}).get("limit_hands", [])):
        c = reader.expr(("win", "limit_hands", i, "when"), lh["when"], hand_scope_with_tiles,
                      BOOL)
        if c:
            limit_hands.append(LimitHand(lh["name"], c[1],
                                         frozenset(lh.get("for", ["winner", "others"]))))
    items = []
    for i, item in enumerate((scoring or {}).get("items", [])):
        path = ("scoring", "items", i)
        where_fn = when_fn = None
        each = item.get("each")
        if "where" in item:
            if each is None:
                reader.error(path + ("where",), "'where' needs 'each: set' or 'each: tile'",
                           key=True, suggestion="use 'when' for a whole-hand condition")
            else:
                scope = Scope(element=SET if each == "set" else TILE,
                              values=reader.values_types,
                              defines=tile_defines if each == "tile" else None,
                              parent=hand_scope_with_tiles)
                c = reader.expr(path + ("where",), item["where"], scope, BOOL)
                where_fn = c[1] if c else None
        elif each is not None:
            reader.error(path, f"'each: {each}' needs a 'where' condition",
                       expected="where: a condition on each set or tile")
        if "when" in item:
            c = reader.expr(path + ("when",), item["when"], hand_scope_with_tiles, BOOL)
            when_fn = c[1] if c else None
        times_fn = None
        if "times" in item:
            if each is not None:
                reader.error(path + ("times",), f"'times' counts an item without 'each'; "
                             f"this one counts each {each}", key=True,
                             expected="each, or times, not both")
            c = reader.expr(path + ("times",), item["times"], hand_scope_with_tiles, INT)
            times_fn = c[1] if c else None
        if item["kind"] == "base" and "points" not in item and not item.get("limit"):
            reader.error(path, "a base item needs 'points'", expected="points: N")
        if item["kind"] == "fan" and "fan" not in item and not item.get("limit"):
            reader.error(path, "a fan item needs 'fan'", expected="fan: N")
        items.append(ScoringItem(item["name"], item["kind"], frozenset(item["for"]), each,
                                 item.get("zone"), where_fn, when_fn,
                                 item.get("points", 0), item.get("fan", 0),
                                 item.get("limit", False), times_fn))
    totals = dict((scoring or {}).get("totals", {}))
    for who, fname in totals.items():
        if fname not in formulas:
            reader.error(("scoring", "totals", who), f"no formula named {fname!r}",
                       expected="a formula under formulas",
                       suggestion=did_you_mean(fname, formulas))
    return {"win": win, "limit_hands": limit_hands, "scoring_items": items, "totals": totals}
