"""Microseconds per win-shape check: WinShape.can_win (34 counts) and
WinShape.can_win_keys (four group keys, as the engine keeps them per hand) with 0–4 wilds
on random hands, and the mahjong package's Agari.is_agari on the same wild-free hands
(when installed).

Run: .venv/bin/python benchmarks/bench_win_shape.py. Each figure is the median of five
repeats over the same hands; tables are warmed first (as in play, where they persist).
"""

from __future__ import annotations

import random
import statistics
import time

from rulesdsl.engine.tiles.shapes import WinShape, suit_keys

HANDS = 2000
REPEATS = 5


def random_counts(rng: random.Random, size: int) -> list[int]:
    """Half complete-ish hands (sets plus a pair, cut to size), half random draws; never
    more than four copies of a kind, as in play."""
    while True:
        counts = _draw(rng, size)
        if max(counts) <= 4:
            return counts


def _draw(rng: random.Random, size: int) -> list[int]:
    if rng.random() < 0.5:
        kinds: list[int] = []
        while len(kinds) < size + 3:
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                kinds += [start, start + 1, start + 2]
            else:
                kinds += [rng.randrange(34)] * 3
        kinds = [rng.randrange(34)] * 2 + kinds
        kinds = kinds[:size]
    else:
        kinds = rng.sample([k for k in range(34)] * 4, size)
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    return counts


def per_call_us(fn, hands) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for hand in hands:
            fn(hand)
        times.append((time.perf_counter() - start) / len(hands) * 1e6)
    return statistics.median(times)


def main() -> None:
    rng = random.Random(2024)
    for sets, label in ((4, "4 sets + pair (14 tiles)"), (5, "5 sets + pair (17 tiles)")):
        shape = WinShape(sets, 1, {"chow", "pung", "kong"})
        print(label)
        for wilds in range(5):
            hands = [random_counts(rng, 3 * sets + 2 - wilds) for _ in range(HANDS)]
            for h in hands:  # warm the tables, as a running engine has them
                shape.can_win(h, wilds, 0)
            us = per_call_us(lambda h, s=shape, w=wilds: s.can_win(h, w, 0), hands)
            wins = sum(shape.can_win(h, wilds, 0) for h in hands)
            print(f"  can_win, {wilds} wilds: {us:6.2f} µs   ({wins}/{HANDS} wins)")
            # Keys as a state holds them (updated as tiles move, so not timed here).
            keyed = [suit_keys(h) for h in hands]
            check = shape.can_win_keys
            us = per_call_us(lambda k, f=check, w=wilds: f(k, w), keyed)
            assert sum(check(k, wilds) for k in keyed) == wins
            print(f"  can_win_keys, {wilds} wilds: {us:6.2f} µs")
            if wilds == 0 and sets == 4:
                try:
                    from mahjong.agari import Agari
                except ImportError:
                    print("  mahjong not installed: no is_agari figure")
                    continue
                agari = Agari()
                us = per_call_us(agari.is_agari, hands)
                print(f"  mahjong is_agari, same hands: {us:6.2f} µs")


if __name__ == "__main__":
    main()
