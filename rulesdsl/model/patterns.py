"""Reading a set of cards as patterns, and comparing plays.

A pattern instance is a *demand*: how many cards of each sameness key it needs
(n of a kind: {r: n}; a run: {r: g} for each step of a ladder window; a composite:
the sum of its parts). A set of cards fits a demand when its natural cards fit
under it and its wild cards can fill the rest. Trick-family runs climb the per-hand
order instead, with the adjacency and demotion rules of the hand context.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .. import notation as nt
from .hand import TRUMP, HandContext, Place
from .ruleset import PatternDef, Ruleset

MAX_PART_COMBINATIONS = 200_000
PARTIAL_WILD_BASE = 1000  # rank keys of wild cards counted apart from their rank
SUIT_FIRST_STEP = 1 << 20  # above any rank key: `ties: suit_first` puts the suit first


@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards: a pattern, its size and its key."""

    pattern: str
    size: int
    key: float
    system: str | None = None
    bomb: bool = False
    bomb_size: float = 0
    demoted: bool = False
    exclusive: bool = False
    top: int = -1  # the rank that ranks it (rank sameness), for ties broken by suit

    def describe(self) -> str:
        extra = " (demoted)" if self.demoted else ""
        return f"{self.pattern}{extra}"


def readings(hc: HandContext, cards: list[int]) -> list[Reading]:
    """Every distinct reading of `cards` as one pattern of the ruleset."""
    r = hc.ruleset
    if not cards:
        return []
    out: list[Reading] = []
    if r.sameness == "card":
        for pd in r.patterns:
            out.extend(_card_readings(hc, pd, cards))
    else:
        out.extend(_rank_readings(hc, cards))
        if r.reads_suits:
            # Before the exclusive rule: a reading that fails its suit is no reading. (An
            # exclusive pattern reads no suit: the compiler refuses both on one pattern.)
            suited = [suited_reading(hc, r.pattern(x.pattern), x, cards) for x in out]
            out = [x for x in suited if x is not None]
    out = exclusive_readings(r, out)
    unique: dict[tuple, Reading] = {}
    for x in out:
        unique.setdefault((x.pattern, x.size, x.key, x.system, x.demoted, x.bomb_size), x)
    return list(unique.values())


def exclusive_readings(ruleset: Ruleset, found: list[Reading]) -> list[Reading]:
    """The readings of one set of cards left by its exclusive ones: an exclusive reading
    removes the non-exclusive readings of the patterns it names (`exclusive: [NAME, ...]`),
    or all of them (`exclusive: true`)."""
    if not any(x.exclusive for x in found):
        return found
    drop: set[str] = set()
    for x in found:
        if x.exclusive:
            pd = ruleset.pattern(x.pattern)
            if pd is None or pd.excludes is None:
                return [y for y in found if y.exclusive]
            drop |= pd.excludes
    return [y for y in found if y.exclusive or y.pattern not in drop]


def suit_rank(hc: HandContext) -> dict[str | None, int]:
    """Each suit's place in the ruleset's suit order, lowest 0 (a joker: -1)."""
    out = hc.__dict__.get("_suit_rank")
    if out is None:
        out = hc.__dict__["_suit_rank"] = {s: i for i, s in enumerate(hc.ruleset.suit_order)}
    return out


def suited_reading(hc: HandContext, pd: PatternDef | None, reading: Reading,
                   cards: Iterable[int]) -> Reading | None:
    """A rank reading of these very cards with the pattern's suit rules applied: None when
    the natural cards are not of one suit (`suit: same`; a wild stands in the suit), the
    key extended by the suit of the best natural card of the top rank (`ties: suit`)."""
    if pd is None or (pd.suit is None and pd.ties is None):
        return reading
    wild_of = hc.wild_of if pd.wilds else {}  # `wilds: false`: every card is itself
    if pd.suit == "same":
        suits = {nt.card_suit(k) for k in cards if k not in wild_of}
        if len(suits) > 1 or None in suits:
            return None
    if pd.ties is None:
        return reading
    order = suit_rank(hc)
    tie = max((order.get(nt.card_suit(k), -1) for k in cards
               if k not in wild_of and nt.card_rank(k) == reading.top), default=-1)
    # suit_first: the suit decides before the rank (keys stay below SUIT_FIRST_STEP).
    key = (tie + 1) * SUIT_FIRST_STEP + reading.key if pd.ties == "suit_first" else \
        reading.key * 8 + tie + 1
    return Reading(reading.pattern, reading.size, key, reading.system,
                   reading.bomb, reading.bomb_size, reading.demoted, reading.exclusive,
                   reading.top)


