"""Cheating clients (issue 9): at random positions of every bundled ruleset, illegal and
malformed actions are refused with a reason and leave the state byte-identical."""

from __future__ import annotations

import ast
import inspect
import random
import textwrap

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rulesdsl import notation as nt
from rulesdsl.engine.base import Action, IllegalAction
from rulesdsl.errors import RulesdslError
from rulesdsl.resources import bundled_rulesets
from tests.soak import ruleset

NAMES = sorted(bundled_rulesets())

MALFORMED = [
    "", "   ", "xyz", "S", "S1", "S11", "H0", "!!!", "pass pass", "bid", "bid -1", "bid ten",
    "bid 1.5", "bid 99999999999999999999", "bid ³", "bid ٣", "as", "S3 as", "S3 as a b",
    "\x00", "S3\x00", "🂡", "♠A ♥", "大王", "S３", "discard 1m 2m", "discard 0m", "discard 10m",
    "win 9z 1m", "claim S3", "bury", "declare LJ LJ LJ LJ LJ", "kong", "chow 1m",
    None, 5, 3.2, True, [], ["S3"], {}, {"type": None},
    {"type": "play", "cards": 5}, {"type": "play", "cards": ["S3"]},
    {"type": "bid", "amount": -1}, {"type": "bid", "amount": 10**30},
    {"type": "bid", "amount": "10"}, {"type": "bid", "amount": True},
    {"type": "bid", "amount": 2.0}, {"type": "discard", "tiles": 5},
    {"type": "discard", "tiles": ["1m"]}, {"type": "play", "cards": "S3", "pattern": 5},
    {"type": "play", "cards": "S3", "pattern": "no-such-pattern"}, {"type": ["play"]},
    {"type": {"a": 1}}, {"type": "chow", "tiles": "1m2m3m4m"},
    Action("play", (999,)), Action("play", (-1,)), Action("play", (-54,)),
    Action("play", (1.5,)), Action("play", ("S3",)), Action("play", (True,)),  # type: ignore
    Action("discard", (99,)), Action("discard", (-1,)), Action("bid", amount=-5),
    Action("bid"), Action("nonsense"), Action("bury", (-1,) * 8), Action("declare", (-1,)),
    Action("chow", (-1, 0)), Action("pung", (-3,)), Action("concealed_kong", (-1,)),
    Action("added_kong", (99,)), Action("pass", amount=3), Action("play", (0,), 7),  # type: ignore
]


def position(name: str, seed: int, steps: int):
    """A non-terminal position after up to `steps` random actions."""
    state = ruleset(name).new_game(seed=seed, hands=1)
    rng = random.Random(seed)
    for _ in range(steps):
        before = state.to_json()
        state.apply(state.sample_action(rng))
        if state.is_terminal():
            return ruleset(name).state_from_json(before)
    return state


def assert_refused(state, action, malformed: bool = False) -> str:
    """Refused with a non-empty reason; the state is byte-identical; every query agrees."""
    before = state.to_json()
    error = RulesdslError if malformed else IllegalAction
    with pytest.raises(error) as info:
        state.apply(action)
    reason = getattr(info.value, "reason", None) or str(info.value)
    assert reason.strip(), f"no reason for {action!r}"
    assert state.to_json() == before, f"{action!r} changed the state"
    assert not state.is_legal(action)
    assert action not in state.legal_actions()
    why = state.why_illegal(action)
    assert why and why.strip()
    assert state.to_json() == before
    return reason


def held(state) -> list[int]:
    return [k for k, c in enumerate(state.hands[state.to_act]) for _ in range(c)]


