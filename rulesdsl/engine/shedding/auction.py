"""The shedding family's auction (叫牌): bids, forced raises, instant-win claims, the
dealer taking the kitty (mixed into ShedState, whose hands, log and rules it reads)."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ..base import Action

PASS = Action("pass")


class Auction:
    """The auction phase of a shedding state."""

    def _auction_values(self, seat: int) -> dict[str, Any]:
        assert self.auction is not None
        rounds = self.auction["turns"] // self.game.players + 1
        return {**self.game.ruleset.options, "bid": self.auction["bid"], "round": rounds,
                "hand": tuple(self._cards(self.hands[seat]))}

    def _auction_actions(self, seat: int) -> list[Action]:
        from ...runtime.expressions import Env

        g = self.game
        auc = self.auction
        assert auc is not None and g.rules.auction is not None
        bids = [b for b in g.rules.auction["bids"] if b > auc["bid"]]
        claim = []
        if g.rules.instant_win and auc["turns"] < g.players:  # the first round
            values = self._auction_values(seat)
            if any(cond(Env(None, values)) for cond in g.rules.instant_win):
                claim = [Action("claim")]
        if bids and self._must_raise(seat):
            return [g.bid_actions[bids[0]], *claim]  # 「必须叫一个比前一叫牌者大一级的牌」
        return [PASS] + [g.bid_actions[b] for b in bids] + claim

    def _must_raise(self, seat: int) -> bool:
        from ...runtime.expressions import Env

        rule = self.game.rules.must_raise
        return rule is not None and bool(rule(Env(None, self._auction_values(seat))))

    def _why_not_bid(self, seat: int, act: Action) -> str:
        assert self.auction is not None
        legal = self._auction_actions(seat)
        forced = [a for a in legal if a.kind == "bid"]
        if act.kind in ("bid", "pass") and PASS not in legal and len(forced) == 1:
            return f"you must bid {forced[0].amount}"
        if act.kind == "bid":
            return f"bid one of {', '.join(str(a.amount) for a in legal if a.kind == 'bid')}" \
                if any(a.kind == "bid" for a in legal) else "no higher bid is left: pass"
        if act.kind == "claim":
            return "only a hand that meets an instant-win condition may claim, in the first round"
        return "during the auction: bid N, pass or claim"

    def _do_auction(self, seat: int, act: Action) -> None:
        g = self.game
        auc = self.auction
        assert auc is not None and g.rules.auction is not None
        auc["turns"] += 1
        if act.kind == "claim":
            self._event(type="claim", seat=seat, hand=nt.format_cards(
                self._cards(self.hands[seat])))
            self.dealer = seat
            if g.rules.auction["claim_bid"] == "top":
                auc["bid"] = g.rules.auction["bids"][-1]
            else:
                auc["bid"] = auc["bid"] or g.rules.auction["default_bid"]
            self._set_sides()
            self.out = [seat]  # the claimant's side wins at once (「可直接抛牌算赢」)
            self._end_hand()
            return
        if act.kind == "bid":
            auc["bid"], auc["high"], auc["passes"] = act.amount, seat, 0
            self._event(type="bid", seat=seat, amount=act.amount)
        else:
            auc["passes"] += 1
            self._event(type="pass", seat=seat)
        top = g.rules.auction["bids"][-1]
        done = (auc["high"] is not None and (auc["bid"] >= top
                                            or auc["passes"] >= g.players - 1)) \
            or (auc["high"] is None and auc["turns"] >= g.players)
        step = 1 if g.rules.auction["direction"] == "counter-clockwise" else -1
        if done and auc["bid"] >= top and g.rules.instant_win:
            # The top bid closes the bidding, not the first round's claims: a later seat
            # of that round holding an instant win still has its turn (pass or claim).
            claimant = self._first_round_claimant(seat, step)
            if claimant is not None:
                self.to_act = claimant
                return
        if not done:
            self.to_act = (seat + step) % g.players
            return
        if auc["high"] is None:
            # 「如果都不叫则由起始叫牌方为本局的庄家，倍率为5」
            auc["high"], auc["bid"] = auc["opener"], g.rules.auction["default_bid"]
        self.dealer = auc["high"]
        for kind in self.kitty:
            self.hands[self.dealer][kind] += 1
        self._seat_hp.pop(self.dealer, None)  # the hand grew: its plays are new
        self._event(type="dealer", seat=self.dealer, bid=auc["bid"],
                    kitty=g.format(self.kitty))
        self._set_sides()
        self.phase = "play"
        self.first_leader = self.to_act = self.dealer
        self._event(type="lead", seat=self.dealer, rule="dealer")

    def _first_round_claimant(self, seat: int, step: int) -> int | None:
        """The next seat after `seat` that has not yet had its first-round turn and holds an
        instant win, or None."""
        from ...runtime.expressions import Env

        g = self.game
        auc = self.auction
        assert auc is not None
        turns = auc["turns"]
        s = seat
        while turns < g.players:
            s = (s + step) % g.players
            values = {**g.ruleset.options, "bid": auc["bid"], "round": 1,
                      "hand": tuple(self._cards(self.hands[s]))}
            if any(cond(Env(None, values)) for cond in g.rules.instant_win):
                auc["turns"] = turns
                return s
            turns += 1  # this seat's turn passes without a bid left to make
        return None

    def _set_sides(self) -> None:
        g = self.game
        if g.rules.sides == "dealer_alone" and self.dealer is not None:
            self.sides = [[self.dealer], [s for s in range(g.players) if s != self.dealer]]
