"""Whether a tile hand wins: the hand's group keys kept current as tiles move, the win
check on them (the shape, seven pairs, the void suit), and limit hands (腊子). Mixed into
TileState, whose hands, melds and flowers it reads."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ... import notation as nt
from .hand import TileSet
from .memo import _CACHE_LIMIT, _MISSING, ReadTrie
from .settlement import SUITED_HONOR
from .shapes import GROUP, WEIGHT, suit_keys

_ODD = (1).__and__  # a count's lowest bit, mapped in C
# (meld kind, tile) -> its tiles, for the limit-hand scope (a few hundred at most)
_MELD_TILES: dict[tuple[str, int], tuple[int, ...]] = {}


class WinningHands:
    """The win check and what it keeps (reads TileState's fields)."""

    game: Any
    hands: list[list[int]]
    melds: list[list[list[Any]]]
    flowers: list[list[int]]
    voids: list[int | None]
    turned: int | None
    dealer: int
    source: str
    _keys: Any
    _limit_memo: dict[int, Any]
    _meld_version: int
    wild: list[bool]
    _seat_wind: Any  # TileState's: a seat's wind
    _spec: Any  # TileState's: the hand's spec (wild, bonus, … per tile kind)

    def _split(self, counts: list[int]) -> tuple[list[int], int]:
        """Concealed tiles as 34 counts without wilds, and the number of wilds."""
        wild = self.wild
        plain = [0] * SUITED_HONOR
        wilds = 0
        for k, c in enumerate(counts):
            if not c:
                continue
            if wild[k]:
                wilds += c
            elif k < SUITED_HONOR:
                plain[k] += c
        return plain, wilds

    def _move(self, seat: int, tile: int, n: int) -> None:
        """Add n copies of `tile` to the seat's concealed tiles (n < 0 takes them away),
        keeping that hand's group keys and wilds current."""
        hand = self.hands[seat]
        hand[tile] += n
        keys = self._keys
        if keys is not None and keys[0] is self.hands:
            entry = keys[1][seat]
            if entry is not None and entry[0] is hand:
                if entry[3][tile]:
                    entry[2] += n
                elif tile < SUITED_HONOR:
                    entry[1][GROUP[tile]] += n * WEIGHT[tile]
                    entry[4] = None

    def _hand_entry(self, seat: int, wild: list[bool]) -> list[Any]:
        """[the hand, its group keys without wilds (tiles 0–33), its wilds, the wild table
        they follow, the keys' wilds_short or None], built on first use, kept by _move."""
        hand = self.hands[seat]
        keys = self._keys
        if keys is None or keys[0] is not self.hands:
            keys = self._keys = (self.hands, [None] * len(self.hands))
        entry = keys[1][seat]
        if entry is None or entry[0] is not hand or entry[3] is not wild:
            plain = [0 if w else c for c, w in zip(hand[:SUITED_HONOR], wild)]
            wilds = sum(c for c, w in zip(hand, wild) if w)
            entry = keys[1][seat] = [hand, suit_keys(plain), wilds, wild, None]
        return entry

    def _void_held(self, seat: int, extra: int | None = None) -> int | None:
        """The seat's void suit (its first tile kind) while it holds a tile of it."""
        void = self.voids[seat] if self.voids else None
        if void is None:
            return None
        if extra is not None and void <= extra < void + 9:
            return void
        hand = self.hands[seat]
        return void if any(hand[void:void + 9]) else None

    def _can_win(self, seat: int, extra: int | None = None, spec: Any = None) -> bool:
        """Does the seat's hand win (with `extra`, a tile it does not hold)? `spec`: the
        hand's spec when the caller has it at hand."""
        if self.voids and self.voids[seat] is not None \
                and self._void_held(seat, extra) is not None:
            return False  # 定缺: no win while holding the void suit
        hand = self.hands[seat]
        if spec is None:
            spec = self._spec()
        wild = spec.wild
        if extra is not None and extra >= SUITED_HONOR and not wild[extra]:
            return False
        if any(hand[SUITED_HONOR:]):
            for k in spec.stray_kinds:
                if hand[k]:
                    return False  # a bonus tile still held blocks a win (「不明出来不能和牌」)
        # The hand's group keys without its wilds (and with the extra tile): 4 look-ups.
        kept = self._keys
        entry = kept[1][seat] if kept is not None and kept[0] is self.hands else None
        if entry is None or entry[0] is not hand or entry[3] is not wild:
            entry = self._hand_entry(seat, wild)
        keys, wilds = entry[1], entry[2]
        g = self.game
        if extra is not None:
            if wild[extra]:
                wilds += 1
            elif hand[extra] >= 4:
                return self._can_win_counts(seat, extra, wilds)  # a fifth copy: no key digit
            short = entry[4]
            if short is None:
                short = entry[4] = g.shape.wilds_short(keys)
            if short > entry[2] + 1:
                keys = None  # no shape with one tile more (most hands: no look-up)
            elif not wild[extra]:
                keys = keys.copy()
                keys[GROUP[extra]] += WEIGHT[extra]
        if keys is not None and g.shape.can_win_keys(keys, wilds, len(self.melds[seat])):
            return True
        if g.seven_pairs and self._seven_pairs(seat, extra):
            return True
        return self._limit_hand_of(seat, wilds) is not None

    def _winning_tiles(self, seat: int, kinds: Iterable[int]) -> Iterator[int]:
        """The kinds in `kinds` on which the seat would win (_can_win(seat, kind)), in
        their order; the hand's spec looked up once."""
        spec = self._spec()
        for t in kinds:
            if self._can_win(seat, t, spec):
                yield t

    def _seven_pairs(self, seat: int, extra: int | None) -> bool:
        """Pairs only (七对; no wilds with win.seven_pairs), with no melds."""
        if self.melds[seat]:
            return False
        counts = self.hands[seat][:SUITED_HONOR]
        if extra is not None and extra < SUITED_HONOR:
            counts[extra] += 1
        if any(map(_ODD, counts)):
            return False
        return sum(counts) // 2 == self.game.seven_pairs

    def _can_win_counts(self, seat: int, extra: int, wilds: int) -> bool:
        """_can_win on 34 counts, for a hand the keys cannot hold (five of a kind)."""
        hand = self.hands[seat]
        spec = self.game.spec(self.turned)
        plain = hand[:SUITED_HONOR]
        for k in spec.plain_wild_kinds:
            plain[k] = 0
        plain[extra] += 1
        if self.game.shape.can_win(plain, wilds, len(self.melds[seat])):
            return True
        if self.game.seven_pairs and self._seven_pairs(seat, extra):
            return True
        return self._limit_hand_of(seat, wilds) is not None

    def _limit_hand(self, seat: int, counts: list[int]) -> str | None:
        """A limit hand (腊子) this hand holds right now, without a complete shape."""
        return self._limit_hand_of(seat, sum(c for k, c in enumerate(counts)
                                             if c and self.wild[k]))

    def _limit_hand_of(self, seat: int, wilds: int) -> str | None:
        """The same, memoised on everything the scope below is built from (the concealed
        tiles enter it only as the number of wilds): per seat while its melds and flowers
        stay put, then per game."""
        if not self.game.limit_conditions:
            return None
        melds, flowers = self.melds[seat], self.flowers[seat]
        entry = self._limit_memo.get(seat)
        if (entry is None or entry[0] is not melds or entry[1] is not flowers
                or entry[2] != len(melds) or entry[3] != len(flowers)
                or entry[4] != self._meld_version or entry[5] != self.turned
                or entry[6] != self.dealer):
            entry = self._limit_memo[seat] = (melds, flowers, len(melds), len(flowers),
                                              self._meld_version, self.turned, self.dealer,
                                              {})
        by_wilds = entry[7]
        found = by_wilds.get(wilds, _MISSING)
        if found is _MISSING:
            found = by_wilds[wilds] = self._game_limit_hand(seat, wilds)
        return found

    def _game_limit_hand(self, seat: int, wilds: int) -> str | None:
        key = (self.turned, self._seat_wind(seat), wilds,
               tuple(tuple(m) for m in self.melds[seat]), tuple(self.flowers[seat]))
        cache = self.game._limits
        if key in cache:
            return cache[key]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        found = cache[key] = self._eval_limit_hand(seat, wilds)
        return found

    def _eval_limit_hand(self, seat: int, wilds: int) -> str | None:
        """The first limit hand whose condition holds, each condition memoised on just
        the values it read when it was last evaluated (see memo.ReadTrie): most of them read
        a count or two, so a new meld or flower rarely means evaluating them again."""
        hand = self._scope(seat, wilds, winner=False)
        values, frozen_values = self.game.limit_values(self.turned)
        g = self.game
        i = ReadTrie.first_holding(g.limit_conditions, hand, values, frozen_values)
        return g.ruleset.limit_hands[i].name if i >= 0 else None

    def _scope(self, seat: int, wilds: int, winner: bool) -> dict[str, Any]:
        melds = self.melds[seat]
        sets = [{"kind": m[0], "tile": m[1], "concealed": m[2], "wilds": 0, "home_wilds": 0}
                for m in melds]
        tiles = []
        for m in melds:
            meld_tiles = _MELD_TILES.get((m[0], m[1]))
            if meld_tiles is None:
                meld_tiles = _MELD_TILES[m[0], m[1]] = tuple(TileSet(m[0], m[1]).tiles())
            tiles += meld_tiles
        first = next((t for t in tiles if t < 27), None)
        return {"winner": winner, "self_drawn": False, "kong_replacement": False,
                "flower_replacement": False, "robbed_kong": False, "wait": "other",
                "wilds": wilds,
                "flowers": len(self.flowers[seat]), "seat_wind": self._seat_wind(seat),
                "sets": sets, "tiles": tiles, "exposed_flowers": list(self.flowers[seat]),
                "first_suit": nt.tile_suit(first) if first is not None else None,
                "win_tile": None}

