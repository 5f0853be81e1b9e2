"""Pathological but well-formed rule files, built from the bundled rulesets.

Each case is a name, the file's text and what must happen: `("valid", None)` — it
validates and a seeded game plays to the end in bounded time — or `("rejected", words)`
— validation refuses it with a message naming the bound (`words` appear in a problem).
The cases are chosen by family, not by game: a seed is the first bundled file of the
family the case needs.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import yaml

from .mutate import SEEDS, dump

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
Case = tuple[str, str, str, str | None]  # name, text, "valid" | "rejected", bound words


@cache
def _seed(family: str, need: str | None = None) -> dict[str, Any]:
    for p in SEEDS:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
        # The cases add jokers and wilds: a seed whose deck has jokers (and an order
        # that places them) takes them.
        if data.get("family") == family and (need is None or need in data) \
                and (family == "tiles" or data.get("deck", {}).get("jokers")):
            return data
    raise LookupError(family)


def _base(family: str, need: str | None = None) -> dict[str, Any]:
    data = copy.deepcopy(_seed(family, need))
    data.pop("examples", None)  # examples assert the original game's readings
    data["id"] = f"pathological-{family}"
    return data


def _longest_ladder(data: dict[str, Any]) -> str:
    return max(data["ranks"], key=lambda k: len(data["ranks"][k]))


def _add_pattern(data: dict[str, Any], pattern: dict[str, Any]) -> None:
    data.setdefault("patterns", {}).setdefault("list", []).append(pattern)


def cases() -> list[Case]:
    out: list[Case] = []

    # Eight fixed parts of one card: 13**8 products if every one were walked; the walk
    # would stop at its bound and miss readings, so the file is refused (issue 19).
    d = _base("shedding")
    _add_pattern(d, {"name": "eight_parts", "parts": [{"group": 1}] * 8, "key": 0})
    out.append(("eight_single_parts", dump(d), "rejected", "max part combinations"))

    # A run over the longest ladder with three parts repeating per step.
    d = _base("shedding")
    ladder = _longest_ladder(d)
    run = {"run": {"group": 1, "length": {"min": 1}, "over": ladder}}
    _add_pattern(d, {"name": "repeating", "key": 0, "parts": [
        run, {"group": {"min": 1, "max": 4}, "repeat": "per_step"},
        {"group": {"min": 1, "max": 4}, "repeat": "per_step"},
        {"group": 1, "repeat": "per_step"}]})
    out.append(("three_repeating_parts", dump(d), "rejected", "max repeating parts"))
    d = _base("shedding")
    _add_pattern(d, {"name": "repeating", "key": 0, "parts": [
        run, {"group": {"min": 1, "max": 4}, "repeat": "per_step"}]})
    out.append(("ranged_repeating_part", dump(d), "rejected", "fixed size"))
    d = _base("shedding")
    _add_pattern(d, {"name": "repeating", "key": 0, "parts": [
        run, {"group": 1, "repeat": "per_step"}]})
    out.append(("repeat_over_whole_ladder", dump(d), "rejected", "max repeat steps"))
    d = _base("shedding")
    _add_pattern(d, {"name": "repeating", "key": 0, "parts": [
        {"run": {"group": 1, "length": {"min": 1, "max": 5}, "over": ladder}},
        {"group": 1, "repeat": "per_step"}]})
    out.append(("repeat_five_steps", dump(d), "valid", None))

    # Every card is a wild that stands for anything; and sixteen wilds (the bound).
    d = _base("shedding")
    d["wilds"] = [{"select": "true", "stands_for": "true"}]
    out.append(("everything_wild", dump(d), "rejected", "max wild cards"))
    d = _base("shedding")
    d["wilds"] = [{"select": "rank in [5]", "stands_for": "true"}]
    out.append(("four_wilds", dump(d), "valid", None))
    # Twelve wilds: a deal can give one hand all of them, and that hand holds millions of
    # composite plays: refused, where the pattern is (issue 19, bounded work).
    d = _base("shedding")
    d["wilds"] = [{"select": "rank in [5, 6, 7]", "stands_for": "true"}]
    out.append(("twelve_wilds", dump(d), "rejected", "max lead plays"))

    # Runs of bombs of any height over eight packs: a hand of 146 cards holds about 10^16
    # such runs (valid by every other bound; `play` used to fill memory in 50 s).
    d = _base("shedding")
    d["deck"] = {"decks": 8, "jokers": True}
    seats = d["players"]["count"]
    seats = seats if isinstance(seats, int) else max(seats)
    d["deal"] = {"hands": seats, "hand_size": 432 // seats - 1, "kitty": 432 % seats + seats}
    ladder = _longest_ladder(d)
    _add_pattern(d, {"name": "bomb_runs", "run": {
        "group": {"min": 1, "max": 32}, "length": {"min": 2, "max": 12}, "over": ladder}})
    out.append(("runs_of_any_height", dump(d), "rejected", "max lead plays"))

    # Sixteen wilds in four packs filling runs of pairs, triples and fours (play used to
    # run past a minute and a gigabyte in one hand).
    d = _base("shedding")
    d["deck"] = {"decks": 4, "jokers": True}
    d["deal"] = {"hands": seats, "hand_size": 216 // seats - 1, "kitty": 216 % seats + seats}
    d["wilds"] = [{"select": "rank in [5]", "stands_for": "true"}]
    for g in (2, 3, 4):
        _add_pattern(d, {"name": f"runs_of_{g}", "run": {
            "group": g, "length": {"min": 1, "max": 12}, "over": ladder}})
    out.append(("sixteen_wilds_filling_runs", dump(d), "rejected", "max lead plays"))

    # Six packs in a shedding game: 324 cards dealt to the players.
    d = _base("shedding")
    d["deck"] = {"decks": 6, "jokers": True}
    seats = d["players"]["count"]
    seats = seats if isinstance(seats, int) else max(seats)
    d["deal"] = {"hands": seats, "hand_size": 324 // seats, "kitty": 324 % seats}
    out.append(("six_decks", dump(d), "valid", None))

    d = copy.deepcopy(d)
    d["deck"]["decks"] = 100
    out.append(("hundred_decks", dump(d), "rejected", "over the limit of 8"))

    d = _base("shedding")
    d["deal"] = {"hand_size": 10_000}
    out.append(("hand_size_10000", dump(d), "rejected", "over the limit of 200"))

    # An order with the most tiers allowed, and one more.
    d = _base("shedding")
    extra = [{"name": f"t{i}", "select": f"rank == {RANKS[i % 13]} and suit == S"}
             for i in range(2000 - len(d["order"]))]
    d["order"] = extra + d["order"]
    # 2000 tiers cannot all be reached by 54 cards: refused, in bounded time.
    out.append(("order_2000_tiers", dump(d), "rejected", "no card reaches tier"))
    d = copy.deepcopy(d)
    d["order"] = [{"name": "one_more", "select": "false"}] + d["order"]
    out.append(("order_2001_tiers", dump(d), "rejected", "max order tiers"))

    # Tables: 5,000 written rows (valid), and 100k rows through one alias (4 bytes a row,
    # well under the 1 MB file limit), which is more values than a document may hold.
    d = _base("trick", "tables")
    name, table = next(iter(d["tables"].items()))
    row = {"when": "false", **{k: _output_value(v) for k, v in table["output"].items()}}
    d["tables"][name]["rows"] = [dict(row) for _ in range(5000)] + table["rows"]
    out.append(("table_5000_rows", dump(d), "valid", None))
    d["tables"][name]["rows"] = "ROWS"
    flow = yaml.safe_dump(row, default_flow_style=True).strip()
    text = dump(d).replace("rows: ROWS", f"rows: [&r {flow}" + ", *r" * 99_999 + "]")
    assert len(text.encode()) < 1 << 20
    out.append(("table_100k_rows", text, "rejected", "max document size"))

    # A tiles game where every tile is wild (seven pairs are read without wilds).
    d = _base("tiles")
    d["wilds"] = [{"select": "true", "stands_for": "true"}]
    d.get("win", {}).pop("seven_pairs", None)
    out.append(("tiles_everything_wild", dump(d), "valid", None))
    return out


def _output_value(spec: Any) -> Any:
    """A value a table output column accepts: the first choice, or 0 for int."""
    return spec[0] if isinstance(spec, list) else 0
