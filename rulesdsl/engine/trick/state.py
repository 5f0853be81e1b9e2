"""The trick-taking state machine: deal with declarations, kitty, tricks, hand results.

One generic interpreter. Everything game-specific comes from the compiled
ruleset: the per-hand order (trump, level), patterns and demotion, the `play:`
section (declaring, throws, kitty capture, captures) and the result tables.
Legality of a follow is a check on the proposed play (counts per suit-system);
the follows are counted and sampled with rulesdsl.engine.multiset, never listed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ...model.hand import HandContext
from ...model.ruleset import Ruleset
from ...runtime.expressions import Env
from ..base import Action, EngineState, IllegalAction, Position, json_copy, restore_state
from ..multiset import (
    count_submultisets,
    iter_submultisets,
    sample_submultiset,
)
from ..shuffle import shuffle
from . import building
from .following import TrickFollowing
from .hidden import TrickHidden
from .leads import TrickLeads
from .plays import (
    best_reading,
    decompose,
)
from .ranking import TrickRanking
from .result import HandResult

PASS = Action("pass")


def _group_size(cards: tuple[int, ...]) -> int:
    """Cards per step of one combination: every kind in it appears this often."""
    return min(Counter(cards).values()) if cards else 1


class TrickGame:
    """A trick-family ruleset ready to play."""

    def __init__(self, ruleset: Ruleset):
        if ruleset.family != "trick":
            raise RulesdslError(f"{ruleset.id} is a {ruleset.family} ruleset, not trick-taking")
        if ruleset.play is None:
            raise RulesdslError(f"{ruleset.id} has no play: section; the trick engine needs "
                                "one (`rulesdsl doc --language play` describes it)")
        self.ruleset = ruleset
        self.rules = ruleset.play
        self.players = ruleset.players
        self.hand_size = ruleset.deal["hand_size"]
        self.kitty_size = ruleset.deal.get("kitty", 0)
        self.team_of = ruleset.team_of()
        assert ruleset.levels is not None, "trick rulesets declare levels"
        self.ladder: list[int] = ruleset.levels["ladder"]
        self.must_stop = set(ruleset.levels["must_stop"])
        self.start_level = self.ladder.index(ruleset.levels["start"])
        self._contexts: dict[tuple[str, int], HandContext] = {}
        self.deck = ruleset.every_card()

    def context(self, trump: str | None, level: int) -> HandContext:
        key = (trump or "", level)
        if key not in self._contexts:
            self._contexts[key] = HandContext(self.ruleset, {"trump": trump, "level": level})
        return self._contexts[key]

    def new_game(self, seed: int = 0, hands: int | None = None) -> TrickState:
        state = TrickState(self)
        state.seed = seed
        state.max_hands = hands
        state.team_levels = [self.start_level] * len(self.ruleset.teams)
        state._start_hand()
        return state

    def state_from_json(self, text: str) -> TrickState:
        return restore_state(TrickState, self, text)

    def position(self, pos: Position) -> Any:
        """A state at a given position (play scenarios: engine/trick/position.py)."""
        from .position import build_position

        return build_position(self, pos)


_CARD_NAMES = tuple(nt.format_card(k) for k in range(nt.CARD_KINDS))
# Log events holding lists or dicts, deep-copied for an observation (the others are flat;
# tests/test_saved_states.py fails on a nested event of another type).
_NESTED_EVENTS = frozenset({"hand_end"})


def _text(cards: list[int]) -> str:
    """nt.format_cards from names written once (an observation writes whole hands)."""
    return " ".join([_CARD_NAMES[k] for k in cards])


def _hand_text(counts: list[int]) -> str:
    """_text of a hand's count vector, without listing its cards first."""
    names = _CARD_NAMES
    return " ".join([names[k] if c == 1 else " ".join([names[k]] * c)
                     for k, c in enumerate(counts) if c])


