"""Every game ends: `new_game(hands=None)` plays until the match is won, or for at most
MATCH_HAND_LIMIT hands (a game without a match, such as a tile game, would never end),
and a saved state beyond that limit is refused."""

from __future__ import annotations

import json
import random

import pytest

import rulesdsl
from rulesdsl.engine.base import MATCH_HAND_LIMIT
from rulesdsl.engine.saved import reader as saved_reader
from rulesdsl.engine.saved import shedding as saved_shedding
from rulesdsl.engine.saved import tiles as saved_tiles
from rulesdsl.engine.saved import trick as saved_trick
from rulesdsl.engine.shedding import settlement as shed_settlement
from rulesdsl.engine.tiles import state as tile_state
from rulesdsl.engine.trick import result as trick_result
from rulesdsl.errors import RulesdslError


@pytest.mark.parametrize("name", ["wenling-mahjong", "guan-pai", "wenling-hong-wu"])
def test_a_game_without_a_hand_count_ends_at_the_limit(monkeypatch, name) -> None:
    for module in (shed_settlement, tile_state, trick_result, saved_reader, saved_trick,
                   saved_shedding, saved_tiles):
        monkeypatch.setattr(module, "MATCH_HAND_LIMIT", 2)
    state = rulesdsl.api.load(name).new_game(seed=3, hands=None)
    rng = random.Random(3)
    for _ in range(100_000):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
    assert state.is_terminal()
    assert state.hand_no <= 2
    # the ended game is a state the engine can be in
    again = state.game.state_from_json(state.to_json())
    assert again.is_terminal()


def test_a_saved_state_past_the_limit_is_refused() -> None:
    rs = rulesdsl.api.load("wenling-mahjong")
    data = json.loads(rs.new_game(seed=1, hands=None).to_json())
    data["hand_no"] = MATCH_HAND_LIMIT + 1
    with pytest.raises(RulesdslError, match="no game plays more than"):
        rs.state_from_json(json.dumps(data))
