"""Following the lead (play.follow): the led suit-system first, then its shape.

A follower holding as many cards of the led suit-system as the lead plays that many of
them; one holding fewer plays all of them and fills up with anything. What the shape
asks on top is `follow.shape`: nothing (`ignore`), as many pairs as the lead holds
(`pairs`), or the lead's format (`format`): the first rung of the lead's ladder the
follower's hand holds (formats.py). Legality is a check on the proposed cards; the legal
follows are counted and sampled by multiset tables (rulesdsl.engine.multiset), and listed
only when a rung asks for runs or large tuples. Mixed into TrickState.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ... import notation as nt
from ...model.hand import TRUMP, HandContext
from ..base import IllegalAction
from ..multiset import SubmultisetTable, count_with_pairs, iter_with_pairs, sample_with_pairs
from .formats import describe, first_rung, holds, is_structured, lead_ladder, plays_meeting
from .ladder import Requirement


class Follow:
    """What a follower may play, worked out once per (hand, lead) and remembered: choose
    `m` cards from `counts` (with at least `need` pairs) on top of the `fixed` cards, or
    one of the `listed` plays (a format rung asking for runs or large tuples)."""

    __slots__ = ("counts", "m", "fixed", "need", "table", "rung", "listed")

    def __init__(self, counts: list[int], m: int, fixed: list[int], need: int,
                 rung: Requirement | None = None,
                 listed: list[tuple[int, ...]] | None = None):
        self.counts, self.m, self.fixed, self.need = counts, m, fixed, need
        self.rung, self.listed = rung, listed
        self.table = SubmultisetTable(counts, m) if not need and listed is None else None

    def count(self) -> int:
        if self.listed is not None:
            return len(self.listed)
        if self.table is not None:
            return self.table.count(self.m)
        return count_with_pairs(self.counts, self.m, self.need)

    def sample(self, rng: random.Random) -> list[int]:
        """A uniformly random pick (without the fixed cards)."""
        if self.listed is not None:
            return list(self.listed[rng.randrange(len(self.listed))])
        if self.table is not None:
            return self.table.sample(self.m, rng)
        return sample_with_pairs(self.counts, self.m, self.need, rng)

    def picks(self) -> Iterator[list[int]]:
        """Every legal follow as a count vector, fixed cards included."""
        if self.listed is not None:
            yield from map(list, self.listed)
            return
        fixed = self.fixed
        picks = self.table.iterate(self.m) if self.table is not None else \
            iter_with_pairs(self.counts, self.m, self.need)
        for pick in picks:
            yield [a + b for a, b in zip(pick, fixed)]


class TrickFollowing:
    """Follow legality, counting and sampling (reads TrickState's fields)."""

    game: Any
    hc: HandContext
    hands: list[list[int]]
    trick: list[list[Any]]
    _lead_system: Any  # TrickState's: the suit-system followers must follow

    def _check_follow(self, seat: int, cards: tuple[int, ...]) -> None:
        hc = self.hc
        lead = self.trick[0][1]
        n = len(lead)
        if len(cards) != n:
            raise IllegalAction(f"follow with {n} card(s), not {len(cards)}")
        system = self._lead_system()
        hand = self.hands[seat]
        held = sum([hand[k] for k in hc.kinds_of.get(system, ())])
        played = sum(1 for k in cards if hc.system[k] == system)
        name = "trumps" if system == TRUMP else f"{nt.SUIT_PICTURES.get(system, system)}"
        if held >= n and played < n:
            raise IllegalAction(f"you hold {held} {name}: follow with {n} of them")
        if held < n and played < held:
            raise IllegalAction(f"play all your {held} {name} before other cards")
        shape = self.game.rules.follow_shape
        if shape == "format" and held >= n:
            rung = self._follow(seat).rung
            assert rung is not None
            play = [0] * len(hand)
            for k in cards:
                play[k] += 1
            if not holds(hc, system, play, rung):
                raise IllegalAction(f"follow the format: you hold {describe(rung)} of "
                                    f"{name}, so play them")
            return
        need = self._pairs_required(seat)
        if need:
            pairs = sum(c // 2 for c in Counter(cards).values())
            if pairs < need:
                raise IllegalAction(f"follow the shape: play {need} pair(s) of {name}, "
                                    f"you hold them")

    def _pairs_required(self, seat: int) -> int:
        """Pairs a follower must show (`follow.shape: pairs`), 0 when the shape is free."""
        if self.game.rules.follow_shape != "pairs":
            return 0
        hc = self.hc
        lead = self.trick[0][1]
        n = len(lead)
        system = self._lead_system()
        hand = self.hands[seat]
        suit = [hand[k] for k in hc.kinds_of.get(system, ())]
        if sum(suit) < n:
            return 0  # all of the suit is played anyway
        lead_pairs = sum(c // 2 for c in Counter(lead).values())
        return min(lead_pairs, sum(c // 2 for c in suit), n // 2)

    def _follow(self, seat: int) -> Follow:
        """The follows open to `seat`, remembered per (hand, lead): a follow is often
        checked, counted and sampled in the same position (its lists are shared with the
        memo: read them, do not change them)."""
        hand = self.hands[seat]
        lead = self.trick[0][1]
        key = ("follow", tuple(hand), tuple(lead))
        return self.hc.memoized(key, lambda: self._make_follow(seat))

    def _make_follow(self, seat: int) -> Follow:
        hc = self.hc
        lead = self.trick[0][1]
        n = len(lead)
        system = self._lead_system()
        hand = self.hands[seat]
        in_suit = [0] * len(hand)
        for k in hc.kinds_of.get(system, ()):
            in_suit[k] = hand[k]
        held = sum(in_suit)
        if held < n:  # all of the suit, then anything
            counts = [c - s for c, s in zip(hand, in_suit)]
            return Follow(counts, n - held, in_suit, 0)
        rules = self.game.rules
        if rules.follow_shape != "format":
            return Follow(in_suit, n, [0] * len(hand), self._pairs_required(seat))
        rungs = lead_ladder(hc, lead, not rules.only_tractors_draw_tractors)
        rung = first_rung(hc, system, in_suit, rungs)
        if is_structured(rung):
            return Follow(in_suit, n, [0] * len(hand), 0, rung,
                          plays_meeting(hc, system, in_suit, rung))
        return Follow(in_suit, n, [0] * len(hand), rung.count((2,)), rung)
