"""Every distinct play a shedding hand holds, wild readings included.

Cards of one rank are interchangeable in these games (sameness: rank), so a play
is a multiset of rank keys (jokers keep their own keys, 15 and 16) with a reading
(pattern and key). Plays are generated from the hand: a pattern's instances
(rank demands) are kept only when the hand holds them, or holds them but for as
many cards as it has wilds, and composites are assembled from such held parts.
Demands are filled with natural cards and with the few wild cards a hand holds;
the readings agree with rulesdsl.model.patterns.readings (a test checks this).

A hand's lead plays depend only on its rank counts, so they are computed once per
rank-count vector (`HandPlays`) and cached; when a player plays, the plays of the
smaller hand are the old ones it still holds (pruned, not regenerated). A follow
is a lookup: the led pattern and size with a higher key, and the bombs.

Rank counts are also packed into one integer, 16 bits per rank, so "does the hand
hold this demand" is one subtraction and mask for every rank at once (SWAR).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ...model import notation as nt
from ...model.hand import HandContext
from ...model.patterns import (
    MAX_PART_COMBINATIONS,
    Reading,
    _distinct_ok,
    _fits,
    _Instance,
    _make,
    _part_walk_size,
    _RankMatcher,
    beats,
)
from ...model.ruleset import PatternDef

Play = tuple[int, ...]  # sorted rank keys
FIELD = 16  # bits per rank in a packed count vector; counts stay far below 2**15
CACHE_LIMIT = 20_000  # hands kept per game before the cache starts afresh


@dataclass(frozen=True)
class Entry:
    """One lead action of a hand: a play, and its pattern when the play has several."""

    play: Play
    name: str | None  # the pattern named in the action (None: the play has one reading)
    reading: Reading
    packed: int  # the play's rank demand, packed


class HandPlays:
    """The lead plays of one rank-count vector, indexed for following."""

    def __init__(self, plays: dict[Play, list[Reading]], entries: list[Entry]):
        self.plays = plays
        self.entries = entries  # sorted by (play, name): the order of legal_actions()
        # Non-bomb entries by (pattern, size); every bomb entry. Indexes into entries.
        self.shapes: dict[tuple[str, int], list[int]] = {}
        self.bombs: list[int] = []
        for i, e in enumerate(entries):
            if e.reading.bomb:
                self.bombs.append(i)
            else:
                self.shapes.setdefault((e.reading.pattern, e.reading.size), []).append(i)

    def beating(self, hc: HandContext, after: Reading) -> list[int]:
        """Indexes (ascending) of the entries whose reading beats `after`."""
        rs = self.entries
        if after.bomb:
            found = [i for i in self.bombs if beats(hc, rs[i].reading, after)]
        else:
            key = after.key
            same = [i for i in self.shapes.get((after.pattern, after.size), ())
                    if rs[i].reading.key > key]
            found = sorted(same + self.bombs) if self.bombs else same
        return found

    def pruned(self, packed: int, guard: int) -> HandPlays:
        """The plays a smaller hand (packed counts) still holds."""
        cg = packed | guard
        entries = [e for e in self.entries if (cg - e.packed) & guard == guard]
        plays = {e.play: self.plays[e.play] for e in entries}
        return HandPlays(plays, entries)


@dataclass
class _Held:
    """A hand seen by rank: counts, packed counts, wild jokers."""

    ranks: dict[int, int]  # rank -> count (jokers under their own rank keys)
    packed: int
    jokers: dict[int, int]  # wild joker rank -> count held
    joker_total: int
    total: int


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
        # Rank keys in play, their packed-field positions, and each kind's rank.
        self.ranks = sorted(set(matcher.all_ranks) | {nt.card_rank(k) for k in r.kinds()})
        self.shift = {rank: FIELD * i for i, rank in enumerate(self.ranks)}
        self.guard = sum(1 << (FIELD * i + FIELD - 1) for i in range(len(self.ranks)))
        self.rank_of: list[int] = [nt.card_rank(k) for k in range(len(r.deck))]
        self._flat: dict[int, tuple[int, list[tuple[int, _Instance]]]] = {}
        self._bomb_packed: list[int] | None = None
        self._capped: dict[tuple[int, int], set[tuple[tuple[int, int], ...]] | None] = {}
        self._by_kinds: dict[tuple[int, ...], HandPlays] = {}
        self._by_ranks: dict[tuple[tuple[int, int], ...], HandPlays] = {}

    # ------------------------------------------------------------ hands

    def rank_counts(self, hand: list[int]) -> Counter:
        out: Counter = Counter()
        rank_of = self.rank_of
        for kind, c in enumerate(hand):
            if c:
                out[rank_of[kind]] += c
        return out

    def pack(self, demand) -> int:
        """A rank demand ((rank, count) pairs) as one integer."""
        shift = self.shift
        return sum(c << shift[r] for r, c in demand)

    def _held(self, ranks: Counter) -> _Held:
        jokers = {r: ranks[r] for r in self.wild_rank if ranks[r]}
        return _Held(dict(ranks), self.pack(ranks.items()), jokers, sum(jokers.values()),
                     sum(ranks.values()))

    def _fits_hand(self, packed: int, demand, held: _Held) -> bool:
        """Does the hand hold this demand, but for at most as many cards as it has wilds?"""
        if not held.joker_total:
            g = self.guard
            return ((held.packed | g) - packed) & g == g
        ranks = held.ranks
        short = 0
        for r, c in demand:
            h = ranks.get(r, 0)
            if h < c:
                short += c - h
        return short <= held.joker_total

    def hand_plays(self, hand: list[int]) -> HandPlays:
        """The lead plays of a hand (card-kind counts), cached by its counts."""
        key = tuple(hand)
        hp = self._by_kinds.get(key)
        if hp is None:
            ranks = self.rank_counts(hand)
            rkey = tuple(sorted(ranks.items()))
            hp = self._by_ranks.get(rkey)
            if hp is None:
                hp = self._lead_plays(ranks)
                self._remember(rkey, hp)
            if len(self._by_kinds) > CACHE_LIMIT:
                self._by_kinds.clear()
            self._by_kinds[key] = hp
        return hp

    def after_play(self, before: list[int], after: list[int]) -> None:
        """A player played cards from `before` leaving `after`: prune the old plays now, so
        the smaller hand's plays are not generated afresh."""
        old = self._by_kinds.get(tuple(before))
        if old is None or tuple(after) in self._by_kinds:
            return
        ranks = self.rank_counts(after)
        rkey = tuple(sorted(ranks.items()))
        hp = self._by_ranks.get(rkey)
        if hp is None:
            hp = old.pruned(self.pack(ranks.items()), self.guard)
            self._remember(rkey, hp)
        self._by_kinds[tuple(after)] = hp

    def _remember(self, rkey: tuple[tuple[int, int], ...], hp: HandPlays) -> None:
        if len(self._by_ranks) > CACHE_LIMIT:
            self._by_ranks.clear()
        self._by_ranks[rkey] = hp

    # ------------------------------------------------------------ plays

    def plays(self, hand: list[int], after: Reading | None = None) -> dict[Play, list[Reading]]:
        """Distinct plays with their readings; with `after`, only those that beat it."""
        hp = self.hand_plays(hand)
        if after is None:
            return dict(hp.plays)
        out: dict[Play, list[Reading]] = {}
        for i in hp.beating(self.hc, after):
            e = hp.entries[i]
            out.setdefault(e.play, []).append(e.reading)
        return out

    def _lead_plays(self, ranks: Counter) -> HandPlays:
        held = self._held(ranks)
        found: dict[Play, dict[tuple[str, bool], Reading]] = {}
        for pd in self.hc.ruleset.patterns:
            for play, reading in self._pattern_plays(pd, held):
                slot = found.setdefault(play, {})
                key = (reading.pattern, reading.bomb)
                if key not in slot or reading.key > slot[key].key:
                    slot[key] = reading
        plays: dict[Play, list[Reading]] = {}
        entries: list[Entry] = []
        for play in sorted(found):
            rs = list(found[play].values())
            if any(x.exclusive for x in rs):
                rs = [x for x in rs if x.exclusive]
            rs.sort(key=lambda x: x.pattern)
            plays[play] = rs
            packed = self.pack(Counter(play).items())
            # A play with several readings is one action per reading, named.
            for x in rs:
                entries.append(Entry(play, x.pattern if len(rs) > 1 else None, x, packed))
        return HandPlays(plays, entries)

    def _pattern_plays(self, pd: PatternDef, held: _Held) -> Iterator[tuple[Play, Reading]]:
        ranks = held.ranks
        if pd.shape == "cards":
            if pd.cards is None:
                return
            n = sum(pd.cards.values())
            if pd.where is not None:
                from ...language.typecheck import Env

                if not all(pd.where(Env(k, self.hc.values)) for k in pd.cards):
                    return  # switched off, or not these cards
            need = Counter()
            for kind, c in pd.cards.items():
                need[nt.card_rank(kind)] += c
            if all(ranks.get(r, 0) >= c for r, c in need.items()):
                top = max(pd.cards, key=lambda k: self.hc.strength[k])
                yield tuple(sorted(need.elements())), _make(pd, n, self.hc.strength[top])
            return
        if pd.shape == "parts":
            candidates: Iterator[_Instance] = self._composites(pd, held)
        else:
            candidates = (inst for _, inst in self._held_options(pd, held))
        if not held.joker_total:
            # No wild card in hand: a demand is played exactly as it is.
            for inst in candidates:
                play = tuple(r for r, c in inst.demand for _ in range(c))
                yield play, _make(pd, inst.size, inst.key)
            return
        for inst in candidates:
            demand = dict(inst.demand)
            naturals_max = {r: min(ranks.get(r, 0), c) for r, c in demand.items()}
            yield from self._fill(pd, inst, demand, naturals_max, held.jokers)

    # ------------------------------------------------------------ held instances

    def _flat_instances(self, pd: PatternDef, size: int) -> list[tuple[int, _Instance]]:
        """Every instance of a group or run pattern, of every size (at least up to `size`),
        with its packed demand."""
        upto, out = self._flat.get(id(pd), (0, []))
        if upto < size:
            upto = max(size, self.max_size)
            out = [(self.pack(inst.demand), inst)
                   for n in range(1, upto + 1)
                   for inst in self.matcher.instances(pd, n)]
            self._flat[id(pd)] = (upto, out)
        return out

    def _held_options(self, pd: PatternDef, held: _Held) -> list[tuple[int, _Instance]]:
        """The instances of a group or run pattern the hand holds (with its wilds)."""
        flat = self._flat_instances(pd, held.total)
        if not held.joker_total:
            g = self.guard
            cg = held.packed | g
            return [x for x in flat if (cg - x[0]) & g == g]
        return [x for x in flat if self._fits_hand(x[0], x[1].demand, held)]

    def _bombs(self) -> list[int]:
        if self._bomb_packed is None:
            self._bomb_packed = [self.pack(d) for d in self.matcher.bomb_demands(self.max_size)]
        return self._bomb_packed

    def _holds_bomb(self, packed: int) -> bool:
        g = self.guard
        cg = packed | g
        return any((cg - b) & g == g for b in self._bombs())

    def _composites(self, pd: PatternDef, held: _Held) -> Iterator[_Instance]:
        """The composite instances the hand holds, assembled from held parts.

        The same instances as _RankMatcher._part_instances kept when held: parts are
        chosen only among held instances (a part of a held play is held), and identical
        non-key parts are chosen in a fixed order, since swapping them gives the same
        demand and passes the same checks."""
        fixed = [p for p in pd.parts if not p.repeat]
        repeating = [p for p in pd.parts if p.repeat]
        key_index = fixed.index(pd.parts[pd.key]) if not pd.parts[pd.key].repeat else 0
        opts = [self._held_options(p, held) for p in fixed]
        if any(not o for o in opts):
            return
        rep_opts = [self._held_options(p, held) for p in repeating]
        # An identical earlier non-key part: pick at or after its option (no swaps).
        same_as: list[int | None] = []
        for i, p in enumerate(fixed):
            prev = next((j for j in reversed(range(i)) if key_index not in (i, j)
                         and _same_part(fixed[j], p)), None)
            same_as.append(prev)
        limit = held.total
        rule = pd.distinct
        found: set[tuple[tuple[int, int], ...]] = set()

        def finish(parts: list[_Instance], packed: int) -> _Instance | None:
            n = sum(c.size for c in parts)
            lead = parts[key_index]
            if pd.same_length:
                if len({c.length for c in parts[:len(fixed)] if c.length}) > 1:
                    return None
            if not _distinct_ok(rule, parts, lead):
                return None
            if pd.bomb_free:
                rest = packed - self.pack(lead.demand)
                if self._holds_bomb(rest):
                    return None
            demand: Counter = Counter()
            for c in parts:
                for rank, cnt in c.demand:
                    demand[rank] += cnt
            if pd.maximal:
                run = pd.parts[pd.key].run
                assert run is not None
                if any(demand[rank] >= run.group for rank in lead.beyond):
                    return None  # another part would lengthen the key run
            if pd.where is not None and not all(self.matcher.rank_allowed(pd, r)
                                                for r in demand):
                return None
            dem = tuple(sorted(demand.items()))
            if dem in found:
                return None
            found.add(dem)
            capped = self._capped_demands(pd, n)
            if capped is not None and dem not in capped:
                return None  # the reference walk stops before this instance
            key = self.matcher.order_key(lead.top, pd.by) if pd.by else lead.key
            return _Instance(dem, n, key, lead.length, frozenset(demand), lead.top)

        def ok(packed: int, demand_parts: list[_Instance]) -> bool:
            if not held.joker_total:
                g = self.guard
                return ((held.packed | g) - packed) & g == g
            total: Counter = Counter()
            for c in demand_parts:
                for rank, cnt in c.demand:
                    total[rank] += cnt
            return self._fits_hand(packed, total.items(), held)

        chosen: list[_Instance] = []
        picks: list[int] = []

        def rec_rep(slots: list[int], k: int, start: int, packed: int, size: int) \
                -> Iterator[_Instance]:
            if k == len(slots):
                inst = finish(chosen, packed)
                if inst is not None:
                    yield inst
                return
            part = slots[k]
            first = start if k and slots[k - 1] == part else 0
            for j in range(first, len(rep_opts[part])):
                p, inst = rep_opts[part][j]
                if size + inst.size > limit:
                    continue
                if (rule is True or rule == "key") and inst.ranks & chosen[key_index].ranks:
                    continue  # distinct (True or key): never of the key part's ranks
                chosen.append(inst)
                if ok(packed + p, chosen):
                    yield from rec_rep(slots, k + 1, j, packed + p, size + inst.size)
                chosen.pop()

        def rec_fixed(i: int, packed: int, size: int) -> Iterator[_Instance]:
            if i == len(fixed):
                if not repeating:
                    inst = finish(chosen, packed)
                    if inst is not None:
                        yield inst
                    return
                steps = chosen[key_index].length
                if not steps:
                    return
                slots = [r for r in range(len(repeating)) for _ in range(steps)]
                yield from rec_rep(slots, 0, 0, packed, size)
                return
            start = picks[same_as[i]] if same_as[i] is not None else 0
            for j in range(start, len(opts[i])):
                p, inst = opts[i][j]
                if size + inst.size > limit:
                    continue
                if rule is True and any(inst.ranks & c.ranks for c in chosen):
                    continue
                if rule == "key" and chosen and (
                        (i == key_index and any(inst.ranks & c.ranks for c in chosen))
                        or (i > key_index and inst.ranks & chosen[key_index].ranks)):
                    continue
                chosen.append(inst)
                picks.append(j)
                if ok(packed + p, chosen):
                    yield from rec_fixed(i + 1, packed + p, size + inst.size)
                chosen.pop()
                picks.pop()

        yield from rec_fixed(0, 0, 0)

    def _capped_demands(self, pd: PatternDef, n: int) -> set[tuple[tuple[int, int], ...]] | None:
        """When `_part_instances(pd, n)` stops at MAX_PART_COMBINATIONS, the demands it
        reaches (a play beyond them is no play); None when it walks them all."""
        key = (id(pd), n)
        if key not in self._capped:
            capped = None
            if _part_walk_size(self.matcher, pd, n) > MAX_PART_COMBINATIONS:
                capped = {inst.demand for inst in self.matcher.instances(pd, n)}
            self._capped[key] = capped
        return self._capped[key]

    # ------------------------------------------------------------ wilds

    def _fill(self, pd, inst, demand, naturals_max, jokers):
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


def _same_part(a: PatternDef, b: PatternDef) -> bool:
    """Two parts that accept exactly the same instances."""
    return (a.shape, a.group, a.run, a.by, a.cards) == (b.shape, b.group, b.run, b.by, b.cards) \
        and a.where is b.where and not a.parts and not b.parts


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
