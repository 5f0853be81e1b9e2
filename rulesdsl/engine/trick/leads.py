"""Leads (play.throw.allowed): the pattern plays of a hand, and throws — any cards of one
throwable suit-system, which may hold cards of another system only inside demoted
tractors (下放, `alternates`).

Throws are counted and sampled, never listed to be counted: a throw is its natural cards
X (any of the system's cards held) plus foreign cards F (cards that may join the system);
with F, X must hold the natural part of some demoted plays that place every card of F,
so the throws with a given F are the union of boxes {X : b ≤ X ≤ held}, one per way b,
counted by inclusion–exclusion and sampled uniformly by choosing a box by its size and
accepting with 1 / (boxes holding the pick). Mixed into TrickState.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from ...model.hand import TRUMP, HandContext
from ..base import Action, IllegalAction
from ..multiset import SubmultisetTable, iter_submultisets
from .plays import (
    best_reading,
    card_readings,
    demoted_covers,
    foreign_part,
    joiners,
    pattern_plays,
    throw_system,
)

Counts = tuple[int, ...]


def _box(low: Counts, high: Counts) -> int:
    size = 1
    for a, b in zip(low, high):
        if a > b:
            return 0
        size *= b - a + 1
    return size


def _union_size(bounds: list[Counts], high: Counts) -> int:
    total = 0
    for r in range(1, len(bounds) + 1):
        for chosen in itertools.combinations(bounds, r):
            low = tuple(map(max, *chosen)) if r > 1 else chosen[0]
            total += (-1) ** (r + 1) * _box(low, high)
    return total


def _minimal(bounds: set[Counts]) -> list[Counts]:
    """Drop every bound that lies above another: its box is inside the other's."""
    return sorted(b for b in bounds
                  if not any(o != b and all(x <= y for x, y in zip(o, b)) for o in bounds))


class ThrowSpace:
    """The throws of one suit-system held by a hand."""

    def __init__(self, natural: Counts, options: list[tuple[Counts, list[Counts]]]):
        self.natural = natural  # the system's own cards held
        self.options = options  # (foreign cards F, the lower bounds on X that place them)
        plain = 1
        for c in natural:
            plain *= c + 1
        self.weights = [plain - 1] + [_union_size(bounds, natural) for _, bounds in options]

    def count(self) -> int:
        return sum(self.weights)

    def sample(self, rng: random.Random, r: int) -> list[int]:
        """The throw numbered `r` (< count) by weight, drawn uniformly within its part."""
        i = 0
        while r >= self.weights[i]:
            r -= self.weights[i]
            i += 1
        if i == 0:  # natural cards only: one table counts every size and samples one
            table = SubmultisetTable(list(self.natural), sum(self.natural))
            sizes = [table.count(m) for m in range(sum(self.natural) + 1)]
            sizes[0] = 0
            x = rng.randrange(sum(sizes))
            for m, ways in enumerate(sizes):
                if x < ways:
                    return table.sample(m, rng)
                x -= ways
        foreign, bounds = self.options[i - 1]
        boxes = [_box(b, self.natural) for b in bounds]
        while True:  # a box by its size, a point in it, kept once per box holding it
            b = rng.choices(bounds, weights=boxes)[0]
            pick = [rng.randint(lo, hi) for lo, hi in zip(b, self.natural)]
            holding = sum(1 for o in bounds if all(p >= x for p, x in zip(pick, o)))
            if rng.randrange(holding) == 0:
                return [p + f for p, f in zip(pick, foreign)]

    def picks(self) -> Iterator[list[int]]:
        natural = list(self.natural)
        for size in range(1, sum(natural) + 1):
            yield from iter_submultisets(natural, size)
        for foreign, bounds in self.options:
            low = tuple(map(min, *bounds)) if len(bounds) > 1 else bounds[0]
            kinds = [k for k, c in enumerate(natural) if c]
            for values in itertools.product(*(range(low[k], natural[k] + 1) for k in kinds)):
                pick = [0] * len(natural)
                for k, v in zip(kinds, values):
                    pick[k] = v
                if any(all(p >= x for p, x in zip(pick, b)) for b in bounds):
                    yield [p + f for p, f in zip(pick, foreign)]

    def completable(self, have: dict[int, int]) -> bool:
        """Can a throw of this space hold `have`?"""
        grown = [0] * len(self.natural)
        foreign = [0] * len(self.natural)
        for k, c in have.items():
            (grown if self.natural[k] else foreign)[k] = c
        if any(g > n for g, n in zip(grown, self.natural)):
            return False
        if not any(foreign):
            return True
        return any(all(f >= x for f, x in zip(option, foreign))
                   for option, bounds in self.options if bounds)


