"""Sichuan 血战到底 on the tile engine (issue 18): winners leave and the others play on,
several wins on one discard, wins paid by the discarder or by those still in play, kongs
paid at once and passed on (呼叫转移), and the settlements at an exhaustive draw.

The random games below are checked against the rules read back from their own logs (who
acted after winning, who paid each win and each kong, when the hand ended, who deals next),
not against the engine's own bookkeeping."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.errors import RulesdslError
from rulesdsl.headless.agents import GreedyAgent
from tests.test_tile_variants import THREE_SUITS, _load

ROOT = Path(__file__).resolve().parent.parent
RS = rulesdsl.load("sichuan-mahjong")
N = 4


GREEDY = GreedyAgent()


def _choose(st, rng: random.Random):
    """The greedy agent (takes wins, names its shortest suit void, discards the least
    connected tile), with a random move one time in ten."""
    return st.sample_action(rng) if rng.random() < 0.1 else GREEDY.act(st, rng)


def _play(seed: int, hands: int = 3):
    """A game whose agents try to win (so that hands go on after wins)."""
    st = RS.new_game(seed=seed, hands=hands)
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(_choose(st, rng))
    return st


def _hands(log: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for e in log:
        if e["type"] == "deal":
            out.append([])
        out[-1].append(e)
    return out


GAMES = [_play(seed) for seed in range(60)]


def test_the_games_hold_several_winners_and_shared_wins():
    """The sample exercises what it checks: hands with 2 and 3 winners, 一炮多响."""
    counts = [len(r["winners"]) for g in GAMES for r in g.results]
    shared = [w["shared"] for g in GAMES for r in g.results for w in r["wins"]]
    assert max(counts) == 3 and 2 in counts
    assert max(shared) >= 2


@pytest.mark.parametrize("game", GAMES[:40], ids=lambda g: f"seed{g.seed}")
def test_a_winner_leaves_and_the_hand_ends_with_one_left_or_the_wall(game):
    for events, result in zip(_hands(game.log), game.results):
        won: list[int] = []
        for e in events:
            if e["type"] in ("discard", "claim", "pung", "kong", "concealed_kong",
                             "added_kong", "void") or (e["type"] == "pass" and won):
                assert e["seat"] not in won, f"seat {e['seat']} acted after winning: {e}"
            if e["type"] == "win_settled":
                won.append(e["winner"])
        assert won == result["winners"]
        assert len(set(won)) == len(won)
        ended_by_wall = any(e["type"] == "exhausted" for e in events)
        assert result["exhausted"] == ended_by_wall
        assert len(won) == N - 1 or ended_by_wall
        assert not (ended_by_wall and len(won) == N - 1)


@pytest.mark.parametrize("game", GAMES[:40], ids=lambda g: f"seed{g.seed}")
def test_who_pays_each_win_and_each_kong(game):
    for events, result in zip(_hands(game.log), game.results):
        won: list[int] = []
        for e in events:
            if e["type"] == "win_settled":
                pay = e["payments"]
                w = e["winner"]
                payers = [s for s in range(N) if pay[s] < 0]
                if e["self_drawn"]:
                    # every player still in play, the same amount each
                    assert payers == [s for s in range(N) if s != w and s not in won]
                    assert len({pay[s] for s in payers}) == 1
                else:  # a discard (or a robbed kong): the discarder alone
                    assert payers == [e["discarder"]]
                assert pay[w] > 0 and abs(sum(pay)) < 1e-9
                # the hand's value, 2^fan (capped at 3) plus 1 for a self-draw
                value = pay[w] / len(payers)
                assert value in ({2, 3, 5, 9} if e["self_drawn"] else {1, 2, 4, 8})
            elif e["type"] == "kong_payment":
                pay = e["payments"]
                maker = e["seat"]
                payers = [s for s in range(N) if pay[s] < 0]
                assert maker not in won and not set(payers) & set(won)
                assert pay[maker] == -sum(pay[s] for s in payers)
            if e["type"] == "win_settled":
                won.append(e["winner"])
        # the hand's payments: its wins, kongs and draw settlements
        total = [0.0] * N
        for part in [w["payments"] for w in result["wins"]] + \
                [result["kong_payments"], result.get("draw_payments", [0.0] * N)]:
            total = [a + b for a, b in zip(total, part)]
        assert total == pytest.approx(result["payments"])
        assert abs(sum(result["payments"])) < 1e-9


def test_the_next_dealer_is_the_first_winner_or_the_discarder_of_a_shared_win():
    seen = set()
    for game in GAMES:
        deals = [e for e in game.log if e["type"] == "deal"]
        for result, nxt in zip(game.results, deals[1:]):
            dealer = next(e["dealer"] for e in game.log if e["type"] == "deal"
                          and e["hand"] == nxt["hand"] - 1)
            wins = result["wins"]
            if not wins:
                want, why = dealer, "stays"  # nobody won: the dealer deals again
            elif wins[0]["shared"] > 1:
                want, why = wins[0]["discarder"], "discarder"
            else:
                want, why = wins[0]["winner"], "winner"
            assert nxt["dealer"] == want, (why, result)
            seen.add(why)
    assert seen == {"stays", "discarder", "winner"}


def test_returns_during_a_hand_count_its_wins_and_kongs():
    st = RS.new_game(seed=11, hands=1)
    rng = random.Random(11)
    checked = 0
    while not st.is_terminal():
        st.apply(_choose(st, rng))
        paid = [0.0] * N
        for e in st.log:
            if e["type"] in ("win_settled", "kong_payment", "kong_transfer"):
                paid = [a + b for a, b in zip(paid, e["payments"])]
        if not st.is_terminal():
            assert st.returns() == pytest.approx(paid)
            checked += any(paid)
    assert checked


@pytest.mark.parametrize("field,change", [
    ("hand_wins", lambda d: d["hand_wins"][0]["payments"].reverse()),
    ("hand_wins", lambda d: d["hand_wins"].pop()),
    ("kong_bills", lambda d: d["kong_bills"].pop()),
    ("kong_bills", lambda d: d["kong_bills"][0]["payments"].reverse()),
])
def test_a_tampered_win_or_kong_bill_is_refused(field, change):
    for seed in range(200):
        st = RS.new_game(seed=seed, hands=1)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(_choose(st, rng))
            data = json.loads(st.to_json())
            if data[field] and not st.is_terminal() and \
                    data[field][0]["payments"] != data[field][0]["payments"][::-1]:
                break
        else:
            continue
        RS.game().state_from_json(json.dumps(data))  # as saved: accepted
        change(data)
        with pytest.raises(RulesdslError, match=field):
            RS.game().state_from_json(json.dumps(data))
        return
    raise AssertionError(f"no game reached a hand with {field}")


# ---------------------------------------------------------------- 一炮多响 alone

SHARED_END = THREE_SUITS.replace("id: three-suits", "id: three-suits-shared").replace(
    "  next_dealer: winner", "  next_dealer: first_winner\n  discard_wins: every_claim")
assert "discard_wins: every_claim" in SHARED_END


def test_several_wins_on_one_discard_end_a_hand_that_ends_at_a_win(tmp_path_factory):
    """every_claim without winner_leaves: both wins stand and the hand ends."""
    from rulesdsl.engine.base import Position
    from rulesdsl.notation import parse_tiles

    rs = _load(tmp_path_factory, SHARED_END)
    st = rs.game().position(Position(
        hands={0: parse_tiles("5p"), 1: parse_tiles("222m444m666m3335p"),
               3: parse_tiles("111m555m999m2225p")}, context={}, dealer=0, turn=0))
    for action in ("discard 5p", "win 5p", "win 5p"):
        st.apply(action)
    assert st.is_terminal()
    result = st.results[-1]
    assert result["winners"] == [1, 3]
    # 1 fan each (self_drawn item only counts self-draws): 2^0 = 1 per payer, from all
    # the others, who are still in play (end_hand: nobody leaves before the end)
    assert result["payments"] == pytest.approx([-2.0, 2.0, -2.0, 2.0])


# ---------------------------------------------------------------- rulesdsl score


def _score_args(example: dict) -> list[str]:
    args = ["score", "sichuan-mahjong", "--hand", example["hand"], "--win-tile",
            example["win_tile"], "--json"]
    if example.get("melds"):
        args += ["--melds", *example["melds"]]
    for flag in ("self_drawn", "kong_replacement", "robbed_kong", "last_tile", "first_turn",
                 "kong_discard"):
        if example.get(flag):
            args.append("--" + flag.replace("_", "-"))
    for name, value in (example.get("options") or {}).items():
        args += ["--option", f"{name}={str(value).lower()}"]
    return args


def _hand_examples() -> list[dict]:
    import yaml

    doc = yaml.safe_load((ROOT / "rulesets/extra/sichuan-mahjong.yaml").read_text("utf-8"))
    return [e for e in doc["examples"] if "hand" in e]


@pytest.mark.parametrize("example", _hand_examples(), ids=lambda e: e["cite"][:30])
def test_rulesdsl_score_answers_every_hand_example(example):
    r = subprocess.run([sys.executable, "-m", "rulesdsl", *_score_args(example)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    want = example["expect"]
    assert got["total"] == want["total"]
    if "fan" in want:
        assert got["fan"] == want["fan"]
    if "items" in want:
        assert [i["name"] for i in got["items"]] == want["items"]
