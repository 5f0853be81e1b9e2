"""The engines: one generic interpreter per family, all honouring one state API."""

from __future__ import annotations

from typing import Any

from ..errors import RulesdslError
from ..model.ruleset import Ruleset
from .base import CHANCE, TERMINAL, Action, IllegalAction, LegalActions


def game_for(ruleset: Ruleset) -> Any:
    """The engine that runs this ruleset's family (built once per ruleset: the per-hand
    tables and pattern caches it holds are reused by every game)."""
    cached = ruleset.__dict__.get("_engine_game")
    if cached is None:
        cached = ruleset.__dict__["_engine_game"] = _build(ruleset)
    return cached


def _build(ruleset: Ruleset) -> Any:
    if ruleset.family == "trick":
        from .trick import TrickGame

        return TrickGame(ruleset)
    if ruleset.family == "shedding":
        from .shedding import ShedGame

        return ShedGame(ruleset)
    if ruleset.family == "tiles":
        from .tiles import TileGame

        return TileGame(ruleset)
    raise RulesdslError(f"no engine for the {ruleset.family} family yet")


__all__ = ["Action", "IllegalAction", "LegalActions", "CHANCE", "TERMINAL", "game_for"]
