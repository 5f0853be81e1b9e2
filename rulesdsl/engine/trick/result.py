"""A trick hand's result: the kitty's capture, the result table, the overcall bonus, the
swing, who climbs and who deals next (play.result). Mixed into TrickState."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...runtime.expressions import Env
from ..base import MATCH_HAND_LIMIT


class HandResult:
    """The hand's end. Reads the TrickState fields it is mixed into."""

    game: Any
    dealer: int | None
    kitty: list[int]
    declaration: dict[str, Any] | None
    defender_points: int
    captures: dict[str, list[int]]
    last_trick: dict[str, Any] | None
    team_levels: list[int]
    results: list[dict[str, Any]]
    hand_no: int

    def _end_hand(self) -> None:
        g = self.game
        rules = g.rules
        dealer_team = self._dealer_team()
        kitty_points = sum(self.hc.points[k] for k in self.kitty)
        last = self.last_trick or {"winner": self.dealer, "pattern": "single", "size": 1,
                                   "units": 1}
        capture = 0
        if g.team_of[last["winner"]] != dealer_team and rules.kitty_capture is not None:
            formula = g.ruleset.formulas[rules.kitty_capture]
            given = {"kitty_points": kitty_points, "last_size": last["size"],
                     "last_units": last["units"], "last_group": last.get("group", 1),
                     "last_largest": last.get("largest", last["size"])}
            capture = int(formula.evaluate({k: given[k] for k in formula.inputs}))
            self.defender_points += capture
        if g.team_of[last["winner"]] != dealer_team:
            # 扣底: kinds counted from the kitty too go to the defenders with it
            for name, select in rules.captures:
                if name in rules.kitty_captures:
                    self.captures[name][1] += sum(
                        1 for k in self.kitty if select(Env(k, self.hc.values)))
        values: dict[str, Any] = {"points": self.defender_points, "kitty_points": kitty_points}
        for name, (dealer_side, defender_side) in self.captures.items():
            values[f"dealer_{name}"] = dealer_side
            values[f"defender_{name}"] = defender_side
        side, levels, next_dealer = "none", 0, "next_player"
        if rules.result_table is not None:
            table = g.ruleset.tables[rules.result_table]
            out = table.lookup({k: values[k] for k in table.inputs})
            side, levels, next_dealer = out["side"], int(out["levels"]), out["next_dealer"]
        d = self.declaration
        bonus = 0
        if rules.overcall_bonus is not None and d and d.get("overcall_cards"):
            bonus = int(g.ruleset.tables[rules.overcall_bonus].lookup(
                {"overcall_cards": d["overcall_cards"]})["levels"])
            # Whose levels the bonus adds to is the ruleset's choice (play.result).
            if side == "none":
                if rules.overcall_bonus_draw == "defenders":
                    side = "defenders"
                    levels += bonus
            elif rules.overcall_bonus_to == "winning_side":
                levels += bonus
            else:  # always the defenders'
                net = (levels if side == "defenders" else -levels) + bonus
                side = "defenders" if net > 0 else "dealer" if net < 0 else "none"
                levels = abs(net)
        signed = levels if side == "defenders" else -levels if side == "dealer" else 0
        if rules.swing is not None:
            values["defender_levels"] = max(signed, 0)
            values["dealer_levels"] = max(-signed, 0)
            formula = g.ruleset.formulas[rules.swing]
            signed = int(formula.evaluate({k: values[k] for k in formula.inputs}))
        if rules.max_levels is not None:  # the cap holds with the bonus and the swing too
            cap = rules.max_levels
            levels, signed = min(levels, cap), max(-cap, min(cap, signed))
        if rules.next_dealer == "climbing_side":
            if signed > 0:
                next_dealer = "next_player"
            elif signed < 0:
                next_dealer = "partner"
        defender_team = next(t for t in range(len(g.ruleset.teams)) if t != dealer_team)
        climber = defender_team if signed > 0 else dealer_team
        steps = abs(signed)
        won = self._climb(climber, steps, climber == dealer_team)
        old_dealer = self.dealer
        assert old_dealer is not None
        if next_dealer == "partner":
            nxt = self._next(self._next(old_dealer)) if g.players == 4 else old_dealer
        elif next_dealer == "same":
            nxt = old_dealer
        else:
            nxt = self._next(old_dealer)
        result = {"type": "hand_end", "defender_points": self.defender_points,
                  "kitty_points": kitty_points, "kitty_capture": capture,
                  "side": side, "levels": levels, "signed_levels": signed,
                  "overcall_bonus": bonus, "next_dealer": nxt,
                  "team_levels": [nt.rank_name(g.ladder[i]) for i in self.team_levels],
                  "captures": {k: list(v) for k, v in self.captures.items()}}
        self._event(**result)
        self.results.append(result)
        self.dealer = nxt
        self.hand_no += 1
        if won is not None:
            self.match_winner = won
            self.phase = "over"
            self.to_act = None
            self._event(type="match_end", winner_team=won)
            return
        if (self.max_hands is not None and self.hand_no >= self.max_hands) \
                or self.hand_no >= MATCH_HAND_LIMIT:
            self.phase = "over"
            self.to_act = None
            return
        self._start_hand()

    def _climb(self, team: int, steps: int, as_dealer: bool = True) -> int | None:
        """Move a side up the level ladder; returns the team if it passes the top. A side
        standing at a must_stop level passes it only as the dealer's side when
        pass_must_stop is as_dealer (it stays, to defend it next)."""
        g = self.game
        idx = self.team_levels[team]
        top = len(g.ladder) - 1
        if steps and not as_dealer and g.rules.pass_must_stop == "as_dealer" \
                and g.ladder[idx] in g.must_stop:
            return None
        for _ in range(steps):
            if idx == top:
                self.team_levels[team] = idx
                return team  # 「升级过 A 后胜利」
            idx += 1
            if g.ladder[idx] in g.must_stop:
                break  # must be played: 「10、K、A，为必打」
        self.team_levels[team] = idx
        return None
