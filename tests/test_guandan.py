"""rulesets/extra/guandan.yaml played as whole matches (seeded random agents), against the
published rules its comments cite, read from the results and the log independently of the
engine's own bookkeeping: climbs by the partner's place, the hand's level, tribute (never
the wild heart; the return 10 or lower), the match won at A with the partner 2nd or 3rd."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl import notation as nt

LADDER = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, nt.ACE]
CLIMB = {2: 3, 3: 2}  # the partner's place -> levels; else 1


@pytest.mark.parametrize("seed", range(3))
def test_a_guandan_match(seed: int) -> None:
    rs = rulesdsl.api.load("guandan")
    state = rs.new_game(seed=seed, hands=None)
    rng = random.Random(seed)
    levels = [2, 2]
    playing = 2
    while not state.is_terminal():
        hand = state.hand_no
        assert state.level == playing
        while not state.is_terminal() and state.hand_no == hand:
            state.apply(state.sample_action(rng))
        events = [e for e in state.log if e["hand"] == hand]
        for e in events:
            if e["type"] == "give":
                card = nt.parse_card(e["card"])
                if e["why"] == "tribute":  # never the heart of the hand's level
                    assert not (nt.card_suit(card) == "H" and nt.card_rank(card) == playing)
                else:
                    assert nt.card_suit(card) is not None and nt.card_rank(card) <= 10
        result = state.results[-1]
        order = result["order"]
        first, mate = order[0], (order[0] + 2) % 4
        side = first % 2
        climb = CLIMB.get(result["places"][mate], 1)
        assert result["climb"]["levels"] == climb
        if levels[side] == nt.ACE and climb >= 2:
            assert result["match_winner"] == side and state.is_terminal()
            assert state.returns() == [1.0 if s % 2 == side else -1.0 for s in range(4)]
            return
        levels[side] = LADDER[min(LADDER.index(levels[side]) + climb, len(LADDER) - 1)]
        playing = levels[side]
    pytest.fail("the match ended without a winner")
