"""Composite plays (parts: a full house, an airplane with wings) assembled from a hand's
held parts, and what the generator knows of each composite pattern (its plan, the sizes
it can have, where the reference walk stops).

A mixin of MoveGenerator, like WildFillings: it reads the generator's rank fields, held
options and work budget. One walk over a hand is a `_CompositeWalk`: its state in slots,
its steps as methods (no recursive closure, so no reference cycle left per walk).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from typing import NamedTuple

from ...model.patterns import (
    MAX_PART_COMBINATIONS,
    Reading,
    _Instance,
    _key_index,
    _part_options,
    _part_walk_size,
    _RankMatcher,
)
from ...model.ruleset import PatternDef
from .fillings import FIELD, _Held

FIELD_MASK = (1 << FIELD) - 1
Option = tuple[int, int, _Instance, Reading]  # packed demand, rank mask, instance, reading
COMPOSITE_MEMO_LIMIT = 100_000  # composites kept as instances to fill


class _Plan(NamedTuple):
    """A composite pattern's parts and rules, as _composites uses them."""

    fixed: list[PatternDef]  # the parts that appear once, in order
    repeating: list[PatternDef]  # the parts that appear once per step of the key run
    key_index: int  # the key part among `fixed`
    same_as: list[int | None]  # an identical earlier non-key part of each fixed part
    every: bool  # every two parts of different ranks
    from_key: bool  # no other part of the key part's ranks
    maximal_group: int  # the key run's group when it must be maximal, else 0
    last_size: int  # the cards of every instance of the last fixed part, else 0
    kicked: bool  # a key part, then one part of kickers of last_size cards, nothing more


