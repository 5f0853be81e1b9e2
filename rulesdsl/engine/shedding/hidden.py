"""What a seat cannot see in a shedding hand, and dealing it anew (`state.sample_hidden`).

Hidden from a seat: the other hands, the cards dealt to nobody (`unused`) and the kitty
until the auction's winner takes it (it is shown then). Shown, and kept: a card paid or
given in the tribute and the kitty taken stay with their seat until played or given on;
before the hand's first play, the leader named by the card it holds keeps that card (and
no hand holds a card ranked before it on the holder list). Mixed into ShedState.
"""

from __future__ import annotations

import random
from typing import Any

from ... import notation as nt
from ..hidden import Pin, Zone, counts_of, hand_events


class ShedHidden:
    """The shedding family's hooks of `sample_hidden` (reads ShedState's fields)."""

    game: Any
    hands: list[list[int]]
    unused: list[int]
    kitty: list[int]
    dealer: int | None
    to_act: int | None
    hand_no: int
    log: list[dict[str, Any]]
    _cards: Any
    _must_play: Any

    def _hidden_zones(self, seat: int) -> tuple[list[Zone], list[Pin]]:
        events = hand_events(self.log, self.hand_no)
        took = any(e["type"] == "dealer" for e in events)
        must = self._must_play()
        banned: frozenset[int] = frozenset()
        if must is not None:  # nobody held a holder card ranked before the leader's
            holder = list(self.game.rules.holder)
            banned = frozenset(holder[:holder.index(must)])
        zones: list[Zone] = []
        at: dict[int, int] = {}
        for s, hand in enumerate(self.hands):
            if s != seat and any(hand):
                at[s] = len(zones)
                zones.append(Zone(("hand", s), self._cards(hand), banned))
        if self.unused:
            zones.append(Zone(("unused",), list(self.unused)))
        if self.kitty and not took:
            zones.append(Zone(("kitty",), list(self.kitty)))
        held = self._shown_held(events)
        if must is not None and self.to_act is not None:
            mine = held[self.to_act]
            mine[must] = max(mine[must], 1)
        pins = [(k, (at[s],)) for s, counts in enumerate(held) if s in at
                for k, c in enumerate(counts) for _ in range(c)]
        return zones, pins

    def _shown_held(self, events: list[dict[str, Any]]) -> list[list[int]]:
        """Per seat, the cards it was shown to hold and has not played or given away since
        (lower bounds, counted in the order of the log)."""
        kinds = len(self.game.ruleset.deck)
        held = [[0] * kinds for _ in self.hands]

        def out(seat: int, cards: list[int]) -> None:
            for k in cards:
                held[seat][k] = max(0, held[seat][k] - 1)

        for e in events:
            kind = e["type"]
            if kind == "tribute":
                (k,) = nt.parse_cards(e["card"])
                held[e["seat"]][k] = max(held[e["seat"]][k], 1)
            elif kind == "give":
                cards = nt.parse_cards(e["card"])
                out(e["seat"], cards)
                for k in cards:
                    held[e["to"]][k] += 1
            elif kind == "dealer":
                for k in nt.parse_cards(e["kitty"]):
                    held[e["seat"]][k] += 1
            elif kind == "play":
                out(e["seat"], nt.parse_cards(e["cards"]))
        return held

    def _set_hidden(self, seat: int, zones: list[Zone], contents: list[list[int]],
                    rng: random.Random) -> None:
        kinds = len(self.game.ruleset.deck)
        for zone, cards in zip(zones, contents):
            if zone.key[0] == "hand":
                self.hands[zone.key[1]] = counts_of(cards, kinds)
            elif zone.key[0] == "unused":
                self.unused = cards
            else:
                self.kitty = cards
        self._redeal(seat)

    def _redeal(self, seat: int) -> None:
        """Rewrite the hand's deal event to the new hands: each seat was dealt what it
        holds, has played and given away, less what it received (the kitty, a tribute)."""
        g = self.game
        events = hand_events(self.log, self.hand_no)
        deal = next((e for e in events if e["type"] == "deal"), None)
        if deal is None:
            return  # a scenario's hand has no deal to rewrite
        dealt = [list(h) for h in self.hands]
        for e in events:
            kind = e["type"]
            if kind == "play":
                for k in nt.parse_cards(e["cards"]):
                    dealt[e["seat"]][k] += 1
            elif kind == "give":
                for k in nt.parse_cards(e["card"]):
                    dealt[e["seat"]][k] += 1
                    dealt[e["to"]][k] -= 1
            elif kind == "dealer":
                for k in nt.parse_cards(e["kitty"]):
                    dealt[e["seat"]][k] -= 1
        deal["hands"] = [text if s == seat else g.format(self._cards(dealt[s]))
                         for s, text in enumerate(deal["hands"])]
        deal["kitty"] = g.format(self.kitty)
        deal["unused"] = g.format(self.unused)
