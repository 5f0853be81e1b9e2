"""Following a lead's format (`play.follow.shape: format`) on a hand's cards.

The ladder (ladder.py) says what a lead asks for, rung by rung; this module reads rungs
against cards of one suit-system: whether some cards hold a rung (disjoint tuples, each
run of adjacent tuples on adjacent places of the hand's order), and which plays of a hand
meet one. A follower holding the lead's count in the led system must play cards that
meet the first rung their hand holds (a play meeting an earlier rung would show the
hand holds it). Adjacency is the per-hand order's,
as the ruleset's runs read it (`HandContext.adjacent`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from ...model.hand import HandContext
from ..multiset import iter_with_pairs
from .ladder import Adjacent, Requirement, ladder
from .plays import best_reading, decompose


def unit_shape(hc: HandContext, pattern: str, size: int) -> Adjacent:
    """A lead unit's adjacent tuples: a run of groups of g cards is (g, g, …); a group
    of g identical cards is (g,)."""
    pd = next(p for p in hc.ruleset.patterns if p.name == pattern)
    if pd.shape == "run" and pd.run is not None:
        g = pd.run.group
        return (g,) * (size // g)
    return (size,)


def lead_requirement(hc: HandContext, cards: Sequence[int]) -> Requirement:
    """The lead's own shape: one unit, or a throw's units."""
    rd = best_reading(hc, cards)
    if rd is not None:
        return (unit_shape(hc, rd.pattern, rd.size),)
    return tuple(sorted((unit_shape(hc, u.reading.pattern, u.reading.size)
                         for u in decompose(hc, cards)), reverse=True))


def lead_ladder(hc: HandContext, cards: Sequence[int], new_adjacency: bool) \
        -> tuple[Requirement, ...]:
    def make() -> tuple[Requirement, ...]:
        most = max(Counter(hc.ruleset.every_card()).values())
        return tuple(ladder(lead_requirement(hc, cards), most, new_adjacency))
    return hc.memoized(("ladder", tuple(cards), new_adjacency), make)


def _places(hc: HandContext, system: str) -> tuple[tuple[tuple[int, ...], ...],
                                                    tuple[bool, ...]]:
    """The system's places low to high, the kinds at each, and whether each place is
    adjacent to the next (a hole, or the hollow rule, breaks a run)."""
    def make() -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]:
        places = hc.places.get(system, [])
        at: dict = {}
        for k in hc.kinds_of.get(system, ()):
            at.setdefault(hc.place[k], []).append(k)
        kinds = tuple(tuple(sorted(at.get(p, ()))) for p in places)
        links = tuple(hc.adjacent(system, places[i], places[i + 1], set())
                      for i in range(len(places) - 1))
        return kinds, links
    return hc.memoized(("format_places", system), make)


def is_structured(req: Requirement) -> bool:
    """Asks for more than pairs and singles (a run of tuples, or a triple or more)."""
    return any(len(a) > 1 or a[0] > 2 for a in req)


def _split(req: Requirement) -> tuple[list[Adjacent], int, int]:
    structured = sorted((a for a in req if len(a) > 1 or a[0] > 2),
                        key=lambda a: (-sum(a), -len(a), a))
    pairs = sum(1 for a in req if a == (2,))
    singles = sum(1 for a in req if a == (1,))
    return structured, pairs, singles


def _placements(hc: HandContext, system: str, counts: list[int], adj: Adjacent) \
        -> Iterator[tuple[int, ...]]:
    """The kinds (one per place, low to high) that hold these adjacent tuples."""
    kinds, links = _places(hc, system)
    length = len(adj)

    def grow(i: int, j: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if j == length:
            yield chosen
            return
        if i + j >= len(kinds) or (j and not links[i + j - 1]):
            return
        for k in kinds[i + j]:
            if counts[k] >= adj[j]:
                yield from grow(i, j + 1, chosen + (k,))

    for start in range(len(kinds)):
        yield from grow(start, 0, ())


def holds(hc: HandContext, system: str, counts: list[int], req: Requirement) -> bool:
    """Do these cards (of one system) hold every tuple of the rung, disjoint?"""
    structured, pairs, singles = _split(req)
    work = list(counts)
    seen: set[tuple[int, tuple[int, ...]]] = set()

    def rest_ok() -> bool:
        return sum(c // 2 for c in work) >= pairs and sum(work) >= 2 * pairs + singles

    def search(i: int) -> bool:
        if i == len(structured):
            return rest_ok()
        key = (i, tuple(work))
        if key in seen:
            return False
        seen.add(key)
        adj = structured[i]
        for kinds in _placements(hc, system, work, adj):
            for k, n in zip(kinds, adj):
                work[k] -= n
            ok = search(i + 1)
            for k, n in zip(kinds, adj):
                work[k] += n
            if ok:
                return True
        return False

    return search(0)


def first_rung(hc: HandContext, system: str, counts: list[int],
               rungs: Sequence[Requirement]) -> Requirement:
    """The first rung these cards hold (the last rung, all singles, always is)."""
    for rung in rungs:
        if holds(hc, system, counts, rung):
            return rung
    return rungs[-1]


def plays_meeting(hc: HandContext, system: str, counts: list[int], req: Requirement) \
        -> list[tuple[int, ...]]:
    """Every distinct play (a count vector) of exactly the rung's cards drawn from
    `counts` that holds the rung: its runs and large tuples placed every way, the pairs
    and singles drawn from what is left."""
    structured, pairs, singles = _split(req)
    bases: set[tuple[int, ...]] = set()
    work = list(counts)
    chosen = [0] * len(counts)

    def place(i: int) -> None:
        if i == len(structured):
            bases.add(tuple(chosen))
            return
        adj = structured[i]
        for kinds in _placements(hc, system, work, adj):
            for k, n in zip(kinds, adj):
                work[k] -= n
                chosen[k] += n
            place(i + 1)
            for k, n in zip(kinds, adj):
                work[k] += n
                chosen[k] -= n

    place(0)
    found: set[tuple[int, ...]] = set()
    size = 2 * pairs + singles
    for base in bases:
        rest = [c - b for c, b in zip(counts, base)]
        for pick in iter_with_pairs(rest, size, pairs):
            found.add(tuple(b + p for b, p in zip(base, pick)))
    return sorted(found)


_TUPLE_NAMES = {1: "single", 2: "pair", 3: "triple", 4: "four of a kind"}


def describe(req: Requirement) -> str:
    """A rung in words: 'a tractor of 2 pairs and 2 singles'."""
    parts: Counter = Counter()
    for a in req:
        if len(a) == 1:
            parts[_TUPLE_NAMES.get(a[0], f"{a[0]} of a kind")] += 1
        elif len(set(a)) == 1:
            what = _TUPLE_NAMES.get(a[0], f"{a[0]} of a kind")
            what = "triples" if what == "triple" else what + "s"
            parts[f"tractor of {len(a)} {what}"] += 1
        else:
            parts["run of " + " + ".join(_TUPLE_NAMES.get(v, str(v)) for v in a)] += 1
    words = [f"a {name}" if n == 1 else f"{n} {name}s" for name, n in parts.items()]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