def beats(hc: HandContext, a: Reading, b: Reading) -> bool:
    """Does play `a` beat play `b` (the led or previous play)?"""
    if hc.ruleset.suit_systems:
        if a.pattern != b.pattern or a.size != b.size:
            return False
        if a.system == b.system:
            # 下放: 「下放拖拉機不能壓比其小的且牌型相同的拖拉機」 — a demoted play never beats a
            # same-shape play of its suit; a higher regular play still beats it.
            if a.demoted and hc.ruleset.demoted == "incomparable":
                return False
            return a.key > b.key
        return a.system == TRUMP and b.system != TRUMP
    if a.bomb and not b.bomb:
        return True
    if b.bomb and not a.bomb:
        return False
    if a.bomb and b.bomb:
        return (a.bomb_size, a.key) > (b.bomb_size, b.key)
    if a.size != b.size:
        return False
    if a.pattern == b.pattern:
        return a.key > b.key
    # Classes of equal-size plays (a flush beats any straight of five).
    return a.pattern in hc.ruleset.classes_above(b.pattern)


def _make(pd: PatternDef, size: int, key: float, system: str | None = None,
          demoted: bool = False, top: int = -1, length: int = 0, step: int = 0) -> Reading:
    return Reading(pd.name, size, key, system, pd.bomb, bomb_grade(pd, size, length, step),
                   demoted, pd.exclusive, top)


def bomb_grade(pd: PatternDef, size: int, length: int = 0, step: int = 0) -> float:
    """What ranks a bomb among bombs: its `grade` (by length, fewest cards of a step and
    size), else `counts_as_size`, else its number of cards. A run whose steps may differ
    passes its length and fewest cards of a step; other shapes have one reading of both."""
    if pd.grade is not None:
        if pd.run is None:
            length, step = 1, size
        elif not length:
            length, step = size // pd.run.group, pd.run.group
        found = pd.grade.get((length, step, size))
        if found is not None:
            return found
    return pd.counts_as_size or size


# ---------------------------------------------------------------- trick family


def _card_readings(hc: HandContext, pd: PatternDef, cards: list[int]) -> list[Reading]:
    counts = Counter(cards)
    n = len(cards)
    if any(hc.place[k] is None for k in counts):
        return []
    if pd.where is not None:
        from ..runtime.expressions import Env

        if not all(pd.where(Env(k, hc.values)) for k in counts):
            return []
    if pd.shape == "cards":
        if pd.cards is not None and dict(counts) == pd.cards:
            top = max(counts, key=lambda k: hc.strength[k])
            return [_make(pd, n, hc.strength[top], hc.system[top])]
        return []
    if pd.shape == "group":
        assert pd.group is not None
        lo, hi = pd.group
        if len(counts) == 1 and lo <= n <= hi:
            kind = next(iter(counts))
            return [_make(pd, n, hc.strength[kind], hc.system[kind])]
        return []
    if pd.shape == "run" and pd.run is not None and pd.run.over is None:
        return _order_runs(hc, pd, counts)
    return []


