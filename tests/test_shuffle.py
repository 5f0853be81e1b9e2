"""The deal's fast shuffle deals exactly what random.Random.shuffle deals."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl.engine.shuffle import shuffle


@settings(max_examples=300, deadline=None)
@given(seed=st.one_of(st.integers(), st.text(max_size=20)), size=st.integers(0, 300))
def test_same_order_as_random_shuffle(seed: int | str, size: int) -> None:
    expected, got = list(range(size)), list(range(size))
    random.Random(seed).shuffle(expected)
    rng = random.Random(seed)
    shuffle(rng, got)
    assert got == expected
    # ...and leaves the generator where Random.shuffle leaves it.
    other = random.Random(seed)
    other.shuffle(list(range(size)))
    assert rng.random() == other.random()


def test_a_permutation() -> None:
    items = list("abcdefgh") * 3
    shuffle(random.Random(7), items)
    assert sorted(items) == sorted(list("abcdefgh") * 3)
