"""The deal's shuffle: `random.Random.shuffle`'s draws, made faster.

Every deal shuffles a full pack or wall at the start of a hand (54 to 216 cards, 136
tiles), which is a few percent of a random hand's cost. This is the same Fisher–Yates
walk as `Random.shuffle` drawing with `getrandbits` as `Random._randbelow` does, inlined,
so a seed deals exactly the cards it always dealt (tests/test_shuffle.py compares them).
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` would."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:  # rejection sampling, as Random._randbelow_with_getrandbits
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
