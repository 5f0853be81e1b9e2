"""Plays as cards, for rulesets whose patterns read suits (a flush, ties broken by suit).

The rank plays of MoveGenerator are worked out first (what a hand can play, suits
aside); each is then spread over the cards of its ranks the hand holds, and every
such set of cards is read with the pattern's suit rules (`suited_reading`, the same
function `readings` applies). A play is then a sorted tuple of card kinds, packed
16 bits per kind, so pruning and following work as they do on ranks.

Spreading is lazy as rank plays are (hand_plays.py): a follow spreads only the rank
plays of the led shape and the bombs; a lead spreads them all. A card set's readings
come from the rank play of its ranks alone (every pattern that play reads as), so a
shape's card plays are the full list's, filtered (a test checks it).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator

from ... import notation as nt
from ...model.patterns import Reading, exclusive_readings, suited_reading
from .composites import FIELD_MASK
from .hand_plays import Shape, shape_of
from .moves import (
    CACHE_LIMIT,
    FIELD,
    MAX_LEAD_PLAYS,
    Entry,
    HandPlays,
    LeadPlaysBound,
    MoveGenerator,
    Play,
)

Cards = tuple[int, ...]
SUIT_BIT = {suit: 1 << i for i, suit in enumerate(nt.SUITS)}
ALL_SUITS = (1 << len(nt.SUITS)) - 1


class SuitedMoves:
    """The plays of one hand context as cards (same interface as MoveGenerator)."""

    suited = True

    def __init__(self, ranks: MoveGenerator):
        self.ranks = ranks
        self.hc = ranks.hc
        r = self.hc.ruleset
        self.patterns = {p.name: p for p in r.patterns}
        kinds = r.kinds()
        shift = {k: FIELD * i for i, k in enumerate(kinds)}
        self._kind_shifts = list(shift.items())
        self._deck_kinds = len(r.deck)
        self.unit = [1 << shift[k] if k in shift else 0 for k in range(len(r.deck))]
        self.guard = sum(1 << (FIELD * i + FIELD - 1) for i in range(len(kinds)))
        self.kinds_of_rank: dict[int, list[int]] = {}
        for k in kinds:
            self.kinds_of_rank.setdefault(ranks.rank_of[k], []).append(k)
        self._by_kinds: dict[Cards, HandPlays] = {}  # card counts -> plays
        self._by_ranks: dict[int, HandPlays] = {}  # packed cards -> plays (the name played reads)
        self._cached_entries = 0  # lead entries of the hands in _by_ranks (at most)
        # packed cards -> the rank plays of that hand, pruned play by play alongside the
        # card plays (a smaller hand's rank plays are not made afresh)
        self._rank_plays: dict[int, HandPlays] = {}
        self._choices: dict[tuple, list[Cards]] = {}
        self._suited: dict[tuple, Reading | None] = {}

    def play_key(self, cards: tuple[int, ...]) -> Play:
        return tuple(sorted(cards))

    def hand_plays(self, hand: list[int]) -> HandPlays:
        key = tuple(hand)
        hp = self._by_kinds.get(key)
        if hp is None:
            unit = self.unit
            packed = sum(c * unit[k] for k, c in enumerate(hand) if c)
            hp = self._by_ranks.get(packed)
            if hp is None:
                hp = HandPlays(packed, None, self.guard, None, self)  # made on demand
                self._remember(hp)
            self._remember_kinds(key, hp)
        return hp

    # ------------------------------------------------------------ made on demand
    # (HandPlays asks: a hand's every lead play, one shape's, or its bombs.)

    def played(self, hp: HandPlays, cards: tuple[int, ...]) -> HandPlays:
        """The card plays left once `cards` are played (MoveGenerator.played), and the
        rank plays of the smaller hand pruned from the larger's."""
        out = MoveGenerator.played(self, hp, cards)
        ranks = self._rank_plays.get(hp.packed)
        if ranks is not None and out.packed not in self._rank_plays:
            self._keep_ranks(out.packed, self.ranks.played(ranks, cards))
        return out

    def _ranks_of(self, packed: int, hand: list[int]) -> HandPlays:
        """The rank plays of a hand (packed cards, and their counts)."""
        out = self._rank_plays.get(packed)
        if out is None:
            out = self.ranks.hand_plays(hand)
            self._keep_ranks(packed, out)
        return out

    def _keep_ranks(self, packed: int, ranks: HandPlays) -> None:
        if len(self._rank_plays) > CACHE_LIMIT:
            self._rank_plays.clear()
        self._rank_plays[packed] = ranks

    def lead_entries(self, packed: int) -> list[Entry]:
        hand = self._hand_of(packed)
        entries = self._expand(hand, self._ranks_of(packed, hand).entries)
        self._cached_entries += len(entries)
        return entries

    def whole(self, packed: int) -> bool:
        return False  # spreading every rank play is what a follow should not pay for

    def shape_entries(self, packed: int, shape: Shape) -> list[Entry]:
        return self._spread_like(packed, shape)

    def bomb_entries(self, packed: int) -> list[Entry]:
        return self._spread_like(packed, None)

    def _spread_like(self, packed: int, shape: Shape | None) -> list[Entry]:
        """The card entries of one shape (None: the bombs), in entry order: the rank plays
        of that shape spread, each with every reading of its ranks (so that the best and
        exclusive readings are those of the full list), then filtered."""
        hand = self._hand_of(packed)
        rank_plays = self._ranks_of(packed, hand)
        plays = {e.play for e in rank_plays.of_shape(shape)}
        if not plays:
            return []
        rank_entries = [e for e in rank_plays.entries if e.play in plays]
        return [e for e in self._expand(hand, rank_entries) if e.shape == shape]

    def _hand_of(self, packed: int) -> list[int]:
        """The card counts of packed cards."""
        hand = [0] * self._deck_kinds
        for k, sh in self._kind_shifts:
            hand[k] = (packed >> sh) & FIELD_MASK
        return hand

    # Following and the bounded hand caches work alike on packed cards and on packed ranks.
    plays = MoveGenerator.plays
    _remember = MoveGenerator._remember
    _remember_kinds = MoveGenerator._remember_kinds

    def count_card_plays(self, hand: list[int]) -> int:
        """The card sets a lead's card plays spread (the work units `_expand` counts),
        without spreading them: what validation checks against MAX_LEAD_PLAYS. Raises
        LeadPlaysBound past the bound, as a lead would."""
        return sum(units for _, _, units in
                   self._charged(hand, self.ranks.hand_plays(hand).entries))

    def _charged(self, hand: list[int], rank_entries: list[Entry]) \
            -> Iterator[tuple[Entry, list[list[Cards]], int]]:
        """Each rank play to spread, with its per-rank card options and the card sets they
        make, once those are counted against MAX_LEAD_PLAYS."""
        left = MAX_LEAD_PLAYS  # card plays made, as the rank plays' budget
        held_of: dict[int, tuple[tuple[int, int], ...]] = {}
        suits_of: dict[bool, dict[int, int]] = {}  # wilds stand in? -> rank -> suit bits
        for e in rank_entries:
            pd = self.patterns.get(e.reading.pattern)
            if pd is not None and pd.suit == "same":
                # A one-suit pattern's rank play whose ranks share no suit in this hand
                # spreads to nothing: skipped before its cards are listed (nor counted).
                suits = suits_of.get(pd.wilds)
                if suits is None:
                    suits = suits_of[pd.wilds] = self._suits_by_rank(hand, pd.wilds)
                common = ALL_SUITS
                for rank in e.play:
                    common &= suits.get(rank, 0)
                if not common:
                    continue
            per_rank = self._per_rank(hand, e.play, held_of)
            units = math.prod(len(options) for options in per_rank)
            left -= units
            if left < 0:
                raise LeadPlaysBound(pd, sum(hand))
            yield e, per_rank, units

    def _expand(self, hand: list[int], rank_entries: list[Entry]) -> list[Entry]:
        """Each rank play spread over the held cards of its ranks, read with suits: the
        card entries, in entry order."""
        found: dict[Cards, list[Reading]] = {}
        for e, per_rank, _ in self._charged(hand, rank_entries):
            pd = self.patterns.get(e.reading.pattern)
            spread = self._one_suit(per_rank, pd) if pd is not None and pd.suit == "same" \
                else self._spread(per_rank)
            for cards in spread:
                reading = self._read(pd, e.reading, cards)
                if reading is not None:
                    found.setdefault(cards, []).append(reading)
        unit = self.unit
        entries: list[Entry] = []
        for cards in sorted(found):
            best: dict[str, Reading] = {}
            for x in found[cards]:
                old = best.get(x.pattern)
                if old is None or x.key > old.key:
                    best[x.pattern] = x
            rs = sorted(best.values(), key=lambda x: x.pattern)
            rs = exclusive_readings(self.hc.ruleset, rs)
            packed = sum(unit[k] for k in cards)
            for x in rs:
                entries.append(Entry(cards, x.pattern if len(rs) > 1 else None, x, packed,
                                     shape_of(x)))
        return entries

    def _suits_by_rank(self, hand: list[int], wilds: bool) -> dict[int, int]:
        """Per rank, the suits of the hand's cards of that rank, as bits (a wild card, when
        wilds stand in, every suit; a card of no suit, none)."""
        wild_of = self.hc.wild_of if wilds else {}
        rank_of = self.ranks.rank_of
        out: dict[int, int] = {}
        for k, c in enumerate(hand):
            if c:
                bits = ALL_SUITS if k in wild_of else SUIT_BIT.get(nt.card_suit(k), 0)
                out[rank_of[k]] = out.get(rank_of[k], 0) | bits
        return out

    def _per_rank(self, hand: list[int], play: Play,
                  held_of: dict[int, tuple[tuple[int, int], ...]]) -> list[list[Cards]]:
        """For each rank of the rank play, the sets of held cards that can stand there
        (`held_of`: each rank's held kinds and copies, filled as the hand's plays ask)."""
        per_rank = []
        for rank, count in Counter(play).items():
            held = held_of.get(rank)
            if held is None:
                held = held_of[rank] = tuple((k, hand[k]) for k in
                                             self.kinds_of_rank.get(rank, ()) if hand[k])
            key = (held, count)
            options = self._choices.get(key)
            if options is None:
                options = sorted(_choices(held, count))
                if len(self._choices) > CACHE_LIMIT:
                    self._choices.clear()
                self._choices[key] = options
            per_rank.append(options)
        return per_rank

    @staticmethod
    def _spread(per_rank: list[list[Cards]]) -> list[Cards]:
        """Every set of held cards whose ranks are the rank play's."""
        return [tuple(sorted(itertools.chain.from_iterable(combo)))
                for combo in itertools.product(*per_rank)]

    def _one_suit(self, per_rank: list[list[Cards]], pd) -> list[Cards]:
        """The card sets of `_spread` whose natural cards share one suit (the only ones a
        `suit: same` pattern reads): spread suit by suit, so that a flush of five ranks is
        not tried over every suit of every rank. Wilds stand in any suit."""
        wild_of = self.hc.wild_of if pd.wilds else {}
        suited = [[(option, {nt.card_suit(k) for k in option if k not in wild_of})
                   for option in options] for options in per_rank]
        out: list[Cards] = []
        for suit in nt.SUITS:
            mine = [[option for option, suits in options if suits <= {suit}]
                    for options in suited]
            if all(mine):
                out.extend(self._spread(mine))
        return list(dict.fromkeys(out))  # a set of wilds alone comes once per suit

    def _read(self, pd, reading: Reading, cards: Cards) -> Reading | None:
        if pd is None or (pd.suit is None and pd.ties is None):
            return reading
        key = (reading, cards if pd.suit else self._top_suits(pd, reading, cards))
        out = self._suited.get(key, False)
        if out is False:
            out = suited_reading(self.hc, pd, reading, cards)
            if len(self._suited) > 10 * CACHE_LIMIT:
                self._suited.clear()
            self._suited[key] = out
        return out

    def _top_suits(self, pd, reading: Reading, cards: Cards) -> tuple[str | None, ...]:
        """What a suit tie reads of the cards: the suits of the top rank's cards."""
        wild_of = self.hc.wild_of if pd.wilds else {}
        return tuple(nt.card_suit(k) for k in cards
                     if k not in wild_of and nt.card_rank(k) == reading.top)


def _choices(held: tuple[tuple[int, int], ...], count: int) -> list[Cards]:
    """The distinct sets of `count` cards from held (kind, copies): one per multiset, not
    one per combination of copies (eight packs hold 32 cards of a rank)."""
    if count == 0:
        return [()]
    if not held:
        return []
    (kind, copies), rest = held[0], held[1:]
    out: list[Cards] = []
    for take in range(min(copies, count) + 1):
        out.extend((kind,) * take + tail for tail in _choices(rest, count - take))
    return out
