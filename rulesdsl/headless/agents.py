"""Agents: anything with `act(state, rng) -> Action` can take a seat."""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.base import Action
from ..errors import RulesdslError


class Agent(Protocol):
    name: str

    def act(self, state, rng: random.Random) -> Action: ...


class RandomAgent:
    """Uniform over the distinct legal actions (sampled, never listed)."""

    name = "random"

    def act(self, state, rng: random.Random) -> Action:
        return state.sample_action(rng)


AGENTS: dict[str, type] = {"random": RandomAgent}


def make_agents(spec: str | None, players: int) -> list:
    """`random,random,...` (one per seat; a single name fills every seat)."""
    names = [n.strip() for n in (spec or "random").split(",") if n.strip()]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise RulesdslError(f"give one agent per seat ({players}), or one for all; got "
                            f"{len(names)}")
    out = []
    for n in names:
        if n not in AGENTS:
            raise RulesdslError(f"unknown agent {n!r}; known: {', '.join(sorted(AGENTS))}")
        out.append(AGENTS[n]())
    return out
