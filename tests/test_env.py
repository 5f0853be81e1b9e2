"""The PettingZoo environment: the API test and a seeded random episode for every bundled
ruleset, and the card-building mask agreeing with the engine's legality."""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import rulesdsl  # noqa: E402
from rulesdsl.engine.base import Action  # noqa: E402
from rulesdsl.resources import bundled_rulesets  # noqa: E402

BUNDLED = sorted(bundled_rulesets())


def random_episode(env, seed: int, limit: int = 20_000) -> int:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            env.step(None)
            continue
        allowed = np.flatnonzero(obs["action_mask"])
        assert len(allowed), f"no allowed action for {agent} at step {steps}"
        env.step(int(rng.choice(allowed)))
        steps += 1
    return steps


@pytest.mark.parametrize("name", BUNDLED)
def test_api_test_passes(name):
    env = rulesdsl.env(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pettingzoo warns about Dict observation spaces
        api_test(env, num_cycles=60)


@pytest.mark.parametrize("name", BUNDLED)
def test_seeded_random_episode_ends_with_the_engines_returns(name):
    env = rulesdsl.env(name)
    steps = random_episode(env, seed=3)
    assert env.state.is_terminal(), f"the episode did not end in {steps} steps"
    assert not env.agents  # every agent was stepped out after the end
    again = rulesdsl.env(name)
    assert random_episode(again, seed=3) == steps  # same seed, same episode
    assert again.state.to_json() == env.state.to_json()


@pytest.mark.parametrize("name", ["huzhou-hong-wu", "wenling-duijia-tong", "dou-dizhu"])
def test_built_plays_are_exactly_the_legal_ones(name):
    """Every card the mask offers leads to a legal commit; every commit it offers is legal,
    and every legal play of a random position can be built through the mask."""
    env = rulesdsl.env(name)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(400):
        if env.state.is_terminal():
            break
        st = env.state
        mask = env.action_mask()
        if not env.building and st.phase == "play" and checked < 25:
            target = st.sample_action(__import__("random").Random(checked))
            if target.cards:
                # Build the sampled legal play card by card: each step must be allowed.
                probe = rulesdsl.env(name)
                probe.reset(seed=5)
                probe.state = st.clone()
                probe.agent_selection = env.agent_selection
                probe.building, probe._mask_cache = [], None
                for card in sorted(target.cards):
                    assert probe.action_mask()[card], f"{target} cannot be built"
                    probe.building.append(card)
                    probe._mask_cache = None
                m = probe.action_mask()
                assert m[probe.layout.commit] or m[probe.layout.first_pattern:
                                                   probe.layout.first_bid].any()
                checked += 1
        allowed = np.flatnonzero(mask)
        index = int(rng.choice(allowed))
        if index == env.layout.commit:
            assert any(st.is_legal(Action(kind, tuple(sorted(env.building))))
                       for kind in ("play", "bury", "declare"))
        env.step(index)
    assert checked > 0


def test_action_names_are_stable_and_documented():
    env = rulesdsl.env("dou-dizhu")
    names = env.action_names()
    assert len(names) == env.action_space("player_0").n
    assert names[0] == "add S2" and names[54] == "commit" and names[55] == "pass"
    tiles = rulesdsl.env("wenling-mahjong").action_names()
    assert tiles[:2] == ["pass", "win"] and tiles[7] == "discard 1m"
    assert Counter(n.split()[0] for n in tiles)["discard"] == 42