def _order_runs(hc: HandContext, pd: PatternDef, counts: Counter) -> list[Reading]:
    assert pd.run is not None
    g = pd.run.group
    lo, hi = pd.run.length
    if any(c != g for c in counts.values()) or not lo <= len(counts) <= hi:
        return []
    options: list[list[tuple[str, Place, bool]]] = []
    for kind in counts:
        opts = [(hc.system[kind], hc.place[kind], False)]
        for alt in hc.alternates.get(kind, []):
            if pd.name in alt.patterns:
                opts.append((alt.system, alt.place, True))
        options.append(opts)  # type: ignore[arg-type]
    found: list[Reading] = []
    for combo in itertools.product(*options):
        systems = {c[0] for c in combo}
        if len(systems) != 1:
            continue
        places = sorted(c[1] for c in combo)
        if len(set(places)) != len(places):
            continue
        system = systems.pop()
        extra = {c[1] for c in combo if c[2]}
        if all(hc.adjacent(system, places[i], places[i + 1], extra)
               for i in range(len(places) - 1)):
            demoted = any(c[2] for c in combo)
            key = hc.strength_of_place(system, places[-1])
            found.append(_make(pd, g * len(places), key, system, demoted))
    if any(not f.demoted for f in found):
        # A card demotes only when it must to form the pattern (下放: 就低不就高).
        found = [f for f in found if not f.demoted]
    return found


# ---------------------------------------------------------------- rank sameness


@dataclass(frozen=True)
class _Instance:
    demand: tuple[tuple[int, int], ...]  # (rank, count) sorted
    size: int
    key: float
    length: int  # run length (steps), 0 for groups
    ranks: frozenset[int]
    top: int  # the rank that ranks it: a group's rank, a run's top step
    beyond: frozenset[int] = frozenset()  # a run's ranks just past either end of its ladder


