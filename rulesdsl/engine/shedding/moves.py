"""Every distinct play a shedding hand holds, wild readings included.

Cards of one rank are interchangeable in these games (sameness: rank), so a play
is a multiset of rank keys (jokers keep their own keys, 15 and 16) with a reading
(pattern and key). Plays are generated from pattern instances (rank demands)
filled with natural cards and with the few wild cards a hand holds; the readings
agree with rulesdsl.model.patterns.readings (a test checks this).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from ...model import notation as nt
from ...model.hand import HandContext
from ...model.patterns import Reading, _fits, _make, _RankMatcher
from ...model.ruleset import PatternDef

Play = tuple[int, ...]  # sorted rank keys


class MoveGenerator:
    """Plays of one hand context (one ruleset, fixed for the hand)."""

    def __init__(self, hc: HandContext):
        self.hc = hc
        matcher = hc.__dict__.get("_rank_matcher")
        if matcher is None:
            matcher = hc.__dict__["_rank_matcher"] = _RankMatcher(hc)
        self.matcher: _RankMatcher = matcher
        r = hc.ruleset
        self.wild_rank: dict[int, int] = {}  # joker rank key -> wild index
        for kind, wi in hc.wild_of.items():
            self.wild_rank[nt.card_rank(kind)] = wi
        self.max_size = r.deal["hand_size"] + r.deal.get("kitty", 0)

    def rank_counts(self, hand: list[int]) -> Counter:
        out: Counter = Counter()
        for kind, c in enumerate(hand):
            if c:
                out[nt.card_rank(kind)] += c
        return out

    def plays(self, hand: list[int], after: Reading | None = None) -> dict[Play, list[Reading]]:
        """Distinct plays with their readings; with `after`, only those that beat it."""
        from ...model.patterns import beats

        ranks = self.rank_counts(hand)
        total = sum(ranks.values())
        found: dict[Play, dict[tuple[str, bool], Reading]] = {}
        for pd in self.hc.ruleset.patterns:
            if after is not None and not pd.bomb and pd.name != after.pattern:
                continue
            sizes = [after.size] if after is not None and not pd.bomb else range(1, total + 1)
            for n in sizes:
                for play, reading in self._pattern_plays(pd, n, ranks):
                    slot = found.setdefault(play, {})
                    key = (reading.pattern, reading.bomb)
                    if key not in slot or reading.key > slot[key].key:
                        slot[key] = reading
        out: dict[Play, list[Reading]] = {}
        for play, slot in found.items():
            rs = list(slot.values())
            if any(x.exclusive for x in rs):
                rs = [x for x in rs if x.exclusive]
            if after is not None:
                rs = [x for x in rs if beats(self.hc, x, after)]
            if rs:
                out[play] = sorted(rs, key=lambda x: x.pattern)
        return out

    def _pattern_plays(self, pd: PatternDef, n: int, ranks: Counter) \
            -> Iterator[tuple[Play, Reading]]:
        if pd.shape == "cards":
            if pd.cards is None or sum(pd.cards.values()) != n:
                return
            if pd.where is not None:
                from ...language.typecheck import Env

                if not all(pd.where(Env(k, self.hc.values)) for k in pd.cards):
                    return  # switched off, or not these cards
            need = Counter()
            for kind, c in pd.cards.items():
                need[nt.card_rank(kind)] += c
            if all(ranks[r] >= c for r, c in need.items()):
                top = max(pd.cards, key=lambda k: self.hc.strength[k])
                yield tuple(sorted(need.elements())), _make(pd, n, self.hc.strength[top])
            return
        jokers = {r: ranks[r] for r in self.wild_rank if ranks[r]}
        joker_total = sum(jokers.values())
        if not joker_total:
            # No wild card in hand: a demand is played exactly as it is, when held.
            for inst in self.matcher.instances(pd, n):
                if all(ranks[r] >= c for r, c in inst.demand):
                    play = tuple(r for r, c in inst.demand for _ in range(c))
                    yield play, _make(pd, inst.size, inst.key)
            return
        for inst in self.matcher.instances(pd, n):
            demand = dict(inst.demand)
            naturals_max = {r: min(ranks[r], c) for r, c in demand.items()}
            shortfall = n - sum(naturals_max.values())
            if shortfall > joker_total:
                continue
            yield from self._fill(pd, inst, demand, naturals_max, ranks, jokers)

    def _fill(self, pd, inst, demand, naturals_max, ranks, jokers):
        """Realise one demand: fewer naturals where wilds stand in instead."""
        order = sorted(demand)
        joker_total = sum(jokers.values())
        # d_r: wilds standing at rank r; at least the shortfall of naturals there.
        low = {r: demand[r] - naturals_max[r] for r in order}
        spare = joker_total - sum(low.values())
        if spare < 0:
            return
        for extra in _distributions(order, spare, {r: naturals_max[r] for r in order}):
            deficit = {r: low[r] + extra.get(r, 0) for r in order}
            wild_needed = sum(deficit.values())
            naturals = {r: demand[r] - deficit[r] for r in order}
            # Jokers used as naturals (a pair of little jokers) are not free to stand in.
            free = dict(jokers)
            for r, c in naturals.items():
                if r in free:
                    free[r] -= c
                    if free[r] < 0:
                        break
            else:
                for split in _joker_splits(free, wild_needed):
                    units = [self.wild_rank[r] for r, c in split.items() for _ in range(c)]
                    nat = Counter({r: c for r, c in naturals.items() if c})
                    if not _fits(inst, nat, units, self.matcher.allowed):
                        continue
                    cards: Counter = Counter(nat)
                    for r, c in split.items():
                        cards[r] += c
                    yield tuple(sorted(cards.elements())), _make(pd, inst.size, inst.key)


def _distributions(order: list[int], total: int, caps: dict[int, int]) -> Iterator[dict]:
    """Ways to add up to `total` extra wild slots over ranks (each at most its cap)."""
    yield {}
    if total <= 0:
        return
    for size in range(1, total + 1):
        for combo in itertools.combinations_with_replacement(order, size):
            c = Counter(combo)
            if all(c[r] <= caps[r] for r in c):
                yield dict(c)


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
