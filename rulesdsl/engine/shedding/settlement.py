"""Settling a shedding hand: seat scores, team results, payments, side payouts, 积分, and
with levels the climb and the end of the match (mixed into ShedState)."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ..base import MATCH_HAND_LIMIT


class Settlement:
    """The end of a shedding hand."""

    def _hand_events(self, losers: list[int]) -> dict[str, int]:
        """What a payout may read of the hand, from its log: bombs played, plays the losing
        side made."""
        g = self.game
        bombs = g.bomb_patterns
        hand, n_bombs, loser_plays = self.hand_no, 0, 0
        for event in reversed(self.log):
            if event.get("hand") != hand:
                break
            if event["type"] == "play":
                n_bombs += event["pattern"] in bombs
                loser_plays += event["seat"] in losers
        return {"bombs": n_bombs, "loser_plays": loser_plays}

    def _score_points(self, order: list[int]) -> list[float] | None:
        """积分 by the side_score formula: each player of the losing side gives it, the
        winning side (the first player out's) shares it equally; None without the formula."""
        g = self.game
        if g.rules.side_score is None or self.auction is None or not order:
            return None
        f = g.ruleset.formulas[g.rules.side_score]
        each = float(f.evaluate({"bid": self.auction["bid"]}))
        winners = next(side for side in self.sides if order[0] in side)
        losers = [s for s in range(g.players) if s not in winners]
        out = [0.0] * g.players
        for s in losers:
            out[s] -= each
        for s in winners:
            out[s] += each * len(losers) / len(winners)
        return out

    def _final_points(self) -> list[int]:
        """Each side's points when the hand ends: what its players who went out captured;
        an unfinished player's captured points go to the first player out and the points
        still in their hand to the other side
        (「未出完牌的玩家抓到的分给第一名，手上的分给对家」)."""
        g = self.game
        first = self.out[0] if self.out else None
        side_of = {s: t for t, side in enumerate(self.sides) for s in side}
        final = [0] * len(self.sides)
        for s in range(g.players):
            if s in self.out or first is None:
                final[side_of[s]] += self.captured[s]
                continue
            final[side_of[first]] += self.captured[s]
            in_hand = sum(self._hc.points[k] for k in self._cards(self.hands[s]))
            for t in range(len(self.sides)):
                if t != side_of[s]:
                    final[t] += in_hand // max(1, len(self.sides) - 1)
        return final

    def _end_hand(self) -> None:
        g = self.game
        rules = g.rules
        order = list(self.out)
        left = [s for s in range(g.players) if s not in order]
        points = self._hc.points
        in_hand = [sum(p * c for p, c in zip(points, h) if c) for h in self.hands] \
            if g.has_points else [0] * len(self.hands)
        cards_left = [sum(h) for h in self.hands]
        early = 1 if len(left) >= 2 else 0
        last_captured = sum(self.captured[s] for s in left)
        last_in_hand = sum(in_hand[s] for s in left)
        places = {s: i + 1 for i, s in enumerate(order)}
        for s in left:
            places[s] = g.players  # never went out: the last place
        scores = [0.0] * g.players
        if rules.seat_score is not None:
            for s in range(g.players):
                values = {"place": places[s], "own": self.captured[s], "in_hand": in_hand[s],
                          "cards_left": cards_left[s], "last_captured": last_captured,
                          "last_in_hand": last_in_hand, "early": early, "players": g.players,
                          "base": rules.base}
                if rules.seat_score in g.ruleset.tables:
                    scores[s] = float(g.lookup(rules.seat_score, values)["score"])
                else:
                    f = g.ruleset.formulas[rules.seat_score]
                    scores[s] = float(f.evaluate({k: values[k] for k in f.inputs}))
        else:
            scores = [float(c) for c in self.captured]
        outcome: list[float] = list(scores)
        team_points = [sum(scores[s] for s in seats) for seats in self.sides]
        outcomes: list[str] = []
        if rules.team_result is not None:
            value = {"win": 1.0, "draw": 0.0, "lose": -1.0}
            first_team = next((t for t, side in enumerate(self.sides) if order and order[0] in
                               side), -1)
            sides = self._side_values()
            final = self._final_points() if rules.seat_score is None else team_points
            stakes = []
            for t, _ in enumerate(self.sides):
                given = {"points": final[t], "first_out": 1 if t == first_team else 0,
                         "opp_points": sum(p for j, p in enumerate(final) if j != t),
                         "out": sides[t]["out"], "opp_out": sides[t]["opp_out"]}
                res = g.lookup(rules.team_result, given)
                outcomes.append(res["outcome"])
                stakes.append(float(res.get("stakes", 1)))
            team_points = list(final)
            side_of = {s: t for t, side in enumerate(self.sides) for s in side}
            outcome = [value.get(outcomes[side_of[s]], 0.0) * stakes[side_of[s]]
                       for s in range(g.players)]
        if rules.payment is not None and order:
            f = g.ruleset.formulas[rules.payment]
            outcome = [0.0] * g.players
            winner = order[0]
            for s in range(g.players):
                if s == winner:
                    continue
                values = {"place": places[s], "own": self.captured[s], "in_hand": in_hand[s],
                          "cards_left": cards_left[s], "last_captured": last_captured,
                          "last_in_hand": last_in_hand, "early": early, "players": g.players,
                          "base": rules.base}
                pay = float(f.evaluate({k: values[k] for k in f.inputs}))
                outcome[s] -= pay
                outcome[winner] += pay
        stake_shown: dict[str, int] | None = None
        if rules.side_payout is not None and self.auction is not None and order:
            inputs = g.ruleset.tables[rules.side_payout].inputs
            dealer_side = next(side for side in self.sides if self.dealer in side)
            defenders = [s for s in range(g.players) if s not in dealer_side]
            losers = defenders if order[0] in dealer_side else dealer_side
            stake = {"bid": self.auction["bid"], **self._hand_events(losers)}
            pay = g.lookup(rules.side_payout, stake)
            if set(inputs) - {"bid"}:
                stake_shown = {k: stake[k] for k in inputs}
            outcome = [0.0] * g.players
            # 「首先得到上游的一方，则为本局的胜利方」
            if order[0] in dealer_side:
                gain = float(pay["dealer_side_win"])
                for s in dealer_side:
                    outcome[s] += gain / len(dealer_side)
                for s in defenders:
                    outcome[s] -= gain / len(defenders)
            else:
                gain = float(pay["defender_side_win"])
                for s in defenders:
                    outcome[s] += gain
                for s in dealer_side:
                    outcome[s] -= gain * len(defenders) / len(dealer_side)
        score_points = self._score_points(order)
        for s in range(g.players):
            self.totals[s] += outcome[s]
        # A hand that ends in the auction (a claim) never hands the kitty over: its points
        # stay there, and the result says so (every point of the deck is accounted for).
        kitty_points = sum(points[k] for k in self.kitty) if self.phase == "auction" else 0
        result = {"type": "hand_end", "order": order + left, "dealer": self.dealer,
                  "places": [places[s] for s in range(g.players)],
                  "captured": list(self.captured), "in_hand": in_hand,
                  "kitty_points": kitty_points, "scores": scores,
                  "team_points": team_points, "outcomes": outcomes, "returns": outcome}
        if score_points is not None:
            result["score_points"] = score_points
        if stake_shown is not None:
            result["stake"] = stake_shown  # what the payout read of the hand
        match_over = False
        if g.levels is not None and order:
            match_over = self._climb(result)
        self._event(**result)
        self.results.append(result)
        self.hand_no += 1
        if match_over or (self.max_hands is not None and self.hand_no >= self.max_hands) \
                or self.hand_no >= MATCH_HAND_LIMIT:
            self.phase = "over"
            self.to_act = None
            return
        self._start_hand()

    def _first_side(self, order: list[int]) -> tuple[int, int]:
        """The team of a hand's first player out, and the best place of that player's
        teammates (the player count when none went out before the rest)."""
        g = self.game
        first = order[0]
        side = next(t for t, seats in enumerate(g.ruleset.teams) if first in seats)
        places = {s: i + 1 for i, s in enumerate(order)}
        mates = [s for s in g.ruleset.teams[side] if s != first and s < g.players]
        return side, min((places.get(s, g.players) for s in mates), default=g.players)

    def _climb(self, result: dict[str, Any]) -> bool:
        """Levels: the side of the first player out climbs as the climb table says (a
        climb stops at a must_stop level it would pass; a side at the top wins the match
        by a hand climbing at least win_at_top), and the next hand is played at its level.
        Records the climb in the result; True when the match is over."""
        g = self.game
        ladder = g.levels["ladder"]
        side, mate_place = self._first_side(result["order"])
        given = {"mate_place": mate_place, "players": g.players}
        climb = int(g.lookup(g.rules.climb, given)["levels"])
        before = self.side_levels[side]
        at = ladder.index(before)
        won = at == len(ladder) - 1 and climb >= g.rules.win_at_top
        if not won:
            to = min(at + max(climb, 0), len(ladder) - 1)
            for stop in g.levels["must_stop"]:
                i = ladder.index(stop)
                if at < i < to:
                    to = i  # a side stops at this level and plays it
                    break
            self.side_levels[side] = ladder[to]
        result["climb"] = {"side": side, "levels": climb, "from": nt.rank_name(before),
                           "to": nt.rank_name(self.side_levels[side])}
        if g.rules.top_failures:
            self._top_failure(result, won)
        if won:
            result["match_winner"] = side
            winners = [s for s in g.ruleset.teams[side] if s < g.players]
            losers = [s for s in range(g.players) if s not in winners]
            stake = float(g.rules.match_win)
            for s in winners:
                self.totals[s] += stake
            for s in losers:
                self.totals[s] -= stake * len(winners) / len(losers)
            result["returns"] = [r + (stake if s in winners else
                                      -stake * len(winners) / len(losers))
                                 for s, r in enumerate(result["returns"])]
        return won

    def _top_failure(self, result: dict[str, Any], won: bool) -> None:
        """A hand played at a side's own level at the top that does not win the match is
        one failure of that side's (the first hand is nobody's); at top_failures the side
        goes back to the start level and counts afresh."""
        g = self.game
        if not self.results or won:
            return
        owner = self.results[-1]["climb"]["side"]  # the hand was played at its level
        ladder = g.levels["ladder"]
        if self.level != ladder[-1] or self.side_levels[owner] != ladder[-1]:
            return
        self.top_failed[owner] += 1
        failed = {"side": owner, "failures": self.top_failed[owner]}
        if self.top_failed[owner] >= g.rules.top_failures:
            self.top_failed[owner] = 0
            self.side_levels[owner] = g.levels["start"]
            failed["back_to"] = nt.rank_name(g.levels["start"])
        result["top_failure"] = failed