class Composites:
    """The composite plays of a hand (mixed into MoveGenerator)."""

    matcher: _RankMatcher
    ranks: list[int]
    shift: dict[int, int]
    guard: int
    max_size: int
    _left: int
    _over_budget: Callable[[], Exception]
    _plans: dict[int, _Plan]
    _composite_memo: dict[tuple[int, int, int], tuple[Reading, _Instance | None]]
    _lead_reading: dict[int, dict[tuple[int, int], Reading]]
    _bomb_packed: list[int] | None
    _beyond_shifts: dict[int, list[int]]
    _allowed: dict[int, int]
    _any_cap: dict[int, bool]
    _sizes: dict[int, frozenset[int]]
    _capped: dict[tuple[int, int], set[tuple[tuple[int, int], ...]] | None]
    pack: Callable[..., int]
    _mask: Callable[..., int]
    _unpack: Callable[[int], list[tuple[int, int]]]
    _short: Callable[[int, _Held], int]
    _fits_hand: Callable[..., bool]
    _held_options: Callable[..., list[Option]]
    _reading: Callable[..., Reading]

    def _composites(self, pd: PatternDef, held: _Held,
                    exact: int = 0) -> list[tuple[int, Reading]]:
        """(packed demand, reading) of every composite instance the hand holds (with
        `exact`, only those of that many cards).

        The instances of _RankMatcher._part_instances (then the composite's `where`) the
        hand holds, assembled from held parts (a part of a held play is held). Identical
        non-key parts are chosen in a fixed order, since swapping them gives the same
        demand and passes the same checks; distinct ranks are checked with rank masks as
        parts are added, and a bomb among the other parts only against the hand's bombs."""
        plan = self._plans.get(id(pd))
        if plan is None:
            plan = self._plans[id(pd)] = self._plan(pd)
        opts = []
        for p in plan.fixed:
            o = self._held_options(p, held, True)
            if not o:
                return []
            opts.append(o)
        rep_opts = [self._held_options(p, held, True) for p in plan.repeating]
        g = self.guard
        bombs: list[int] = []
        if pd.bomb_free:  # a bomb among the other parts is one the hand holds
            if held.joker_total:
                bombs = [b for b in self._bombs() if self._fits_hand(b, held)]
            else:
                cg = held.packed | g
                bombs = [b for b in self._bombs() if (cg - b) & g == g]
        # The fewest cards of a bomb the hand holds: other parts of fewer cannot hide one.
        bomb_min = min(b % FIELD_MASK for b in bombs) if bombs else self.max_size + 1
        if plan.kicked and not held.joker_total and plan.last_size < bomb_min:
            return self._kicked(pd, plan, held, exact, opts[0], opts[1])
        walk = _CompositeWalk(self, pd, plan, held, exact, opts, rep_opts, bombs, bomb_min)
        walk.fixed_part(0, 0, 0, 0)
        return walk.out

    def _kicked(self, pd: PatternDef, plan: _Plan, held: _Held, exact: int,
                keys: list[Option], kickers: list[Option]) -> list[tuple[int, Reading]]:
        """The walk of a key part and one part of kickers of one size (a trio with a
        single, a trio with a pair) when the hand holds no wild and no bomb could hide
        among the kickers: two loops, the kickers a mask filter."""
        g = self.guard
        cg = held.packed | g
        limit, last_size = held.total, plan.last_size
        outside = ~self._allowed_mask(pd)
        apart = plan.every or plan.from_key  # no kicker of the key's ranks
        reads = self._lead_reading.setdefault(id(pd), {})
        out: list[tuple[int, Reading]] = []
        for p, m, inst, _ in keys:
            n = inst.size + last_size
            if n > limit or exact and n != exact or m & outside:
                continue
            found = _held_with(p, m, outside | m if apart else outside, cg, g, kickers)
            if found:
                r = reads.get((id(inst), n))
                if r is None:
                    r = self._composite_reading(pd, inst, n)
                out.extend(zip(found, repeat(r)))
        self._left -= len(out)
        if self._left < 0:
            raise self._over_budget()
        return out

    def _bombs(self) -> list[int]:
        if self._bomb_packed is None:
            self._bomb_packed = [self.pack(d) for d in self.matcher.bomb_demands(self.max_size)]
        return self._bomb_packed

    def _composite_instance(self, pd: PatternDef, packed: int,
                            reading: Reading) -> _Instance | None:
        """A held composite as an instance to fill with wilds (only its demand, size and key
        matter there), or None when the reference walk stops before it."""
        key = (id(pd), packed, id(reading))
        known = self._composite_memo.get(key)
        if known is not None and known[0] is reading:
            return known[1]
        demand = tuple(self._unpack(packed))  # (rank, count), ranks ascending
        capped = self._capped_demands(pd, reading.size)
        inst = None
        if capped is None or demand in capped:
            inst = _Instance(demand, reading.size, reading.key, 0,
                             frozenset(r for r, _ in demand), reading.top)
        if len(self._composite_memo) > COMPOSITE_MEMO_LIMIT:
            self._composite_memo.clear()
        self._composite_memo[key] = (reading, inst)  # the reading kept: its id stays its own
        return inst

    def _plan(self, pd: PatternDef) -> _Plan:
        """What _composites needs of a composite pattern, worked out once."""
        fixed = [p for p in pd.parts if not p.repeat]
        repeating = [p for p in pd.parts if p.repeat]
        key_index = fixed.index(pd.parts[pd.key]) if not pd.parts[pd.key].repeat else 0
        # An identical earlier non-key part: pick at or after its option (no swaps).
        same_as: list[int | None] = []
        for i, p in enumerate(fixed):
            prev = next((j for j in reversed(range(i)) if key_index not in (i, j)
                         and _same_part(fixed[j], p)), None)
            same_as.append(prev)
        every = pd.distinct is True  # every two parts of different ranks
        from_key = every or pd.distinct == "key"  # no other part of the key part's ranks
        key_run = pd.parts[pd.key].run
        maximal_group = key_run.group if pd.maximal and key_run is not None else 0
        last = fixed[-1]
        sizes = {o.size for o in _part_options(self.matcher, last, self.max_size)} \
            if last.shape == "group" else set()
        last_size = sizes.pop() if len(sizes) == 1 else 0
        kicked = len(fixed) == 2 and key_index == 0 and not repeating and not pd.same_length \
            and last_size > 0 and not maximal_group
        return _Plan(fixed, repeating, key_index, same_as, every, from_key, maximal_group,
                     last_size, kicked)

    def _composite_reading(self, pd: PatternDef, lead: _Instance, size: int) -> Reading:
        reads = self._lead_reading.setdefault(id(pd), {})
        r = reads.get((id(lead), size))
        if r is None:
            key = self.matcher.order_key(lead.top, pd.by) if pd.by else lead.key
            r = reads[(id(lead), size)] = self._reading(pd, size, key, lead.top)
        return r

    def _beyond(self, inst: _Instance) -> list[int]:
        out = self._beyond_shifts.get(id(inst))
        if out is None:
            out = self._beyond_shifts[id(inst)] = [self.shift[r] for r in inst.beyond
                                                   if r in self.shift]
        return out

    def _allowed_mask(self, pd: PatternDef) -> int:
        """The ranks a composite's own `where` lets it hold, as a mask."""
        out = self._allowed.get(id(pd))
        if out is None:
            out = self._allowed[id(pd)] = self._mask(
                r for r in self.ranks if r not in self.matcher.rep
                or self.matcher.rank_allowed(pd, r))
        return out

    def _has_cap(self, pd: PatternDef) -> bool:
        """Does _part_instances stop at MAX_PART_COMBINATIONS for some size of `pd`?"""
        out = self._any_cap.get(id(pd))
        if out is None:
            out = self._any_cap[id(pd)] = any(
                self._capped_demands(pd, n) is not None for n in range(1, self.max_size + 1))
        return out

    def _part_sizes(self, pd: PatternDef) -> frozenset[int]:
        """The sizes a composite pattern's instances may have: its parts' option sizes
        added up (the key part's run steps deciding how often the repeating parts come);
        a superset, since the checks on ranks are left out."""
        out = self._sizes.get(id(pd))
        if out is None:
            top, matcher = self.max_size, self.matcher
            fixed = [p for p in pd.parts if not p.repeat]
            key_index = _key_index(pd, fixed)
            reached = {(0, 0)}  # (cards, key run steps)
            for i, part in enumerate(fixed):
                shapes = {(o.size, o.length if i == key_index else 0)
                          for o in _part_options(matcher, part, top)}
                reached = {(b + n, k + steps) for b, k in reached for n, steps in shapes
                           if b + n <= top}
            repeating = [sorted({o.size for o in _part_options(matcher, p, top)})
                         for p in pd.parts if p.repeat]
            sizes: set[int] = set()
            for base, steps in reached:
                if not repeating:
                    sizes.add(base)
                    continue
                totals = {base} if steps else set()
                for options in repeating:  # each repeating part once per step
                    for _ in range(steps):
                        totals = {t + n for t in totals for n in options if t + n <= top}
                sizes |= totals
            out = self._sizes[id(pd)] = frozenset(sizes)
        return out

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


