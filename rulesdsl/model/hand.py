"""Specialising a ruleset for one hand: predicates and ladders → integer tables.

At the start of a hand the context (trump suit, level rank, wild tile) is fixed,
so every selector can be evaluated once per card kind. The result is a
HandContext of plain lists indexed by card kind: tier, suit-system, strength,
points, wild-ness. Pattern matching and trick comparison read only these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import notation as nt
from ..runtime.expressions import Env
from .order_memo import remembered
from .ruleset import Ruleset

TRUMP = "T"
ONE_SYSTEM = "*"

Place = tuple[int, int]  # (-tier index, ladder index): higher is stronger

# Entries a hand context's memo holds before it starts afresh (a bound on memory for long
# simulations; a full memo is only a lost speed-up, never a different answer). At 50,000 a
# thousand-hand loop of a trick game with five trump contexts held 326 MB; at 5,000 about
# 50 MB, at the same speed and flatter (fewer long-lived objects for the collector; issue 22).
MEMO_LIMIT = 5_000


def ladder_index(ladder: list[int], rank: int) -> int:
    """Where a rank stands on a ladder; an ace takes its highest place."""
    best = -1
    for i, r in enumerate(ladder):
        if r == rank or (rank == nt.ACE and r == nt.LOW_ACE):
            best = i
    return best


def tier_assignment(ruleset: Ruleset, values: dict[str, Any]) \
        -> list[tuple[int | None, int, bool]]:
    """For every card kind: (tier index or None, ladder index, is trump); remembered
    across contexts and option variants that agree on the values the order reads."""
    return remembered(ruleset, values, _tier_assignment)


def _tier_assignment(ruleset: Ruleset, values: dict[str, Any]) \
        -> list[tuple[int | None, int, bool]]:
    size = len(ruleset.deck)
    out: list[tuple[int | None, int, bool]] = [(None, 0, False)] * size
    trump = ruleset.trump
    tiers = ruleset.tiers
    places: dict[str, dict[int, int]] = {}  # ladder name -> rank -> ladder index
    for kind in range(size):
        if not ruleset.deck[kind]:
            continue
        env = Env(kind, values)
        is_trump = bool(trump(env)) if trump is not None else False
        for i, tier in enumerate(tiers):
            if tier.select(env):
                idx = 0
                if tier.ladder is not None:
                    rank = nt.card_rank(kind)
                    ladder = places.setdefault(tier.ladder, {})
                    if rank not in ladder:
                        ladder[rank] = ladder_index(ruleset.ranks[tier.ladder], rank)
                    idx = ladder[rank]
                out[kind] = (i, idx, is_trump)
                break
        else:
            out[kind] = (None, 0, is_trump)
    return out


@dataclass(frozen=True)
class AltPlace:
    """A card under an alternate identity: where it stands and in which system."""

    name: str
    place: Place
    system: str
    patterns: frozenset[str]


class HandContext:
    """A ruleset specialised for one hand's context values."""

    def __init__(self, ruleset: Ruleset, context: dict[str, Any] | None = None):
        self.ruleset = ruleset
        self.values = ruleset.context_values(context)
        size = len(ruleset.deck)
        assignment = tier_assignment(ruleset, self.values)
        systems = ruleset.suit_systems  # trumps and plain suits apart
        self.tier: list[int | None] = [a[0] for a in assignment]
        self.is_trump: list[bool] = [a[2] for a in assignment]
        self.place: list[Place | None] = [None] * size
        self.system: list[str | None] = [None] * size
        tier_trump: dict[int, bool] = {}
        for kind, (tier, idx, trump) in enumerate(assignment):
            if tier is None:
                continue
            self.place[kind] = (-tier, idx)
            if systems:
                self.system[kind] = TRUMP if trump else nt.card_suit(kind)
                tier_trump[tier] = trump
            else:
                self.system[kind] = ONE_SYSTEM
        self.tier_is_trump = tier_trump
        self.places: dict[str, list[Place]] = {}
        for kind, place in enumerate(self.place):
            if place is not None:
                self.places.setdefault(self.system[kind], []).append(place)  # type: ignore
        for system, places in self.places.items():
            self.places[system] = sorted(set(places))
        self.strength: list[int] = [-1] * size
        for kind, place in enumerate(self.place):
            if place is not None:
                self.strength[kind] = self.places[self.system[kind]].index(place)  # type: ignore
        self.points = [ruleset.card_points(k) for k in range(size)]
        self.alternates: dict[int, list[AltPlace]] = {}
        if ruleset.alternates:
            self._alternates()
        self.wild_of: dict[int, int] = {}  # kind -> index into ruleset.wilds
        for kind in range(size):
            if not ruleset.deck[kind]:
                continue
            env = Env(kind, self.values)
            for wi, wild in enumerate(ruleset.wilds):
                if wild.select(env):
                    self.wild_of[kind] = wi
                    break
        # Kinds of each suit-system, so that a sum over one system reads a few entries.
        self.kinds_of: dict[str | None, tuple[int, ...]] = {}
        for kind, system in enumerate(self.system):
            if system is not None:
                self.kinds_of[system] = self.kinds_of.get(system, ()) + (kind,)
        # Per-hand memo of the engines (readings of a card multiset, a lead's analysis):
        # each entry depends only on this context and its key, so every state of every
        # hand played in this context shares it. See `memoized`.
        self.memo: dict[Any, Any] = {}

    def memoized(self, key: Any, make: Callable[[], Any]) -> Any:
        """`make()` once per key; the memo starts afresh past MEMO_LIMIT entries."""
        memo = self.memo
        try:
            return memo[key]
        except KeyError:
            pass
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        value = memo[key] = make()
        return value

    def _alternates(self) -> None:
        r = self.ruleset
        for kind in range(len(r.deck)):
            if not r.deck[kind] or kind >= 52:
                continue
            env = Env(kind, self.values)
            for alt in r.alternates:
                if not alt.select(env):
                    continue
                rank = alt.rank(env) if alt.rank is not None else nt.card_rank(kind)
                suit = nt.card_suit(kind)
                assert suit is not None
                virtual = nt.virtual_card(suit, rank)
                venv = Env(virtual, self.values)
                for ti in alt.tiers:
                    tier = r.tiers[ti]
                    if tier.select(venv):
                        idx = ladder_index(r.ranks[tier.ladder], rank) if tier.ladder else 0
                        trump = self.tier_is_trump.get(ti, False)
                        system = TRUMP if trump else suit
                        self.alternates.setdefault(kind, []).append(
                            AltPlace(alt.name, (-ti, idx), system, alt.patterns))
                        break

    def adjacent(self, system: str, low: Place, high: Place, extra: set[Place]) -> bool:
        """True when `high` is the next place above `low` in the system (holes per rules)."""
        if high <= low:
            return False
        places = self.places.get(system, [])
        for p in places:
            if low < p < high:
                return False
        for p in extra:
            if low < p < high:
                return False
        if self.ruleset.hollow == "forbidden" and low[0] == high[0]:
            tier = self.ruleset.tiers[-low[0]]
            if tier.ladder is not None and high[1] - low[1] != 1:
                return False
        return True

    def strength_of_place(self, system: str, place: Place) -> float:
        """Strength of a place, also for a virtual place between real ones."""
        places = self.places.get(system, [])
        below = [i for i, p in enumerate(places) if p < place]
        if place in places:
            return places.index(place)
        return (below[-1] + 0.5) if below else -0.5
