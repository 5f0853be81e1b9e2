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
import math
import operator
from collections import Counter
from collections.abc import Iterator

from ... import notation as nt
from ...errors import RulesdslError
from ...model.hand import HandContext
from ...model.patterns import (
    Reading,
    _Instance,
    _make,
    _RankMatcher,
    exclusive_readings,
)
from ...model.ruleset import PatternDef
from .composites import FIELD_MASK, Composites, Option, _Plan
from .fillings import FIELD, WildFillings, _Held
from .hand_plays import Entry, HandPlays, Play, Shape, entry_order, shape_of

PlayRow = tuple[Play, list[Entry]]  # a play and its lead entries

__all__ = ["Entry", "HandPlays", "LeadPlaysBound", "MoveGenerator", "Play"]
# Every cache here is bounded and starts afresh when full, so a long run over one compiled
# ruleset keeps a flat cost and memory (issue 22: 1,000 hands of any bundled ruleset stay
# under 300 MB). A state keeps its own seats' plays (`_seat_hp`), so the hand caches only
# serve positions met again (copies, restored states); random and search play meet few
# (a six-seat wild game under ISMCTS: the same ms a move at 250,000 cached entries and at
# 10,000), and every cached entry is one more object for the garbage collector to scan (a
# suited two-pack game's self-play: 165 µs/decision at 250,000, 132 at 10,000).
CACHE_LIMIT = 4_000  # hands kept per game before the cache starts afresh
# ...or lead entries held by those hands (a six-seat, four-deck hand with wilds has
# thousands: counting hands alone let the cache grow to gigabytes).
ENTRY_LIMIT = 10_000
PLAY_LIMIT = 200_000  # plays whose entries (and sorted rank keys) are kept
EVEN_LIMIT = 5_000  # held instance lists kept per group or run pattern
HELD_INSTANCES, COMPOSITES, OTHER_WAY = 0, 1, 2  # how a pattern's plays are found (no wild)
# A file within every other bound can still ask one hand for more plays than anyone could
# choose from (runs of any height over eight packs, sixteen wilds filling long runs): past
# this many plays or wild fillings in one hand the generator stops with a located error,
# never with a shorter list. Random hands of the bundled rulesets stay below 12,000; the
# widest hand a bundled deal can give (eight wild jokers, four packs) has 1.6 million.
MAX_LEAD_PLAYS = 2_000_000


class LeadPlaysBound(RulesdslError):
    """A hand's lead plays would exceed MAX_LEAD_PLAYS (the pattern being searched named
    at its definition)."""

    def __init__(self, pd: PatternDef | None, cards: int):
        self.pattern = pd
        where = f"{pd.located}pattern {pd.name!r}: " if pd is not None else ""
        super().__init__(f"{where}the lead plays of a hand of {cards} cards number more "
                         f"than {MAX_LEAD_PLAYS} (max lead plays)")