class _RankMatcher:
    def __init__(self, hc: HandContext):
        self.hc = hc
        r = hc.ruleset
        self.rep: dict[int, int] = {}  # rank -> a representative card kind in play
        for kind in sorted(r.kinds(), key=lambda k: k in hc.wild_of):  # naturals first
            self.rep.setdefault(nt.card_rank(kind), kind)
        self.all_ranks = sorted(self.rep)
        # Wild kinds sharing their rank with kinds that are not wild (only the heart of the
        # level): move generation keys each apart from its rank, under `rank_key`, and plays
        # it as a wild card; standing for its own rank is playing it as itself.
        self.partial = {k for k in hc.wild_of if any(
            nt.card_rank(o) == nt.card_rank(k) and o not in hc.wild_of for o in r.kinds())}
        # Which ranks each wild may stand for.
        from ..runtime.expressions import Env

        self.allowed: list[frozenset[int]] = []
        for wi, wild in enumerate(r.wilds):
            ok = set()
            for kind in r.kinds():
                if wild.stands_for(Env(kind, hc.values)):
                    ok.add(nt.card_rank(kind))
            ok.update(nt.card_rank(k) for k in self.partial if hc.wild_of[k] == wi)
            self.allowed.append(frozenset(ok))
        # `wilds: false`: a wild card of a rank with natural cards stands for that rank alone
        # (played as itself); any other wild card stands for nothing.
        self.as_itself: list[frozenset[int]] = [
            frozenset(nt.card_rank(k) for k in self.partial if hc.wild_of[k] == wi)
            for wi in range(len(r.wilds))]

        self._cache: dict[tuple, list[_Instance]] = {}
        self._windows: dict[tuple[int, int], list[tuple[int, list[int]]]] = {}
        self._bombs: dict[int, list[tuple[tuple[int, int], ...]]] = {}

    def allowed_in(self, pd: PatternDef) -> list[frozenset[int]]:
        """Which ranks each wild may stand for in this pattern's plays."""
        return self.allowed if pd.wilds else self.as_itself

    def rank_key(self, kind: int) -> int:
        """The key move generation counts a card under: its rank, or its own key for a wild
        card whose rank has natural cards too."""
        return PARTIAL_WILD_BASE + kind if kind in self.partial else nt.card_rank(kind)

    def order_key(self, rank: int, by: str | None) -> float:
        if by is not None:
            from .hand import ladder_index

            return ladder_index(self.hc.ruleset.ranks[by], rank)
        kind = self.rep.get(rank)
        return self.hc.strength[kind] if kind is not None else -1

    def instances(self, pd: PatternDef, n: int) -> list[_Instance]:
        key = (pd.name, id(pd), n)
        if key not in self._cache:
            self._cache[key] = list(self._instances(pd, n))
        return self._cache[key]

    def rank_allowed(self, pd: PatternDef, rank: int) -> bool:
        """A pattern's `where` also limits which ranks wilds may make it of."""
        if pd.where is None:
            return True
        from ..runtime.expressions import Env

        return bool(pd.where(Env(self.rep[rank], self.hc.values)))

    def bomb_demands(self, n: int) -> list[tuple[tuple[int, int], ...]]:
        """The rank demands of every bomb of at most n cards (any bomb pattern)."""
        if n not in self._bombs:
            found: set[tuple[tuple[int, int], ...]] = set()
            for pd in self.hc.ruleset.patterns:
                if not pd.bomb:
                    continue
                if pd.shape == "cards":
                    if pd.cards is not None and sum(pd.cards.values()) <= n:
                        need: Counter = Counter()
                        for kind, c in pd.cards.items():
                            need[nt.card_rank(kind)] += c
                        found.add(tuple(sorted(need.items())))
                    continue
                if pd.run is not None and pd.run.group_max is not None:
                    # Every such run holds one of its shortest runs of its smallest steps.
                    found.update(demand for demand in self.shortest_runs(pd)
                                 if sum(c for _, c in demand) <= n)
                    continue
                for size in range(1, n + 1):
                    found.update(inst.demand for inst in self.instances(pd, size))
            self._bombs[n] = sorted(found)
        return self._bombs[n]

    def run_windows(self, pd: PatternDef, steps: int) -> list[tuple[int, list[int]]]:
        """(index of the top step on the run's ladder, ranks) of every window of `steps`
        distinct ranks in play that the pattern's `where` allows."""
        assert pd.run is not None and pd.run.over is not None
        out = self._windows.get((id(pd), steps))
        if out is not None:
            return out
        ladder = self.hc.ruleset.ranks[pd.run.over]
        out = self._windows[id(pd), steps] = []
        for start in range(len(ladder) - steps + 1):
            window = [nt.ACE if x == nt.LOW_ACE else x for x in ladder[start:start + steps]]
            if len(set(window)) != steps or any(w not in self.rep for w in window):
                continue
            if all(self.rank_allowed(pd, w) for w in window):
                out.append((start + steps - 1, window))
        return out

    def run_key(self, pd: PatternDef, top: int, window: list[int]) -> float:
        """A run's key: its top step's place on `by`, else its place on the run's ladder."""
        return self.order_key(window[-1], pd.by) if pd.by else top

    def shortest_runs(self, pd: PatternDef) -> list[tuple[tuple[int, int], ...]]:
        """The demands of a varying run's shortest runs of its smallest steps."""
        assert pd.run is not None
        lo, g = pd.run.length[0], pd.run.group
        return [tuple(sorted((w, g) for w in window)) for _, window in self.run_windows(pd, lo)]

    def holds_bomb(self, parts: list[_Instance], n: int) -> bool:
        """Do these parts' cards, taken together, contain a bomb?"""
        held: Counter = Counter()
        for c in parts:
            for rank, cnt in c.demand:
                held[rank] += cnt
        return any(all(held[rank] >= cnt for rank, cnt in need)
                   for need in self.bomb_demands(n))

    def _instances(self, pd: PatternDef, n: int):
        if pd.shape == "group":
            assert pd.group is not None
            lo, hi = pd.group
            if lo <= n <= hi:
                for rank in self.all_ranks:
                    if self.rank_allowed(pd, rank):
                        yield _Instance(((rank, n),), n, self.order_key(rank, pd.by), 0,
                                        frozenset([rank]), rank)
        elif pd.shape == "run":
            assert pd.run is not None and pd.run.over is not None
            if pd.run.group_max is not None:
                return  # steps of a range of cards: built from a hand (moves._varying_runs)
            g = pd.run.group
            lo, hi = pd.run.length
            if n % g:
                return
            steps = n // g
            if not lo <= steps <= hi:
                return
            ladder = self.hc.ruleset.ranks[pd.run.over]
            for top, window in self.run_windows(pd, steps):
                start = top - steps + 1
                key = self.run_key(pd, top, window)
                beyond = [ladder[i] for i in (start - 1, start + steps) if 0 <= i < len(ladder)]
                yield _Instance(tuple(sorted((w, g) for w in window)), n, key, steps,
                                frozenset(window), window[-1],
                                frozenset(nt.ACE if x == nt.LOW_ACE else x for x in beyond))
        elif pd.shape == "parts":
            for inst in self._part_instances(pd, n):
                # The composite's own `where` limits every rank it holds.
                if pd.where is None or all(self.rank_allowed(pd, r) for r in inst.ranks):
                    yield inst

    def _part_instances(self, pd: PatternDef, n: int):
        fixed = [p for p in pd.parts if not p.repeat]
        per_part = [_part_options(self, p, n) for p in fixed]
        rep_options = [_part_options(self, p, n) for p in pd.parts if p.repeat]
        key_index = _key_index(pd, fixed)
        yield from _composites(self, pd, n, per_part, rep_options, key_index,
                               MAX_PART_COMBINATIONS)


