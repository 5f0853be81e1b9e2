"""What the rulebook says, checked against the rule files read independently.

Settlement tables are compared row by row with the rule file's own table, read with
yaml.safe_load and evaluated here (the expressions of these tables are plain arithmetic);
straights are checked to be drawn in their ladder's order; tiles are checked to be drawn
without any character a font would have to supply; the prose of each family says what
its rule file says (hand sizes, bids, seed passages as notes).
"""

from __future__ import annotations

import html
import re
from math import gcd
from typing import Any

import pytest
import yaml

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.explain import resolve_context
from rulesdsl.model.hand import HandContext
from rulesdsl.model.patterns import readings
from rulesdsl.resources import bundled_rulesets
from rulesdsl.rulebook import render
from rulesdsl.rulebook.exprwords import Speaker
from rulesdsl.rulebook.words import Words

from .test_rulebook import CJK, section, visible_text

RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}


def rule_file(name: str) -> dict[str, Any]:
    return yaml.safe_load(bundled_rulesets()[name].read_text(encoding="utf-8"))


def option_defaults(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.get("default") if isinstance(v, dict) else v)
            for k, v in (data.get("options") or {}).items()}


def py_eval(expr: Any, names: dict[str, Any]) -> Any:
    """A table cell of plain arithmetic and comparisons, evaluated as Python."""
    if not isinstance(expr, str):
        return expr
    code = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", expr))
    try:
        return eval(code, {"__builtins__": {}}, {"min": min, "max": max, **names})
    except NameError:
        return expr  # a word such as `dealer`


def independent_lookup(data: dict[str, Any], table: str, inputs: dict[str, Any]) -> dict:
    spec = data["tables"][table]
    names = {**option_defaults(data), **inputs}
    for row in spec["rows"]:
        if py_eval(str(row["when"]), names):
            return {k: py_eval(v, names) for k, v in row.items() if k != "when"}
    raise AssertionError(f"no row of {table} for {inputs}")


def table_rows(page: str, table: str) -> list[tuple[int, int | None, dict[str, str], str]]:
    """(from, to or None, outputs, visible text) of a table the rulebook shows as ranges."""
    m = re.search(rf'<table class="rule-table" data-table="{table}">(.*?)</table>', page, re.S)
    assert m, f"no table {table}"
    rows = []
    for attrs, cells in re.findall(r"<tr( data-from[^>]*)>(.*?)</tr>", m.group(1), re.S):
        data = dict(re.findall(r'data-([a-z_-]+)="([^"]*)"', attrs))
        lo, hi = int(data.pop("from")), data.pop("to")
        outs = {k.removeprefix("out-"): html.unescape(v) for k, v in data.items()}
        rows.append((lo, int(hi) if hi else None, outs, html.unescape(re.sub(r"<[^>]+>", " ",
                                                                              cells))))
    return rows