class MoveGenerator(WildFillings, Composites):
    """Plays of one hand context (one ruleset, fixed for the hand)."""

    suited = False  # plays are rank keys: the engine picks their cards (SuitedMoves: cards)

    def __init__(self, hc: HandContext):
        self.hc = hc
        matcher = hc.__dict__.get("_rank_matcher")
        if matcher is None:
            matcher = hc.__dict__["_rank_matcher"] = _RankMatcher(hc)
        self.matcher: _RankMatcher = matcher
        r = hc.ruleset
        self.wild_rank: dict[int, int] = {}  # joker rank key -> wild index
        for kind, wi in hc.wild_of.items():
            self.wild_rank[matcher.rank_key(kind)] = wi
        self.max_size = r.deal["hand_size"] + r.deal.get("kitty", 0)
        # When every wild may stand for the same ranks, a wild filling needs no matching.
        allowed = {matcher.allowed[wi] for wi in self.wild_rank.values()}
        self._uniform: frozenset[int] | None = allowed.pop() if len(allowed) == 1 else None
        # Rank keys in play, their packed-field positions, and each kind's rank.
        self.ranks = sorted(set(matcher.all_ranks) | {matcher.rank_key(k) for k in r.kinds()})
        self.shift = {rank: FIELD * i for i, rank in enumerate(self.ranks)}
        self._shifts = list(self.shift.items())
        self.bit = {rank: 1 << i for i, rank in enumerate(self.ranks)}
        self.guard = sum(1 << (FIELD * i + FIELD - 1) for i in range(len(self.ranks)))
        # The fields of the wild jokers' ranks: a hand with none there holds no wild.
        self._wild_fields = sum(FIELD_MASK << self.shift[r] for r in self.wild_rank
                                if r in self.shift)
        self.rank_of: list[int] = [matcher.rank_key(k) for k in range(len(r.deck))]
        self._rep_kind: dict[int, int] = {}  # rank key -> a card kind of that rank
        for kind in reversed(range(len(r.deck))):
            self._rep_kind[self.rank_of[kind]] = kind
        self._flat: dict[int, tuple[int, list[tuple[int, _Instance]]]] = {}
        self._bomb_packed: list[int] | None = None
        self._capped: dict[tuple[int, int], set[tuple[tuple[int, int], ...]] | None] = {}
        self._any_cap: dict[int, bool] = {}
        self._sizes: dict[int, frozenset[int]] = {}  # composite pattern -> its sizes
        self._allowed: dict[int, int] = {}
        self._beyond_shifts: dict[int, list[int]] = {}
        self._made: dict[tuple, Reading] = {}
        self._fixed: dict[int, tuple[int, Reading, list[tuple[int, int]]] | None] = {}
        # composite pattern -> (id of its key part instance, size) -> reading
        self._lead_reading: dict[int, dict[tuple[int, int], Reading]] = {}
        self._play_of: dict[int, Play] = {}  # packed demand -> sorted rank keys
        # packed play -> (play, its lead entries): the same for every hand holding it
        self._entries_of: dict[int, PlayRow] = {}
        # (packed demand, naturals held of it, wild jokers held, wilds) -> packed fillings
        self._fills: dict[tuple, list[int]] = {}
        self._extras_memo: dict[tuple, list[tuple[tuple[int, ...], int]]] = {}
        self._splits_memo: dict[tuple, list[tuple[int, list[int]]]] = {}
        self._held_memo: dict[tuple, list[Option]] = {}  # part class -> held options (a hand)
        self._classes: dict[int, tuple] = {}
        self._plans: dict[int, _Plan] = {}
        # (composite pattern, packed demand, reading) -> its instance to fill, or None
        self._composite_memo: dict[tuple[int, int, int], tuple[Reading, _Instance | None]] = {}
        # One card of each kind, packed (kinds not in play never reach a hand).
        self.unit: list[int] = [1 << self.shift[r] if r in self.shift else 0 for r in self.rank_of]
        self._by_kinds: dict[tuple[int, ...], HandPlays] = {}  # card counts -> plays
        self._by_ranks: dict[int, HandPlays] = {}  # packed rank counts -> plays
        self._cached_entries = 0  # lead entries of the hands in _by_ranks (at most)
        # The plays and fillings the hand being searched may still make (MAX_LEAD_PLAYS),
        # and the pattern searched, for the error.
        self._left = MAX_LEAD_PLAYS
        self._searching: PatternDef | None = None
        self._cards = 0
        self._counting = False  # count_lead_plays: wild fillings counted, not made
        self._pattern_named = {pd.name: pd for pd in r.patterns}
        self._flat_sized: dict[tuple[int, int], list[Option]] = {}
        self._flat_ends: dict[int, list[int]] = {}  # pattern -> end of each size's instances
        self._ways: list[tuple[PatternDef, int]] | None = None  # see _natural_ways
        # group or run pattern -> (need, span, held mask -> held instances), or None
        self._even: dict[int, tuple[int, int, dict[int, list[Option]]] | None] = {}

    # ------------------------------------------------------------ hands

    def play_key(self, cards: tuple[int, ...]) -> Play:
        """How a play of these cards is listed: its sorted rank keys."""
        rank_of = self.rank_of
        return tuple(sorted(rank_of[k] for k in cards))

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
                     sum(ranks.values()), tuple(jokers.items()))

    def _held_of(self, packed: int) -> _Held:
        """The hand of these packed rank counts."""
        ranks = dict(self._unpack(packed))
        jokers = {r: ranks[r] for r in self.wild_rank if r in ranks} \
            if packed & self._wild_fields else {}
        return _Held(ranks, packed, jokers, sum(jokers.values()), packed % FIELD_MASK,
                     tuple(jokers.items()))

    def _fits_hand(self, packed: int, held: _Held) -> bool:
        """Does the hand hold this demand, but for at most as many cards as it has wilds?"""
        if not held.joker_total:
            g = self.guard
            return ((held.packed | g) - packed) & g == g
        return self._short(packed, held) <= held.joker_total

    def hand_plays(self, hand: list[int]) -> HandPlays:
        """The lead plays of a hand (card-kind counts), cached by its counts."""
        key = tuple(hand)
        hp = self._by_kinds.get(key)
        if hp is None:
            packed = sum(map(operator.mul, self.unit, hand))
            hp = self._by_ranks.get(packed)
            if hp is None:
                hp = HandPlays(packed, None, self.guard, None, self)  # made on demand
                self._remember(hp)
            self._remember_kinds(key, hp)
        return hp

    # ------------------------------------------------------------ made on demand
    # (HandPlays asks: a hand's every lead play, one shape's, or its bombs.)

    def lead_entries(self, packed: int) -> list[Entry]:
        entries = self._lead_plays(self._held_of(packed), packed).entries
        self._cached_entries += len(entries)
        return entries

    def whole(self, packed: int) -> bool:
        """Make a hand's plays whole at the first question when it holds no wild card."""
        return not packed & self._wild_fields

    def shape_entries(self, packed: int, shape: Shape) -> list[Entry]:
        """The lead entries of one (pattern, size), in entry order: the plays of that
        pattern the hand holds, each read as the full list reads it (its readings depend
        on its cards alone)."""
        pd = self._pattern_named[shape[0]]
        plays = self._candidates([pd], self._held_of(packed), shape[1])
        out = [e for p in plays for e in self.play_entries(p) if e.shape == shape]
        out.sort(key=entry_order)
        return out

    def bomb_entries(self, packed: int) -> list[Entry]:
        """The lead entries read as bombs, in entry order."""
        pds = [pd for pd in self.hc.ruleset.patterns if pd.bomb]
        plays = self._candidates(pds, self._held_of(packed)) if pds else []
        out = [e for p in plays for e in self.play_entries(p) if e.reading.bomb]
        out.sort(key=entry_order)
        return out

    def play_entries(self, packed: int) -> list[Entry]:
        """A play's lead entries, as any hand holding it lists them (its readings depend
        on its cards alone, wilds included; tests/test_play_entries.py), and kept."""
        known = self._entries_of.get(packed)
        if known is None:
            if len(self._entries_of) > PLAY_LIMIT:
                self._entries_of.clear()
            known = self._entries_of[packed] = self._entries(packed, self._readings(packed))
        return known[1]

    def _readings(self, packed: int) -> list[Reading]:
        """A play's readings: its own cards taken as a hand, the plays of it that use
        every card (of group and run patterns only the instances of its size)."""
        held = self._held_of(packed)
        n = held.total
        self._held_memo = {}
        self._left, self._cards = MAX_LEAD_PLAYS, n
        found: list[Reading] = []
        for pd in self.hc.ruleset.patterns:
            self._searching = pd
            if pd.shape in ("group", "run") and (pd.run is None or pd.run.group_max is None):
                for x in self._sized_options(pd, held, n):
                    if x[0] == packed or held.joker_total and \
                            packed in self._fill(x[2], held, pd.wilds, x[0]):
                        found.append(x[3])
                continue
            if pd.shape == "parts":  # only the composites of its size
                if n in self._part_sizes(pd):
                    found.extend(r for x, r in self._pattern_plays(pd, held, n) if x == packed)
                continue
            items, at = self._pattern_source(pd, held)
            found.extend(x[at] for x in items if x[0] == packed)
        return found

    def _candidates(self, pds: list[PatternDef], held: _Held, size: int | None = None) \
            -> list[int]:
        """The distinct plays (packed) of these patterns the hand holds, of one size."""
        self._held_memo = {}
        self._left, self._cards = MAX_LEAD_PLAYS, held.total
        found: dict[int, None] = {}
        for pd in pds:
            self._searching = pd
            if size is not None and pd.shape in ("group", "run") and \
                    (pd.run is None or pd.run.group_max is None):
                # Only the instances of that size: fillings keep a demand's size.
                for x in self._sized_options(pd, held, size):
                    if held.joker_total:
                        found.update(dict.fromkeys(self._fill(x[2], held, pd.wilds, x[0])))
                    else:
                        found[x[0]] = None
                continue
            items, at = self._pattern_source(pd, held)
            for x in items:
                if size is None or x[at].size == size:
                    found[x[0]] = None
        return list(found)

    def _sized_options(self, pd: PatternDef, held: _Held, size: int) -> list[Option]:
        """The instances of one size of a group or run pattern the hand holds."""
        key = (id(pd), size)
        flat = self._flat_sized.get(key)
        if flat is None:
            flat = self._flat_sized[key] = [x for x in self._flat_instances(pd, size)
                                            if x[2].size == size]
        if not held.joker_total:
            g = self.guard
            cg = held.packed | g
            return [x for x in flat if (cg - x[0]) & g == g]
        return [x for x in flat if self._fits_hand(x[0], held)]

    def played(self, hp: HandPlays, cards: tuple[int, ...]) -> HandPlays:
        """The plays left once `cards` are played from a hand whose plays are `hp`: the
        old ones the smaller hand still holds (pruned, not generated afresh)."""
        packed = hp.packed
        unit = self.unit
        for k in cards:
            packed -= unit[k]
        out = self._by_ranks.get(packed)
        if out is None:
            out = hp.pruned(packed)
            self._remember(out)
        return out

    def _remember(self, hp: HandPlays) -> None:
        made = len(hp.entries) if hp.made else 0  # (a hand made by shape: not counted)
        self._cached_entries += made
        if len(self._by_ranks) > CACHE_LIMIT or self._cached_entries > ENTRY_LIMIT:
            # Both indexes go: _by_kinds would otherwise keep the dropped hands alive.
            self._by_ranks.clear()
            self._by_kinds.clear()
            self._cached_entries = made
        self._by_ranks[hp.packed] = hp

    def _remember_kinds(self, key: tuple[int, ...], hp: HandPlays) -> None:
        if len(self._by_kinds) > CACHE_LIMIT:
            self._by_kinds.clear()
        self._by_kinds[key] = hp

    # ------------------------------------------------------------ plays

    def plays(self, hand: list[int], after: Reading | None = None) -> dict[Play, list[Reading]]:
        """Distinct plays with their readings; with `after`, only those that beat it."""
        hp = self.hand_plays(hand)
        if after is None:
            return dict(hp.plays)
        out: dict[Play, list[Reading]] = {}
        for e in hp.beating(self.hc, after):
            out.setdefault(e.play, []).append(e.reading)
        return out

    def _over_budget(self) -> LeadPlaysBound:
        assert self._searching is not None
        return LeadPlaysBound(self._searching, self._cards)

    def _spend(self, units: int) -> None:
        self._left -= units
        if self._left < 0:
            raise self._over_budget()

    def count_lead_plays(self, hand: list[int]) -> int:
        """The work units (plays, and wild fillings counted without being made) a hand's
        lead plays take: what validation checks against MAX_LEAD_PLAYS, without listing
        them. Raises LeadPlaysBound past the bound."""
        self._counting = True
        try:
            self._sources(self._held(self.rank_counts(hand)))
        finally:
            self._counting = False
        return MAX_LEAD_PLAYS - self._left

    def _lead_plays(self, held: _Held, packed_hand: int) -> HandPlays:
        sources = self._sources(held)
        # A play's readings depend on its cards alone, wild jokers included: every hand
        # holding it finds the same ones (a demand is tried whenever the hand holds it but
        # for as many cards as it has wilds, and its fillings spread the wilds over every
        # split of naturals and wilds). So its entries are made once and shared.
        known = self._entries_of
        if len(known) > PLAY_LIMIT:
            known.clear()
        plays = dict.fromkeys([x[0] for items, _ in sources for x in items])
        rows = list(map(known.get, plays))
        if None in rows:
            new: dict[int, list[Reading]] = {p: [] for p, row in zip(plays, rows)
                                             if row is None}
            for items, at in sources:  # the readings found, in the order found
                for x in items:
                    rs = new.get(x[0])
                    if rs is not None:
                        rs.append(x[at])
            for packed, rs in new.items():
                known[packed] = self._entries(packed, rs)
            rows = list(map(known.__getitem__, plays))
        rows.sort(key=_first)  # by play (each once)
        return HandPlays(packed_hand, [e for row in rows for e in row[1]], self.guard)

    def _sources(self, held: _Held) -> list[tuple[list, int]]:
        """Every play found, pattern by pattern, as (list, index of the reading in its
        items): the items of the lists start with the packed play."""
        self._held_memo = {}
        self._left, self._cards = MAX_LEAD_PLAYS, held.total
        sources: list[tuple[list, int]] = []
        if held.joker_total:
            for pd in self.hc.ruleset.patterns:
                self._searching = pd
                sources.append(self._pattern_source(pd, held))
            return sources
        # No wild card: each pattern's way is known in advance (_pattern_source's order).
        for pd, way in self._natural_ways():
            self._searching = pd
            if way == HELD_INSTANCES:
                options = self._held_options(pd, held)
                self._left -= len(options)
                if self._left < 0:
                    raise self._over_budget()
                sources.append((options, 3))
            elif way == COMPOSITES:
                sources.append((self._composites(pd, held), 1))
            else:
                sources.append(self._pattern_source(pd, held))
        return sources

    def _natural_ways(self) -> list[tuple[PatternDef, int]]:
        """Each pattern with how _pattern_source finds its plays in a hand without wild
        cards: its held instances, its composites as they are, or otherwise."""
        ways = self._ways
        if ways is None:
            ways = self._ways = []
            for pd in self.hc.ruleset.patterns:
                way = OTHER_WAY
                if pd.shape == "parts" and not self._has_cap(pd):
                    way = COMPOSITES
                elif pd.shape in ("group", "run") and (pd.run is None
                                                       or pd.run.group_max is None):
                    way = HELD_INSTANCES
                ways.append((pd, way))
        return ways

    def _pattern_source(self, pd: PatternDef, held: _Held) -> tuple[list, int]:
        """One pattern's plays in the hand, as _sources lists them."""
        if pd.shape == "any":
            return self._any_plays(pd, held), 1
        if pd.run is not None and pd.run.group_max is not None:
            return self._varying_runs(pd, held), 1
        if held.joker_total:
            return list(self._pattern_plays(pd, held)), 1
        if pd.shape == "parts" and not self._has_cap(pd):
            return self._composites(pd, held), 1  # played as they are
        if pd.shape in ("group", "run"):
            options = self._held_options(pd, held)
            self._spend(len(options))
            return options, 3
        return list(self._pattern_plays(pd, held)), 1

    def _entries(self, packed: int, found: list[Reading]) -> PlayRow:
        """A play's lead actions from the readings found for it: the best reading of
        each pattern; a play with several readings is one action per reading, named."""
        play = self._play(packed)
        best: dict[str, Reading] = {}
        for x in found:
            old = best.get(x.pattern)
            if old is None or x.key > old.key:
                best[x.pattern] = x
        rs = list(best.values())
        if len(rs) == 1:
            return play, [Entry(play, None, rs[0], packed, shape_of(rs[0]))]
        rs = exclusive_readings(self.hc.ruleset, rs)
        rs.sort(key=lambda x: x.pattern)
        return play, [Entry(play, x.pattern if len(rs) > 1 else None, x, packed, shape_of(x))
                      for x in rs]

    def _play(self, packed: int) -> Play:
        """The sorted rank keys of a packed demand."""
        play = self._play_of.get(packed)
        if play is None:
            if len(self._play_of) > PLAY_LIMIT:
                self._play_of.clear()
            ranks: list[int] = []
            for r, sh in self._shifts:
                c = (packed >> sh) & FIELD_MASK
                if c:
                    ranks += [r] * c
            play = self._play_of[packed] = tuple(ranks)
        return play

    def _packed_play(self, play: Play) -> int:
        packed = self.pack(Counter(play).items())
        self._play_of.setdefault(packed, play)
        return packed

    def _reading(self, pd: PatternDef, size: int, key: float, top: int) -> Reading:
        """_make, shared: readings are immutable and the same ones recur in every hand."""
        k = (id(pd), size, key, top)
        r = self._made.get(k)
        if r is None:
            r = self._made[k] = _make(pd, size, key, top=top)
        return r

    def _pattern_plays(self, pd: PatternDef, held: _Held,
                       size: int = 0) -> Iterator[tuple[int, Reading]]:
        """(packed play, reading) for every play of one pattern the hand holds (with
        `size`, of a composite pattern only the plays of that many cards)."""
        ranks = held.ranks
        if pd.shape == "cards":
            fixed = self._fixed_play(pd)
            if fixed is not None and all(ranks.get(r, 0) >= c for r, c in fixed[2]):
                self._spend(1)
                yield fixed[0], fixed[1]
            return
        if pd.shape == "parts":
            found = self._composites(pd, held, size)
            if not held.joker_total and not self._has_cap(pd):
                # No wild card in hand: a demand is played exactly as it is.
                yield from found
                return
            candidates: list[tuple[int, _Instance]] = []  # (packed demand, instance)
            for packed, reading in found:
                inst = self._composite_instance(pd, packed, reading)
                if inst is not None:
                    candidates.append((packed, inst))
        elif not held.joker_total:
            for x in self._held_options(pd, held):
                yield x[0], x[3]
            return
        else:
            candidates = [(x[0], x[2]) for x in self._held_options(pd, held)]
        if not held.joker_total:
            for packed, inst in candidates:
                yield packed, self._reading(pd, inst.size, inst.key, inst.top)
            return
        if self._counting:
            for _, inst in candidates:
                self._spend(self._fill_count(inst, held, pd.wilds))
            return
        for demand, inst in candidates:
            reading = self._reading(pd, inst.size, inst.key, inst.top)
            fills = self._fill(inst, held, pd.wilds, demand)
            self._spend(len(fills))
            for packed in fills:
                yield packed, reading

    def _any_plays(self, pd: PatternDef, held: _Held) -> list[tuple[int, Reading]]:
        """(packed play, reading) of every set of the pattern's size the hand holds, from
        the hand itself (the sets of a pack are too many to list): an `any` pattern."""
        assert pd.group is not None
        lo, hi = pd.group
        ranks = [r for r in sorted(held.ranks) if held.ranks[r] and
                 (pd.where is None or r not in self.matcher.rep
                  or self.matcher.rank_allowed(pd, r))]
        order = [self.matcher.order_key(r, pd.by) for r in ranks]
        out: list[tuple[int, Reading]] = []
        shift = self.shift

        # Depth first, in the order of the ranks: (next rank, cards, packed, highest).
        stack: list[tuple[int, int, int, int]] = [(0, 0, 0, -1)]
        while stack:
            i, size, packed, high = stack.pop()
            if size >= lo:
                top = ranks[high]
                out.append((packed, self._reading(pd, size, order[high], top)))
                self._left -= 1
                if self._left < 0:
                    raise self._over_budget()
            if size == hi:
                continue
            grown: list[tuple[int, int, int, int]] = []
            for j in range(i, len(ranks)):
                r = ranks[j]
                best = j if high < 0 or order[j] > order[high] else high
                for c in range(1, held.ranks[r] + 1):
                    if size + c > hi:
                        break
                    grown.append((j + 1, size + c, packed + (c << shift[r]), best))
            stack.extend(reversed(grown))
        return out

    def _varying_runs(self, pd: PatternDef, held: _Held) -> list[tuple[int, Reading]]:
        """(packed play, reading) of every run the hand holds whose steps hold a range of
        cards each (a run of bombs), from the hand itself: the ruleset has no wilds."""
        run = pd.run
        assert run is not None and run.group_max is not None
        lo, hi = run.length
        g_lo, g_hi = run.group, run.group_max
        ranks, shift = held.ranks, self.shift
        out: list[tuple[int, Reading]] = []
        for steps in range(lo, hi + 1):
            if steps * g_lo > held.total:
                break
            for top, window in self.matcher.run_windows(pd, steps):
                caps = [min(ranks.get(w, 0), g_hi) for w in window]
                if min(caps) < g_lo:
                    continue
                key = self.matcher.run_key(pd, top, window)
                # Counted before they are made: a run of many steps has too many.
                self._spend(min(caps) - g_lo + 1 if run.equal_steps else
                            math.prod(cap - g_lo + 1 for cap in caps))
                counts = ([(c,) * steps for c in range(g_lo, min(caps) + 1)]
                          if run.equal_steps else
                          itertools.product(*[range(g_lo, cap + 1) for cap in caps]))
                for cs in counts:
                    size = sum(cs)
                    made = (id(pd), size, key, window[-1], steps, min(cs))
                    r = self._made.get(made)
                    if r is None:
                        r = self._made[made] = _make(pd, size, key, top=window[-1],
                                                     length=steps, step=min(cs))
                    out.append((sum(c << shift[w] for c, w in zip(cs, window)), r))
        return out

    def _fixed_play(self, pd: PatternDef) -> tuple[int, Reading, list[tuple[int, int]]] | None:
        """A `cards` pattern's play (packed), reading and rank demand, or None when it is
        switched off."""
        if id(pd) not in self._fixed:
            out = None
            if pd.cards is not None:
                ok = True
                if pd.where is not None:
                    from ...runtime.expressions import Env

                    ok = all(pd.where(Env(k, self.hc.values)) for k in pd.cards)
                if ok:
                    need: Counter = Counter()
                    for kind, c in pd.cards.items():
                        need[nt.card_rank(kind)] += c
                    top = max(pd.cards, key=lambda k: self.hc.strength[k])
                    out = (self._packed_play(tuple(sorted(need.elements()))),
                           self._reading(pd, sum(pd.cards.values()), self.hc.strength[top],
                                         nt.card_rank(top)),
                           list(need.items()))
            self._fixed[id(pd)] = out
        return self._fixed[id(pd)]

    # ------------------------------------------------------------ held instances

    def _flat_instances(self, pd: PatternDef, size: int) -> list[Option]:
        """Every instance of a group or run pattern, of every size (at least up to `size`),
        with its packed demand and rank mask."""
        upto, out = self._flat.get(id(pd), (0, []))
        if upto < size:
            upto = max(size, self.max_size)
            out = []
            ends = self._flat_ends[id(pd)] = [0]  # ends[n]: instances of at most n cards
            for n in range(1, upto + 1):
                for inst in self.matcher.instances(pd, n):
                    packed = self.pack(inst.demand)
                    self._play_of.setdefault(
                        packed, tuple(r for r, c in inst.demand for _ in range(c)))
                    out.append((packed, self._mask(inst.ranks), inst,
                                self._reading(pd, inst.size, inst.key, inst.top)))
                ends.append(len(out))
            self._flat[id(pd)] = (upto, out)
        return out

    def _mask(self, ranks) -> int:
        bit = self.bit
        return sum(bit[r] for r in ranks)

    def _held_options(self, pd: PatternDef, held: _Held, part: bool = False) -> list[Option]:
        """The instances of a group or run pattern the hand holds (with its wilds). A
        part's are shared with every equal part within one hand (the readings in the
        options are then another part's: parts use only demands and instances)."""
        if not held.joker_total and held.total <= self.max_size:
            even = self._even.get(id(pd), self)
            if even is self:
                even = self._even_table(pd)
            if even is not None:
                # Which instances a hand holds depends only on which of their ranks it
                # holds `group` times: one subtraction, then the list kept for that.
                need, span, known = even
                ranks_held = ((held.packed | self.guard) - need) & span
                out = known.get(ranks_held)
                if out is None:
                    if len(known) > EVEN_LIMIT:
                        known.clear()
                    g = self.guard
                    cg = held.packed | g
                    flat = self._flat_instances(pd, self.max_size)
                    out = known[ranks_held] = [x for x in flat if (cg - x[0]) & g == g]
                return out
        if part:
            key = self._part_class(pd)
            out = self._held_memo.get(key)
            if out is None:
                out = self._held_memo[key] = self._held_options(pd, held)
            return out
        flat = self._flat_instances(pd, held.total)
        ends = self._flat_ends[id(pd)]  # instances come by size: none larger than the hand
        if held.total < len(ends) - 1:
            flat = flat[:ends[held.total]]
        if not held.joker_total:
            g = self.guard
            cg = held.packed | g
            return [x for x in flat if (cg - x[0]) & g == g]
        short, wild = self._short, held.joker_total
        return [x for x in flat if short(x[0], held) <= wild]

    def _even_table(self, pd: PatternDef) -> tuple[int, int, dict[int, list[Option]]] | None:
        """For a group or run pattern whose every instance asks the same number of cards
        of each of its ranks: that number at every field (to subtract), the guard bits of
        the ranks its instances use, and the held lists found so far; else None."""
        out = None
        if pd.shape in ("group", "run") and (pd.run is None or pd.run.group_max is None):
            flat = self._flat_instances(pd, self.max_size)
            counts = {c for x in flat for _, c in x[2].demand}
            if len(counts) == 1:
                fields = sum(1 << sh for sh in self.shift.values())
                used = {r for x in flat for r, _ in x[2].demand}
                span = sum(1 << (self.shift[r] + FIELD - 1) for r in used)
                out = (counts.pop() * fields, span, {})
        self._even[id(pd)] = out
        return out

    def _part_class(self, pd: PatternDef) -> tuple:
        """Parts with equal keys accept the same instances (see _same_part)."""
        key = self._classes.get(id(pd))
        if key is None:
            key = self._classes[id(pd)] = (
                pd.shape, pd.group, repr(pd.run), pd.by,
                None if pd.cards is None else tuple(sorted(pd.cards.items())), id(pd.where))
        return key

    def _unpack(self, packed: int) -> list[tuple[int, int]]:
        out = []
        for r, sh in self._shifts:
            c = (packed >> sh) & FIELD_MASK
            if c:
                out.append((r, c))
        return out

    def _short(self, packed: int, held: _Held) -> int:
        """How many cards of a demand the hand lacks (wilds must stand in for them), for
        every rank at once: the fields where the hand holds enough (no borrow into the
        guard bit) take the demand, the others the hand; the fields of a packed vector
        sum to it modulo 2**16 - 1 (2**16 is 1 there), exactly while counts stay small."""
        g = self.guard
        hand = held.packed
        enough = (((hand | g) - packed) & g) >> (FIELD - 1)
        full = (enough << FIELD) - enough  # all ones in those fields
        common = (packed & full) | (hand & ~full)  # min(demand, hand), field by field
        return packed % FIELD_MASK - common % FIELD_MASK


_first = operator.itemgetter(0)  # a row's play
