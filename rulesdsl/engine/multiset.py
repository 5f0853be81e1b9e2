"""Counting, sampling and enumerating sub-multisets without listing them.

A hand is a count vector over card kinds. "Any n cards from these" has as many
distinct choices as the coefficient of t^n in prod(1 + t + ... + t^c_i), which a
small dynamic programme gives exactly; sampling walks the same table, so every
distinct choice is equally likely, and enumeration is a lazy iterator.
"""

from __future__ import annotations

import random
from collections.abc import Iterator


def _suffix_table(counts: list[int], n: int) -> list[list[int]]:
    """ways[i][m]: distinct multisets of size m from counts[i:]."""
    k = len(counts)
    ways = [[0] * (n + 1) for _ in range(k + 1)]
    ways[k][0] = 1
    for i in range(k - 1, -1, -1):
        c = counts[i]
        nxt = ways[i + 1]
        row = ways[i]
        # row[m] = sum_{x=0..min(c,m)} nxt[m-x], a sliding window sum
        window = 0
        for m in range(n + 1):
            window += nxt[m]
            if m - c - 1 >= 0:
                window -= nxt[m - c - 1]
            row[m] = window
    return ways


def count_submultisets(counts: list[int], n: int) -> int:
    if n < 0 or n > sum(counts):
        return 0
    return _suffix_table(counts, n)[0][n]


def sample_submultiset(counts: list[int], n: int, rng: random.Random) -> list[int]:
    """A uniformly random distinct multiset of size n: how many of each index."""
    ways = _suffix_table(counts, n)
    total = ways[0][n]
    if total == 0:
        raise ValueError("no multiset of that size")
    out = [0] * len(counts)
    m = n
    for i, c in enumerate(counts):
        pick = rng.randrange(ways[i][m])
        for x in range(min(c, m) + 1):
            w = ways[i + 1][m - x]
            if pick < w:
                out[i] = x
                m -= x
                break
            pick -= w
    return out


def iter_submultisets(counts: list[int], n: int) -> Iterator[list[int]]:
    """Every distinct multiset of size n, lazily, in a fixed order."""
    ways = _suffix_table(counts, n)
    k = len(counts)
    chosen = [0] * k

    def rec(i: int, m: int) -> Iterator[list[int]]:
        if i == k:
            if m == 0:
                yield list(chosen)
            return
        for x in range(min(counts[i], m), -1, -1):
            if ways[i + 1][m - x]:
                chosen[i] = x
                yield from rec(i + 1, m - x)
        chosen[i] = 0

    if 0 <= n <= sum(counts):
        yield from rec(0, n)


# ---------------------------------------------------------------- with a pair quota
# Following the shape (升级's rule): of n cards, at least r pairs (two of one kind).
# The same dynamic programme with a second index: pairs so far, capped at r.


def _pair_table(counts: list[int], n: int, r: int) -> list[list[list[int]]]:
    k = len(counts)
    ways = [[[0] * (r + 1) for _ in range(n + 1)] for _ in range(k + 1)]
    ways[k][0][r] = 1  # from the end: m cards left to choose, p pairs still needed (0..r)
    # Index p means "p more pairs needed"; stored as r - p for a simple cap.
    for i in range(k - 1, -1, -1):
        c = counts[i]
        for m in range(n + 1):
            for need in range(r + 1):
                total = 0
                for x in range(min(c, m) + 1):
                    after = max(0, need - x // 2)
                    total += ways[i + 1][m - x][r - after]
                ways[i][m][r - need] = total
    return ways


def count_with_pairs(counts: list[int], n: int, r: int) -> int:
    if r <= 0:
        return count_submultisets(counts, n)
    if n < 0 or n > sum(counts):
        return 0
    return _pair_table(counts, n, r)[0][n][0]


def sample_with_pairs(counts: list[int], n: int, r: int, rng: random.Random) -> list[int]:
    if r <= 0:
        return sample_submultiset(counts, n, rng)
    ways = _pair_table(counts, n, r)
    if ways[0][n][0] == 0:
        raise ValueError("no multiset meets the pair quota")
    out = [0] * len(counts)
    m, need = n, r
    for i, c in enumerate(counts):
        pick = rng.randrange(ways[i][m][r - need])
        for x in range(min(c, m) + 1):
            after = max(0, need - x // 2)
            w = ways[i + 1][m - x][r - after]
            if pick < w:
                out[i] = x
                m, need = m - x, after
                break
            pick -= w
    return out


def iter_with_pairs(counts: list[int], n: int, r: int) -> Iterator[list[int]]:
    for pick in iter_submultisets(counts, n):
        if sum(x // 2 for x in pick) >= r:
            yield pick
