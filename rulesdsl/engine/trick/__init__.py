"""The trick-taking engine (升级 family): one interpreter for every trick ruleset."""

from .state import TrickGame, TrickState

__all__ = ["TrickGame", "TrickState"]
