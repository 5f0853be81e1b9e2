"""What a seat cannot see in a trick hand, and dealing it anew (`state.sample_hidden`).

Hidden from a seat: the other hands, the cards still to deal (in the deal) and the buried
kitty (unless it buried it). Shown, and kept: cards declared or thrown stay with their
seat until played (the dealer may bury them: they stay in its hand or the kitty, as does
a turned-up kitty); a follower that did not follow the led suit-system holds none of it
for the rest of the hand. Mixed into TrickState.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ... import notation as nt
from ..hidden import Pin, Zone, counts_of, hand_events
from .plays import best_reading, throw_system


class TrickHidden:
    """The trick family's hooks of `sample_hidden` (reads TrickState's fields)."""

    game: Any
    hc: Any
    phase: str
    hands: list[list[int]]
    kitty: list[int]
    deal_order: list[int]
    dealt: int
    deal_start: int
    dealer: int | None
    final_queue: list[int] | None
    hand_no: int
    log: list[dict[str, Any]]
    _cards: Any
    _next: Any

    def _hidden_zones(self, seat: int) -> tuple[list[Zone], list[Pin]]:
        n = self.game.players
        bans = self._shown_voids() if self.phase == "play" else [set() for _ in range(n)]
        zones: list[Zone] = []
        at: dict[Any, int] = {}
        for s in range(n):
            if s != seat and any(self.hands[s]):
                at[s] = len(zones)
                zones.append(Zone(("hand", s), self._cards(self.hands[s]),
                                  frozenset(bans[s])))
        if self.phase == "deal" and self.dealt < len(self.deal_order):
            zones.append(Zone(("undealt",), self.deal_order[self.dealt:]))
        elif self.phase == "play" and self.dealer != seat and self.kitty:
            at["kitty"] = len(zones)
            zones.append(Zone(("kitty",), list(self.kitty)))
        return zones, self._shown_pins(seat, at)

    def _shown_pins(self, seat: int, at: dict[Any, int]) -> list[Pin]:
        """Cards shown by a declaration, a throw or a turned-up kitty and not played since:
        each in its seat's hand, or (the dealer's, shown before it buried) in its hand or
        the kitty. Lower bounds, counted in the order of the log."""
        kinds = len(self.game.ruleset.deck)
        held = [[0] * kinds for _ in range(self.game.players)]
        group: list[int] | None = None  # the dealer's, in hand or buried
        dealer = None
        turned: list[int] = []
        for e in hand_events(self.log, self.hand_no):
            kind = e["type"]
            if kind in ("declare", "throw"):
                mine = held[e["seat"]]
                for k, c in Counter(nt.parse_cards(e["cards"])).items():
                    mine[k] = max(mine[k], c)
            elif kind == "turn_up_kitty":
                turned = nt.parse_cards(e["cards"])
            elif kind == "take_kitty":
                dealer = e["seat"]
                group = held[dealer]
                for k in turned:
                    group[k] += 1
                held[dealer] = [0] * kinds
            elif kind == "play":
                mine = held[e["seat"]]
                for k in nt.parse_cards(e["cards"]):
                    mine[k] = max(0, mine[k] - 1)
                    if e["seat"] == dealer and group is not None:
                        group[k] = max(0, group[k] - 1)
        pins: list[Pin] = []
        for s, counts in enumerate(held):
            if s in at:
                pins += [(k, (at[s],)) for k, c in enumerate(counts) for _ in range(c)]
        if group is not None and dealer in at:
            where = (at[dealer], at["kitty"]) if "kitty" in at else (at[dealer],)
            pins += [(k, where) for k, c in enumerate(group)
                     for _ in range(c - held[dealer][k])]
        return pins

    def _shown_voids(self) -> list[set[int]]:
        """Per seat, the kinds of each suit-system it showed it no longer holds: it played
        fewer of the led system than the lead, so it played all it had."""
        hc = self.hc
        n = self.game.players
        bans: list[set[int]] = [set() for _ in range(n)]
        plays = [(e["seat"], nt.parse_cards(e["cards"]))
                 for e in hand_events(self.log, self.hand_no) if e["type"] == "play"]
        for start in range(0, len(plays), n):
            trick = plays[start:start + n]
            lead = sorted(trick[0][1])
            best = best_reading(hc, lead)
            system = best.system if best is not None and best.system else \
                throw_system(hc, lead)
            for s, cards in trick[1:]:
                if sum(1 for k in cards if hc.system[k] == system) < len(lead):
                    bans[s].update(hc.kinds_of.get(system, ()))
        return bans

    def _set_hidden(self, seat: int, zones: list[Zone], contents: list[list[int]],
                    rng: random.Random) -> None:
        kinds = len(self.game.ruleset.deck)
        for zone, cards in zip(zones, contents):
            if zone.key[0] == "hand":
                self.hands[zone.key[1]] = counts_of(cards, kinds)
            elif zone.key[0] == "kitty":
                self.kitty = sorted(cards)
            else:  # the cards still to deal; in the last round of declaring, the kitty
                self.deal_order[self.dealt:] = cards
                if self.final_queue is not None:
                    self.kitty = self.deal_order[self.dealt:]
        if self.deal_order:
            self._redeal(seat, rng)

    def _positions(self, upto: int) -> list[list[int]]:
        """Per seat, the places in the deal order of the cards it was dealt (of the first
        `upto`)."""
        out: list[list[int]] = [[] for _ in range(self.game.players)]
        seat = self.deal_start
        for i in range(upto):
            out[seat].append(i)
            seat = self._next(seat)
        return out

    def _redeal(self, seat: int, rng: random.Random) -> None:
        """Rewrite the deal order (and the kitty's events) to the new hands: each seat
        was dealt what it holds and has played, the dealer with the kitty it took."""
        g = self.game
        kinds = len(g.ruleset.deck)
        order = self.deal_order
        to_hands = len(order) - g.kitty_size
        if self.phase == "deal":
            wants = [list(h) for h in self.hands]
            places = self._positions(self.dealt)
        else:
            places = self._positions(to_hands)
            played = [[0] * kinds for _ in range(g.players)]
            events = hand_events(self.log, self.hand_no)
            for e in events:
                if e["type"] == "play":
                    for k in nt.parse_cards(e["cards"]):
                        played[e["seat"]][k] += 1
            wants = [[a + b for a, b in zip(h, p)] for h, p in zip(self.hands, played)]
            dealer = self.dealer
            if dealer is not None and dealer != seat and g.kitty_size:
                have = wants[dealer]
                if self.phase == "play":
                    for k in self.kitty:
                        have[k] += 1
                rest = self._new_rest(have, order[to_hands:], events, rng)
                for k in rest:
                    have[k] -= 1
                order[to_hands:] = rest
                if self.phase == "bury":  # the kitty taken, not yet buried
                    self.kitty = list(rest)
                for e in events:
                    if e["type"] == "take_kitty":
                        e["cards"] = nt.format_cards(rest)
                    elif e["type"] == "bury":
                        e["cards"] = nt.format_cards(sorted(self.kitty))
        for s in range(g.players):
            if s == seat or len(places[s]) != sum(wants[s]):
                continue  # (a scenario's hands follow no deal order)
            if Counter(order[i] for i in places[s]) != Counter(
                    {k: c for k, c in enumerate(wants[s]) if c}):
                cards = self._cards(wants[s])
                rng.shuffle(cards)
                for i, k in zip(places[s], cards):
                    order[i] = k

    def _new_rest(self, have: list[int], old: list[int], events: list[dict[str, Any]],
                  rng: random.Random) -> list[int]:
        """The cards the dealer took from the kitty: the turned-up ones where the kitty was
        shown, else any of the cards it holds, has played or buried."""
        pool = self._cards(have)
        shown = any(e["type"] == "turn_up_kitty" for e in events)
        if shown and not Counter(old) - Counter(pool):
            return list(old)
        return rng.sample(pool, len(old))
