"""The engine modules that may run compiled, and whether they do here.

A wheel built with RULESDSL_COMPILE=1 (hatch_build.py; README, "Compiled kernels")
carries these modules compiled by Cython beside their Python source; Python imports the
compiled file when both are present, the source otherwise. They are compiled as they are
(no C types: annotations stay documentation), so both play the same game: the compiled
wheel passes the shedding tests and the golden games (tests/test_compiled_kernels.py).

This file imports nothing from the package: the build hook reads KERNELS from it.
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES

# Where a random or search agent of a shedding game spends its time: the engine's plays,
# composites, wild fillings, state, settlement, auction and positions; the shared state
# API and the deal's shuffle; the pattern readings and per-hand tables they read.
KERNELS = (
    "rulesdsl.engine.shedding.moves",
    "rulesdsl.engine.shedding.composites",
    "rulesdsl.engine.shedding.hand_plays",
    "rulesdsl.engine.shedding.fillings",
    "rulesdsl.engine.shedding.state",
    "rulesdsl.engine.shedding.settlement",
    "rulesdsl.engine.shedding.auction",
    "rulesdsl.engine.shedding.position",
    "rulesdsl.engine.shedding.game",
    "rulesdsl.engine.shuffle",
    "rulesdsl.engine.base",
    "rulesdsl.model.patterns",
    "rulesdsl.model.hand",
)


def compiled() -> list[str]:
    """The kernels that this process runs compiled (each is imported to find out)."""
    out = []
    for name in KERNELS:
        __import__(name)
        path = getattr(sys.modules[name], "__file__", None) or ""
        if path.endswith(tuple(EXTENSION_SUFFIXES)):
            out.append(name)
    return out