def illegal_candidates(state, rng: random.Random) -> list[tuple[str, Action]]:
    """Actions illegal by construction here (not by asking the engine)."""
    rs = state.game.ruleset
    family = rs.family
    seat = state.to_act
    hand = state.hands[seat]
    out: list[tuple[str, Action]] = []
    if family == "tiles":
        missing = [k for k in range(34) if not hand[k]]
        if missing:
            out.append(("tile not held", Action.of("discard", [rng.choice(missing)])))
        mine = held(state)
        if len(mine) >= 2:
            out.append(("two discards", Action.of("discard", rng.sample(mine, 2))))
        if state.phase == "turn":  # nothing is pending: claims are out of turn
            tile = rng.choice(mine)
            out += [("claim without a discard", Action.of("pung", [tile, tile])),
                    ("claim without a discard", Action.of("chow", [tile, tile])),
                    ("pass on your turn", Action("pass"))]
        if state.phase == "claims" and state.last_discard is not None:
            discarder = state.last_discard["seat"]
            out.append(("discard while claims are asked", Action.of("discard", [mine[0]])))
            tile = state.last_discard["tile"]
            if state.game.rules.chow_from == "previous_player" and seat != state._next(discarder) \
                    and tile < 27 and tile % 9 < 7:  # only the next player may chow
                out.append(("chow out of turn", Action.of("chow", [tile + 1, tile + 2])))
        return out
    kinds = rs.kinds()
    missing = [k for k in kinds if hand[k] == 0]
    if missing:
        out.append(("card not held", Action.of("play", [rng.choice(missing)])))
    over = [k for k in kinds if 0 < hand[k]]
    if over:
        k = rng.choice(over)
        out.append(("more copies than held", Action.of("play", [k] * (hand[k] + 1))))
    if family == "trick":
        if state.phase == "play":
            if not state.trick:
                out.append(("pass when leading", Action("pass")))
            else:
                n = len(state.trick[0][1])
                mine = held(state)
                for m in (n - 1, n + 1):
                    if 0 < m <= len(mine):
                        out.append(("wrong count", Action.of("play", rng.sample(mine, m))))
                system = state._lead_system()
                hc = state.hc
                inside = [k for k in mine if hc.system[k] == system]
                outside = [k for k in mine if hc.system[k] != system]
                if len(inside) >= n and outside:  # must follow: one off-suit card is a revoke
                    cards = rng.sample(inside, n - 1) + [rng.choice(outside)]
                    out.append(("revoke", Action.of("play", cards)))
            out.append(("bury while playing", Action.of("bury", held(state)[:1])))
        if state.phase == "bury":
            mine = held(state)
            size = state.game.kitty_size
            out.append(("bury too few", Action.of("bury", mine[: size - 1])))
            out.append(("play instead of burying", Action.of("play", mine[:1])))
        if state.phase == "deal":
            out.append(("play during the deal", Action.of("play", held(state)[:1])))
        return out
    # shedding
    if state.phase == "play":
        if state.last is None or state.last["seat"] == seat:
            out.append(("pass when leading", Action("pass")))
        out.append(("bid while playing", Action("bid", amount=1)))
    if state.phase == "auction":
        auc = state.auction
        bids = rs.play.auction["bids"]
        if auc["bid"]:
            low = [b for b in bids if b <= auc["bid"]]
            out.append(("bid not above the current one", Action("bid", amount=rng.choice(low))))
        out.append(("a bid off the list", Action("bid", amount=max(bids) + 1)))
        out.append(("a negative bid", Action("bid", amount=-rng.choice(bids))))
        out.append(("play during the auction", Action.of("play", held(state)[:1])))
    return out


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 300),
       pick=st.randoms(use_true_random=False))
def test_illegal_actions_are_refused_and_change_nothing(name, seed, steps, pick):
    state = position(name, seed, steps)
    reasons = []
    for label, action in illegal_candidates(state, pick):
        reasons.append((label, assert_refused(state, action)))
    assert all(reason for _, reason in reasons)


