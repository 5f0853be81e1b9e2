"""Plays within one suit-system: which patterns a holding contains, throws, winners.

Everything here works on count vectors (card kind → count) and the hand context's
integer tables; pattern recognition is `rulesdsl.model.patterns.readings`. What depends
only on the hand context and some cards (readings, the pattern plays of a holding, a
throw's split) is remembered in the context's memo: a trick asks the same questions of
the same cards many times (each check, count and sample of a follow; a throw resolved,
then ranked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ...model.hand import HandContext
from ...model.patterns import Reading, beats, readings


@dataclass(frozen=True)
class Unit:
    """One combination of a lead or throw: its cards and how they read."""

    cards: tuple[int, ...]
    reading: Reading


def system_counts(hc: HandContext, counts: list[int], system: str) -> list[int]:
    return [c if c and hc.system[k] == system else 0 for k, c in enumerate(counts)]


def card_readings(hc: HandContext, cards: Sequence[int]) -> tuple[Reading, ...]:
    """`readings` of these cards (in this order), remembered per hand context."""
    key = ("readings", tuple(cards))
    return hc.memoized(key, lambda: tuple(readings(hc, list(cards))))


def _joining(hc: HandContext, system: str) -> tuple[int, ...]:
    """Kinds that may join a system under an alternate identity (下放)."""
    return hc.memoized(("joining", system), lambda: tuple(sorted(
        k for k, alts in hc.alternates.items() if any(a.system == system for a in alts))))


def _members(hc: HandContext, system: str) -> tuple[int, ...]:
    """The kinds whose counts `pattern_plays` reads for a system: its own kinds, kinds
    that may join it, and kinds a fixed-cards pattern names."""
    def make() -> tuple[int, ...]:
        found = set(hc.kinds_of.get(system, ())) | set(_joining(hc, system))
        for pd in hc.ruleset.patterns:
            if pd.shape == "cards" and pd.cards is not None:
                found.update(pd.cards)
        return tuple(sorted(found))
    return hc.memoized(("members", system), make)


def foreign_members(hc: HandContext, system: str) -> tuple[int, ...]:
    """Kinds of other systems that a pattern of this system may hold (joining kinds,
    fixed-cards patterns): without one of them, no play reaches into the system."""
    return hc.memoized(("foreign", system), lambda: tuple(
        k for k in _members(hc, system) if hc.system[k] != system))


def pattern_plays(hc: HandContext, counts: list[int], system: str) \
        -> tuple[tuple[int, ...], ...]:
    """Every distinct single-pattern play held in one suit-system (demotions included)."""
    # Keyed by the counts it reads only: a hand's other suits do not change the answer.
    key = ("plays", system, tuple([counts[k] for k in _members(hc, system)]))
    return hc.memoized(key, lambda: _pattern_plays(hc, counts, system))


def _pattern_plays(hc: HandContext, counts: list[int], system: str) \
        -> tuple[tuple[int, ...], ...]:
    r = hc.ruleset
    found: set[tuple[int, ...]] = set()
    kinds = [k for k in hc.kinds_of.get(system, ()) if counts[k]]
    natural = set(kinds)
    alt_kinds = [k for k in _joining(hc, system) if counts[k] and k not in natural]
    for pd in r.patterns:
        if pd.shape == "group" and pd.group is not None:
            lo, hi = pd.group
            for k in kinds:
                for g in range(lo, min(hi, counts[k]) + 1):
                    found.add((k,) * g)
        elif pd.shape == "run" and pd.run is not None and pd.run.over is None:
            g = pd.run.group
            lo, hi = pd.run.length
            entries = []  # (place, kind)
            for k in kinds:
                if counts[k] >= g:
                    entries.append((hc.place[k], k))
            for k in kinds + alt_kinds:
                if counts[k] >= g:
                    for alt in hc.alternates.get(k, []):
                        if alt.system == system and pd.name in alt.patterns:
                            entries.append((alt.place, k))
            entries.sort()
            for i in range(len(entries)):
                _extend_runs(hc, system, entries, [entries[i]], i + 1, g, lo, hi, found)
        elif pd.shape == "cards" and pd.cards is not None:
            if all(counts[k] >= n for k, n in pd.cards.items()):
                found.add(tuple(sorted(k for k, n in pd.cards.items() for _ in range(n))))
    return tuple(sorted(p for p in found if card_readings(hc, p)))


def _extend_runs(hc: HandContext, system: str, entries: list[tuple], chain: list[tuple],
                 start: int, g: int, lo: int, hi: int, found: set) -> None:
    """Grow runs of adjacent places from `chain`, recording each long enough."""
    if lo <= len(chain) <= hi:
        found.add(tuple(sorted(k for _, k in chain for _ in range(g))))
    if len(chain) >= hi:
        return
    used = {e[1] for e in chain}
    for j in range(start, len(entries)):
        place, kind = entries[j]
        if place <= chain[-1][0] or kind in used:
            continue
        extra = {e[0] for e in chain} | {place}
        if hc.adjacent(system, chain[-1][0], place, extra):
            _extend_runs(hc, system, entries, chain + [entries[j]], j + 1, g, lo, hi, found)


def throw_system(hc: HandContext, cards: Sequence[int]) -> str:
    """The suit-system a lead is in: its cards' one system, or the one system each card
    is of or may join (a throw holding a demoted tractor, 下放)."""
    system = hc.system
    first = system[cards[0]]
    if all(system[k] == first for k in cards):  # the usual lead: no memo entry for it
        return first  # type: ignore[return-value]

    def make() -> str:
        for candidate in sorted({system[k] for k in cards}):  # type: ignore[type-var]
            joining = set(_joining(hc, candidate))
            if all(system[k] == candidate or k in joining for k in cards):
                return candidate  # type: ignore[return-value]
        return first  # type: ignore[return-value]
    return hc.memoized(("throw_system", tuple(cards)), make)


def joiners(hc: HandContext, system: str) -> tuple[int, ...]:
    """The kinds of other systems that may join `system` (下放)."""
    return hc.memoized(("joiners", system), lambda: tuple(
        k for k in _joining(hc, system) if hc.system[k] != system))


def foreign_part(hc: HandContext, counts: Sequence[int], system: str) -> tuple[int, ...]:
    """The cards of `counts` from other systems that may join `system` (a count vector)."""
    out = [0] * len(counts)
    for k in joiners(hc, system):
        out[k] = counts[k]
    return tuple(out)


def demoted_covers(hc: HandContext, counts: Sequence[int], system: str) \
        -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Ways to place every foreign card of `counts` inside demoted plays of `system`
    (disjoint single-pattern plays reaching in from another system, 下放): each way as
    its plays (sorted card tuples). Empty when the foreign cards cannot all be placed."""
    counts = list(counts)
    key = ("covers", system, tuple(counts))
    return hc.memoized(key, lambda: _demoted_covers(hc, counts, system))


