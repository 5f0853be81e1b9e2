"""The engines: one generic interpreter per family, all honouring one state API."""

from __future__ import annotations

from typing import Any

from ..model.ruleset import Ruleset
from .base import CHANCE, TERMINAL, Action, IllegalAction, LegalActions


def game_for(ruleset: Ruleset) -> Any:
    """The engine that runs this ruleset's family (built once per ruleset)."""
    return ruleset.game()


__all__ = ["Action", "IllegalAction", "LegalActions", "CHANCE", "TERMINAL", "game_for"]