class TrickLeads:
    """Lead legality, listing, counting and sampling (reads TrickState's fields)."""

    game: Any
    hc: HandContext
    hands: list[list[int]]
    trick: list[list[Any]]

    def _throwable(self, system: str) -> bool:
        allowed = self.game.rules.throw_allowed
        return allowed == "any" or (allowed == "plain" and system != TRUMP)

    def _lead_system(self) -> str:
        """The suit-system followers must follow: the lead's (a demoted tractor, and a
        throw holding one, belong to the natural suit)."""
        hc = self.hc
        cards = self.trick[0][1]
        best = best_reading(hc, cards)  # remembered: asked on every follow check
        if best is not None and best.system:
            return best.system
        return throw_system(hc, cards)

    def _check_lead(self, cards: tuple[int, ...]) -> None:
        hc = self.hc
        if card_readings(hc, cards):
            return
        system = throw_system(hc, cards)
        foreign = sum(1 for k in cards if hc.system[k] != system)
        if not foreign and len(cards) >= 2 and self._throwable(system):
            return  # any cards of one throwable system
        counts = [0] * len(hc.place)
        for k in cards:
            counts[k] += 1
        joining = foreign and sum(foreign_part(hc, counts, system)) == foreign
        if len(cards) >= 2 and self._throwable(system) and joining:
            if any(demoted_covers(hc, counts, system)):
                return
            raise IllegalAction("a throw holds cards of another suit-system only inside "
                                "demoted tractors (下放)")
        if foreign:
            raise IllegalAction("a lead is all of one suit-system (one plain suit, or trumps)")
        what = "trumps" if system == TRUMP else "cards"
        raise IllegalAction(f"these {what} form no pattern, and a throw is not allowed here")

    def _lead_parts(self, seat: int) -> tuple[list[ThrowSpace], list[tuple[int, ...]]]:
        """Leads: the throws of throwable systems, and the pattern plays of the others."""
        hc = self.hc
        hand = self.hands[seat]
        systems = {hc.system[k] for k, c in enumerate(hand) if c}
        systems |= {alt.system for k, c in enumerate(hand) if c
                    for alt in hc.alternates.get(k, [])}
        spaces: list[ThrowSpace] = []
        patterns: set[tuple[int, ...]] = set()
        for system in sorted(systems):  # type: ignore[type-var]
            natural = [0] * len(hand)
            for k in hc.kinds_of.get(system, ()):
                natural[k] = hand[k]
            if self._throwable(system):
                spaces.append(ThrowSpace(tuple(natural), self._foreign_options(
                    hand, natural, system)))
            else:
                patterns.update(pattern_plays(hc, hand, system))
        return spaces, sorted(patterns)

    def _foreign_options(self, hand: list[int], natural: list[int], system: str) \
            -> list[tuple[Counts, list[Counts]]]:
        """Each way to add cards of other systems to a throw (inside demoted plays)."""
        hc = self.hc
        kinds = [k for k in joiners(hc, system) if hand[k]]
        if not kinds:
            return []
        held = foreign_part(hc, hand, system)
        options = []
        for values in itertools.product(*(range(held[k] + 1) for k in kinds)):
            if not any(values):
                continue
            foreign = [0] * len(hand)
            for k, v in zip(kinds, values):
                foreign[k] = v
            cards = [a + b for a, b in zip(natural, foreign)]
            bounds: set[Counts] = set()
            for cover in demoted_covers(hc, cards, system):
                low = [0] * len(hand)
                for play in cover:
                    for k in play:
                        if hc.system[k] == system:
                            low[k] += 1
                bounds.add(tuple(low))
            if bounds:
                options.append((tuple(foreign), _minimal(bounds)))
        return options

    def _iter_leads(self, seat: int) -> Iterator[Action]:
        spaces, patterns = self._lead_parts(seat)
        for play in patterns:
            yield Action.of("play", play)
        for space in spaces:
            for pick in space.picks():
                yield Action.of("play", [k for k, c in enumerate(pick) for _ in range(c)])

    def _count_leads(self, seat: int) -> int:
        spaces, patterns = self._lead_parts(seat)
        return len(patterns) + sum(space.count() for space in spaces)

    def _sample_lead(self, seat: int, rng: random.Random) -> Action:
        spaces, patterns = self._lead_parts(seat)
        weights = [len(patterns)] + [space.count() for space in spaces]
        r = rng.randrange(sum(weights))
        if r < weights[0]:
            return Action.of("play", patterns[r])
        r -= weights[0]
        for space, w in zip(spaces, weights[1:]):
            if r < w:
                pick = space.sample(rng, r)
                return Action.of("play", [k for k, c in enumerate(pick) for _ in range(c)])
            r -= w
        raise AssertionError("lead sampling fell through")  # pragma: no cover

