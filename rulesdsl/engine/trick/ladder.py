"""The follow-format ladder (`play.follow.shape: format`): what a lead's shape asks of a
follower, from the lead's own shape down to single cards.

A requirement is a tuple of *adjacent tuples*: `(2,)` a pair, `(2, 2)` two adjacent pairs
(a tractor), `(3, 2)` a triple with a pair right above it, `(1,)` a single (singles are
never required to be adjacent). The ladder starts with the lead's own units and goes
down one decomposition at a time, always breaking up the unit with the most ways left to
break (the published ordering is cited in docs/language.md and docs/research/; its own
test vectors are in tests/test_follow_format.py). A follower must play the first rung
their hand can hold.

Pure integer code: it knows nothing of cards. `most` is the most copies of one card the
deck holds; rungs asking for a larger tuple can never be held and are left out (that
keeps long leads of a two-deck game to a few hundred rungs where the full ordering has
millions).
"""

from __future__ import annotations

import itertools
from functools import cache, lru_cache

Adjacent = tuple[int, ...]
Requirement = tuple[Adjacent, ...]

# The most rungs one lead's ladder may have: a bound on the work a lead can ask for. Past
# it the ladder goes on with the rungs of pairs and singles only (still from the lead's
# shape down), which every lead of a two-deck game stays far below.
MAX_RUNGS = 20_000
# The most requirements one card count's decomposition lists (layouts of its tuples as
# runs): a tractor of twelve triples has millions. Past it the list stops and the ladder
# ends as above, with pairs and singles only (its least complex rungs).
MAX_LAYOUTS = 200_000
_BOUNDED: set[tuple[int, int]] = set()  # (cards, most) whose decomposition stopped there


def _desc(req: list[Adjacent] | tuple[Adjacent, ...]) -> Requirement:
    return tuple(sorted(req, reverse=True))


@cache
def tuple_partitions(num: int) -> tuple[tuple[int, ...], ...]:
    """The ways to break `num` cards into tuples, most complex first: 4 gives
    (4), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)."""
    if num == 1:
        return ((1,),)
    out: list[tuple[int, ...]] = []
    for g in tuple_partitions(num - 1):
        seen: set[int] = set()
        for v in g:
            if v in seen:
                continue
            seen.add(v)
            i = g.index(v)
            out.append(g[:i] + (v + 1,) + g[i + 1:])
        out.append(g + (1,))
    out.sort(reverse=True)
    return tuple(k for k, _ in itertools.groupby(out))


def _assignment_key(parts: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    return (-max(len(p) for p in parts), len(parts))


@cache
def sequential_groupings(values: tuple[int, ...]) -> tuple[tuple[Adjacent, ...], ...]:
    """Every way to lay these tuple sizes out as runs of adjacent tuples: (3, 2, 2) gives
    (3, 2, 2), (2, 3, 2), (2, 2, 3), (3, 2) + (2), … (3) + (2) + (2). Built as the
    published ordering builds index assignments, but on the values themselves, so equal
    layouts are kept once as they appear (the same order: a layout's copies expand to
    the same layouts, after the first's)."""
    layouts: list[tuple[tuple[int, ...], ...]] = [((values[0],),)]
    for value in values[1:]:
        grown: list[tuple[tuple[int, ...], ...]] = []
        for parts in layouts:
            for i in range(len(parts)):
                grown.append(parts[:i] + (parts[i] + (value,),) + parts[i + 1:])
            grown.append(parts + ((value,),))
        grown.sort(key=_assignment_key)  # stable, as Rust's sort_by
        layouts = list(dict.fromkeys(grown))
    out: dict[tuple[Adjacent, ...], None] = {}
    for parts in layouts:
        if all(len(set(p)) == 1 for p in parts):
            out.setdefault(parts, None)
            continue
        choices = [distinct_permutations(p) for p in parts]
        for combo in itertools.product(*choices):
            out.setdefault(tuple(combo), None)
            if len(out) >= MAX_LAYOUTS:
                return tuple(out)
    return tuple(out)


@cache
def distinct_permutations(values: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct orders of these values, in the order `itertools.permutations` first
    reaches each: one per order, not one per permutation of equal values (a run of eleven
    tuples would walk 11! permutations to find a few hundred orders)."""
    if len(values) <= 1:
        return [values]
    out: list[tuple[int, ...]] = []
    for value in dict.fromkeys(values):  # each value first, in order of first appearance
        i = values.index(value)
        rest = values[:i] + values[i + 1:]
        out.extend((value,) + tail for tail in distinct_permutations(rest))
    return out


@lru_cache(maxsize=64)
def full_decomposition(num: int, most: int) -> tuple[Requirement, ...]:
    """Every requirement `num` cards can meet, most complex first, without tuples of
    more than `most` cards."""
    out: dict[Requirement, None] = {}
    for group in tuple_partitions(num):
        if group[0] > most:
            continue
        big = tuple(v for v in group if v > 1)
        ones = ((1,),) * (len(group) - len(big))
        if not big:
            out.setdefault(ones, None)
            continue
        for layout in sequential_groupings(big):
            out.setdefault(_desc(layout + ones), None)
            if len(out) >= MAX_LAYOUTS:
                _BOUNDED.add((num, most))
                return tuple(out)
    return tuple(out)


def ladder(lead: Requirement, most: int, new_adjacency: bool = True) -> list[Requirement]:
    """The rungs a follower walks down for a lead of these units: the lead's own shape,
    then its subsequent decompositions. With `new_adjacency` false, no rung asks
    for adjacent tuples a unit of the lead did not have (only tractors draw tractors)."""
    units = [tuple(sorted(u, reverse=True)) for u in lead]
    rungs: list[Requirement] = [_desc(units)]
    remaining: list[list[Requirement]] = []
    bounded = False
    for unit in units:
        decomp = list(full_decomposition(sum(unit), most))
        bounded = bounded or (sum(unit), most) in _BOUNDED
        # after the unit's own shape (none when the shape is not there)
        after = decomp[decomp.index((unit,)) + 1:] if (unit,) in decomp else []
        remaining.append(after[::-1])  # the next one last: pop() takes it
    current: list[Requirement] = [(u,) for u in units]
    may_join = [new_adjacency or len(u) > 1 for u in units]
    order = list(range(len(units)))
    while len(rungs) < MAX_RUNGS:
        order.sort(key=lambda i: -len(remaining[i]))
        first = order[0] if order else None
        if first is None or not remaining[first]:
            if bounded:  # the decompositions stopped at MAX_LAYOUTS: end as below
                _pairs_and_singles(rungs, units)
            break
        current[first] = remaining[first].pop()
        if all(len(a) == 1 or may_join[i] for i in order for a in current[i]):
            rungs.append(_desc([a for i in order for a in current[i]]))
    else:  # bounded: go on with pairs and singles only, from the most pairs down
        _pairs_and_singles(rungs, units)
    return rungs


def _pairs_and_singles(rungs: list[Requirement], units: list[tuple[int, ...]]) -> None:
    n = sum(map(sum, units))
    for p in range(n // 2, -1, -1):
        rung = ((2,),) * p + ((1,),) * (n - 2 * p)
        if rung not in rungs[-1:]:
            rungs.append(rung)