def _composites(matcher: _RankMatcher, pd: PatternDef, n: int,
                per_part: list[list[_Instance]], rep_options: list[list[_Instance]],
                key_index: int, cap: int | None) -> Iterator[_Instance]:
    """The composite instances of `n` cards made of one option per fixed part and, per
    step of the key part's run, one per repeating part; the composite's rules (same
    length, distinct, bomb-free, maximal) applied. `cap` bounds the combinations tried."""
    # Fewest and most cards one round of the repeating parts can take.
    rep_lo = sum(min((o.size for o in opts), default=n + 1) for opts in rep_options)
    rep_hi = sum(max((o.size for o in opts), default=0) for opts in rep_options)
    count = 0
    # Only the combinations within n cards are walked (same order as the product): the
    # others were skipped uncounted, so a walk over them was unbounded by the cap.
    for combo in _products_within(per_part, n):
        base_size = sum(c.size for c in combo)
        steps = combo[key_index].length
        extras: Iterable[tuple[_Instance, ...]] = [()]
        if rep_options:
            if not steps or not steps * rep_lo <= n - base_size <= steps * rep_hi:
                continue
            # Lazily, so the cap below also stops the enumeration of the picks.
            extras = _picks_totalling(rep_options, steps, n - base_size)
        for extra in extras:
            count += 1
            if cap is not None and count > cap:
                return
            parts = list(combo) + list(extra)
            if sum(c.size for c in parts) != n:
                continue
            if pd.same_length:
                lengths = {c.length for c in combo if c.length}
                if len(lengths) > 1:
                    continue
            if not _distinct_ok(pd.distinct, parts, combo[key_index]):
                continue
            lead = combo[key_index]
            if pd.bomb_free and matcher.holds_bomb(
                    parts[:key_index] + parts[key_index + 1:], n - lead.size):
                continue
            demand: Counter = Counter()
            for c in parts:
                for rank, cnt in c.demand:
                    demand[rank] += cnt
            if pd.maximal:
                run = pd.parts[pd.key].run
                assert run is not None
                if any(demand[rank] >= run.group for rank in lead.beyond):
                    continue  # another part would lengthen the key run
            key = matcher.order_key(lead.top, pd.by) if pd.by else lead.key
            yield _Instance(tuple(sorted(demand.items())), n, key, lead.length,
                            frozenset(demand), lead.top)


def _products_within(options: list[list[_Instance]], n: int) -> Iterator[tuple[_Instance, ...]]:
    """The tuples of `itertools.product(*options)` holding at most n cards, in the product's
    order, without visiting the others (sizes are positive: a prefix that cannot fit ends
    its branch)."""
    least = [0] * (len(options) + 1)
    for i in range(len(options) - 1, -1, -1):
        least[i] = least[i + 1] + min((o.size for o in options[i]), default=n + 1)
    ascending = [all(a.size <= b.size for a, b in zip(opts, opts[1:])) for opts in options]
    picked: list[_Instance] = []

    def walk(i: int, size: int) -> Iterator[tuple[_Instance, ...]]:
        if i == len(options):
            yield tuple(picked)
            return
        for o in options[i]:
            if size + o.size + least[i + 1] > n:
                if ascending[i]:
                    break  # every later option is at least as large
                continue
            picked.append(o)
            yield from walk(i + 1, size + o.size)
            picked.pop()

    if least[0] <= n:
        yield from walk(0, 0)


