"""Wild cards filling a rank demand: every way a hand's wilds stand in for the cards it
lacks (or for more of them), as packed plays; and how many there are, counted without
making them (what validation checks against the work bound).

A mixin of MoveGenerator: it reads the generator's matcher, rank fields and work budget.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ...model.patterns import _fits, _Instance, _RankMatcher

FIELD = 16  # bits per rank in a packed count vector; counts stay far below 2**15
FILL_CACHE_LIMIT = 50_000  # demands whose fillings are kept before the cache starts afresh
SMALL_MEMO_LIMIT = 20_000  # shapes of extra wilds, and joker splits, kept


@dataclass
class _Held:
    """A hand seen by rank: counts, packed counts, wild jokers."""

    ranks: dict[int, int]  # rank -> count (jokers under their own rank keys)
    packed: int
    jokers: dict[int, int]  # wild joker rank -> count held
    joker_total: int
    total: int
    joker_key: tuple[tuple[int, int], ...] = ()  # the jokers' items, hashable


class WildFillings:
    """The fillings of a demand by a hand's wild cards (mixed into MoveGenerator)."""

    matcher: _RankMatcher
    shift: dict[int, int]
    wild_rank: dict[int, int]  # joker rank key -> wild index
    _uniform: frozenset[int] | None  # the ranks every wild may stand for, when all agree
    _fills: dict[tuple, list[int]]
    _extras_memo: dict[tuple, list[tuple[tuple[int, ...], int]]]
    _splits_memo: dict[tuple, list[tuple[int, list[int]]]]
    guard: int  # the top bit of every rank field
    _left: int  # the work units the hand being searched may still take
    _over_budget: Callable[[], Exception]

    def _fill(self, inst: _Instance, held: _Held, wilds: bool, demand: int) -> list[int]:
        """Realise one demand (`demand`: the instance's, packed) as packed plays: fewer
        naturals where wilds stand in instead (`wilds` false: a wild card only as
        itself). The fillings depend only on the demand, the naturals the hand holds of
        each rank it demands (up to the demand) and the wild jokers held, so they are
        kept."""
        # min(demand, hand) field by field (see MoveGenerator._short): the naturals held.
        g, hand = self.guard, held.packed
        enough = (((hand | g) - demand) & g) >> (FIELD - 1)
        full = (enough << FIELD) - enough
        key = (demand, (demand & full) | (hand & ~full), held.joker_key, wilds)
        out = self._fills.get(key)
        if out is None:
            if len(self._fills) > FILL_CACHE_LIMIT:
                self._fills.clear()
            out = []
            for packed in self._fillings(inst, held, wilds):
                out.append(packed)
                if len(out) > self._left:
                    raise self._over_budget()
            self._fills[key] = out
        return out

    def _fill_count(self, inst: _Instance, held: _Held, wilds: bool) -> int:
        """At least as many as `_fillings` makes (it may drop fillings whose wilds cannot
        stand there, or whose jokers are held as naturals): counted, not made."""
        ranks = held.ranks
        spare = held.joker_total
        least = 0
        extras = Counter({0: 1})  # wilds standing beyond the fewest -> ways
        for r, c in inst.demand:
            nat = min(ranks.get(r, 0), c)
            least += c - nat
            grown: Counter = Counter()
            for used, ways in extras.items():
                for extra in range(nat + 1):
                    grown[used + extra] += ways
            extras = grown
        spare -= least
        if spare < 0:
            return 0
        return sum(ways * _split_count(held.jokers, least + used)
                   for used, ways in extras.items() if used <= spare)

    def _fillings(self, inst: _Instance, held: _Held, wilds: bool) -> Iterator[int]:
        allowed = self.matcher.allowed if wilds else self.matcher.as_itself
        uniform_ranks = self._uniform if wilds else None
        ranks, jokers, shift = held.ranks, held.jokers, self.shift
        slots: list[tuple[int, int, int]] = []  # rank, count, fewest wilds standing there
        spare = held.joker_total
        most = 0  # the packed play with the fewest wilds: every natural it can take
        for r, c in inst.demand:
            nat = min(ranks.get(r, 0), c)
            slots.append((r, c, c - nat))
            spare -= c - nat
            most += nat << shift[r]
        if spare < 0:
            return
        units = [1 << shift[r] for r, _, _ in slots]
        least = sum(low for _, _, low in slots)
        # Jokers a demand asks for as naturals (a pair of little jokers) are not free to
        # stand in: only such ranks need the free jokers worked out per split.
        as_naturals = [i for i, (r, _, _) in enumerate(slots) if r in jokers]
        held_jokers = tuple(jokers.items())
        # Each rank may take up to as many more wilds as it holds naturals, within the
        # spare wilds: every split of naturals and wilds, in the order of the ranks.
        for extras, more in self._extras(tuple(min(c - low, spare) for _, c, low in slots),
                                         spare):
            naturals = most
            for e, u in zip(extras, units):
                if e:
                    naturals -= e * u
            free = held_jokers
            if as_naturals:
                left = dict(jokers)
                for i in as_naturals:
                    r, c, low = slots[i]
                    left[r] -= c - low - extras[i]
                if any(v < 0 for v in left.values()):
                    continue
                free = tuple(left.items())
            splits = self._splits(free, least + more)
            if uniform_ranks is not None and all(
                    r in uniform_ranks for (r, _, low), e in zip(slots, extras) if low + e):
                for add, _ in splits:
                    yield naturals + add
                continue
            nat = Counter({r: c - low - e for (r, c, low), e in zip(slots, extras)
                           if c > low + e})
            for add, stand in splits:
                if _fits(inst, nat, stand, allowed):
                    yield naturals + add

    def _extras(self, caps: tuple[int, ...], spare: int) -> list[tuple[tuple[int, ...], int]]:
        """Every (wilds beyond the fewest at each rank, their sum) within the caps and the
        spare wilds, in the order of the ranks; kept (few shapes recur)."""
        key = (caps, spare)
        out = self._extras_memo.get(key)
        if out is None:
            if len(self._extras_memo) > SMALL_MEMO_LIMIT:
                self._extras_memo.clear()
            out = self._extras_memo[key] = [
                (extras, more) for extras in itertools.product(*[range(c + 1) for c in caps])
                if (more := sum(extras)) <= spare]
        return out

    def _splits(self, free: tuple[tuple[int, int], ...],
                need: int) -> list[tuple[int, list[int]]]:
        """The ways `need` wild jokers come from those free (joker rank, count held): each
        as (its packed jokers, the wild index of each joker); kept."""
        key = (free, need)
        out = self._splits_memo.get(key)
        if out is None:
            if len(self._splits_memo) > SMALL_MEMO_LIMIT:
                self._splits_memo.clear()
            shift, wild_rank = self.shift, self.wild_rank
            out = self._splits_memo[key] = [
                (sum(c << shift[r] for r, c in split.items()),
                 [wild_rank[r] for r, c in split.items() for _ in range(c)])
                for split in _joker_splits(dict(free), need)]
        return out


def _joker_splits(free: dict[int, int], need: int) -> Iterator[dict[int, int]]:
    keys = sorted(free)
    if need == 0:
        yield {}
        return
    if not keys:
        return
    for counts in itertools.product(*[range(min(free[k], need) + 1) for k in keys]):
        if sum(counts) == need:
            yield {k: c for k, c in zip(keys, counts) if c}


def _split_count(free: dict[int, int], need: int) -> int:
    """How many ways `_joker_splits(free, need)` has (jokers of each key, at most held)."""
    ways = Counter({0: 1})
    for held in free.values():
        grown: Counter = Counter()
        for total, w in ways.items():
            for c in range(min(held, need - total) + 1):
                grown[total + c] += w
        ways = grown
    return ways[need]
