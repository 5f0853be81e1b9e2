"""Dealing hidden cards or tiles anew (`state.sample_hidden`), shared by every family.

A family names the places a seat cannot see as zones (other hands, the kitty, the undealt
cards, the wall), each keeping its size; the cards in them are one pool. What the seat
has seen narrows the deal: a pin is a card known to lie in one of some zones (a declared
card still held, a card received in a tribute), and a zone may ban kinds (a void shown by
following). `deal_hidden` gives every zone new contents from the pool meeting those.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Zone:
    """A place the seat cannot see: its family's name for it (`("hand", 2)`, `("kitty",)`),
    what it holds now (its size is kept) and the kinds it cannot hold."""

    key: tuple
    cards: list[int]
    banned: frozenset[int] = field(default_factory=frozenset)


# A card kind known to lie in one of these zones (indices into the zone list).
Pin = tuple[int, tuple[int, ...]]


def deal_hidden(zones: list[Zone], pins: list[Pin], rng: random.Random) -> list[list[int]]:
    """New contents for `zones`: the same cards in all, as many in each, every pinned card
    in one of its zones and no zone holding a banned kind.

    Cards free of any constraint are dealt as a shuffle deals them. The constrained ones
    (pinned, or of a kind some zone bans) go first, one at a time, each to one of its
    zones in proportion to the room left there, never to a zone that would leave the
    others unable to take what they must (Hall's condition over the sets of zones): not
    exactly uniform over the consistent deals, but never stuck. The pins are lower bounds
    the true deal meets, so such a deal exists; should the constraints still admit none
    (a state built by hand), the bans are dropped, and then the pins (the zones keep their
    cards)."""
    full = (1 << len(zones)) - 1
    pool = Counter(k for z in zones for k in z.cards)
    pinned: list[tuple[int, int]] = []
    for kind, allowed in pins:
        if pool[kind] > 0 and allowed:
            pool[kind] -= 1
            pinned.append((kind, sum(1 << i for i in set(allowed))))
    for bans in (True, False):
        items = [(k, m & _open(zones, k, bans) or m) for k, m in pinned]
        items += [(k, _open(zones, k, bans)) for k, c in sorted(pool.items())
                  for _ in range(c)]
        out = _deal(zones, items, full, rng)
        if out is not None:
            return out
    return [list(z.cards) for z in zones]


def _open(zones: list[Zone], kind: int, bans: bool) -> int:
    """The zones (a bit mask) that may hold `kind`."""
    return sum(1 << i for i, z in enumerate(zones) if not (bans and kind in z.banned))


def _deal(zones: list[Zone], items: list[tuple[int, int]], full: int,
          rng: random.Random) -> list[list[int]] | None:
    room = [len(z.cards) for z in zones]
    out: list[list[int]] = [[] for _ in zones]
    bound = [(k, m) for k, m in items if m != full]
    free = [k for k, m in items if m == full]
    left = Counter(m for _, m in bound)
    if not _feasible(left, room, full):
        return None
    rng.shuffle(bound)
    for kind, mask in bound:
        left[mask] -= 1
        options = [i for i in range(len(zones)) if mask >> i & 1 and room[i]]
        while True:
            if not options:
                return None  # (cannot happen while the check holds)
            i = _weighted(options, room, rng)
            room[i] -= 1
            if _feasible(left, room, full):
                break
            room[i] += 1
            options.remove(i)
        out[i].append(kind)
    rng.shuffle(free)
    at = 0
    for i in range(len(zones)):
        out[i].extend(free[at:at + room[i]])
        at += room[i]
    return out


def _feasible(left: Counter, room: list[int], full: int) -> bool:
    """Every set of zones has room for the constrained cards that may go nowhere else
    (Hall's condition; the whole table always has room for every card)."""
    masks = [m for m, c in left.items() if c]
    if not masks:
        return True
    for zones in range(1, full):
        need = sum(left[m] for m in masks if not m & ~zones)
        if need and need > sum(r for i, r in enumerate(room) if zones >> i & 1):
            return False
    return True


def _weighted(options: list[int], room: list[int], rng: random.Random) -> int:
    """One of the zones, in proportion to the room left in each (as a deal would)."""
    r = rng.randrange(sum(room[i] for i in options))
    for i in options:
        r -= room[i]
        if r < 0:
            return i
    return options[-1]


def counts_of(cards: list[int], kinds: int) -> list[int]:
    """The count vector of a list of kinds."""
    out = [0] * kinds
    for k in cards:
        out[k] += 1
    return out


def hand_events(log: list[dict[str, Any]], hand_no: int) -> list[dict[str, Any]]:
    """The events of one hand, in order (what the hooks read of a hand so far)."""
    return [e for e in log if e.get("hand") == hand_no]
