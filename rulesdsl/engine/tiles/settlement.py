"""Settling a tile hand: an exhaustive draw, every seat's hand scored, the payments, and
the live-tile liability (包三家, play.liability). Mixed into TileState."""

from __future__ import annotations

from typing import Any

from ...runtime.expressions import Env
from .hand import ScoringHand, TileSet

SUITED_HONOR = 34  # kinds 0..33 take part in sets; 34.. are flowers
# Draw sources (TileState.source) that end a kong's, or a bonus tile's, replacement chain.
KONG_DRAWS = ("kong", "kong_bonus")
BONUS_DRAWS = ("bonus", "kong_bonus")


class Settlement:
    """The hand's end. Reads the TileState fields it is mixed into."""

    game: Any
    dealer: int
    turned: int
    hands: list[list[int]]
    seen: list[int]
    live_discards: list[dict[str, Any]]
    results: list[dict[str, Any]]
    totals: list[float]
    kong_paid: list[float]

    def _exhausted(self) -> None:
        # 「黄牌…各玩家间不再进行该副牌的结算，同时庄家自动下庄」
        self._event(type="exhausted", tiles_left=self.back - self.front)
        result = {"type": "hand_end", "winner": None, "exhausted": True,
                  "payments": [0.0] * self.game.players}
        self._add_kong_payments(result)
        self.results.append(result)
        for seat, paid in enumerate(result["payments"]):
            self.totals[seat] += paid
        self.dealer = self._next(self.dealer)
        self._finish_hand()

    def _add_kong_payments(self, result: dict[str, Any]) -> None:
        """The hand's kong payments (paid as the kongs were made) join its payments."""
        if self.game.kong_rates:
            result["kong_payments"] = list(self.kong_paid)
            result["payments"] = [p + k for p, k in zip(result["payments"], self.kong_paid)]

    def _scoring_hand(self, seat: int, winner: int, win_tile: int | None, self_drawn: bool,
                      robbed: bool) -> ScoringHand:
        counts = list(self.hands[seat])
        if seat == winner and win_tile is not None and not self_drawn:
            counts[win_tile] += 1
        return ScoringHand(
            concealed=self._tiles(counts),
            melds=[TileSet(m[0], m[1], concealed=m[2]) for m in self.melds[seat]],
            exposed_flowers=list(self.flowers[seat]),
            winner=seat == winner,
            win_tile=win_tile if win_tile is not None else self.drawn,
            self_drawn=self_drawn and seat == winner,
            # a kong's replacement chain may pass through bonus tiles (kong_bonus)
            kong_replacement=seat == winner and self_drawn and self.source in KONG_DRAWS,
            flower_replacement=seat == winner and self_drawn and self.source in BONUS_DRAWS,
            robbed_kong=robbed and seat == winner,
            last_tile=seat == winner and not self._can_draw(),
            # a claim or a kong leaves a meld: no meld anywhere, no discard of the winner's
            first_turn=seat == winner and not any(self.melds) and not self.discards[winner],
            kong_discard=seat == winner and not self_drawn and not robbed
            and self.source in KONG_DRAWS,
            seat_wind=self._seat_wind(seat),
            discarded_wild=self.wild_discarded[seat],
        )

    def _settle(self, winner: int, discarder: int | None, self_drawn: bool,
                win_tile: int | None = None, robbed: bool = False) -> None:
        from .scoring import score_hand

        g = self.game
        context = {"turned": self.turned}
        scores = []
        for seat in range(g.players):
            hand = self._scoring_hand(seat, winner, win_tile, self_drawn, robbed)
            scores.append(score_hand(g.ruleset, hand, context, None))
        totals = [float(s.total) for s in scores]
        liable = None if robbed else self._liable(winner, discarder, win_tile)
        if liable is not None and g.rules.liable_total_zero:
            totals[liable] = 0.0  # 「被包方的牌点归零处理」
        rules = g.rules
        values = {"stake": rules.stake}
        transfers: list[tuple[int, int, float]] = []  # payer, receiver, amount
        if rules.to_winner is not None:
            f = g.ruleset.formulas[rules.to_winner]
            for seat in range(g.players):
                if seat == winner:
                    continue
                pay = float(f.evaluate({k: {"total": totals[winner], **values}[k]
                                        for k in f.inputs}))
                transfers.append((seat, winner, pay))
        if rules.between_others is not None:
            f = g.ruleset.formulas[rules.between_others]
            others = [s for s in range(g.players) if s != winner]
            for i, a in enumerate(others):
                for b in others[i + 1:]:
                    given = {"receiver_total": totals[a], "payer_total": totals[b], **values}
                    pay = float(f.evaluate({k: given[k] for k in f.inputs}))
                    transfers.append((b, a, pay) if pay >= 0 else (a, b, -pay))
        payments = [0.0] * g.players
        for payer, receiver, amount in transfers:
            # 包三家: everyone receives as usual; the liable player makes every payment, or
            # those to the winner (play.liability.pays).
            covered = liable is not None and (rules.liable_pays == "every_payment"
                                              or receiver == winner)
            payments[liable if covered else payer] -= amount
            payments[receiver] += amount
        result = {"type": "hand_end", "winner": winner, "discarder": discarder,
                  "self_drawn": self_drawn, "robbed_kong": robbed, "liable": liable,
                  "totals": totals, "payments": payments,
                  "scores": [s.explain() for s in scores]}
        self._add_kong_payments(result)
        self._event(**{k: v for k, v in result.items() if k != "scores"})
        self.results.append(result)
        for seat in range(g.players):
            self.totals[seat] += payments[seat]
        rule = g.rules.next_dealer  # play.next_dealer
        if rule == "winner":
            self.dealer = winner
        elif rule == "next_player" or winner != self.dealer:
            self.dealer = self._next(self.dealer)
        self._finish_hand()

    def _can_draw(self) -> bool:
        """Could a tile still be drawn (the wall holds one and has not reached its end)?"""
        return self.back > self.front and self._wall_phase() != "exhausted"

    def _is_live(self, seen: int) -> bool:
        """A discard in the live-tile phase is live by play.liability.live (names: seen)."""
        rule = self.game.rules.live_tile
        if rule is None:
            return seen == 0
        values = self.game.ruleset.context_values({"turned": self.turned})
        return bool(rule(Env(None, {**values, "seen": seen})))

    def _liable(self, winner: int, discarder: int | None, tile: int | None) -> int | None:
        """包三家: a live tile discarded in the live-tile phase that lets someone win (a
        robbed kong is no discard)."""
        if discarder is None or not self.live_discards:
            return None
        last = self.live_discards[-1]
        if last["seat"] != discarder or last["tile"] != tile or not last["live"]:
            return None
        # Not liable when every tile in the discarder's hand was live and they were not
        # ready (「…手里全是生牌，同时还没听牌时…不按包三家处理」).
        if self.game.rules.liable_exempt == "none":
            return discarder
        hand = self._tiles(self.hands[discarder])
        all_live = all(self._is_live(self.seen.count(t)) for t in hand)
        ready = any(self._can_win(discarder, t) for t in range(SUITED_HONOR))
        if all_live and not ready:
            return None
        return discarder