def _demoted_covers(hc: HandContext, counts: list[int], system: str) \
        -> tuple[tuple[tuple[int, ...], ...], ...]:
    foreign = foreign_part(hc, counts, system)
    if not any(foreign):
        return ((),)
    plays = [p for p in pattern_plays(hc, counts, system)
             if any(hc.system[k] != system for k in p)]
    found: list[tuple[tuple[int, ...], ...]] = []
    left = list(foreign)
    work = list(counts)

    def search(start: int, chosen: list[tuple[int, ...]]) -> None:
        if not any(left):
            found.append(tuple(chosen))
            return
        for i in range(start, len(plays)):
            play = plays[i]
            need = Counter(play)
            if any(work[k] < n for k, n in need.items()):
                continue
            if any(hc.system[k] != system and left[k] < n for k, n in need.items()):
                continue
            for k, n in need.items():
                work[k] -= n
                if hc.system[k] != system:
                    left[k] -= n
            search(i, chosen + [play])
            for k, n in need.items():
                work[k] += n
                if hc.system[k] != system:
                    left[k] += n

    search(0, [])
    return tuple(found)


def best_reading(hc: HandContext, cards: Sequence[int]) -> Reading | None:
    return hc.memoized(("best", tuple(cards)), lambda: _best_reading(hc, cards))


