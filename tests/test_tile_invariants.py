"""Invariants of the tile engine over random seeds and random legal play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.engine.base import Action, IllegalAction

_ruleset = None


def ruleset():
    global _ruleset
    if _ruleset is None:
        _ruleset = rulesdsl.load("wenling-mahjong")
    return _ruleset


def tiles_accounted(state) -> int:
    """Wall + hands + melds + discards + flowers + the turned tile = 144."""
    in_wall = state.back - state.front
    in_hands = sum(sum(h) for h in state.hands)
    in_melds = sum({"chow": 3, "pung": 3, "kong": 4}[m[0]] for ms in state.melds for m in ms)
    return in_wall + in_hands + in_melds + sum(len(d) for d in state.discards) + \
        sum(len(f) for f in state.flowers) + 1


def agent(state, rng):
    """Random, but takes wins and most claims so hands reach a winner."""
    acts = list(state.legal_actions())
    wins = [a for a in acts if a.kind == "win"]
    if wins:
        return wins[0]
    claims = [a for a in acts if a.kind in ("pung", "kong", "chow")]
    if claims and rng.random() < 0.7:
        return claims[0]
    return acts[rng.randrange(len(acts))]


def play(seed: int, hands: int = 1, check: bool = True):
    state = ruleset().new_game(seed=seed, hands=hands)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if state.kong_tile is None:
            assert tiles_accounted(state) == 144
        action = agent(state, rng)
        assert state.is_legal(action) and action in state.legal_actions()
        if check and step % 5 == 0:
            assert state.legal_actions().count() == len(list(state.legal_actions()))
            bad = Action.of("discard", [41]) if not state.hands[state.to_act][41] \
                else Action.of("chow", [0, 1])
            if not state.is_legal(bad):
                before = state.to_json()
                with pytest.raises(IllegalAction):
                    state.apply(bad)
                assert state.to_json() == before
            again = ruleset().state_from_json(state.to_json())
            assert again.to_json() == state.to_json()
        state.apply(action)
        step += 1
    return state


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_hands_keep_every_invariant(seed):
    state = play(seed)
    result = state.results[-1]
    assert abs(sum(result["payments"])) < 1e-9
    assert result["winner"] is not None or result.get("exhausted")


def test_some_hands_are_won_and_scored_for_everyone():
    winners = 0
    for seed in range(30):
        state = play(seed, check=False)
        result = state.results[-1]
        if result["winner"] is not None:
            winners += 1
            assert len(result["totals"]) == 4
            assert all(0 <= t <= 500 and t % 10 == 0 for t in result["totals"])
            assert abs(sum(result["payments"])) < 1e-9
    assert winners >= 2


def test_same_seed_same_game():
    a, b = play(5, check=False), play(5, check=False)
    assert a.to_json() == b.to_json()


def test_a_whole_game_of_several_hands_terminates():
    state = play(3, hands=4, check=False)
    assert state.hand_no == 4 and abs(sum(state.returns())) < 1e-9


def test_observation_hides_other_hands_and_the_wall():
    from rulesdsl import notation as nt

    state = ruleset().new_game(seed=2)
    obs = state.observation(0)
    assert "wall" not in obs and "hands" not in obs
    assert obs["hand"] == nt.format_tiles([k for k, c in enumerate(state.hands[0])
                                           for _ in range(c)])
    # Only claimed melds of the others are visible (concealed kongs stay hidden).
    assert all(not m[2] for s in range(1, 4) for m in state.melds[s]
               if [m[0], nt.format_tile(m[1])] in obs["others_melds"][s])