class TrickState(TrickLeads, TrickFollowing, TrickRanking, HandResult, TrickHidden,
                 EngineState):
    """One match of a trick-family game, hand after hand."""

    family = "trick"

    FIELDS = (
        "seed", "max_hands", "hand_no", "team_levels", "dealer", "phase", "deal_order",
        "dealt", "deal_start", "deal_seat", "hands", "kitty", "declaration", "final_queue",
        "to_act", "trump", "level", "leader", "trick", "defender_points", "captures",
        "tricks_played", "last_trick", "log", "match_winner", "results",
    )

    def __init__(self, game: TrickGame):
        super().__init__(game)
        self.seed = 0
        self.max_hands: int | None = None
        self.hand_no = 0
        self.team_levels: list[int] = []
        self.dealer: int | None = None
        self.phase = "deal"
        self.deal_order: list[int] = []
        self.dealt = 0
        self.deal_start = 0
        self.deal_seat = 0
        self.hands: list[list[int]] = []
        self.kitty: list[int] = []
        self.declaration: dict[str, Any] | None = None
        self.final_queue: list[int] | None = None
        self.to_act: int | None = None
        self.trump: str | None = None
        self.level = 2
        self.leader = 0
        self.trick: list[list[Any]] = []  # [seat, cards]
        self.defender_points = 0
        self.captures: dict[str, list[int]] = {}
        self.tricks_played = 0
        self.last_trick: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.match_winner: int | None = None
        self.results: list[dict[str, Any]] = []

    # ------------------------------------------------------------ the API

    def returns(self) -> list[float]:
        """Per seat: +1 if its side won the match, -1 if it lost; for a match cut short
        (`hands=N`), the levels its side climbed minus the levels the others climbed."""
        g = self.game
        if self.match_winner is not None:
            return [1.0 if g.team_of[s] == self.match_winner else -1.0
                    for s in range(g.players)]
        base = g.start_level
        gained = [lv - base for lv in self.team_levels]
        out = []
        for seat in range(g.players):
            mine = gained[g.team_of[seat]]
            others = sum(x for t, x in enumerate(gained) if t != g.team_of[seat])
            out.append(float(mine - others))
        return out

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see: own hand, public declarations and plays, scores."""
        g = self.game
        if type(player) is not int or not 0 <= player < g.players:
            raise RulesdslError(f"no seat {player!r}: a seat is an int from 0 to "
                                f"{g.players - 1}")
        obs = {
            "seat": player,
            "hand": _hand_text(self.hands[player]) if self.hands else "",
            "hand_no": self.hand_no,
            "phase": self.phase,
            "dealer": self.dealer,
            "trump": self.trump,
            "level": nt.rank_name(self.level),
            "team_levels": [nt.rank_name(g.ladder[i]) for i in self.team_levels],
            "declaration": self._declaration_text(),
            "trick": [[s, _text(c)] for s, c in self.trick],
            "leader": self.leader,
            "defender_points": self.defender_points,
            "hand_sizes": [sum(h) for h in self.hands],
            "to_act": self.to_act,
            "log": self._public_log(player),
        }
        if self.phase == "over" or (self.dealer == player and self.phase == "play"):
            obs["kitty"] = _text(self.kitty)
        return obs

    def _public_log(self, player: int) -> list[dict[str, Any]]:
        """The log as `player` may see it, in copies: an observation shares no object with
        the state. What each event shows is worked out once and remembered (the log only
        grows): a call copies the small dicts, and deep-copies the few holding lists."""
        log = self.log
        memo = self.__dict__.get("_public_memo")
        if memo is None or memo[0] is not log or memo[1] > len(log):
            # the log read so far: its length, its events, the ones only their seat sees
            # in full (index, seat, what the others see), the ones holding lists
            memo = self.__dict__["_public_memo"] = [log, 0, [], [], []]
        if memo[1] < len(log):
            events, hidden, nested = memo[2], memo[3], memo[4]
            for event in log[memo[1]:]:
                kind = event["type"]
                if kind == "bury":
                    hidden.append((len(events), event["seat"], {
                        "type": "bury", "seat": event["seat"],
                        "count": len(event["cards"].split())}))
                elif kind == "take_kitty":
                    hidden.append((len(events), event["seat"],
                                   {"type": "take_kitty", "seat": event["seat"]}))
                elif kind in _NESTED_EVENTS:
                    nested.append(len(events))
                events.append(event)
            memo[1] = len(log)
        out = list(map(dict.copy, memo[2]))
        for i, seat, shown in memo[3]:
            if seat != player:
                out[i] = shown.copy()
        for i in memo[4]:
            out[i] = json_copy(out[i])
        return out

    # ------------------------------------------------------------ helpers

    def _cards(self, counts: list[int]) -> list[int]:
        return [k for k, c in enumerate(counts) for _ in range(c)]

    def _next(self, seat: int) -> int:
        n = self.game.players
        step = 1 if self.game.ruleset.direction == "counter-clockwise" else -1
        return (seat + step) % n

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}/{self.hand_no}/{purpose}")

    @property
    def hc(self) -> HandContext:
        return self.game.context(self.trump, self.level)

    def _declaration_text(self) -> str | None:
        d = self.declaration
        if not d:
            return None
        return f"seat {d['seat']}: {nt.format_cards([d['kind']] * d['count'])}"

    def _event(self, **event: Any) -> None:
        event["hand"] = self.hand_no
        self.log.append(event)

    def _dealer_team(self) -> int:
        assert self.dealer is not None
        return self.game.team_of[self.dealer]

    # ------------------------------------------------------------ the deal

    def _start_hand(self) -> None:
        g = self.game
        self.phase = "deal"
        order = list(g.deck)
        rng = self._rng("shuffle")
        shuffle(rng, order)
        self.deal_order = order
        self.dealt = 0
        if self.dealer is None:
            self.deal_start = self._rng("first").randrange(g.players)
            self.level = g.ladder[g.start_level]
        else:
            self.deal_start = self.dealer
            self.level = g.ladder[self.team_levels[g.team_of[self.dealer]]]
        self.deal_seat = self.deal_start
        self.hands = [[0] * len(g.ruleset.deck) for _ in range(g.players)]
        self.kitty = []
        self.declaration = None
        self.final_queue = None
        self.to_act = None
        self.trump = None
        self.trick = []
        self.defender_points = 0
        self.captures = {name: [0, 0] for name, _ in g.rules.captures}
        self.tricks_played = 0
        self.last_trick = None
        self._event(type="hand_start", dealer=self.dealer, level=nt.rank_name(self.level),
                    deal_start=self.deal_start)
        self._advance()

    def _declarable(self, seat: int) -> list[Action]:
        """Declarations `seat` could make now."""
        rules = self.game.rules
        if rules.declare_select is None:
            return []
        hc_values = {"trump": None, "level": self.level}
        out = []
        cur = self.declaration
        for kind, have in enumerate(self.hands[seat]):
            if not have or kind >= 52:
                continue
            if not rules.declare_select(Env(kind, {**self.game.ruleset.options, **hc_values})):
                continue
            suit = nt.card_suit(kind)
            for count in range(1, min(have, rules.declare_max) + 1):
                if self._declaration_ok(seat, kind, suit, count, cur):
                    out.append(Action.of("declare", [kind] * count))
        if rules.declare_jokers == "pairs":  # a pair of one joker: no trump
            for kind in (nt.LITTLE_JOKER, nt.BIG_JOKER):
                for count in range(2, min(self.hands[seat][kind], rules.declare_max) + 1):
                    if self._declaration_ok(seat, kind, None, count, cur):
                        out.append(Action.of("declare", [kind] * count))
        return out

    def _declaration_ok(self, seat: int, kind: int, suit: str | None, count: int,
                        cur: dict[str, Any] | None) -> bool:
        rules = self.game.rules
        if cur is None:
            return True
        if cur["seat"] == seat and cur["kind"] == kind:
            return rules.reinforce and count > cur["count"] and (
                rules.reinforce_overcall or not cur.get("overcalled"))
        if cur["seat"] == seat and not rules.self_overcall:
            return False
        if count < rules.overcall_min:
            return False
        if count > cur["count"]:
            return True
        if count == cur["count"] and max(kind, cur["kind"]) >= nt.LITTLE_JOKER:
            # jokers' no trump over a suit, the big joker's over the little's
            return kind > cur["kind"] and kind >= nt.LITTLE_JOKER
        if count == cur["count"] and rules.overcall == "more_or_higher_suit":
            order = rules.suit_order
            return order.index(suit) > order.index(nt.card_suit(cur["kind"]))
        return False

    def _advance(self) -> None:
        """Run automatic steps (dealing) until someone must decide."""
        g = self.game
        while self.phase == "deal" and self.to_act is None:
            to_hands = len(self.deal_order) - g.kitty_size  # (a scenario deals fewer)
            if self.dealt < to_hands:
                kind = self.deal_order[self.dealt]
                seat = self.deal_seat
                self.hands[seat][kind] += 1
                self.dealt += 1
                self.deal_seat = self._next(seat)
                sel = g.rules.declare_select
                if (kind >= nt.LITTLE_JOKER and g.rules.declare_jokers != "none") or (
                        sel is not None and kind < nt.LITTLE_JOKER and sel(Env(kind, {
                            **g.ruleset.options, "trump": None, "level": self.level}))):
                    if self._declarable(seat):
                        self.to_act = seat
                continue
            if self.final_queue is None:
                self.kitty = self.deal_order[to_hands:]
                self.final_queue = self._round_from(self.deal_start)
            while self.final_queue:
                seat = self.final_queue[0]
                if self._declarable(seat):
                    self.to_act = seat
                    break
                self.final_queue.pop(0)
            if self.to_act is None:
                self._finish_declaring()

    def _round_from(self, seat: int) -> list[int]:
        out = []
        for _ in range(self.game.players):
            out.append(seat)
            seat = self._next(seat)
        return out

    def _finish_declaring(self) -> None:
        g = self.game
        d = self.declaration
        if d is not None:
            self.trump = nt.card_suit(d["kind"])
            if self.dealer is None:
                self.dealer = d["seat"] if g.rules.first_dealer == "declarer" else \
                    self._rng("dealer").randrange(g.players)
        else:
            self.trump = self._fallback_suit()
            if self.dealer is None:
                self.dealer = self.deal_start
        self.level = g.ladder[self.team_levels[g.team_of[self.dealer]]]
        self._event(type="trump", suit=self.trump, level=nt.rank_name(self.level),
                    dealer=self.dealer, declared=d is not None)
        self._event(type="take_kitty", seat=self.dealer, cards=nt.format_cards(self.kitty))
        for kind in self.kitty:
            self.hands[self.dealer][kind] += 1
        self.phase = "bury" if g.kitty_size else "play"
        self.to_act = self.dealer
        self.leader = self.dealer

    def _fallback_suit(self) -> str | None:
        g = self.game
        rule = g.rules.fallback if self.hand_no == 0 else g.rules.later_fallback
        if rule == "first_kitty_card" and self.kitty:
            self._event(type="turn_up_kitty", cards=nt.format_cards(self.kitty))
            return nt.card_suit(self.kitty[0])  # a joker: no trump (None)
        if rule == "turn_up_kitty":
            self._event(type="turn_up_kitty", cards=nt.format_cards(self.kitty))
            sel = g.rules.declare_select
            values = {**g.ruleset.options, "trump": None, "level": self.level}
            for kind in self.kitty:
                if kind < 52 and sel is not None and sel(Env(kind, values)):
                    return nt.card_suit(kind)  # type: ignore[return-value]
            suited = [k for k in self.kitty if k < 52]
            if suited:
                best = max(suited, key=lambda k: nt.card_rank(k))  # first of the highest
                return nt.card_suit(best)  # type: ignore[return-value]
        return self._rng("fallback").choice(list(nt.SUITS))

    # ------------------------------------------------------------ legality

    def _check(self, act: Action) -> None:
        if self.phase == "over":
            raise IllegalAction("the match is over")
        seat = self.to_act
        assert seat is not None
        if self.phase == "deal":
            if act == PASS:
                return
            if act.kind != "declare":
                raise IllegalAction("during the deal you may only declare or pass")
            if act not in self._declarable(seat):
                raise IllegalAction(self._why_not_declaration(seat, act))
            return
        if self.phase == "bury":
            if act.kind != "bury":
                raise IllegalAction(f"the dealer must bury {self.game.kitty_size} cards "
                                    f"(bury ...)")
            if len(act.cards) != self.game.kitty_size:
                raise IllegalAction(f"bury exactly {self.game.kitty_size} cards, not "
                                    f"{len(act.cards)}")
            self._check_held(seat, act.cards)
            return
        if act.kind != "play":
            raise IllegalAction("it is time to play cards")
        if act.pattern is not None:  # listed plays name none: "as X" would be accepted unread
            raise IllegalAction("a trick play names no pattern (… as X); play the cards")
        if not act.cards:
            raise IllegalAction("play at least one card")
        self._check_held(seat, act.cards)
        if not self.trick:
            self._check_lead(act.cards)
        else:
            self._check_follow(seat, act.cards)

    def _why_not_declaration(self, seat: int, act: Action) -> str:
        kinds = set(act.cards)
        if len(kinds) != 1:
            return "declare with identical cards of one suit"
        kind = act.cards[0]
        if self.hands[seat][kind] < len(act.cards):
            return f"you do not hold {len(act.cards)} × {nt.format_card(kind)}"
        if len(act.cards) > self.game.rules.declare_max:
            return f"declare with at most {self.game.rules.declare_max} cards"
        cur = self.declaration
        if cur is not None:
            return (f"{nt.format_cards(act.cards)} does not overcall "
                    f"{nt.format_cards([cur['kind']] * cur['count'])}")
        return f"{nt.format_card(kind)} cannot be shown to declare"

    def _check_held(self, seat: int, cards: tuple[int, ...]) -> None:
        need = Counter(cards)
        hand = self.hands[seat]
        for kind, n in need.items():
            if kind >= len(hand) or hand[kind] < n:
                have = hand[kind] if kind < len(hand) else 0
                raise IllegalAction(f"you hold {have} × {nt.format_card(kind)}, not {n}")

    # ------------------------------------------------------------ enumeration

    def _iter_actions(self) -> Iterator[Action]:
        if self.phase == "over":
            return
        seat = self.to_act
        assert seat is not None
        if self.phase == "deal":
            yield PASS
            yield from self._declarable(seat)
            return
        hand = self.hands[seat]
        if self.phase == "bury":
            for pick in iter_submultisets(hand, self.game.kitty_size):
                yield Action.of("bury", self._cards(pick))
            return
        if not self.trick:
            yield from self._iter_leads(seat)
            return
        yield from (Action.of("play", self._cards(p)) for p in self._follow(seat).picks())

    def addable(self, partial: tuple[int, ...]) -> set[int]:
        """Card kinds that keep `partial` on the way to a legal action (building.py)."""
        return building.addable(self, partial)

    def _count_actions(self) -> int:
        if self.phase == "over":
            return 0
        seat = self.to_act
        assert seat is not None
        if self.phase == "deal":
            return 1 + len(self._declarable(seat))
        hand = self.hands[seat]
        if self.phase == "bury":
            return count_submultisets(hand, self.game.kitty_size)
        if not self.trick:
            return self._count_leads(seat)
        return self._follow(seat).count()

    def sample_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action, without listing them all."""
        if self.phase == "over":
            raise IllegalAction("the match is over")
        seat = self.to_act
        assert seat is not None
        if self.phase == "deal":
            options = [PASS, *self._declarable(seat)]
            return options[rng.randrange(len(options))]
        hand = self.hands[seat]
        if self.phase == "bury":
            pick = sample_submultiset(hand, self.game.kitty_size, rng)
            return Action.of("bury", self._cards(pick))
        if not self.trick:
            return self._sample_lead(seat, rng)
        follow = self._follow(seat)
        pick = follow.sample(rng)
        return Action.of("play", self._cards([a + b for a, b in zip(pick, follow.fixed)]))

    # ------------------------------------------------------------ applying

    def _evaluates(self, act: Action) -> bool:
        # Tables and formulas run only when the hand ends: after a seat's last cards.
        return self.phase == "play" and self.to_act is not None and \
            sum(self.hands[self.to_act]) == len(act.cards)

    def _do(self, act: Action, checked: object = None) -> None:
        seat = self.to_act
        assert seat is not None
        if self.phase == "deal":
            if act.kind == "declare":
                kind, count = act.cards[0], len(act.cards)
                prev = self.declaration
                overcall = prev is not None and (prev["kind"] != kind or prev["seat"] != seat)
                self.declaration = {"seat": seat, "kind": kind, "count": count,
                                    "overcalled": bool(prev and overcall) or
                                    bool(prev and prev.get("overcalled")),
                                    "overcall_cards": count if overcall else
                                    (prev or {}).get("overcall_cards", 0)}
                self._event(type="declare", seat=seat, cards=str(act).split(" ", 1)[1])
                if self.final_queue is not None:
                    order = self._round_from(self._next(seat))
                    self.final_queue = [s for s in order if s != seat]
            else:
                self._event(type="pass", seat=seat)
                if self.final_queue:
                    self.final_queue.pop(0)
            self.to_act = None
            self._advance()
            return
        if self.phase == "bury":
            for kind in act.cards:
                self.hands[seat][kind] -= 1
            self.kitty = list(act.cards)
            self._event(type="bury", seat=seat, cards=nt.format_cards(act.cards))
            self.phase = "play"
            self.to_act = self.leader = self.dealer
            return
        cards = list(act.cards)
        if not self.trick:
            cards = self._resolve_throw(seat, cards)
        for kind in cards:
            self.hands[seat][kind] -= 1
        self.trick.append([seat, sorted(cards)])
        self._event(type="play", seat=seat, cards=nt.format_cards(sorted(cards)))
        if len(self.trick) < self.game.players:
            self.to_act = self._next(seat)
            return
        self._end_trick()

    def _end_trick(self) -> None:
        g = self.game
        idx, units = self._winner_index()
        winner = self.trick[idx][0]
        team = g.team_of[winner]
        dealer_team = self._dealer_team()
        points = sum(self.hc.points[k] for _, cards in self.trick for k in cards)
        if team != dealer_team:
            self.defender_points += points
        for name, select in g.rules.captures:
            for seat, cards in self.trick:
                if g.team_of[seat] == team:
                    continue
                hits = sum(1 for k in cards if select(Env(k, self.hc.values)))
                self.captures[name][0 if team == dealer_team else 1] += hits
        lead_rd = best_reading(self.hc, self.trick[0][1])
        won_with = units or []
        self.last_trick = {
            "winner": winner,
            "pattern": lead_rd.pattern if lead_rd else "throw",
            "size": len(self.trick[0][1]),
            "units": len(won_with) or 1,
            # cards per step of the winning play's largest combination: 1 single, 2 pair
            # or tractor of pairs, 3 triple (掀底 「如果是对或者拖拉机掀底，则再加倍」)
            "group": max((_group_size(u.cards) for u in won_with), default=1),
            # cards in the lead's largest unit (a kitty multiplier of 「2 × size」)
            "largest": len(self.trick[0][1]) if lead_rd else
            max(len(u.cards) for u in decompose(self.hc, self.trick[0][1])),
        }
        self._event(type="trick", winner=winner, points=points,
                    pattern=self.last_trick["pattern"])
        self.tricks_played += 1
        self.trick = []
        self.leader = self.to_act = winner
        if not any(sum(h) for h in self.hands):
            self._end_hand()