def _best_reading(hc: HandContext, cards: Sequence[int]) -> Reading | None:
    rs = card_readings(hc, cards)
    if not rs:
        return None
    # Prefer a reading that keeps its rank (就低不就高 applies only when it must demote).
    return max(rs, key=lambda r: (not r.demoted, r.size, r.key))


def decompose(hc: HandContext, cards: Sequence[int]) -> list[Unit]:
    """Split a throw into combinations, largest first (tractors, triples, pairs, singles)."""
    # A throw is split when it is resolved and again when its trick is ranked.
    return list(hc.memoized(("decompose", tuple(cards)), lambda: tuple(_decompose(hc, cards))))


def _decompose(hc: HandContext, cards: Sequence[int]) -> list[Unit]:
    counts = [0] * len(hc.place)
    for k in cards:
        counts[k] += 1
    system = throw_system(hc, cards)
    units: list[Unit] = []
    mixed = any(hc.system[k] != system for k in cards)
    covers = demoted_covers(hc, counts, system) if mixed else ()
    if covers and covers[0]:  # demoted plays first, the strongest way, then the rest
        def strength(cover: tuple[tuple[int, ...], ...]) -> tuple:
            return tuple(sorted(((len(p), best_reading(hc, p).key)  # type: ignore[union-attr]
                                 for p in cover), reverse=True))
        for play in max(covers, key=strength):
            for k in play:
                counts[k] -= 1
            units.append(Unit(play, best_reading(hc, play)))  # type: ignore[arg-type]
    while sum(counts):
        best: tuple[int, ...] | None = None
        best_reading_: Reading | None = None
        for play in pattern_plays(hc, counts, system):
            rd = best_reading(hc, play)
            if rd is None:
                continue
            if best is None or (len(play), rd.key) > (len(best), best_reading_.key):  # type: ignore
                best, best_reading_ = play, rd
        if best is None:  # cannot happen: every card is a single
            break
        for k in best:
            counts[k] -= 1
        units.append(Unit(best, best_reading_))  # type: ignore[arg-type]
    return units


def shape_of(units: list[Unit]) -> Counter:
    return Counter((u.reading.pattern, u.reading.size) for u in units)


def beatable_unit(hc: HandContext, unit: Unit, holdings: list[list[int]]) -> bool:
    """Could any of these holdings beat this unit inside its own suit-system?"""
    system = unit.reading.system
    assert system is not None
    for counts in holdings:
        for play in pattern_plays(hc, counts, system):
            if len(play) != len(unit.cards):
                continue
            for rd in card_readings(hc, play):
                if beats(hc, rd, unit.reading):
                    return True
    return False


def arrange_as(hc: HandContext, cards: list[int], shape: Counter) -> list[Unit] | None:
    """Arrange a play into units of exactly this shape, strongest arrangement first."""
    counts = [0] * len(hc.place)
    for k in cards:
        counts[k] += 1
    if not cards:
        return []
    system = hc.system[cards[0]]
    wanted = sorted(shape.elements(), key=lambda s: -s[1])
    result: list[Unit] = []

    def search(i: int) -> bool:
        if i == len(wanted):
            return not any(counts)
        name, size = wanted[i]
        options = []
        for play in pattern_plays(hc, counts, system):
            if len(play) != size:
                continue
            for rd in card_readings(hc, play):
                if rd.pattern == name:
                    options.append((rd.key, play, rd))
        for _, play, rd in sorted(options, reverse=True):
            for k in play:
                counts[k] -= 1
            result.append(Unit(play, rd))
            if search(i + 1):
                return True
            result.pop()
            for k in play:
                counts[k] += 1
        return False

    return list(result) if search(0) else None


def primary(units: list[Unit]) -> Unit:
    """The unit that ranks a multi-unit play: the largest, then the strongest."""
    return max(units, key=lambda u: (u.reading.size, u.reading.key))
