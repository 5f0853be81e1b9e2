"""The shedding engine (climbing games): one interpreter for every shedding ruleset."""

from __future__ import annotations

from typing import Any

__all__ = ["ShedGame", "ShedState"]


def __getattr__(name: str) -> Any:
    # The engine loads on first use: reading a contract (validate) does not need it.
    if name == "ShedGame":
        from .game import ShedGame

        return ShedGame
    if name == "ShedState":
        from .state import ShedState

        return ShedState
    raise AttributeError(name)
