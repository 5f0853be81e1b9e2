"""The tile-matching engine (mahjong): one interpreter for every tile ruleset."""

from __future__ import annotations

from typing import Any

__all__ = ["TileGame", "TileState"]


def __getattr__(name: str) -> Any:
    # The engine loads on first use: reading a contract (validate) does not need it.
    if name in __all__:
        from . import state

        return getattr(state, name)
    raise AttributeError(name)
