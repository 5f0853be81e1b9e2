"""What a seat cannot see in a tile hand, and dealing it anew (`state.sample_hidden`).

Hidden from a seat: the other hands (concealed tiles) and the wall's order. Public and
kept: melds (a concealed kong stays as it is), discards, bonus tiles set aside, the
turned tile. Kept too: the tiles of a claim waiting for the others' answers, the tile of
an added kong waiting to be robbed, and the hands of seats waiting to win (their hands
must win on that tile); while the wall can replace them no hand holds a bonus tile; a
seat whose last discard left its named void suit (定缺) empty holds none of it until it
draws again; a void suit another seat named but nobody has seen yet is named anew. The
deal record and the wall's drawn places are rewritten from the new hands (they would
tell the true ones). Mixed into TileState.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ... import notation as nt
from ..base import VOID_SUITS
from ..hidden import Pin, Zone, counts_of

_REPLACING = ("kong", "concealed_kong", "added_kong", "bonus")  # a draw follows these


class TileHidden:
    """The tile family's hooks of `sample_hidden` (reads TileState's fields)."""

    game: Any
    phase: str
    hands: list[list[int]]
    wall: list[int]
    front: int
    back: int
    turned: int | None
    to_act: int | None
    drawn: int | None
    source: str
    last_discard: dict[str, int] | None
    claims: list[list[Any]]
    claim_queue: list[int]
    kong_tile: dict[str, int] | None
    voids: list[int | None]
    hand_no: int
    log: list[dict[str, Any]]
    _tiles: Any

    def _hidden_zones(self, seat: int) -> tuple[list[Zone], list[Pin]]:
        g = self.game
        bonus = frozenset(g.spec(self.turned).bonus_kinds) if self.back > self.front \
            else frozenset()
        kept = {c[0] for c in self.claims if c[1] == "win"}
        if self.phase == "rob":
            kept.update(self.claim_queue)
        voids = self._void_bans()
        zones: list[Zone] = []
        at: dict[int, int] = {}
        for s, hand in enumerate(self.hands):
            if s != seat and s not in kept and any(hand):
                at[s] = len(zones)
                zones.append(Zone(("hand", s), self._tiles(hand), bonus | voids[s]))
        if self.back > self.front:
            zones.append(Zone(("wall",), self.wall[self.front:self.back]))
        pins: list[Pin] = [(t, (at[s],)) for s, kind, tiles in self.claims
                           if s in at and kind != "win" for t in tiles]
        if self.kong_tile is not None and self.kong_tile["seat"] in at:
            pins.append((self.kong_tile["tile"], (at[self.kong_tile["seat"]],)))
        return zones, pins

    def _void_bans(self) -> list[frozenset[int]]:
        """Per seat, its void suit's tiles when it has shown it holds none: its last
        discard was not of that suit (which it must discard first) and it has drawn no
        tile since."""
        n = self.game.players
        out: list[frozenset[int]] = [frozenset()] * n
        if not self.voids or None in self.voids:
            return out
        clean = [False] * n
        for e in self.log:
            if e.get("hand") != self.hand_no or "seat" not in e:
                continue
            s = e["seat"]
            if e["type"] == "discard":
                void = self.voids[s]
                tile = nt.tile_kind(e["tile"])
                clean[s] = void is not None and not void <= tile < void + 9
            elif e["type"] in _REPLACING:
                clean[s] = False
        drawing = self.to_act if self.phase == "turn" and self.source != "claim" else None
        owner = self.kong_tile["seat"] if self.kong_tile is not None else None
        for s in range(n):
            void = self.voids[s]
            if clean[s] and s not in (drawing, owner) and void is not None:
                out[s] = frozenset(range(void, void + 9))
        return out

    def _set_hidden(self, seat: int, zones: list[Zone], contents: list[list[int]],
                    rng: random.Random) -> None:
        for zone, tiles in zip(zones, contents):
            if zone.key[0] == "hand":
                self.hands[zone.key[1]] = counts_of(tiles, nt.TILE_KINDS)
            else:
                rng.shuffle(tiles)
                self.wall[self.front:self.back] = tiles
        # The tile just drawn is the drawer's: one it holds in its new hand, chosen anew.
        drawer = self.to_act if self.phase == "turn" else \
            self.last_discard["seat"] if self.last_discard is not None else None
        if self.drawn is not None and drawer is not None and drawer != seat \
                and any(self.hands[drawer]):
            self.drawn = rng.choice(self._tiles(self.hands[drawer]))
        if self.phase == "void":  # the suits others named are not shown yet
            suits = self.game.void_suits or tuple(VOID_SUITS.values())
            self.voids = [v if v is None or s == seat else rng.choice(suits)
                          for s, v in enumerate(self.voids)]
        self._rewrite_records(seat, rng)

    def _rewrite_records(self, seat: int, rng: random.Random) -> None:
        """The records of what others were dealt and drew tell the truth: rewrite them
        from the new hands. The wall's drawn places get the tiles not left in it, in a new
        order; the deal record gives each other seat what it let go of in public (in
        order) and then the tiles it holds, as many as it was dealt, so every tile it let
        go of was in its hand by then (it can have let go of no more than it was dealt and
        has drawn)."""
        left = Counter(self.wall[self.front:self.back])
        drawn = list((Counter(self.game.tiles) - left).elements())
        places = self.front + len(self.wall) - self.back
        if len(drawn) == places:
            rng.shuffle(drawn)
            self.wall[:self.front] = drawn[:self.front]
            self.wall[self.back:] = drawn[self.front:]
        events = [e for e in self.log if e.get("hand") == self.hand_no]
        deal = next((e for e in events if e["type"] == "deal"), None)
        if deal is None:
            return  # a position without a deal record
        gone: list[list[int]] = [[] for _ in self.hands]
        claimed: dict[tuple[int, str], list[int]] = {}
        for e in events:
            kind, s = e["type"], e.get("seat")
            if s is None or not 0 <= s < len(gone):
                continue
            if kind in ("discard", "bonus", "added_kong"):
                gone[s].append(nt.tile_kind(e["tile"]))
            elif kind == "concealed_kong":
                gone[s] += [nt.tile_kind(e["tile"])] * 4
            elif kind == "claim":
                claimed[s, e["claim"]] = nt.parse_tiles(e.get("tiles", ""))
            elif kind in ("chow", "pung", "kong"):
                gone[s] += claimed.pop((s, kind), [])
        hands = list(deal["hands"])
        for s, text in enumerate(hands):
            if s != seat and s < len(self.hands):
                size = len(nt.parse_tiles(text))
                hands[s] = nt.format_tiles(sorted((gone[s] + self._tiles(self.hands[s]))[:size]))
        deal["hands"] = hands