# (ruleset, table, input, step of the input's values)
TABLES = [
    ("taicang-zhongxin-wu", "result", "points", None),
    ("huzhou-hong-wu", "result", "points", None),
    ("wenling-hong-wu", "result", "points", None),
    ("tractor", "result", "points", None),
    ("taicang-zhongxin-wu", "overcall_bonus", "overcall_cards", 1),
    ("guandan", "climb", "mate_place", 1),
    ("wenling-biao-tong", "payout", "bid", 5),
    ("wenling-mahjong", "wall_phase", "tiles_left", 1),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name,table,inp,step", TABLES)
def test_settlement_tables_match_the_rule_file(name, table, inp, step, lang):
    data = rule_file(name)
    page = render(rulesdsl.load(name), "html", lang)
    rows = table_rows(page, table)
    assert rows
    if step is None:  # points: the card points' common divisor
        step = 0
        for v in (data.get("points") or {}).values():
            step = gcd(step, int(v))
    others = {n: 0 for n in data["tables"][table]["input"] if n != inp}
    expected_from = rows[0][0]
    for lo, hi, outs, text in rows:
        assert lo == expected_from, "the ranges leave a gap"
        values = list(range(lo, (hi if hi is not None else lo) + 1, step))
        if hi is None:
            values += [lo + step, lo + 10 * step]  # an open last row holds beyond its start
        for v in values:
            want = independent_lookup(data, table, {inp: v, **others})
            for field, value in want.items():
                assert outs[field] == str(value), (v, field, outs, want)
        shown = f"{lo}" if hi == lo else f"{lo}–{hi}" if hi is not None else f"{lo}"
        assert shown in text, (shown, text)
        for field, value in want.items():
            if isinstance(value, int) and not isinstance(value, bool) and value:
                assert str(value) in text, (field, value, text)
        expected_from = (hi if hi is not None else lo) + step
    if rows[-1][1] is not None and table == "result":
        # the table shown up to all the points; beyond them the rule is said in words
        total = rulesdsl.load(name).total_points()
        assert rows[-1][1] == total


STRAIGHTS = [("guan-pai", "straight"), ("big-two", "straight"), ("dou-dizhu", "straight"),
             ("guandan", "straight"), ("wenling-duijia-tong", "straight"),
             ("wenling-biao-tong", "straight"), ("guandan", "straight_flush"),
             ("dou-dizhu", "pair_chain"), ("guan-pai", "consecutive_pairs")]


def pictures(part: str) -> list[list[str]]:
    """The card or tile tokens of each picture in a figure, in drawing order."""
    out = []
    for pic in re.findall(r'<div class="picture">(.*?)</div>', part, re.S):
        out.append(re.findall(r'<use href="#[ct]-([A-Za-z0-9_]+)"', pic))
    return out


@pytest.mark.parametrize("name,pattern", STRAIGHTS)
def test_runs_are_drawn_in_ladder_order(name, pattern):
    data = rule_file(name)
    spec = next(p for p in data["patterns"]["list"] if p["name"] == pattern)
    ladder = [RANKS.get(str(x), x) if str(x) in RANKS else int(x)
              for x in data["ranks"][spec["run"]["over"]]]
    page = render(rulesdsl.load(name), "html")
    pics = pictures(section(page, f"pattern-{pattern}"))
    assert pics and all(pics)
    for tokens in pics:
        ranks = [nt.card_rank(nt.parse_card(t)) for t in tokens]
        group = spec["run"]["group"] if isinstance(spec["run"]["group"], int) else 1
        steps = ranks[::group]
        assert all(ranks[i] == steps[i // group] for i in range(len(ranks))), tokens
        # the steps are a window of the ladder, in its order (an ace may sit low, as 1)
        starts = [i for i in range(len(ladder) - len(steps) + 1)
                  if all(ladder[i + j] == s or (ladder[i + j] == 1 and s == 14)
                         for j, s in enumerate(steps))]
        assert starts, f"{tokens} is not a window of {ladder} in order"


@pytest.mark.parametrize("name", ["huzhou-hong-wu", "guandan", "wenling-biao-tong",
                                  "dou-dizhu"])
def test_every_picture_reads_as_its_pattern(name):
    ruleset = rulesdsl.load(name)
    values, _ = resolve_context(ruleset)
    hc = HandContext(ruleset, values)
    page = render(ruleset, "html")
    for p in ruleset.patterns:
        pics = pictures(section(page, f"pattern-{p.name}"))
        assert pics, p.name
        for tokens in pics:
            cards = [nt.parse_card(t) for t in tokens]
            assert any(x.pattern == p.name for x in readings(hc, cards)), (p.name, tokens)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ["wenling-mahjong", "sichuan-mahjong", "huzhou-hong-wu"])
def test_pictures_need_no_font_for_chinese(name, lang):
    page = render(rulesdsl.load(name), "html", lang)
    symbols = re.findall(r'<symbol id="([tc]-[^"]+)"[^>]*>(.*?)</symbol>', page, re.S)
    assert symbols
    for sid, body in symbols:
        for text in re.findall(r"<text[^>]*>(.*?)</text>", body, re.S):
            assert not CJK.search(text), (sid, text)
            assert re.fullmatch(r"[A-Za-z0-9]+", text), (sid, text)
    if name.endswith("mahjong"):
        kinds = rulesdsl.load(name).kinds()
        shown = {sid[2:] for sid, _ in symbols if sid.startswith("t-")}
        assert {nt.format_tile(k) for k in kinds} <= shown
    # and every picture on the page is one of them
    used = set(re.findall(r'<use href="#([tc]-[^"]+)"', page))
    assert used <= {sid for sid, _ in symbols}


def test_trick_prose_says_what_the_rule_file_says():
    data = rule_file("huzhou-hong-wu")
    for lang in ("en", "zh"):
        page = render(rulesdsl.load("huzhou-hong-wu"), "html", lang)
        deal = visible_text(section(page, "deal"))
        assert str(data["deal"]["hand_size"]) in deal and str(data["deal"]["kitty"]) in deal
        declaring = visible_text(section(page, "declaring"))
        assert str(data["play"]["declare"]["max"]) in declaring
        tricks = visible_text(section(page, "tricks"))
        assert str(data["play"]["throw"]["penalty"]) in tricks
        # the passage cited on the hand size is a numbered note, referenced in the deal
        text = bundled_rulesets()["huzhou-hong-wu"].read_text(encoding="utf-8")
        line = next(x for x in text.splitlines() if x.strip().startswith("hand_size:"))
        passage = re.search(r"「(.*?)」", line).group(1)
        m = re.search(rf'<li id="note-(\d+)">「{re.escape(html.escape(passage))}」', page)
        assert m, passage
        assert f'href="#note-{m.group(1)}"' in section(page, "deal")


def test_shedding_prose_says_what_the_rule_file_says():
    data = rule_file("dou-dizhu")
    page = render(rulesdsl.load("dou-dizhu"), "html")
    bidding = visible_text(section(page, "bidding"))
    assert "1, 2 or 3" in bidding and "kitty" in bidding
    assert str(data["deal"]["hand_size"]) in visible_text(section(page, "deal"))
    zh = render(rulesdsl.load("guan-pai"), "html", "zh")
    lead = visible_text(section(zh, "lead"))
    assert "黑桃3" in lead  # the holder card that leads, in words
    assert "接风" in visible_text(section(zh, "rounds"))


def test_tile_prose_says_what_the_rule_file_says():
    data = rule_file("wenling-mahjong")
    page = render(rulesdsl.load("wenling-mahjong"), "html")
    deal = visible_text(section(page, "deal"))
    assert f"{data['deal']['hand_size']} tiles" in deal
    assert "previous" not in deal
    settlement = visible_text(section(page, "settlement"))
    for item in data["scoring"]["items"]:
        if "points" in item:
            assert f"{item['points']} point" in settlement
    assert f"totals {data['scoring']['limit']}" in settlement
    # a winning hand is drawn and scored by the tile engine
    winning = section(page, "pattern-winning-hand")
    assert len(pictures(winning)[0]) == 3 * data["win"]["sets"] + 2
    assert "in all" in visible_text(winning)


def test_expressions_are_spoken_not_shown():
    for lang in ("en", "zh"):
        say = Speaker(Words(lang), {"deal_threshold": 120, "result_step": 60, "cap": 5})
        for text in ("min(13, (points - 120) // 10)",
                     "min(cap, (points - deal_threshold) // result_step)",
                     "points >= deal_threshold + result_step",
                     "kind == pung and not concealed and (tile.is_honor or tile.is_terminal)",
                     "count(hand, is_joker) >= 4 or largest_group(hand) >= 8"):
            spoken = say.condition(text) if re.search(r"[<>=]=?|\band\b", text) else \
                say.formula(text)
            assert not re.search(r"//|==|>=|<=|\b_\b|\w_\w", spoken), spoken
    names = {"points": ("the defenders' points", "闲家得分")}
    en = Speaker(Words("en"), {"deal_threshold": 120, "result_step": 60}, names=names)
    assert en.condition("points >= deal_threshold + result_step") == \
        "the defenders' points are at least 180"
    assert en.formula("min(13, (points - 120) // 10)") == \
        "(the defenders' points − 120) ÷ 10, rounded down, at most 13"
    zh = Speaker(Words("zh"), {}, names=names)
    assert zh.formula("min(13, (points - 120) // 10)") == \
        "（闲家得分 − 120） ÷ 10（向下取整），最多13"
