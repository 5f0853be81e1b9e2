"""The tile-matching engine (mahjong): one interpreter for every tile ruleset."""

from .state import TileGame, TileState

__all__ = ["TileGame", "TileState"]
