"""The shedding engine (climbing games): one interpreter for every shedding ruleset."""

from .state import ShedGame, ShedState

__all__ = ["ShedGame", "ShedState"]
