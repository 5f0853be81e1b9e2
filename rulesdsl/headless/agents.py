"""Agents: anything with `act(state, rng) -> Action` can take a seat."""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.base import Action
from ..errors import RulesdslError
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent


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
    """`random,random,...` (one per seat; a single name fills every seat). An agent that
    takes a setting reads it after a colon: `ismcts:500` (iterations per move),
    `ismcts:0.5s` (seconds per move)."""
    names = [n.strip() for n in (spec or "random").split(",") if n.strip()]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise RulesdslError(f"give one agent per seat ({players}), or one for all; got "
                            f"{len(names)}")
    out = []
    for n in names:
        name, colon, arg = n.partition(":")
        name = name.strip()
        if name not in AGENTS:
            raise RulesdslError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
        if not colon:
            out.append(AGENTS[name]())
            continue
        from_spec = getattr(AGENTS[name], "from_spec", None)
        if from_spec is None:
            raise RulesdslError(f"agent {name!r} takes no setting (got {n!r})")
        out.append(from_spec(arg))
    return out


AGENTS["greedy"] = GreedyAgent
AGENTS["ismcts"] = ISMCTSAgent


def _human() -> object:
    from .human import HumanAgent

    return HumanAgent()


AGENTS["human"] = _human  # type: ignore[assignment]
