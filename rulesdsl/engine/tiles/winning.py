"""Whether a tile hand wins: the hand's group keys kept current as tiles move, the win
check on them (the shape, seven pairs, the void suit), and limit hands (腊子). Mixed into
TileState, whose hands, melds and flowers it reads."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from .hand import TileSet
from .memo import _CACHE_LIMIT
from .settlement import SUITED_HONOR
from .shapes import GROUP, WEIGHT, suit_keys


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
        keeping that hand's group keys current."""
        hand = self.hands[seat]
        hand[tile] += n
        if tile < SUITED_HONOR:
            keys = self._keys
            if keys is not None and keys[0] is self.hands:
                entry = keys[1][seat]
                if entry is not None and entry[0] is hand:
                    entry[1][GROUP[tile]] += n * WEIGHT[tile]

    def _hand_keys(self, seat: int) -> list[int]:
        """The seat's group keys (tiles 0–33, wilds included), built on first use."""
        hand = self.hands[seat]
        keys = self._keys
        if keys is None or keys[0] is not self.hands:
            keys = self._keys = (self.hands, [None] * len(self.hands))
        entry = keys[1][seat]
        if entry is None or entry[0] is not hand:
            entry = keys[1][seat] = (hand, suit_keys(hand))
        return entry[1]

    def _void_held(self, seat: int, extra: int | None = None) -> int | None:
        """The seat's void suit (its first tile kind) while it holds a tile of it."""
        void = self.voids[seat] if self.voids else None
        if void is None:
            return None
        if extra is not None and void <= extra < void + 9:
            return void
        hand = self.hands[seat]
        return void if any(hand[void:void + 9]) else None

    def _can_win(self, seat: int, extra: int | None = None) -> bool:
        if self.voids and self.voids[seat] is not None \
                and self._void_held(seat, extra) is not None:
            return False  # 定缺: no win while holding the void suit
        hand = self.hands[seat]
        spec = self.game.spec(self.turned)
        wild = spec.wild
        if extra is not None and extra >= SUITED_HONOR and not wild[extra]:
            return False
        if any(hand[SUITED_HONOR:]):
            for k in spec.stray_kinds:
                if hand[k]:
                    return False  # a bonus tile still held blocks a win (「不明出来不能和牌」)
        wilds = 0
        for k in spec.wild_kinds:
            wilds += hand[k]
        if extra is not None and not wild[extra] and hand[extra] >= 4:
            return self._can_win_counts(seat, extra, wilds)  # a fifth copy: no key digit
        # The hand's group keys without its wilds (and with the extra tile): 4 look-ups.
        keys = self._hand_keys(seat)
        if spec.plain_wild_digits or extra is not None:
            keys = list(keys)
            for k, group, weight in spec.plain_wild_digits:
                keys[group] -= hand[k] * weight
            if extra is not None:
                if wild[extra]:
                    wilds += 1
                else:
                    keys[GROUP[extra]] += WEIGHT[extra]
        if self.game.shape.can_win_keys(keys, wilds, len(self.melds[seat])):
            return True
        if self.game.seven_pairs and self._seven_pairs(seat, extra):
            return True
        return self._limit_hand_of(seat, wilds) is not None

    def _seven_pairs(self, seat: int, extra: int | None) -> bool:
        """Pairs only (七对; no wilds with win.seven_pairs), with no melds."""
        if self.melds[seat]:
            return False
        hand = self.hands[seat]
        pairs = 0
        for k in range(SUITED_HONOR):
            c = hand[k] + (k == extra)
            if c % 2:
                return False
            pairs += c // 2
        return pairs == self.game.seven_pairs

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
        melds, flowers = self.melds[seat], self.flowers[seat]
        entry = self._limit_memo.get(seat)
        if (entry is None or entry[0][0] is not melds or entry[0][1] is not flowers
                or entry[0][2:] != (len(melds), len(flowers), self._meld_version,
                                    self.turned, self.dealer)):
            entry = self._limit_memo[seat] = ((melds, flowers, len(melds), len(flowers),
                                               self._meld_version, self.turned,
                                               self.dealer), {})
        by_wilds = entry[1]
        if wilds in by_wilds:
            return by_wilds[wilds]
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
        values = {**self.game.ruleset.options, "turned": self.turned}
        frozen: dict[tuple, Any] = {}  # this scope's values, made hashable once
        for lh, trie in zip(self.game.ruleset.limit_hands, self.game._limit_tries):
            if trie.holds(lh.when, hand, values, frozen):
                return lh.name
        return None

    def _scope(self, seat: int, wilds: int, winner: bool) -> dict[str, Any]:
        sets = [{"kind": m[0], "tile": m[1], "concealed": m[2], "wilds": 0, "home_wilds": 0}
                for m in self.melds[seat]]
        tiles = [t for m in self.melds[seat] for t in TileSet(m[0], m[1]).tiles()]
        first = next((t for t in tiles if t < 27), None)
        return {"winner": winner, "self_drawn": False, "kong_replacement": False,
                "flower_replacement": False, "robbed_kong": False, "wait": "other",
                "wilds": wilds,
                "flowers": len(self.flowers[seat]), "seat_wind": self._seat_wind(seat),
                "sets": sets, "tiles": tiles, "exposed_flowers": list(self.flowers[seat]),
                "first_suit": nt.tile_suit(first) if first is not None else None,
                "win_tile": None}