def test_every_kind_of_illegal_candidate_is_refused_somewhere():
    """The few random positions above need not reach a phase (the claims on a discard, the
    burying, an auction with a bid): the first moves of two seeded games of every ruleset
    do, so each kind of candidate illegal_candidates builds is tried at least once."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(illegal_candidates)))
    kinds = {node.elts[0].value for node in ast.walk(tree)
             if isinstance(node, ast.Tuple) and node.elts
             and isinstance(node.elts[0], ast.Constant) and isinstance(node.elts[0].value, str)}
    assert len(kinds) >= 20, sorted(kinds)
    tried: set[str] = set()
    for name in NAMES:
        for seed in range(2):
            state = ruleset(name).new_game(seed=seed, hands=1)
            rng = random.Random(seed)
            for _ in range(60):
                if state.is_terminal():
                    break
                for label, action in illegal_candidates(state, rng):
                    assert_refused(state, action)
                    tried.add(label)
                state.apply(state.sample_action(rng))
    assert sorted(kinds - tried) == []


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 200))
def test_malformed_input_is_refused_and_changes_nothing(name, seed, steps):
    state = position(name, seed, steps)
    for value in MALFORMED:
        assert_refused(state, value, malformed=True)


@pytest.mark.parametrize("name", ["huzhou-hong-wu", "wenling-liujia-tong", "wenling-mahjong"])
@pytest.mark.parametrize("huge", ["S3 " * 20_000, "A" * 1_000_000, "discard " + "1m" * 50_000,
                                  {"type": "bid", "amount": 10**4000}])
def test_huge_input_is_refused_and_changes_nothing(name, huge):
    state = position(name, 2, 40)
    assert_refused(state, huge, malformed=True)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=5, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 200),
       text=st.text(max_size=40))
def test_any_text_is_an_action_or_refused_with_a_reason(name, seed, steps, text):
    state = position(name, seed, steps)
    before = state.to_json()
    # Drawn text is almost never an action: the written form of a legal one is tried too.
    written = str(state.sample_action(random.Random(seed)))
    assert state.is_legal(written), written
    for candidate in (text, written):
        legal = state.is_legal(candidate)
        if not legal:
            assert_refused(state, candidate, malformed=True)
        else:  # e.g. "pass" or a held card: it must be one of the listed actions
            assert Action.parse(candidate) in state.legal_actions()
    assert state.to_json() == before


@pytest.mark.parametrize("name", NAMES)
def test_a_stale_sampled_action_is_checked_again(name):
    """An action sampled earlier, replayed after the position moved on, gets the full
    check (engines may remember the sampled action to skip re-checking it)."""
    refused = 0
    for seed in range(4):
        state = position(name, seed, 25 + seed * 7)
        rng = random.Random(seed)
        for _ in range(20):
            if state.is_terminal():
                break
            other = state.sample_action(rng)
            stale = state.sample_action(rng)  # the engine may remember this one
            state.apply(Action.parse(other.to_json()))  # an equal action, not the sampled one
            if state.is_terminal():
                break
            fresh = state.game.state_from_json(state.to_json())
            if not fresh.is_legal(stale):
                assert_refused(state, stale)
                refused += 1
    assert refused > 0


def test_out_of_turn_seats_cannot_act_through_the_api():
    """The API acts for current_player; a claim for another seat is not in the notation,
    and a chow by a seat other than the next one is refused (checked above); here: a
    claim with no discard pending in every reachable turn position."""
    state = position("wenling-mahjong", 4, 0)
    assert state.phase == "turn" and state.last_discard is None
    for kind in ("pung", "kong", "chow"):
        tiles = held(state)[:2] if kind == "chow" else held(state)[:1] * 2
        reason = assert_refused(state, Action.of(kind, tiles))
        assert reason


def test_reasons_name_the_problem():
    state = position("huzhou-hong-wu", 1, 0)
    while state.phase != "play" or not state.trick:
        state.apply(state.sample_action(random.Random(len(state.log))))
    missing = next(k for k in state.game.ruleset.kinds() if not state.hands[state.to_act][k])
    assert "hold" in assert_refused(state, Action.of("play", [missing]))
    n = len(state.trick[0][1])
    mine = held(state)
    if len(mine) > n:
        assert "follow with" in assert_refused(state, Action.of("play", mine[: n + 1]))
    assert "notation" in assert_refused(state, Action("play", (-1,)), malformed=True)
    assert "bid" in assert_refused(state, "bid ³", malformed=True)
    assert "pattern" in assert_refused(
        state, {"type": "play", "cards": nt.format_card(mine[0]), "pattern": "pair"})
