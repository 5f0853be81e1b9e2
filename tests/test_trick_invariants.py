"""Invariants of the trick engine over random seeds and random legal play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import Action, IllegalAction
from tests.helpers import parsed_cards

GAMES = ["taicang-zhongxin-wu", "huzhou-hong-wu", "wenling-hong-wu"]
_games: dict[str, object] = {}


def ruleset(name):
    if name not in _games:
        _games[name] = rulesdsl.load(name)
    return _games[name]


def all_cards(state) -> list[int]:
    """Every card of the hand: hands, kitty (before the dealer takes it), tricks so far."""
    total = [0] * len(state.game.ruleset.deck)
    for hand in state.hands:
        for k, c in enumerate(hand):
            total[k] += c
    if state.phase == "deal":
        for k in state.deal_order[state.dealt:]:
            total[k] += 1
    else:
        for k in state.kitty:
            total[k] += 1
    for event in state.log:
        if event["type"] == "play" and event["hand"] == state.hand_no:
            for k in parsed_cards(event["cards"]):
                total[k] += 1
    if state.phase == "bury":
        for k in state.kitty:  # taken into the dealer's hand, not yet buried
            total[k] -= 1
    return total


def random_illegal(state, rng: random.Random) -> Action:
    seat = state.to_act
    hand = state.hands[seat]
    missing = [k for k in state.game.ruleset.kinds() if hand[k] == 0]
    options = [Action.of("play", [rng.choice(missing)]) if missing else Action("pass"),
               Action.of("bury", [])]
    if state.trick:
        n = len(state.trick[0][1])
        held = [k for k, c in enumerate(hand) for _ in range(c)]
        if len(held) > n:
            options.append(Action.of("play", rng.sample(held, n + 1)))
    return rng.choice(options)


def play_hand(name: str, seed: int, check_every: int = 7):
    game = ruleset(name)
    state = game.new_game(seed=seed, hands=1)
    rng = random.Random(seed)
    deck = list(game.deck)
    step = 0
    while not state.is_terminal():
        if state.phase != "over" and state.hands:
            assert all_cards(state) == deck, "a card was lost or duplicated"
        legal = state.legal_actions()
        action = state.sample_action(rng)
        assert state.is_legal(action)
        assert action in legal
        if step % check_every == 0:
            count = legal.count()
            assert count >= 1
            if count <= 400:
                listed = list(legal)
                assert len(listed) == count == len(set(listed))
                assert all(state.is_legal(a) for a in listed)
            bad = random_illegal(state, rng)
            if not state.is_legal(bad):
                before = state.to_json()
                with pytest.raises(IllegalAction):
                    state.apply(bad)
                assert state.to_json() == before
            again = game.state_from_json(state.to_json())
            assert again.to_json() == state.to_json()
            assert again.legal_actions().count() == legal.count()
        state.apply(action)
        step += 1
    return state


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_a_random_hand_keeps_every_invariant(name, seed):
    state = play_hand(name, seed)
    result = state.results[-1]
    rs = ruleset(name)
    total = rs.total_points()
    assert total == rs.points_total
    # Defender points come from tricks (all points in play), the kitty capture and penalties.
    assert -1000 <= result["defender_points"] <= total * 5


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_log(name):
    a = ruleset(name).new_game(seed=11, hands=1)
    b = ruleset(name).new_game(seed=11, hands=1)
    ra, rb = random.Random(3), random.Random(3)
    while not a.is_terminal():
        a.apply(a.sample_action(ra))
        b.apply(b.sample_action(rb))
    assert a.log == b.log and a.to_json() == b.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_points_in_tricks_add_up(name):
    state = play_hand(name, 5, check_every=50)
    rs = ruleset(name)
    in_tricks = sum(e["points"] for e in state.log if e["type"] == "trick")
    kitty = state.results[-1]["kitty_points"]
    assert in_tricks + kitty == rs.points_total


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_match_terminates(name):
    state = ruleset(name).new_game(seed=2)
    rng = random.Random(2)
    steps = 0
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        steps += 1
        assert steps < 200_000
    assert state.match_winner is not None
    assert sorted(state.returns()) == [-1.0, -1.0, 1.0, 1.0]


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    state = ruleset(name).new_game(seed=4, hands=1)
    rng = random.Random(4)
    for _ in range(60):
        state.apply(state.sample_action(rng))
    twin = state.clone()
    assert twin.to_json() == state.to_json()
    twin.apply(twin.sample_action(rng))
    assert twin.to_json() != state.to_json()


def test_observation_hides_other_hands():
    state = ruleset("taicang-zhongxin-wu").new_game(seed=9, hands=1)
    rng = random.Random(9)
    while state.phase != "play":
        state.apply(state.sample_action(rng))
    for seat in range(4):
        obs = state.observation(seat)
        assert obs["hand"] == nt.format_cards(
            [k for k, c in enumerate(state.hands[seat]) for _ in range(c)])
        text = repr(obs)
        assert "deal_order" not in text
        if seat != state.dealer:
            assert "kitty" not in obs
            for event in obs["log"]:
                if event["type"] in ("bury", "take_kitty"):
                    assert "cards" not in event
