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
_LIVE_LIMIT = 10_000  # memoised live-tile answers per game before they are cleared


class Settlement:
    """The hand's end. Reads the TileState fields it is mixed into."""

    game: Any
    dealer: int
    turned: int
    hands: list[list[int]]
    melds: list[list[list[Any]]]
    seen: list[int]
    live_discards: list[dict[str, Any]]
    results: list[dict[str, Any]]
    totals: list[float]
    kong_bills: list[dict[str, Any]]
    hand_wins: list[dict[str, Any]]

    @property
    def kong_paid(self) -> list[float]:
        """This hand's kong payments so far, per seat (play.kong_payments)."""
        paid = [0.0] * self.game.players
        for bill in self.kong_bills:
            for s, p in enumerate(bill["payments"]):
                paid[s] += p
        return paid

    def _won(self) -> set[int]:
        """The seats that have won this hand (play.after_win: winner_leaves)."""
        return {w["winner"] for w in self.hand_wins}

    def _leaves(self) -> bool:
        return self.game.rules.after_win == "winner_leaves"

    def _exhausted(self) -> None:
        # 「黄牌…各玩家间不再进行该副牌的结算，同时庄家自动下庄」
        self._event(type="exhausted", tiles_left=self.back - self.front)
        if self._leaves():
            self._end_hand(exhausted=True)
            return
        result = {"type": "hand_end", "winner": None, "exhausted": True,
                  "payments": [0.0] * self.game.players}
        self._add_kong_payments(result)
        self._add_draw_payments(result)
        self.results.append(result)
        for seat, paid in enumerate(result["payments"]):
            self.totals[seat] += paid
        self._pass_deal(None)
        self._finish_hand()

    def _add_kong_payments(self, result: dict[str, Any]) -> None:
        """The hand's kong payments (paid as the kongs were made) join its payments."""
        if self.game.kong_rates:
            paid = self.kong_paid
            result["kong_payments"] = paid
            result["payments"] = [p + k for p, k in zip(result["payments"], paid)]

    def _add_draw_payments(self, result: dict[str, Any]) -> None:
        """What players still in play settle at an exhaustive draw (play.exhaustive_draw)."""
        if not self.game.draw_rules:
            return
        paid = self._draw_settlements()
        result["draw_payments"] = paid
        result["payments"] = [p + d for p, d in zip(result["payments"], paid)]

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

    def _settle(self, winners: list[int], discarder: int | None, self_drawn: bool,
                win_tile: int | None = None, robbed: bool = False) -> None:
        """One win, or several on one tile (一炮多响, in turn order from the discarder):
        each scored and paid. The hand ends (play.after_win: end_hand), or the winners
        leave and the others play on (winner_leaves) while two or more are left."""
        won_before = self._won()
        records = [self._win_record(w, discarder, self_drawn, win_tile, robbed,
                                    won_before | set(winners)) for w in winners]
        if len(records) == 1 and not self._leaves():
            result = {"type": "hand_end", **records[0]}
            self._add_kong_payments(result)
            self._event(**{k: v for k, v in result.items() if k != "scores"})
            self.results.append(result)
            for seat in range(self.game.players):
                self.totals[seat] += result["payments"][seat]
            self._pass_deal(records)
            self._finish_hand()
            return
        self._transfer_kong(winners, discarder, robbed)
        for rec in records:
            rec["shared"] = len(records)
            self.hand_wins.append(rec)
            self._event(type="win_settled", **{k: v for k, v in rec.items() if k != "scores"})
        if win_tile is not None and not self_drawn:
            self._move(winners[0], win_tile, 1)  # the tile won on: the nearest winner's
        in_play = [s for s in range(self.game.players) if s not in self._won()]
        if not self._leaves() or len(in_play) <= 1:
            self._end_hand(exhausted=False)
            return
        # play goes on from the last winner in turn order after the discarder
        self.kong_tile = None
        self._next_turn(winners[-1])

    def _win_record(self, winner: int, discarder: int | None, self_drawn: bool,
                    win_tile: int | None, robbed: bool, out: set[int]) -> dict[str, Any]:
        """One winner's scores and payments. Players who have left (`out`: the winners so
        far, this tile's included) neither pay nor are paid."""
        from .scoring import score_hand

        g = self.game
        rules = g.rules
        context = {"turned": self.turned}
        leaves = self._leaves()
        # who is scored: everyone (each player's hand counts), or when players leave, the
        # winner and, if non-winners pay each other, the others still in play
        scored = [s for s in range(g.players) if not leaves or s == winner
                  or (rules.between_others is not None and s not in out)]
        scores: list[Any] = [None] * g.players
        totals = [0.0] * g.players
        for seat in scored:
            hand = self._scoring_hand(seat, winner, win_tile, self_drawn, robbed)
            scores[seat] = score_hand(g.ruleset, hand, context, None)
            totals[seat] = float(scores[seat].total)
        liable = None if robbed else self._liable(winner, discarder, win_tile)
        if liable is not None and rules.liable_total_zero:
            totals[liable] = 0.0  # 「被包方的牌点归零处理」
        values = {"stake": rules.stake, "self_drawn": int(self_drawn)}
        others = [s for s in range(g.players) if s != winner and s not in out]
        payers = [discarder] if (rules.discard_win_paid_by == "discarder"
                                 and discarder is not None) else others
        transfers: list[tuple[int, int, float]] = []  # payer, receiver, amount
        if rules.to_winner is not None:
            f = g.ruleset.formulas[rules.to_winner]
            for seat in payers:
                pay = float(f.evaluate({k: {"total": totals[winner], **values}[k]
                                        for k in f.inputs}))
                transfers.append((seat, winner, pay))
        if rules.between_others is not None:
            f = g.ruleset.formulas[rules.between_others]
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
        return {"winner": winner, "discarder": discarder, "self_drawn": self_drawn,
                "robbed_kong": robbed, "liable": liable, "totals": totals,
                "payments": payments,
                "scores": [None if s is None else s.explain() for s in scores]}

    def _end_hand(self, exhausted: bool) -> None:
        """The end of a hand whose players leave as they win: its wins, kong payments and
        draw settlements in one result."""
        n = self.game.players
        wins = list(self.hand_wins)
        payments = [0.0] * n
        for rec in wins:
            payments = [a + b for a, b in zip(payments, rec["payments"])]
        result: dict[str, Any] = {
            "type": "hand_end", "winner": wins[0]["winner"] if wins else None,
            "winners": [w["winner"] for w in wins], "exhausted": exhausted,
            "wins": wins, "payments": payments}
        self._add_kong_payments(result)
        if exhausted:
            self._add_draw_payments(result)
        self._event(**{k: v for k, v in result.items() if k != "wins"})
        self.results.append(result)
        for seat in range(n):
            self.totals[seat] += result["payments"][seat]
        self._pass_deal(wins)
        self._finish_hand()

    def _pass_deal(self, wins: list[dict[str, Any]] | None) -> None:
        """Who deals next (play.next_dealer after a win, play.dealer_after_draw after a
        hand nobody won)."""
        rules = self.game.rules
        if not wins:
            if rules.dealer_after_draw == "next_player":
                self.dealer = self._next(self.dealer)
            return
        first = wins[0]
        rule = rules.next_dealer
        if rule == "first_winner":
            several = first.get("shared", 1) > 1 and first["discarder"] is not None
            self.dealer = first["discarder"] if several else first["winner"]
        elif rule == "winner":
            self.dealer = first["winner"]
        elif rule == "next_player" or first["winner"] != self.dealer:
            self.dealer = self._next(self.dealer)

    def _can_draw(self) -> bool:
        """Could a tile still be drawn (the wall holds one and has not reached its end)?"""
        return self.back > self.front and self._wall_phase() != "exhausted"

    def _is_live(self, seen: int) -> bool:
        """A discard in the live-tile phase is live by play.liability.live (names: seen)."""
        g = self.game
        rule = g.rules.live_tile
        if rule is None:
            return seen == 0
        key = (self.turned, seen)
        live = g._live.get(key)
        if live is None:  # a pure rule of these two: evaluated once per game
            values = g.ruleset.context_values({"turned": self.turned})
            live = bool(rule(Env(None, {**values, "seen": seen})))
            if len(g._live) > _LIVE_LIMIT:
                g._live.clear()
            g._live[key] = live
        return live

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
        hand = self._tiles(self.hands[discarder])
        all_live = all(self._is_live(self.seen.count(t)) for t in hand)
        ready = next(self._winning_tiles(discarder, range(SUITED_HONOR)), None) is not None
        rule = self.game.rules.liable_exempt  # play.liability.exempt
        if rule is None:
            exempt = all_live and not ready
        else:
            values = self.game.ruleset.context_values({"turned": self.turned})
            exempt = bool(rule(Env(None, {**values, "all_live": all_live, "ready": ready})))
        return None if exempt else discarder
