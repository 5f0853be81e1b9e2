"""Counting, sampling and enumerating sub-multisets without listing them.

A hand is a count vector over card kinds. "Any n cards from these" has as many
distinct choices as the coefficient of t^n in prod(1 + t + ... + t^c_i), which a
small dynamic programme gives exactly; sampling walks the same table, so every
distinct choice is equally likely, and enumeration is a lazy iterator.

The tables are built over the kinds actually held (a 54-kind vector usually holds a
few kinds of one suit), and `SubmultisetTable` keeps one so that a caller asking
again about the same counts (a follow checked, counted and sampled) builds it once.
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


class SubmultisetTable:
    """The counting table of one count vector, up to size `n`, over its held kinds only.

    Row j of the compressed table is the number of ways from the j-th held kind on; a kind
    not held adds no choice, so its row equals the next held kind's row. Sampling still
    draws once per kind of the full vector, so the random stream (and with it every seeded
    game) is the same as with the plain table.
    """

    __slots__ = ("counts", "n", "held", "ways")

    def __init__(self, counts: list[int], n: int):
        self.counts = counts
        self.n = n
        self.held = [c for c in counts if c]
        self.ways = _suffix_table(self.held, n) if n >= 0 else [[0]]

    def count(self, m: int) -> int:
        """Distinct multisets of size m (m ≤ n)."""
        if m < 0 or m > self.n:
            return 0
        return self.ways[0][m]

    def sample(self, m: int, rng: random.Random) -> list[int]:
        """A uniformly random distinct multiset of size m: how many of each index."""
        if self.count(m) == 0:
            raise ValueError("no multiset of that size")
        ways = self.ways
        randrange = rng.randrange
        out = [0] * len(self.counts)
        j = 0  # the next held kind's row
        for i, c in enumerate(self.counts):
            pick = randrange(ways[j][m])
            if not c:
                continue  # the only choice is none; the draw above keeps the stream
            nxt = ways[j + 1]
            for x in range(min(c, m) + 1):
                w = nxt[m - x]
                if pick < w:
                    out[i] = x
                    m -= x
                    break
                pick -= w
            j += 1
        return out

    def iterate(self, m: int) -> Iterator[list[int]]:
        """Every distinct multiset of size m, lazily, in a fixed order."""
        if not 0 <= m <= self.n:
            return
        ways = self.ways
        index = [i for i, c in enumerate(self.counts) if c]
        held = self.held
        k = len(held)
        chosen = [0] * len(self.counts)

        def rec(j: int, left: int) -> Iterator[list[int]]:
            if j == k:
                if left == 0:
                    yield list(chosen)
                return
            i = index[j]
            for x in range(min(held[j], left), -1, -1):
                if ways[j + 1][left - x]:
                    chosen[i] = x
                    yield from rec(j + 1, left - x)
            chosen[i] = 0

        yield from rec(0, m)


def count_submultisets(counts: list[int], n: int) -> int:
    if n < 0 or n > sum(counts):
        return 0
    return SubmultisetTable(counts, n).count(n)


def sample_submultiset(counts: list[int], n: int, rng: random.Random) -> list[int]:
    """A uniformly random distinct multiset of size n: how many of each index."""
    if n < 0 or n > sum(counts):
        raise ValueError("no multiset of that size")
    return SubmultisetTable(counts, n).sample(n, rng)


def iter_submultisets(counts: list[int], n: int) -> Iterator[list[int]]:
    """Every distinct multiset of size n, lazily, in a fixed order."""
    if 0 <= n <= sum(counts):
        yield from SubmultisetTable(counts, n).iterate(n)


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