def _picks_totalling(rep_options: list[list[_Instance]], steps: int,
                     cards: int) -> Iterator[tuple[_Instance, ...]]:
    """`steps` options with repetition from each list (`combinations_with_replacement` per
    list, then their product, flattened), in that order, keeping the picks of exactly
    `cards` cards; branches that cannot reach `cards` are not walked."""
    lows = [min((o.size for o in opts), default=0) for opts in rep_options]
    highs = [max((o.size for o in opts), default=0) for opts in rep_options]
    later_lo = [steps * sum(lows[j + 1:]) for j in range(len(rep_options))]
    later_hi = [steps * sum(highs[j + 1:]) for j in range(len(rep_options))]
    picked: list[_Instance] = []

    def walk(j: int, slot: int, start: int, size: int) -> Iterator[tuple[_Instance, ...]]:
        if j == len(rep_options):
            if size == cards:
                yield tuple(picked)
            return
        if slot == steps:
            yield from walk(j + 1, 0, 0, size)
            return
        opts = rep_options[j]
        left = steps - slot
        for i in range(start, len(opts)):
            o = opts[i]
            if size + o.size + (left - 1) * lows[j] + later_lo[j] > cards:
                continue
            if size + o.size + (left - 1) * highs[j] + later_hi[j] < cards:
                continue
            picked.append(o)
            yield from walk(j, slot + 1, i, size + o.size)
            picked.pop()

    if rep_options and all(rep_options):
        yield from walk(0, 0, 0, 0)


def _distinct_ok(rule: bool | str, parts: list[_Instance], key: _Instance) -> bool:
    if rule is True:
        seen: set[int] = set()
        for c in parts:
            if seen & c.ranks:
                return False
            seen |= c.ranks
        return True
    if rule == "key":
        return all(not (c.ranks & key.ranks) for c in parts if c is not key)
    return True


def _rank_readings(hc: HandContext, cards: list[int]) -> list[Reading]:
    r = hc.ruleset
    matcher = hc.__dict__.get("_rank_matcher")
    if matcher is None:
        matcher = hc.__dict__["_rank_matcher"] = _RankMatcher(hc)
    from ..runtime.expressions import Env

    n = len(cards)
    wild_cards = Counter(k for k in cards if k in hc.wild_of)
    plain = [k for k in cards if k not in hc.wild_of]
    out: list[Reading] = []
    wild_kinds = sorted(wild_cards)
    splits = itertools.product(*[range(wild_cards[k] + 1) for k in wild_kinds])
    for split in splits:
        used = dict(zip(wild_kinds, split))  # kind -> how many play as wild
        naturals = list(plain)
        for k in wild_kinds:
            naturals.extend([k] * (wild_cards[k] - used[k]))
        units = [hc.wild_of[k] for k in wild_kinds for _ in range(used[k])]
        nat = Counter(nt.card_rank(k) for k in naturals)
        for pd in r.patterns:
            if pd.where is not None and not all(pd.where(Env(k, hc.values)) for k in naturals):
                continue
            if pd.shape == "cards":
                if not units and pd.cards is not None and Counter(naturals) == Counter(pd.cards):
                    top = max(naturals, key=lambda k: hc.strength[k])
                    out.append(_make(pd, n, hc.strength[top], None, top=nt.card_rank(top)))
                continue
            if pd.shape == "any":
                # Any n cards (a flush): a wild card plays as itself here.
                assert pd.group is not None
                if not units and pd.group[0] <= n <= pd.group[1]:
                    high = max(nat, key=lambda rk: matcher.order_key(rk, pd.by))
                    out.append(_make(pd, n, matcher.order_key(high, pd.by), None, top=high))
                continue
            if pd.run is not None and pd.run.group_max is not None:
                if not units:  # (the compiler refuses such runs beside wild cards)
                    out.extend(varying_run_readings(matcher, pd, nat))
                continue
            for inst in _candidates(matcher, pd, n, nat, units):
                if _fits(inst, nat, units, matcher.allowed_in(pd)):
                    if pd.where is not None and units:
                        stood = [rk for rk, _ in inst.demand if nat[rk] < dict(inst.demand)[rk]]
                        if not all(pd.where(Env(matcher.rep[rk], hc.values)) for rk in stood):
                            continue
                    out.append(_make(pd, n, inst.key, None, top=inst.top))
    return out


