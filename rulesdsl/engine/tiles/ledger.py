"""Money that moves during a tile hand rather than at its end: kongs paid when they are
made (刮风下雨, play.kong_payments), a kong's payment passed to whoever wins on its maker's
next discard (呼叫转移), and what players still in play settle when the wall runs out
(查花猪, 查大叫, 退税: play.exhaustive_draw). Mixed into TileState."""

from __future__ import annotations

from typing import Any

from .hand import ScoringHand, TileSet
from .settlement import KONG_DRAWS


class Ledger:
    """Kong bills and draw settlements (reads TileState's fields)."""

    game: Any
    source: str
    hands: list[list[int]]
    melds: list[list[list[Any]]]
    flowers: list[list[int]]
    turned: int | None
    kong_bills: list[dict[str, Any]]
    log: list[dict[str, Any]]
    hand_wins: list[dict[str, Any]]
    _winning_tiles: Any  # WinningHands': the kinds a seat would win on

    def _pay_kong(self, seat: int, rate: dict | None, discarder: int | None) -> None:
        """刮风下雨: a kong is paid when it is made (play.kong_payments), in stakes, by its
        discarder or by every other player still in play."""
        if not rate or not rate["amount"]:
            return
        amount = float(rate["amount"] * self.game.rules.stake)
        out = self._won()
        payers = [discarder] if rate["from"] == "discarder" and discarder is not None else \
            [s for s in range(self.game.players) if s != seat and s not in out]
        paid = [0.0] * self.game.players
        for payer in payers:
            paid[payer] -= amount
            paid[seat] += amount
        self.kong_bills.append({"seat": seat, "payments": paid})
        self._event(type="kong_payment", seat=seat, payments=paid)

    def _transfer_kong(self, winners: list[int], discarder: int | None, robbed: bool) -> None:
        """呼叫转移 (play.kong_payments.transfer: to_winner): a win on the discard made right
        after a kong's replacement draw takes that kong's payment from its maker, shared
        equally among the winners."""
        if (self.game.rules.kong_transfer != "to_winner" or discarder is None or robbed
                or self.source not in KONG_DRAWS):
            return
        # the kong just made: its payment is the event right after it, and the last bill
        kongs = [i for i, e in enumerate(self.log)
                 if e["type"] in ("kong", "added_kong", "concealed_kong")]
        if not kongs or not self.kong_bills or kongs[-1] + 1 >= len(self.log) \
                or self.log[kongs[-1] + 1]["type"] != "kong_payment":
            return
        i = len(self.kong_bills) - 1
        bill = self.kong_bills[i]
        if bill["seat"] != discarder or bill.get("transfer") or bill.get("transferred"):
            return
        income = bill["payments"][discarder]
        moved = [0.0] * self.game.players
        moved[discarder] -= income
        for w in winners:
            moved[w] += income / len(winners)
        bill["transferred"] = True
        self.kong_bills.append({"seat": discarder, "payments": moved, "transfer": True,
                                "kong": i})
        self._event(type="kong_transfer", seat=discarder, kong=i, payments=moved)

    def _ready(self, seat: int) -> bool:
        """Would one more tile complete the seat's hand (a void suit still held: never)?"""
        return next(self._winning_tiles(seat, self.game.suited_kinds), None) is not None

    def _draw_settlements(self) -> list[float]:
        """play.exhaustive_draw, among the players still in play, in its order: 查花猪
        (void_held_pays), 查大叫 (not_ready_pays: best_hand), 退税 (refund_kongs)."""
        g = self.game
        rules = g.rules
        n = g.players
        out = self._won()
        in_play = [s for s in range(n) if s not in out]
        held = {s for s in in_play if self._void_held(s) is not None}
        ready = {s for s in in_play if s not in held and self._ready(s)}
        total = [0.0] * n

        def settle(rule: str, moves: list[tuple[int, int, float]]) -> None:
            paid = [0.0] * n
            for payer, receiver, amount in moves:
                paid[payer] -= amount
                paid[receiver] += amount
            if moves:
                self._event(type="draw_settlement", rule=rule, payments=paid)
                for s in range(n):
                    total[s] += paid[s]

        if rules.void_held_pays is not None:  # 查花猪
            f = g.ruleset.formulas[rules.void_held_pays]
            amount = float(f.evaluate({k: {"stake": rules.stake}[k] for k in f.inputs}))
            settle("void_held", [(p, r, amount) for p in sorted(held) for r in in_play
                                 if r not in held])
        if rules.not_ready_pays == "best_hand" and rules.to_winner is not None:  # 查大叫
            best = {s: self._best_hand_payment(s) for s in sorted(ready)}
            settle("not_ready", [(p, r, best[r]) for p in in_play
                                 if p not in held and p not in ready for r in sorted(ready)])
        if rules.refund_kongs == "not_ready":  # 退税
            moves = []
            for bill in self.kong_bills:
                maker = bill["seat"]
                if bill.get("transfer") or bill.get("transferred") or maker not in in_play \
                        or maker in ready:
                    continue
                moves += [(maker, s, -p) for s, p in enumerate(bill["payments"]) if p < 0]
            settle("refund_kongs", moves)
        return total

    def _best_hand_payment(self, seat: int) -> float:
        """What a ready player's best hand, won on a discard, is paid by its discarder:
        the most over every tile that completes it, without what only play can give
        (self-draw, a kong's replacement, the last tile …)."""
        from .scoring import score_hand

        g = self.game
        f = g.ruleset.formulas[g.rules.to_winner]
        best = 0.0
        for t in self._winning_tiles(seat, g.suited_kinds):
            counts = list(self.hands[seat])
            counts[t] += 1
            hand = ScoringHand(
                concealed=self._tiles(counts),
                melds=[TileSet(m[0], m[1], concealed=m[2]) for m in self.melds[seat]],
                exposed_flowers=list(self.flowers[seat]), winner=True, win_tile=t,
                seat_wind=self._seat_wind(seat))
            total = float(score_hand(g.ruleset, hand, {"turned": self.turned}, None).total)
            given = {"total": total, "stake": g.rules.stake, "self_drawn": 0}
            best = max(best, float(f.evaluate({k: given[k] for k in f.inputs})))
        return best
