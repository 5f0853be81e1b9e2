"""Tribute between hands (进贡 / 还贡), the shedding family's `play.tribute`.

Before a hand (not the first) the last player out of the last hand pays the first out
one of their highest cards among those `card` allows (a rule file may exclude the wild); with
`both_last`, when one side took the last two places both its players pay, the higher
card going to the first out and the other to the second. Each receiver then gives back
a card `back` allows (rank 10 or lower) to the player who paid them. When the payers'
cards together satisfy `resist` (抗贡) nobody pays, and the first out
leads; else the payer of the higher card leads (`leads: payer`) or the first out.
"""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...runtime.expressions import Env
from ..base import Action, IllegalAction

TRIBUTE_PHASES = ("tribute", "return")


class Tribute:
    """The tribute phases of a shedding state (mixed into ShedState, whose hands, log,
    results and hand context it reads)."""

    tribute: dict[str, Any] | None = None

    def _begin_tribute(self) -> bool:
        """Start the tribute for this hand from the last hand's finishing order; False when
        nobody pays (no rule, the first hand, a resisted tribute)."""
        rules = self.game.rules.tribute
        results = self.results
        if rules is None or not results:
            return False
        order = results[-1]["order"]
        first, last = order[0], order[-1]
        sides = self.game.ruleset.teams
        side_of = {s: t for t, seats in enumerate(sides) for s in seats}
        if rules["both_last"] and len(order) >= 4 and side_of[order[-1]] == side_of[
                order[-2]] != side_of[first]:
            payers, receivers = [order[-2], order[-1]], [order[0], order[1]]
        else:
            payers, receivers = [last], [first]
        if rules["resist"] is not None:
            held = tuple(k for s in payers for k in self._cards(self.hands[s]))
            values = {**self.game.ruleset.options, "hand": held}
            if rules["resist"](Env(None, values)):
                self._event(type="tribute_resisted", seats=payers)
                return False
        self.tribute = {"payers": payers, "receivers": receivers, "paid": [], "back": []}
        self.phase = "tribute"
        self.to_act = payers[0]
        return True

    def _tribute_actions(self, seat: int) -> list[Action]:
        """What the seat to act may give: one of its highest payable cards, or a card it may
        give back (any card when it holds none that `back` allows)."""
        rules = self.game.rules.tribute
        hc = self._hc
        values = hc.values
        hand = self.hands[seat]
        held = [k for k, c in enumerate(hand) if c]
        if self.phase == "tribute":
            allowed = [k for k in held if rules["card"] is None or rules["card"](Env(k, values))]
            if not allowed:
                allowed = held
            top = max(hc.strength[k] for k in allowed)
            return [Action("tribute", (k,)) for k in allowed if hc.strength[k] == top]
        allowed = [k for k in held if rules["back"] is None or rules["back"](Env(k, values))]
        return [Action("return", (k,)) for k in (allowed or held)]

    def _give(self, giver: int, taker: int, card: int, why: str) -> None:
        """A card moves from one hand to another (the log's `give` events account for it)."""
        self.hands[giver][card] -= 1
        self.hands[taker][card] += 1
        self._seat_hp.pop(giver, None)  # the two hands changed: their plays are new
        self._seat_hp.pop(taker, None)
        self._event(type="give", seat=giver, to=taker, card=nt.format_card(card), why=why)

    def _check_tribute(self, seat: int, act: Action) -> None:
        if act not in self._tribute_actions(seat):
            what = "pay one of your highest cards" if self.phase == "tribute" else \
                "give back a card the rules allow"
            shown = ", ".join(map(str, self._tribute_actions(seat)))
            raise IllegalAction(f"during the {self.phase}: {what} ({shown})")

    def _do_tribute(self, seat: int, act: Action) -> None:
        t = self.tribute
        assert t is not None
        card = act.cards[0]
        if self.phase == "tribute":
            t["paid"].append([seat, card])
            self._event(type="tribute", seat=seat, card=nt.format_card(card))
            if len(t["paid"]) < len(t["payers"]):
                self.to_act = t["payers"][len(t["paid"])]
                return
            # The higher card to the first out; equal cards in the payers' order.
            strength = self._hc.strength
            ranked = sorted(t["paid"], key=lambda p: -strength[p[1]])
            t["paid"] = ranked
            for (payer, k), receiver in zip(ranked, t["receivers"]):
                self._give(payer, receiver, k, "tribute")
            self.phase = "return"
            self.to_act = t["receivers"][0]
            return
        payer = t["paid"][len(t["back"])][0]
        t["back"].append([seat, card])
        self._give(seat, payer, card, "return")
        if len(t["back"]) < len(t["receivers"]):
            self.to_act = t["receivers"][len(t["back"])]
            return
        rules = self.game.rules.tribute
        leader = t["paid"][0][0] if rules["leads"] == "payer" else t["receivers"][0]
        self.phase = "play"
        self.first_leader = self.to_act = leader
        self._event(type="lead", seat=leader, rule="tribute")