def varying_run_readings(matcher: _RankMatcher, pd: PatternDef,
                         counts: Counter) -> list[Reading]:
    """The readings of these rank counts as a run whose steps hold a range of cards."""
    run = pd.run
    assert run is not None and run.group_max is not None
    steps = len(counts)
    lo, hi = run.length
    if not lo <= steps <= hi or not all(run.group <= c <= run.group_max
                                         for c in counts.values()):
        return []
    if run.equal_steps and len(set(counts.values())) > 1:
        return []
    ranks = set(counts)
    size, step = sum(counts.values()), min(counts.values())
    return [_make(pd, size, matcher.run_key(pd, top, window), top=window[-1], length=steps,
                  step=step)
            for top, window in matcher.run_windows(pd, steps) if set(window) == ranks]


def _fits(inst: _Instance, nat: Counter, units: list[int],
          allowed: list[frozenset[int]]) -> bool:
    need = dict(inst.demand)
    for rank, cnt in nat.items():
        if need.get(rank, 0) < cnt:
            return False
    deficit = {rank: need[rank] - nat.get(rank, 0) for rank in need
               if need[rank] > nat.get(rank, 0)}
    if sum(deficit.values()) != len(units):
        return False
    if not units:
        return True
    # Fill deficits with wilds, most restricted wilds first (a small matching).
    remaining = dict(deficit)
    for wi in sorted(units, key=lambda w: len(allowed[w])):
        choices = [rk for rk, c in remaining.items() if c > 0 and rk in allowed[wi]]
        if not choices:
            return False
        pick = min(choices, key=lambda rk: sum(1 for w in units if rk in allowed[w]))
        remaining[pick] -= 1
    return True


# ------------------------------------------------- reading a given play of a parts pattern
#
# Reading one play must not walk every instance of a composite (an airplane of
# 20 cards has ~10^5): the instances the play could fit are drawn from the part options its
# cards can cover. `_RankMatcher._part_instances` (move generation) stays the reference;
# these functions yield exactly its instances that could fit, in its order.


def _candidates(matcher: _RankMatcher, pd: PatternDef, n: int, nat: Counter,
                units: list[int]) -> list[_Instance] | Iterator[_Instance]:
    """A sub-sequence of `matcher.instances(pd, n)` holding every instance these cards fit."""
    if pd.shape != "parts" or not [p for p in pd.parts if not p.repeat]:
        return matcher.instances(pd, n)
    counts: dict[tuple, int] = matcher.hc.__dict__.setdefault("_part_walk_sizes", {})
    key = (pd.name, id(pd), n)
    if key not in counts:
        counts[key] = _part_walk_size(matcher, pd, n)
    if counts[key] > MAX_PART_COMBINATIONS:
        return matcher.instances(pd, n)  # the reference walk stops early: keep its answer
    return _fitting_part_instances(matcher, pd, n, nat, units)


def _part_options(matcher: _RankMatcher, part: PatternDef, n: int) -> list[_Instance]:
    """Every instance of one part of at most n cards, as `_part_instances` lists them."""
    cache: dict[tuple, list[_Instance]] = matcher.hc.__dict__.setdefault("_part_options", {})
    key = (part.name, id(part), n)
    if key not in cache:
        options: list[_Instance] = []
        for size in range(1, n + 1):
            options.extend(matcher.instances(part, size))
        cache[key] = options
    return cache[key]


