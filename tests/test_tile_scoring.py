"""Tile hand scoring (rulesdsl.engine.tiles.scoring) on the Wenling Mahjong ruleset:
every base item, fan item and limit hand, the totals (rounding up to 10, the 500 cap),
the best wild reading, non-winners' partial readings, the examples and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rulesdsl import notation as nt
from rulesdsl.api import load
from rulesdsl.engine.tiles.hand import ScoringHand, TileSet
from rulesdsl.engine.tiles.readings import brute_force_readings, wait_of
from rulesdsl.engine.tiles.scoring import parse_meld, score_hand
from rulesdsl.examples import run_examples

from .conftest import ROOT

RS = load(ROOT / "rulesets" / "wenling-mahjong.yaml")


def score(hand: str, win: str | None = None, *, turned: str = "9s", seat: str = "1z",
          melds: str = "", flowers: str = "", winner: bool | None = None,
          options: dict | None = None, **flags):
    h = ScoringHand(
        concealed=nt.parse_tiles(hand),
        melds=[parse_meld(m) for m in melds.split()],
        exposed_flowers=nt.parse_tiles(flowers) if flowers else [],
        winner=(win is not None) if winner is None else winner,
        win_tile=nt.tile_kind(win) if win else None,
        seat_wind=nt.tile_kind(seat),
        **flags,
    )
    return score_hand(RS, h, {"turned": nt.tile_kind(turned), **(options or {})}, None)


def items(s) -> dict[str, int]:
    return {i.name: i.count for i in s.items}


# ---------------------------------------------------------------- base items

BASE_CASES = [
    # (name, hand, win, keyword arguments, count)
    ("seat_wind_pair", "123m456m789p234s567s1z", "1z", {}, 1),
    ("seat_wind_pair", "123m456m789p234s567s2z", "2z", {"seat": "2z"}, 1),
    ("dragon_pair", "123m456m789p234s567s6z", "6z", {}, 1),
    ("pung_major", "456m789p234s567s8p", "8p", {"melds": "p:111m"}, 1),
    ("pung_major", "456m789p234s567s8p", "8p", {"melds": "p:333z"}, 1),
    ("pung_minor", "456m789p234s567s8p", "8p", {"melds": "p:555m"}, 1),
    ("concealed_pung_major", "111m456m789p234s567s8p", "8p", {}, 1),
    ("concealed_pung_minor", "555m456p789p234s567s8p", "8p", {}, 1),
    ("exposed_kong_major", "456m789p234s567s8p", "8p", {"melds": "k:9999m"}, 1),
    ("exposed_kong_minor", "456m789p234s567s8p", "8p", {"melds": "k:5555m"}, 1),
    ("concealed_kong_major", "456m789p234s567s8p", "8p", {"melds": "ck:1111m"}, 1),
    ("concealed_kong_minor", "456m789p234s567s8p", "8p", {"melds": "ck:5555m"}, 1),
    ("exposed_special", "123m456m789p234s567s8p", "8p", {"flowers": "5z5z"}, 2),
    # a wild white: red and green are the special tiles 「如白板是得的话，就用红中与发财替代」
    ("exposed_special", "123m456m789p234s567s8p", "8p", {"flowers": "6z7z", "turned": "5z"},
     2),
    ("single_wait", "123m456m789p234s567s2z", "2z", {}, 1),
    ("self_drawn_win", "123m456m789p234s56s88p", "7s", {"self_drawn": True}, 1),
    ("closed_wait", "123m456m789p234s57s88p", "6s", {}, 1),
    ("edge_wait", "123m456m789p567s12s88p", "3s", {}, 1),
    ("edge_wait", "123m456m789p234s89s88p", "7s", {}, 1),
]


@pytest.mark.parametrize("name,hand,win,kw,count", BASE_CASES)
def test_base_items(name, hand, win, kw, count):
    s = score(hand, win, **kw)
    assert s.wins
    assert items(s).get(name) == count, s.explain()
    item = next(i for i in s.items if i.name == name)
    assert item.kind == "base"
    assert s.base == sum(i.amount for i in s.items if i.kind == "base")


def test_base_values_and_exclusions():
    # 「暗刻 …1、9 牌暗刻 8 和」「每个其它暗刻 4 和」「明杠 …16 和」「暗杠 …32 和」
    s = score("456m789p234s567s8p", "8p", melds="ck:1111m")
    assert s.base == 32 + 2  # the kong and the single wait
    s = score("456m789p234s567s8p", "8p", melds="k:5555m")
    assert s.base == 8 + 2
    # an ordinary pair scores nothing 「其它对子 0 和」; a two-sided wait neither
    s = score("123m456m789p234s56s88p", "7s")
    assert s.base == 0 and s.wait == "other"
    # 4 held but not declared read as a concealed pung 「可暗杠但没杠按暗刻子计」
    s = score("1111m456p789p234s56s", "7s")
    assert "concealed_pung_major" in items(s) and "concealed_kong_major" not in items(s)


def test_waits():
    assert wait_of(TileSet("chow", nt.tile_kind("1p")), 2) == "edge"  # 3 of 123
    assert wait_of(TileSet("chow", nt.tile_kind("7p")), 0) == "edge"  # 7 of 789
    assert wait_of(TileSet("chow", nt.tile_kind("7p")), 2) == "other"  # 9 of 789
    assert wait_of(TileSet("chow", nt.tile_kind("4p")), 1) == "closed"
    assert wait_of(TileSet("pung", nt.tile_kind("4p")), 0) == "other"
    assert wait_of(TileSet("pair", nt.tile_kind("4p")), 0) == "pair"
    # where the winning tile completes either of two sets, the better wait is taken
    # 11p + 23p waiting on 1p: it completes the pair 11p (单吊, 2 和: 22 × 2 → 50) or
    # 123p two-sided (旁和 1 番: 20 × 4 = 80) — the reading that scores more is kept
    s = score("123m456m789p234s11p23p", "1p")
    assert s.readings == 2
    assert s.wait == "other" and "plain_win" in items(s) and s.total == 80


# ---------------------------------------------------------------- fan items

FAN_CASES = [
    ("exposed_special_fan", "123m456m789p234s567s8p", "8p", {"flowers": "5z5z5z"}, 3),
    ("seat_flower_season", "123m456m789p234s567s8p", "8p", {"seat": "2z", "flowers": "2f"}, 1),
    ("seat_flower_plant", "123m456m789p234s567s8p", "8p", {"seat": "3z", "flowers": "7f"}, 1),
    ("seat_wind_set", "111z456m789p234s567s8p", "8p", {}, 1),
    ("seat_wind_set", "456m789p234s567s8p", "8p", {"melds": "p:222z", "seat": "2z"}, 1),
    ("dragon_set", "777z456m789p234s567s8p", "8p", {}, 1),
    ("full_flush", "123p456p789p234p567p8p", "8p", {}, 1),
    ("half_flush", "123p456p789p111z567p8p", "8p", {}, 1),
    ("all_pungs", "111m222p333s444m555p8p", "8p", {}, 1),
    ("plain_win", "123m456m789p234s56s88p", "7s", {}, 1),
    ("no_wild", "123m456m789p234s56s88p", "7s", {}, 1),
    ("two_wilds", "123m456m789p234s5s88p9s", "9s", {"self_drawn": True}, 1),
    ("kong_bloom", "123m456m789p234s56s88p", "7s", {"self_drawn": True,
                                                   "kong_replacement": True}, 1),
    ("kong_bloom", "123m456m789p234s56s88p", "7s",
     {"self_drawn": True, "flower_replacement": True,
      "options": {"bloom_after_flower": True}}, 1),
    ("robbed_kong_win", "123m456m789p234s56s88p", "7s", {"robbed_kong": True}, 1),
    ("self_drawn_wild", "123m456m789p234s56s88p", "9s", {"self_drawn": True}, 1),
    ("wild_home", "123m456m789p234s78s88p", "9s", {"self_drawn": True}, 1),
    ("wild_home", "123m456m789p234s567s8p", "9s",
     {"options": {"wild_home_meaning": "in_pair"}}, 1),
]


@pytest.mark.parametrize("name,hand,win,kw,count", FAN_CASES)
def test_fan_items(name, hand, win, kw, count):
    s = score(hand, win, **kw)
    assert s.wins
    assert items(s).get(name) == count, s.explain()
    assert next(i for i in s.items if i.name == name).kind == "fan"
    assert s.fan == sum(i.amount for i in s.items if i.kind == "fan")


def test_fan_conditions_that_fail():
    # 门风花牌 needs the flower of one's own seat 「春和梅相应东风家」
    assert "seat_flower_season" not in items(score("123m456m789p234s567s8p", "8p",
                                                   seat="2z", flowers="1f"))
    # a flower's replacement is not 杠上开花 by default (option bloom_after_flower)
    assert "kong_bloom" not in items(score("123m456m789p234s56s88p", "7s", self_drawn=True,
                                           flower_replacement=True))
    # 旁和 is not a closed wait
    assert "plain_win" not in items(score("123m456m789p234s57s88p", "6s"))
    # 无得 and 2张得 exclude each other; one wild is neither
    s = score("123m456m789p234s567s9s", "8p")
    assert "no_wild" not in items(s) and "two_wilds" not in items(s)
    # the pattern_wilds option: a wild forbids 对对和
    s = score("111m222p333s444m55p6p9s", "5p", options={"pattern_wilds": "forbidden"})
    assert "all_pungs" not in items(s)
    assert "all_pungs" in items(score("111m222p333s444m55p6p9s", "5p"))


# ---------------------------------------------------------------- limit hands

LIMIT_CASES = [
    ("three_wilds", "123m456m789m23p55p999s", "1p", {}),
    ("four_red_flowers", "123m456m789p234s567s8p", "8p", {"flowers": "1f2f3f4f"}),
    ("four_black_flowers", "123m456m789p234s567s8p", "8p", {"flowers": "5f6f7f8f"}),
    ("four_whites", "123m456m789p234s567s8p", "8p", {"flowers": "5z5z5z5z"}),
    ("four_whites", "123m456m789p234s567s8p", "8p",
     {"flowers": "6z6z6z6z", "turned": "5z", "options": {"four_specials": "any_special"}}),
    ("concealed_kong_seat_wind", "456m789p234s567s8p", "8p", {"melds": "ck:1111z"}),
    ("concealed_kong_dragon", "456m789p234s567s8p", "8p", {"melds": "ck:6666z"}),
    ("double_wild_home", "123m456m789m234p56p99s", "7p", {}),
    ("four_winds", "111z222z333z44z123m45m", "6m", {}),
]


@pytest.mark.parametrize("name,hand,win,kw", LIMIT_CASES)
def test_limit_hands(name, hand, win, kw):
    s = score(hand, win, **kw)
    assert s.wins
    assert name in s.limits, s.explain()
    assert s.limit is not None and s.total == 500  # 「腊子和为满贯」, scoring.limit


def test_limit_hands_that_do_not_hold():
    # four whites needs the white unless any_special 「4 张“白板”」
    s = score("123m456m789p234s567s8p", "8p", flowers="6z6z6z6z", turned="5z")
    assert s.limit is None
    # 四风会齐: the seat wind must not be the pair 「但门风一定要是刻」
    s = score("111z222z333z44z123m45m", "6m", seat="4z")
    assert "four_winds" not in s.limits
    # an exposed kong of the seat wind is no 暗杠“门风”
    s = score("456m789p234s567s8p", "8p", melds="k:1111z")
    assert s.limit is None


def test_limit_hand_without_a_complete_shape():
    # 「可立即和牌」: three wilds win at once, whatever the rest of the hand
    s = score("13m58m2p7p9p1s4s7s2z3z999s", "6z")
    assert s.wins and s.limit == "three_wilds" and s.total == 500
    assert any("no complete reading" in n for n in s.notes)


# ---------------------------------------------------------------- totals


def test_rounding_132_to_140():
    # 「牌点汇总结果，10 进制计算，如132 和，则以140 和计」: base 46, fan 1 → 132 → 140
    s = score("999p555s234p678s5p", "5p", melds="ck:1111m")
    assert (s.base, s.fan) == (46, 1), s.explain()
    assert s.total == 140


def test_cap_500():
    # 「若结果大于或等于500和，则以500和计算」: a big hand, no limit hand
    s = score("111p222p333p555p777p9p", "9p")
    assert s.limit is None
    assert (s.base + 20) * 2 ** s.fan > 500
    assert s.total == 500


def test_others_total_formula():
    # 「牌点汇总= 基础牌点* 2^ 番数」 for the non-winners: no 20 和 floor
    s = score("111z777z55m13p57s9s2m4p8m", winner=False, turned="9m")
    assert s.role == "others" and not s.wins
    assert s.base == 16 and s.fan == 2 and s.total == 70  # 16 × 4 = 64 → 70


def test_discarded_wild_scores_zero():
    # 「如果玩家不小心把“得”打出，则其不能和牌并且算分时牌点清零」
    h = ScoringHand(concealed=nt.parse_tiles("111z777z55m13p57s9s2m4p8m"), discarded_wild=True)
    s = score_hand(RS, h, {"turned": nt.tile_kind("9s")})
    assert s.total == 0 and any("discarded a wild" in n for n in s.notes)


# ---------------------------------------------------------------- wild readings


def test_best_wild_reading():
    # the wild 9s reads as 1z (111z: 8 和 + 门风刻 1 番, 7z pair, 单吊) for 70, not as 7z
    # (777z pung, 11z pair: 60)
    s = score("123m456m789p234s11z7z9s", "7z")
    assert s.total == 70, s.explain()
    assert "111z(1 wild)" in s.reading_text()
    assert "wilds read as" in s.explain()


def test_best_reading_is_the_maximum():
    hand = ScoringHand(concealed=nt.parse_tiles("222p456p789p123p345p9s"),
                       win_tile=nt.tile_kind("9p"), winner=True)
    ctx = {"turned": nt.tile_kind("9s")}
    best = score_hand(RS, hand, ctx)
    counts = [0] * 34
    for t in nt.parse_tiles("222p456p789p123p345p9p"):
        counts[t] += 1
    readings, _ = brute_force_readings(counts, [nt.tile_kind("9s")],
                                       {nt.tile_kind("9s"): frozenset(range(34))}, 5, 1)
    assert len(readings) > 1
    each = [score_hand(RS, hand, ctx, [d]).total for d in readings]
    assert best.total == max(each) == 420


def test_win_tile_included_or_not():
    # the state engine passes the concealed tiles with the winning tile in them
    a = score("123m456m789p234s567s1z", "1z")
    h = ScoringHand(concealed=nt.parse_tiles("123m456m789p234s567s1z1z"),
                    win_tile=nt.tile_kind("1z"), winner=True)
    b = score_hand(RS, h, {"turned": nt.tile_kind("9s")})
    assert (a.total, a.base, a.fan) == (b.total, b.base, b.fan)


def test_decomposer_agrees_with_shapes():
    shapes = pytest.importorskip("rulesdsl.engine.tiles.shapes")
    w = nt.tile_kind("9s")
    stands = {w: frozenset(range(34))}
    for text, wilds in [("123m456m789p234s567s8p8p", 0), ("123m456m789p234s5s88p", 1),
                        ("111m222m333m456p77z", 2), ("1112345678999p", 0)]:
        counts = [0] * 34
        for t in nt.parse_tiles(text):
            counts[t] += 1
        sets = (sum(counts) + wilds - 2) // 3
        mine, _ = brute_force_readings(counts, [w] * wilds, stands, sets, 1)
        theirs = list(shapes.WinShape(sets, 1, ["chow", "pung"]).decompositions(
            counts, wilds, 0, w))
        assert {tuple(sorted(map(repr, d.sets))) for d in mine} == \
            {tuple(sorted(map(repr, d.sets))) for d in theirs}, text


# ---------------------------------------------------------------- non-winners


def test_non_winner_scores_the_sets_they_have():
    # 「没有胡牌的玩家也要算牌点」: 111z (暗刻 8, 门风刻 1 番), 777z (8, 字牌刻 1 番), 55m
    s = score("111z777z55m13p57s9s2m4p8m", winner=False, turned="9m")
    assert items(s) == {"concealed_pung_major": 2, "seat_wind_set": 1, "dragon_set": 1}
    # winner-only items never apply
    assert "no_wild" not in items(s)


def test_non_winner_uses_wilds():
    # the wild 9s makes 77z a pung: 8 和 and a fan instead of a 2 和 pair
    s = score("1z4z7z7z1m4m7m2p5p8p3s6s9s5s", winner=False)
    assert "concealed_pung_major" in items(s) and "dragon_set" in items(s), s.explain()
    assert s.total == 20  # 8 × 2 = 16 → 20


def test_non_winner_exposed_tiles_and_melds():
    s = score("1m4m7m2p5p8p3s6s9s1z", winner=False, melds="p:222m", flowers="5z1f",
              turned="9m")
    assert items(s) == {"pung_minor": 1, "exposed_special": 1, "exposed_special_fan": 1}
    assert s.total == 20  # (2 + 4) × 2 = 12 → 20
    # the seat flower: not in the non-winner list unless the option says so
    assert "seat_flower_season" not in items(s)
    s = score("1m4m7m2p5p8p3s6s9s1z", winner=False, melds="p:222m", flowers="5z1f",
              turned="9m", options={"others_seat_flower_fan": True})
    assert "seat_flower_season" in items(s)


def test_non_winner_with_nothing():
    s = score("1m4m7m2p5p8p3s6s2z3z4z5z6z", winner=False)
    assert s.items == [] and s.total == 0


def test_non_winner_limit_hand():
    s = score("1m4m7m2p5p8p3s6s2z", winner=False, melds="ck:6666z")
    assert s.limit == "concealed_kong_dragon" and s.total == 500 and not s.wins


# ---------------------------------------------------------------- examples and CLI


def test_hand_examples_run():
    report = run_examples(RS)
    assert report.ok, [p.format() for p in report.failed]
    assert report.deferred == 0
    assert report.passed == len(RS.examples)


def rulesdsl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_cli_score_text():
    r = rulesdsl("score", "wenling-mahjong", "--hand", "13p456m789m234s567s11z",
                 "--win-tile", "2p", "--turned", "9s")
    assert r.returncode == 0, r.stderr
    assert "closed_wait" in r.stdout and "total 50" in r.stdout


def test_cli_score_json():
    r = rulesdsl("score", "wenling-mahjong", "--hand", "111z123m456p234p78s77z",
                 "--win-tile", "9s", "--turned", "9s", "--self-drawn", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["total"] == 260 and data["base"] == 12 and data["fan"] == 3
    assert {i["name"] for i in data["items"]} >= {"wild_home", "self_drawn_wild"}
    assert "789s(1 wild, 1 as itself)" in data["reading"]


def test_cli_score_melds_flowers_non_winner():
    r = rulesdsl("score", "wenling-mahjong", "--hand", "123m456m77m12p", "--win-tile", "3p",
                 "--turned", "9s", "--melds", "p:777z", "c:789s", "--flowers", "1f5z")
    assert r.returncode == 0, r.stderr
    assert "total 480" in r.stdout
    r = rulesdsl("score", "wenling-mahjong", "--hand", "111z777z55m13p57s9s2m4p8m",
                 "--non-winner", "--context", "turned=9m", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["total"] == 70


@pytest.mark.parametrize("args,code,message", [
    (["--hand", "13x", "--win-tile", "2p", "--turned", "9s"], 2, "is not tiles"),
    (["--hand", "13p456m789m234s567s11z", "--win-tile", "2p"], 2, "turned"),
    (["--hand", "13p456m789m234s567s11z", "--turned", "9s"], 2, "--win-tile"),
    (["--hand", "13p", "--win-tile", "2p", "--turned", "9s"], 2, "before the winning tile"),
    (["--hand", "11111p456m789m234s56s", "--win-tile", "2p", "--turned", "9s"], 2, "5 × 1p"),
    (["--hand", "13p456m789m234s567s11z", "--win-tile", "2p", "--turned", "9s", "--melds",
      "x:123m"], 2, "is not a meld"),
    (["--hand", "13p456m789m234s567s11z", "--win-tile", "2p", "--turned", "9s", "--option",
      "red_flowers=blue"], 2, "not one of"),
])
def test_cli_score_bad_input(args, code, message):
    r = rulesdsl("score", "wenling-mahjong", *args)
    assert r.returncode == code
    assert message in r.stderr and "Traceback" not in r.stderr


def test_cli_score_not_tiles():
    r = rulesdsl("score", "guan-pai", "--hand", "1m", "--win-tile", "1m")
    assert r.returncode == 1 and "tile" in r.stderr and "Traceback" not in r.stderr
