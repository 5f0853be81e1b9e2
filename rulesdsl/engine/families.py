"""Every family's contract, by family name (the compiler, `doc` and `explain` read them;
importing this does not import an engine)."""

from __future__ import annotations

from .contract import Contract
from .shedding.contract import SHEDDING
from .tiles.contract import TILES
from .trick.contract import TRICK

CONTRACTS: dict[str, Contract] = {c.family: c for c in (TRICK, SHEDDING, TILES)}
