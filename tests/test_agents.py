"""The greedy agent is clearly better than random, in each family (200 seeded games)."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.headless.agents import AGENTS, make_agents
from rulesdsl.headless.logs import play_game

GAMES = 200


@pytest.mark.parametrize("name", ["wenling-hong-wu", "wenling-biao-tong", "wenling-mahjong"])
def test_greedy_side_beats_random_in_more_than_half_the_games(name):
    ruleset = rulesdsl.load(name)
    ahead = 0
    for i in range(GAMES):
        state = play_game(ruleset, 5000 + i, make_agents("greedy,random,greedy,random", 4), 1)
        r = state.returns()
        ahead += (r[0] + r[2]) > (r[1] + r[3])
    assert ahead > GAMES // 2, f"greedy ahead in only {ahead} of {GAMES} games"


def test_agents_are_pluggable():
    class FirstLegal:
        name = "first"

        def act(self, state, rng):
            return next(iter(state.legal_actions()))

    AGENTS["first"] = FirstLegal
    try:
        ruleset = rulesdsl.load("guan-pai")
        state = play_game(ruleset, 1, make_agents("first", 2), 1)
        assert state.is_terminal()
    finally:
        del AGENTS["first"]
