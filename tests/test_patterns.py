"""Reading cards as patterns: order-independence and the shape of `beats`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.model.hand import HandContext
from rulesdsl.model.patterns import beats, readings

CARD_GAMES = ["taicang-zhongxin-wu", "huzhou-hong-wu", "wenling-hong-wu", "wenling-duijia-tong",
              "wenling-liujia-tong", "wenling-biao-tong", "guan-pai"]
_cache: dict[str, object] = {}


def game(name):
    if name not in _cache:
        ruleset = rulesdsl.load(name)
        ctx = next(iter(ruleset.all_contexts()))
        _cache[name] = (ruleset, HandContext(ruleset, ctx))
    return _cache[name]


def random_play(ruleset, rnd: random.Random, size: int) -> list[int]:
    pool = [k for k in ruleset.kinds() for _ in range(ruleset.deck[k])]
    return rnd.sample(pool, size)


def structured_play(ruleset, rnd: random.Random) -> list[int]:
    """Plays likely to form patterns: a few ranks, repeated."""
    kinds = ruleset.kinds()
    start = rnd.randrange(len(kinds))
    width = rnd.randint(1, 3)
    picked = kinds[start:start + width]
    reps = rnd.randint(1, min(ruleset.deck[k] for k in picked))
    return [k for k in picked for _ in range(reps)]


@pytest.mark.parametrize("name", CARD_GAMES)
@given(seed=st.integers(0, 10**9), size=st.integers(1, 8))
def test_readings_do_not_depend_on_card_order(name, seed, size):
    ruleset, hc = game(name)
    rnd = random.Random(seed)
    cards = structured_play(ruleset, rnd) if seed % 2 else random_play(ruleset, rnd, size)
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert sorted(readings(hc, cards), key=repr) == sorted(readings(hc, shuffled), key=repr)


@pytest.mark.parametrize("name", CARD_GAMES)
@given(seed=st.integers(0, 10**9))
def test_beats_is_never_mutual(name, seed):
    ruleset, hc = game(name)
    rnd = random.Random(seed)
    a = readings(hc, structured_play(ruleset, rnd))
    b = readings(hc, structured_play(ruleset, rnd))
    for x in a:
        for y in b:
            assert not (beats(hc, x, y) and beats(hc, y, x))
        assert not beats(hc, x, x)