def _key_index(pd: PatternDef, fixed: list[PatternDef]) -> int:
    return fixed.index(pd.parts[pd.key]) if not pd.parts[pd.key].repeat else 0


def _part_walk_size(matcher: _RankMatcher, pd: PatternDef, n: int) -> int:
    """How many combinations `_part_instances(pd, n)` counts against MAX_PART_COMBINATIONS,
    computed from the sizes of the part options (no enumeration)."""
    fixed = [p for p in pd.parts if not p.repeat]
    key_index = _key_index(pd, fixed)
    rep_options = [_part_options(matcher, p, n) for p in pd.parts if p.repeat]
    rep_lo = sum(min((o.size for o in opts), default=n + 1) for opts in rep_options)
    rep_hi = sum(max((o.size for o in opts), default=0) for opts in rep_options)
    combos: Counter = Counter({(0, 0): 1})  # (cards, key run steps) -> combinations
    for i, part in enumerate(fixed):
        shapes = Counter((o.size, o.length if i == key_index else 0)
                         for o in _part_options(matcher, part, n))
        step: Counter = Counter()
        for (base, steps), ways in combos.items():
            for (size, length), m in shapes.items():
                if base + size <= n:  # sizes are positive: a larger base is skipped
                    step[base + size, steps + length] += ways * m
        combos = step
    total = 0
    for (base, steps), ways in combos.items():
        if not rep_options:
            total += ways
        elif steps and steps * rep_lo <= n - base <= steps * rep_hi:
            total += ways * _multiset_ways(rep_options, steps, n - base)
    return total


def _multiset_ways(rep_options: list[list[_Instance]], steps: int, cards: int) -> int:
    """Picks of `steps` options (with repetition) per repeating part totalling `cards`."""
    totals: Counter = Counter({0: 1})
    for opts in rep_options:
        picks: Counter = Counter({(0, 0): 1})  # (options taken, cards) -> multisets
        for size, m in Counter(o.size for o in opts).items():
            grown: Counter = Counter()
            for (taken, held), ways in picks.items():
                for j in range(steps - taken + 1):
                    if held + j * size > cards:
                        break
                    grown[taken + j, held + j * size] += ways * math.comb(m + j - 1, j)
            picks = grown
        convolved: Counter = Counter()
        for a, wa in totals.items():
            for (taken, held), wb in picks.items():
                if taken == steps and a + held <= cards:
                    convolved[a + held] += wa * wb
        totals = convolved
    return totals[cards]


def _fitting_part_instances(matcher: _RankMatcher, pd: PatternDef, n: int, nat: Counter,
                            units: list[int]) -> Iterator[_Instance]:
    """`_part_instances(pd, n)` (then the composite's `where`) over only the part options
    these cards can cover: same checks, same order, no combination cap (the caller checked
    that the reference walk is not cut short)."""
    cover: Counter = Counter()  # rank -> how many of the wild units may stand for it
    for w in units:
        cover.update(matcher.allowed[w])
    reachable = frozenset(nat).union(cover)

    def coverable(inst: _Instance) -> bool:
        # A part of a fitting instance holds no more of a rank than the naturals and the
        # wilds that may stand for it, and needs no more wilds than there are.
        spare = len(units)
        for rank, cnt in inst.demand:
            short = cnt - nat.get(rank, 0)
            if short > 0:
                spare -= short
                if short > cover[rank] or spare < 0:
                    return False
        return True

    fixed = [p for p in pd.parts if not p.repeat]
    repeating = [p for p in pd.parts if p.repeat]
    key_index = _key_index(pd, fixed)
    # The rank-set test first: it rules out most options at C speed.
    per_part = [[o for o in _part_options(matcher, p, n) if o.ranks <= reachable
                 and coverable(o)] for p in fixed]
    rep_options = [[o for o in _part_options(matcher, p, n) if o.ranks <= reachable
                    and coverable(o)] for p in repeating]
    for inst in _composites(matcher, pd, n, per_part, rep_options, key_index, None):
        if pd.where is None or all(matcher.rank_allowed(pd, r) for r in inst.ranks):
            yield inst