class _CompositeWalk:
    """One walk over a hand's held parts: the fixed parts in order, then the repeating
    parts once per step of the key run; each complete choice checked and read."""

    __slots__ = ("gen", "pd", "held", "exact", "opts", "rep_opts", "bombs", "fixed",
                 "repeating", "key_index", "same_as", "every", "from_key", "maximal_group",
                 "last_size", "last", "limit", "allowed", "wild", "g", "cg", "reads", "out",
                 "chosen", "picks", "key_mask", "key_packed", "bomb_min")

    def __init__(self, gen: Composites, pd: PatternDef, plan: _Plan, held: _Held, exact: int,
                 opts: list[list[Option]], rep_opts: list[list[Option]], bombs: list[int],
                 bomb_min: int):
        self.gen, self.pd, self.held, self.exact = gen, pd, held, exact
        self.opts, self.rep_opts, self.bombs, self.bomb_min = opts, rep_opts, bombs, bomb_min
        (self.fixed, self.repeating, self.key_index, self.same_as, self.every,
         self.from_key, self.maximal_group, self.last_size, _) = plan
        self.last = len(plan.fixed) - 1
        self.limit = held.total
        self.allowed = gen._allowed_mask(pd)
        self.wild = held.joker_total
        self.g = gen.guard
        self.cg = held.packed | gen.guard
        self.reads = gen._lead_reading.setdefault(id(pd), {})  # (lead, size) -> reading
        self.out: list[tuple[int, Reading]] = []
        self.chosen: list[_Instance] = []
        self.picks: list[int] = []
        self.key_mask = self.key_packed = 0

    def finish(self, packed: int, mask: int, size: int) -> None:
        if mask & ~self.allowed or self.exact and size != self.exact:
            return
        lead = self.chosen[self.key_index]
        if self.bombs:
            g = self.g
            rest = (packed - self.key_packed) | g
            for b in self.bombs:
                if (rest - b) & g == g:
                    return
        if self.maximal_group:
            for sh in self.gen._beyond(lead):
                if (packed >> sh) & FIELD_MASK >= self.maximal_group:
                    return  # another part would lengthen the key run
        r = self.reads.get((id(lead), size))
        if r is None:
            r = self.gen._composite_reading(self.pd, lead, size)
        self.out.append((packed, r))
        gen = self.gen
        gen._left -= 1
        if gen._left < 0:
            raise gen._over_budget()

    def complete(self, packed: int, mask: int, size: int) -> None:
        # Every fixed part chosen: check lengths, then add the repeating parts.
        if self.pd.same_length and len({c.length for c in self.chosen if c.length}) > 1:
            return
        if not self.repeating:
            self.finish(packed, mask, size)
            return
        steps = self.chosen[self.key_index].length
        if steps:
            self.repeating_part([r for r in range(len(self.repeating)) for _ in range(steps)],
                                0, 0, packed, mask, size)

    def repeating_part(self, slots: list[int], k: int, start: int, packed: int, mask: int,
                       size: int) -> None:
        if k == len(slots):
            self.finish(packed, mask, size)
            return
        part = slots[k]
        first = start if k and slots[k - 1] == part else 0
        options = self.rep_opts[part]
        every, from_key, limit, chosen = self.every, self.from_key, self.limit, self.chosen
        wild, g, cg = self.wild, self.g, self.cg
        short, held = self.gen._short, self.held
        for j in range(first, len(options)):
            p, m, inst, _ = options[j]
            if size + inst.size > limit or (m & mask if every else
                                            from_key and m & self.key_mask):
                continue
            np = packed + p
            if short(np, held) > wild if wild else (cg - np) & g != g:
                continue  # the hand does not hold these parts together
            chosen.append(inst)
            self.repeating_part(slots, k + 1, j, np, mask | m, size + inst.size)
            chosen.pop()

    def fixed_part(self, i: int, packed: int, mask: int, size: int) -> None:
        options = self.opts[i]
        same = self.same_as[i]
        start = self.picks[same] if same is not None else 0
        every, from_key, limit = self.every, self.from_key, self.limit
        key_index, chosen, picks = self.key_index, self.chosen, self.picks
        wild, g, cg = self.wild, self.g, self.cg
        short, held = self.gen._short, self.held
        # The last fixed part of a composite with nothing more to check goes straight on.
        last = self.last
        direct = i == last and not self.repeating and not self.pd.same_length
        if direct and i != key_index:
            self.last_part(options, start, packed, mask, size)
            return
        for j in range(start, len(options)):
            p, m, inst, _ = options[j]
            if size + inst.size > limit:
                continue
            if every:
                if m & mask:
                    continue
            elif from_key and (m & mask if i == key_index else
                               i > key_index and m & self.key_mask):
                continue
            np = packed + p
            if short(np, held) > wild if wild else (cg - np) & g != g:
                continue  # the hand does not hold these parts together
            if i == key_index:
                self.key_mask, self.key_packed = m, p
            chosen.append(inst)
            picks.append(j)
            if direct:
                self.finish(np, mask | m, size + inst.size)
            elif i == last:
                self.complete(np, mask | m, size + inst.size)
            else:
                self.fixed_part(i + 1, np, mask | m, size + inst.size)
            chosen.pop()
            picks.pop()


    def last_part(self, options: list[Option], start: int, packed: int, mask: int,
                  size: int) -> None:
        """The last fixed part, after the key part: `fixed_part` and `finish` in one loop
        (the hot path of a composite with kickers)."""
        every, from_key, limit = self.every, self.from_key, self.limit
        key_mask = self.key_mask
        wild, g, cg = self.wild, self.g, self.cg
        short, held = self.gen._short, self.held
        lead = self.chosen[self.key_index]
        lead_id = id(lead)
        outside = ~self.allowed
        exact = self.exact
        plain = not self.bombs and not self.maximal_group
        reads, out = self.reads, self.out
        n = size + self.last_size
        if not wild and self.last_size and not self.maximal_group and \
                n - lead.size < self.bomb_min:
            # Every option of the same size: one reading, and the checks left are masks
            # (no bomb the hand holds is small enough to hide among the other parts).
            if n > limit or exact and n != exact or mask & outside:
                return
            found = _held_with(packed, mask,
                               outside | (mask if every else key_mask if from_key else 0),
                               cg, g, options[start:] if start else options)
            if found:
                r = reads.get((lead_id, n))
                if r is None:
                    r = self.gen._composite_reading(self.pd, lead, n)
                out.extend(zip(found, repeat(r)))
                gen = self.gen
                gen._left -= len(found)
                if gen._left < 0:
                    raise gen._over_budget()
            return
        made = 0
        for j in range(start, len(options)):
            p, m, inst, _ = options[j]
            n = size + inst.size
            if n > limit or (m & mask if every else from_key and m & key_mask):
                continue
            np = packed + p
            if short(np, held) > wild if wild else (cg - np) & g != g:
                continue  # the hand does not hold these parts together
            nm = mask | m
            if nm & outside or exact and n != exact:
                continue
            if not plain:
                self.chosen.append(inst)
                self.finish(np, nm, n)
                self.chosen.pop()
                continue
            r = reads.get((lead_id, n))
            if r is None:
                r = self.gen._composite_reading(self.pd, lead, n)
            out.append((np, r))
            made += 1
        gen = self.gen
        gen._left -= made
        if gen._left < 0:
            raise gen._over_budget()


def _held_with(packed: int, mask: int, bad: int, cg: int, g: int,
               options: list[Option]) -> list[int]:
    """`packed` (of ranks `mask`) plus each option of no rank in `bad` that the hand (`cg`:
    its packed counts with the guard bits `g`) holds together with it. An option is held
    alone, so one of ranks `mask` does not use needs no check."""
    cgp = cg - packed
    return [packed + p for p, m, _, _ in options
            if not m & bad and (not m & mask or (cgp - p) & g == g)]


def _same_part(a: PatternDef, b: PatternDef) -> bool:
    """Two parts that accept exactly the same instances."""
    return (a.shape, a.group, a.run, a.by, a.cards) == (b.shape, b.group, b.run, b.by, b.cards) \
        and a.where is b.where and not a.parts and not b.parts
