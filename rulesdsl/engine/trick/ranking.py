"""Throws and the ranking of a trick's plays (play.throw): whether a throw stands (its
test), what a failed one forces out, how a play must match a throw to rank against it,
and which component ranks it. Mixed into TrickState, whose hands, trick and hand context
it reads."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...model.hand import TRUMP, HandContext
from ...model.patterns import beats
from .plays import (
    Unit,
    arrange_as,
    beatable_unit,
    best_reading,
    card_readings,
    decompose,
    primary,
    shape_of,
)


class TrickRanking:
    """Throw resolution and trick ranking (reads TrickState's fields)."""

    game: Any
    hc: HandContext
    hands: list[list[int]]
    trick: list[list[Any]]
    defender_points: int
    _event: Any  # TrickState's: log an event
    _dealer_team: Any  # TrickState's: the dealer's team
    _lead_system: Any  # TrickState's: the suit-system followers must follow
    _next: Any  # TrickState's: the next seat in turn

    def _resolve_throw(self, seat: int, cards: list[int]) -> list[int]:
        """A multi-combination lead stands only if nobody could beat any part of it."""
        hc = self.hc
        if card_readings(hc, cards):
            return cards
        units = decompose(hc, cards)
        in_turn = [seat]
        while len(in_turn) < self.game.players:
            in_turn.append(self._next(in_turn[-1]))
        others = [self.hands[s] for s in in_turn[1:]]  # in turn order
        rules = self.game.rules
        if rules.throw_test == "smallest_card":
            # 「以其它玩家手中没有比所甩的牌中最小的牌大为甩牌成功」
            low = min(hc.strength[k] for k in cards)
            system = hc.system[cards[0]]
            held_above = any(c and hc.system[k] == system and hc.strength[k] > low
                             for hand in others for k, c in enumerate(hand))
            weak = list(units) if held_above else []
        else:
            weak = [u for u in units if beatable_unit(hc, u, others)]
        if not weak:
            self._event(type="throw", seat=seat, cards=nt.format_cards(cards), ok=True)
            return cards
        if rules.throw_failure == "first_blocker_unit":
            # the first player in turn order who could beat a unit stops the throw
            blocker = next(h for h in others if any(beatable_unit(hc, u, [h]) for u in weak))
            weak = [u for u in weak if beatable_unit(hc, u, [blocker])]
        if rules.throw_failure != "smallest_card":
            forced = list(min(weak, key=lambda u: (u.reading.size, u.reading.key)).cards)
        else:
            forced = [min(cards, key=lambda k: hc.strength[k])]
        penalty = rules.throw_penalty
        if penalty:
            on_dealer_side = self.game.team_of[seat] == self._dealer_team()
            self.defender_points += penalty if on_dealer_side else -penalty
        self._event(type="throw", seat=seat, cards=nt.format_cards(cards), ok=False,
                    forced=nt.format_cards(forced), penalty=penalty)
        return forced

    def _winner_index(self) -> tuple[int, list[Unit] | None]:
        """Which play of the trick wins, by the hand's order and the lead's shape."""
        hc = self.hc
        lead_cards = self.trick[0][1]
        system = self._lead_system()
        lead_reading = best_reading(hc, lead_cards)
        if lead_reading is not None:
            lead_units = [Unit(tuple(lead_cards), lead_reading)]
        else:
            lead_units = decompose(hc, lead_cards)
        shape = shape_of(lead_units)
        best, best_units = 0, lead_units
        for i in range(1, len(self.trick)):
            cards = self.trick[i][1]
            systems = {hc.system[k] for k in cards}
            if len(systems) != 1:
                continue
            sys_ = systems.pop()
            if sys_ != system and not (sys_ == TRUMP and system != TRUMP):
                continue
            units = arrange_as(hc, cards, shape)
            if units is None:
                continue
            if len(lead_units) > 1 and self.game.rules.throw_ruff_match == "components" \
                    and shape_of(decompose(hc, cards)) != shape:
                continue  # its own units differ from the throw's
            if self._beats_units(hc, units, best_units, len(lead_units) == 1):
                best, best_units = i, units
        return best, best_units

    def _beats_units(self, hc: HandContext, units: list[Unit], current: list[Unit],
                     single: bool) -> bool:
        if single:
            return beats(hc, units[0].reading, current[0].reading)
        rule = self.game.rules.throw_ranked_by
        if rule == "every_unit":
            # each unit over its counterpart, largest first (a trump play over plain ones)
            order = sorted(units, key=lambda u: (-u.reading.size, -u.reading.key))
            theirs_all = sorted(current, key=lambda u: (-u.reading.size, -u.reading.key))
            return all(_unit_over(m.reading, t.reading) for m, t in zip(order, theirs_all))
        if rule == "highest_card":
            mine_top = max((k for u in units for k in u.cards), key=lambda k: hc.strength[k])
            their_top = max((k for u in current for k in u.cards),
                            key=lambda k: hc.strength[k])
            if hc.system[mine_top] == hc.system[their_top]:
                return hc.strength[mine_top] > hc.strength[their_top]
            return hc.system[mine_top] == TRUMP
        mine, theirs = primary(units).reading, primary(current).reading
        return _unit_over(mine, theirs)


def _unit_over(mine: Any, theirs: Any) -> bool:
    """One unit's reading over another's: higher in one system, or a trump over a plain."""
    if mine.system == theirs.system:
        return mine.key > theirs.key
    return mine.system == TRUMP and theirs.system != TRUMP
