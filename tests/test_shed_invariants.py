"""Invariants of the shedding engine over random seeds and random legal play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import Action, IllegalAction
from rulesdsl.model.patterns import readings
from tests.helpers import parsed_cards

GAMES = ["wenling-duijia-tong", "guan-pai", "wenling-biao-tong", "wenling-liujia-tong"]
_games: dict[str, object] = {}


def ruleset(name):
    if name not in _games:
        _games[name] = rulesdsl.load(name)
    return _games[name]


def cards_in_play(state) -> list[int]:
    total = [0] * len(state.game.ruleset.deck)
    for hand in state.hands:
        for k, c in enumerate(hand):
            total[k] += c
    for k in state.unused:
        total[k] += 1
    if state.phase == "auction":  # the kitty waits for the dealer
        for k in state.kitty:
            total[k] += 1
    for event in state.log:
        if event["type"] == "play" and event["hand"] == state.hand_no:
            for k in parsed_cards(event["cards"]):
                total[k] += 1
    return total


def play_game(name: str, seed: int, check_every: int = 3):
    state = ruleset(name).new_game(seed=seed)
    game = state.game
    rng = random.Random(seed)
    deck = list(game.ruleset.deck)
    step = 0
    while not state.is_terminal():
        assert cards_in_play(state) == deck
        legal = list(state.legal_actions())
        assert len(legal) == len(set(legal)) == state.legal_actions().count()
        action = state.sample_action(rng)
        assert action in legal and state.is_legal(action)
        if step % check_every == 0:
            for a in legal[:40]:
                assert state.is_legal(a), state.why_illegal(a)
                if a.kind == "play":
                    names = {r.pattern for r in readings(game.hc, list(a.cards))}
                    assert (a.pattern or next(iter(names))) in names
            seat = state.to_act
            missing = [k for k in game.ruleset.kinds() if state.hands[seat][k] == 0]
            bad = Action.of("play", [rng.choice(missing)]) if missing else Action("bury")
            before = state.to_json()
            with pytest.raises(IllegalAction):
                state.apply(bad)
            assert state.to_json() == before
            assert game.state_from_json(before).to_json() == before
        state.apply(action)
        step += 1
    return state


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_keep_every_invariant(name, seed):
    state = play_game(name, seed)
    result = state.results[-1]
    assert abs(sum(state.returns())) < 1e-9 or name == "wenling-duijia-tong"
    assert sorted(result["order"]) == list(range(state.game.players))


def test_points_total_in_duijia():
    state = play_game("wenling-duijia-tong", 3, check_every=50)
    result = state.results[-1]
    assert sum(result["captured"]) + sum(result["in_hand"]) == 200
    assert sum(result["scores"]) <= 200


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name):
    a, b = ruleset(name).new_game(seed=8), ruleset(name).new_game(seed=8)
    ra, rb = random.Random(1), random.Random(1)
    while not a.is_terminal():
        a.apply(a.sample_action(ra))
        b.apply(b.sample_action(rb))
    assert a.to_json() == b.to_json()


def test_guan_pai_first_lead_holds_the_lowest_spade():
    for seed in range(5):
        state = ruleset("guan-pai").new_game(seed=seed)
        seat = state.to_act
        lowest = next(k for k in state.game.rules.holder
                      if any(h[k] for h in state.hands))
        assert state.hands[seat][lowest] == 1


def test_an_ambiguous_play_names_its_pattern():
    state = ruleset("wenling-duijia-tong").new_game(seed=0)
    seat = state.to_act
    state.hands[seat] = [0] * 54
    for k in nt.parse_cards("S8 H8 D8 LJ LJ S3"):
        state.hands[seat][k] += 1
    assert state.is_legal("S8 H8 D8 LJ LJ")          # only a bomb: exclusive
    acts = [str(a) for a in state.legal_actions()]
    assert "S8 H8 D8 LJ LJ" in acts
    assert state.why_illegal("S8 H8 D8 LJ LJ as full_house") is not None


@pytest.mark.parametrize("name", ["wenling-duijia-tong", "wenling-liujia-tong",
                                  "wenling-biao-tong", "guan-pai", "dou-dizhu"])
def test_every_shedding_ruleset_plays_to_the_end_and_keeps_its_points(name):
    rs = ruleset(name)
    state = rs.new_game(seed=21)
    rng = random.Random(21)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    result = state.results[-1]
    hc = state.game.hc
    unused = sum(hc.points[k] for k in state.unused)
    total = sum(result["captured"]) + sum(result["in_hand"]) + unused
    assert total == rs.total_points()
    if rs.points_total is not None:
        assert rs.total_points() == rs.points_total
    assert len(state.returns()) == rs.players
