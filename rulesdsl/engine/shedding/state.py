"""The shedding (climbing) state machine: lead, beat or pass, rounds, going out, scoring.

One generic interpreter: patterns, wilds and how plays compare come from the
ruleset; who leads, 接风, when a hand ends and how it is scored come from its
`play:` section. A play is a multiset of cards with a reading; cards of one rank
are interchangeable, so the legal plays are the distinct rank multisets (with
their pattern when several readings exist), made as far as they are asked for by
MoveGenerator (hand_plays.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from ... import notation as nt
from ...errors import RulesdslError
from ...model.hand import HandContext
from ...model.patterns import Reading, beats, readings
from ..base import (
    Action,
    EngineState,
    IllegalAction,
    PlayError,
    json_copy,
)
from ..shuffle import shuffle
from .auction import PASS, Auction
from .hidden import ShedHidden
from .moves import Entry, HandPlays, LeadPlaysBound
from .settlement import Settlement
from .tribute import TRIBUTE_PHASES, Tribute

if TYPE_CHECKING:
    from .game import ShedGame



class HandPlaysContext(NamedTuple):
    """One hand context's tables: its HandContext, move generator, each card's key in a
    rank play and each key's cards."""

    hc: HandContext
    moves: Any  # MoveGenerator | SuitedMoves
    rank_of: list[int]
    kinds_of_rank: dict[int, list[int]]


# Log events holding lists or dicts, deep-copied for an observation (the others are flat;
# tests/test_saved_states.py fails on a nested event of another type).
_NESTED_EVENTS = frozenset({"hand_end"})


def _hand_text(names: list[str], counts: list[int]) -> str:
    """nt.format_cards of a hand's count vector, from the names written once."""
    return " ".join([names[k] if c == 1 else " ".join([names[k]] * c)
                     for k, c in enumerate(counts) if c])


class ShedState(Auction, Settlement, Tribute, ShedHidden, EngineState):
    """One game (a number of hands) of a shedding ruleset."""

    family = "shedding"
    # Without levels every hand is played in the one context: these stay class defaults.
    level: int | None = None  # the hand's level
    side_levels: list[int] = []  # each side's level (set per state, never mutated here)

    FIELDS = (
        "seed", "max_hands", "hand_no", "phase", "hands", "unused", "kitty", "to_act", "last",
        "passes", "round_points", "captured", "out", "first_leader", "log", "results",
        "totals", "auction", "dealer", "sides",
    )

    def __init__(self, game: ShedGame):
        super().__init__(game)
        if game.levels is None:
            context = game.context(None)
            self._context, self._hc, self._moves = context, context.hc, context.moves
        if game.levels is not None:  # (saved by the game's state class: see ShedGame)
            self.level = game.levels["start"]
            self.side_levels = [game.levels["start"]] * len(game.ruleset.teams)
            if game.rules.top_failures:
                self.top_failed = [0] * len(game.ruleset.teams)  # failed hands at the top
        if game.rules.tribute is not None:
            self.tribute = None
        self.seed = 0
        self.max_hands: int | None = 1
        self.hand_no = 0
        self.phase = "play"
        self.hands: list[list[int]] = []
        self.unused: list[int] = []
        self.kitty: list[int] = []
        self.auction: dict[str, Any] | None = None
        self.dealer: int | None = None
        self.sides: list[list[int]] = []
        self.to_act: int | None = None
        self.last: dict[str, Any] | None = None  # the play to beat: seat, cards, pattern, key
        self.passes = 0
        self.round_points = 0
        self.captured: list[int] = []
        self.out: list[int] = []
        self.first_leader: int | None = None
        self.log: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.totals: list[float] = []
        # Shortcuts, not state (a clone or a restored state starts without them):
        # the play sampled at this decision and its reading (cleared by every apply, so
        # applying that very action needs no check);
        self._sampled: tuple[Action, Reading | None] | None = None
        # each seat's hand list and its lead plays (valid while that list is the seat's
        # hand: the engine updates it on play and drops it when a hand grows);
        self._seat_hp: dict[int, tuple[list[int], HandPlays]] = {}
        # the `last` dict and its reading.
        self._last_of: tuple[dict[str, Any] | None, Reading | None] = (None, None)

    # ------------------------------------------------------------ the hand's context
    # Without levels every hand has the game's one context: `_hc`, `_moves` and `_context`
    # are plain attributes (set in __init__); with levels they follow `level` (LevelState).

    @property
    def hc(self) -> HandContext:
        """The hand's HandContext."""
        return self._hc

    @property
    def moves(self) -> Any:
        """The hand's move generator."""
        return self._moves

    # ------------------------------------------------------------ the API

    def returns(self) -> list[float]:
        return list(self.totals)

    def sample_action(self, rng: random.Random) -> Action:
        # The same draw as _actions()[rng.randrange(len(_actions()))], without listing.
        if self.phase != "play":
            actions = self._actions()
            if not actions:
                raise IllegalAction("the game is over")
            act = actions[rng.randrange(len(actions))]
            self._sampled = (act, None)  # a bid needs no reading
            return act
        hand, entries, may_pass = self._plays_here()
        if may_pass:
            i = rng.randrange(len(entries) + 1)
            if i == 0:
                self._sampled = (PASS, None)  # apply need not check it again
                return PASS
            entry = entries[i - 1]
        else:
            if not entries:
                raise IllegalAction("no play is left to make")
            entry = entries[rng.randrange(len(entries))]
        act = self._action(hand, entry)
        self._sampled = (act, entry.reading)
        return act

    def observation(self, player: int) -> dict[str, Any]:
        g = self.game
        if type(player) is not int or not 0 <= player < g.players:
            raise RulesdslError(f"no seat {player!r}: a seat is an int from 0 to "
                                f"{g.players - 1}")
        return {
            "seat": player,
            "hand": _hand_text(g._names, self.hands[player]),
            "hand_no": self.hand_no,
            "phase": self.phase,
            "to_act": self.to_act,
            "last": None if self.last is None else {
                "seat": self.last["seat"], "cards": self.last["cards"],
                "pattern": self.last["pattern"]},
            "round_points": self.round_points,
            "captured": list(self.captured),
            "out": list(self.out),
            "cards_left": [sum(h) for h in self.hands],
            "log": self._public_log(),
        }

    def _public_log(self) -> list[dict[str, Any]]:
        """The log without the deals (other seats' cards), in copies: an observation
        shares no object with the state. The events to show are picked once and
        remembered (the log only grows): a call copies the small dicts, and deep-copies
        the few holding lists."""
        log = self.log
        memo = self.__dict__.get("_public_memo")
        if memo is None or memo[0] is not log or memo[1] > len(log):
            memo = self.__dict__["_public_memo"] = [log, 0, [], []]  # read, shown, nested
        if memo[1] < len(log):
            shown, nested = memo[2], memo[3]
            for event in log[memo[1]:]:
                kind = event["type"]
                if kind == "deal":
                    continue
                if kind in _NESTED_EVENTS:
                    nested.append(len(shown))
                shown.append(event)
            memo[1] = len(log)
        out = list(map(dict.copy, memo[2]))
        for i in memo[3]:
            out[i] = json_copy(out[i])
        return out

    # ------------------------------------------------------------ helpers

    def _cards(self, counts: list[int]) -> list[int]:
        return [k for k, c in enumerate(counts) for _ in range(c)]

    def _next(self, seat: int) -> int:
        return (seat + self.game.step) % self.game.players

    def _next_active(self, seat: int) -> int | None:
        s = seat
        step, players, hands = self.game.step, self.game.players, self.hands
        for _ in range(players):
            s = (s + step) % players
            if any(hands[s]):
                return s
        return None

    def _partner_active(self, seat: int) -> int | None:
        """The first teammate after `seat` (in turn order) still holding cards, else the
        next player still holding cards."""
        side = next((side for side in self.sides if seat in side), [seat])
        s = seat
        step, players, hands = self.game.step, self.game.players, self.hands
        for _ in range(players):
            s = (s + step) % players
            if s in side and any(hands[s]):
                return s
        return self._next_active(seat)

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}/{self.hand_no}/{purpose}")

    def _event(self, **event: Any) -> None:
        event["hand"] = self.hand_no
        self.log.append(event)

    def _active(self) -> list[int]:
        return [s for s, hand in enumerate(self.hands) if any(hand)]

    def _seat_plays(self, seat: int) -> HandPlays:
        """The lead plays of a seat's hand, remembered while the hand list stays the same."""
        hand = self.hands[seat]
        known = self._seat_hp.get(seat)
        if known is not None and known[0] is hand:
            return known[1]
        with self._bounded(seat):
            hp = self._moves.hand_plays(hand)
        self._seat_hp[seat] = (hand, hp)
        return hp

    @contextmanager
    def _bounded(self, seat: int) -> Iterator[None]:
        """A hand's plays past MAX_LEAD_PLAYS (made when first asked for) as a PlayError
        naming the game; raised before anything changes."""
        try:
            yield
        except LeadPlaysBound as exc:
            raise self._bound_error(exc, seat) from None

    def _bound_error(self, exc: LeadPlaysBound, seat: int) -> PlayError:
        return PlayError(f"{exc} (seed {self.seed}, hand {self.hand_no}, seat {seat})")

    def _reading_of_last(self) -> Reading | None:
        last = self.last
        if last is None:
            return None
        if self._last_of[0] is last:
            return self._last_of[1]
        reading = self._read_last(last)
        self._last_of = (last, reading)
        return reading

    def _read_last(self, last: dict[str, Any]) -> Reading:
        key = (last["pattern"], last["size"], last["key"], last["bomb"], last["bomb_size"],
               last["exclusive"])
        known = self.game._last_readings  # Reading objects are immutable: share them
        reading = known.get(key)
        if reading is None:
            if len(known) > 50_000:
                known.clear()
            reading = known[key] = Reading(key[0], key[1], key[2], None, key[3], key[4],
                                           False, key[5])
        return reading

    # ------------------------------------------------------------ the deal

    def _start_hand(self) -> None:
        g = self.game
        order = list(g.deck)
        shuffle(self._rng("shuffle"), order)
        dealt = g.hands_dealt * g.hand_size
        # Hand i's cards in kind order (what _cards gives), straight from the deal.
        held = [sorted(order[i:dealt:g.hands_dealt]) for i in range(g.hands_dealt)]
        hands = [[0] * len(g.ruleset.deck) for _ in range(g.hands_dealt)]
        for counts, cards in zip(hands, held):
            for kind in cards:
                counts[kind] += 1
        self.hands = hands[: g.players]
        kitty_size = g.ruleset.deal.get("kitty", 0)
        self.kitty = order[dealt:dealt + kitty_size]
        self.unused = [k for cards in held[g.players:] for k in cards]
        self.unused += order[dealt + kitty_size:]
        self.phase = "play"
        self.dealer = None
        self.auction = None
        self.sides = [[s for s in seats if s < g.players] for seats in g.ruleset.teams]
        self.last = None
        self.passes = 0
        self.round_points = 0
        self.captured = [0] * g.players
        self.out = []
        self._event(type="deal", hands=[g.format(cards) for cards in held[: g.players]],
                    kitty=g.format(self.kitty), unused=g.format(self.unused))
        if g.rules.auction is not None:
            opener = self._rng("opener").randrange(g.players)
            self.phase = "auction"
            self.auction = {"bid": 0, "high": None, "opener": opener, "turns": 0,
                            "passes": 0}
            self.to_act = opener
            return
        if g.levels is not None and self.results:
            # The hand is played at the level of the side that won the last one.
            self.level = self.side_levels[self.results[-1]["climb"]["side"]]
        if g.rules.tribute is not None:
            self.tribute = None
            if self._begin_tribute():
                return  # the tribute phase names the leader when it ends
        rule = g.rules.first_lead if self.hand_no == 0 else self._then_lead()
        leader = self._leader(rule)
        self.first_leader = leader
        self.to_act = leader
        self._event(type="lead", seat=leader, rule=rule)

    def _then_lead(self) -> str:
        """The rule naming a later hand's leader: then_lead, or its table's `lead` for the
        last hand's outcome."""
        g = self.game
        if g.rules.then_lead != "table":
            return g.rules.then_lead
        # (a later hand always follows one with a finishing order)
        given = {"mate_place": self._first_side(self.results[-1]["order"])[1],
                 "players": g.players}
        table = g.ruleset.tables[g.rules.lead_table]
        return str(table.lookup({k: given[k] for k in table.inputs})["lead"])

    def _leader(self, rule: str) -> int:
        g = self.game
        if rule == "first_out" and self.results:
            return self.results[-1]["order"][0]
        if rule == "holder":
            for kind in g.rules.holder:
                holders = [s for s in range(g.players) if self.hands[s][kind]]
                if holders:
                    return holders[0]
        if rule == "dealer" and self.results:
            return self.results[-1].get("dealer", 0)
        return self._rng("leader").randrange(g.players)

    # ------------------------------------------------------------ legality

    def _check(self, act: Action) -> Reading | None:
        sampled = self._sampled
        if sampled is not None and sampled[0] is act:
            # Drawn from this very decision's legal actions: a play with its reading, a
            # pass, bid or tribute with None.
            return sampled[1]
        if self.phase == "over":
            raise IllegalAction("the game is over")
        seat = self.to_act
        assert seat is not None
        if self.phase in TRIBUTE_PHASES:
            self._check_tribute(seat, act)
            return None
        if self.phase == "auction":
            if act not in self._auction_actions(seat):
                raise IllegalAction(self._why_not_bid(seat, act))
            return None
        if act is PASS or (act.kind == "pass" and act == PASS):
            if self.last is None or self.last["seat"] == seat:
                raise IllegalAction("you have the lead: play something")
            if self.game.rules.must_beat and self._plays_here()[1]:
                raise IllegalAction("you can beat the play on the table, so you must")
            return None
        if act.kind != "play" or not act.cards:
            raise IllegalAction("play cards or pass")
        hand = self.hands[seat]
        cards = act.cards
        for kind in cards:
            held = hand[kind]
            if held < len(cards) and held < cards.count(kind):
                raise IllegalAction(f"you hold {held} × "
                                    f"{nt.format_card(kind)}, not {cards.count(kind)}")
        if self.last is None:
            must = self._must_play()
            if must is not None and must not in cards:
                raise IllegalAction(f"the first play of the hand must hold "
                                    f"{nt.format_card(must)}")
        known = self._known_reading(seat, act)
        if known is not None:
            self._check_restrictions(seat, act, known)
            return known
        # Not one of the listed plays: read the cards, for the exact reason.
        rs = readings(self._hc, list(act.cards))
        if not rs:
            raise IllegalAction(f"{nt.format_cards(act.cards)} is not a pattern of this game")
        if act.pattern is not None:
            rs = [r for r in rs if r.pattern == act.pattern]
            if not rs:
                raise IllegalAction(f"{nt.format_cards(act.cards)} cannot be read as "
                                    f"{act.pattern}")
        elif len({r.pattern for r in rs}) > 1:
            names = ", ".join(sorted({r.pattern for r in rs}))
            raise IllegalAction(f"{nt.format_cards(act.cards)} reads as {names}: name one "
                                f"(… as PATTERN)")
        best = max(rs, key=lambda r: r.key)
        if self.last is not None and self.last["seat"] != seat:
            prev = self._reading_of_last()
            assert prev is not None
            winners = [r for r in rs if beats(self._hc, r, prev)]
            if not winners:
                raise IllegalAction(f"{nt.format_cards(act.cards)} does not beat "
                                    f"{self.last['cards']} ({self.last['pattern']})")
            best = max(winners, key=lambda r: r.key)
        self._check_restrictions(seat, act, best)
        return best

    def _check_restrictions(self, seat: int, act: Action, reading: Reading) -> None:
        """The rules `_restricted` applies to listed plays, for a typed one."""
        g = self.game
        if reading.pattern in g.last_only and reading.size != sum(self.hands[seat]):
            raise IllegalAction(f"{reading.pattern} may only be a player's last play")
        if reading.size == 1:
            top = self._highest_single(seat, self._seat_plays(seat))
            if top is not None and reading.key < top:
                raise IllegalAction("the next player holds few cards: a single must be your "
                                    "highest card")

    def _known_reading(self, seat: int, act: Action) -> Reading | None:
        """The reading of a held play found among the hand's listed plays (what the full
        check would return), or None when it is not listed here."""
        hp = self._seat_plays(seat)
        key = self._moves.play_key(act.cards)
        if self.last is not None and self.last["seat"] != seat:
            # A follow: among the plays that beat the last (made by shape, not in full).
            prev = self._reading_of_last()
            assert prev is not None
            with self._bounded(seat):
                found = [e for e in hp.beating(self._hc, prev) if e.play == key]
            if not found:
                return None
            if act.pattern is None:
                return found[0].reading if found[0].name is None else None  # must name one
            return next((e.reading for e in found if e.reading.pattern == act.pattern), None)
        with self._bounded(seat):
            rs = hp.plays.get(key)
        if not rs:
            return None
        if act.pattern is None:
            if len(rs) > 1:
                return None  # must name one
            reading = rs[0]
        else:
            reading = next((r for r in rs if r.pattern == act.pattern), None)
            if reading is None:
                return None
        if self.last is not None and self.last["seat"] != seat:
            prev = self._reading_of_last()
            assert prev is not None
            if not beats(self._hc, reading, prev):
                return None
        return reading

    # ------------------------------------------------------------ enumeration

    def _actions(self) -> list[Action]:
        if self.phase == "over":
            return []
        seat = self.to_act
        assert seat is not None
        if self.phase == "auction":
            return self._auction_actions(seat)
        if self.phase in TRIBUTE_PHASES:
            return self._tribute_actions(seat)
        hand, entries, may_pass = self._plays_here()
        plays = [self._action(hand, e) for e in entries]
        return [PASS] + plays if may_pass else plays

    def _plays_here(self) -> tuple[list[int], list[Entry], bool]:
        """In the play phase: the hand to act, the plays it may make (its lead plays, or
        those that beat the last play), each rule of the play section applied, and whether
        it may pass (pass is listed first)."""
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        known = self._seat_hp.get(seat)  # (_seat_plays, inlined: this runs at every decision)
        hp = known[1] if known is not None and known[0] is hand else self._seat_plays(seat)
        g = self.game
        last = self.last
        try:  # (not `with self._bounded`: likewise)
            if last is None or last["seat"] == seat:
                must = self._must_play() if last is None else None
                entries = hp.entries if must is None else self._holding(hp, must)
                if g.restricts:
                    entries = self._restricted(seat, hp, entries)
                return hand, entries, False
            prev = self._reading_of_last()
            assert prev is not None
            entries = hp.beating(self._hc, prev)
            if g.restricts:
                entries = self._restricted(seat, hp, entries)
        except LeadPlaysBound as exc:
            raise self._bound_error(exc, seat) from None
        return hand, entries, not (g.rules.must_beat and entries)

    def _restricted(self, seat: int, hp: HandPlays, entries: list[Entry]) -> list[Entry]:
        """The plays left by the patterns played only as a last play and by the rule that a
        single must be the player's highest (asked only when the game `restricts`)."""
        last_only = self.game.last_only
        if last_only:
            size = sum(self.hands[seat])
            entries = [e for e in entries if e.reading.pattern not in last_only
                       or e.reading.size == size]
        top = self._highest_single(seat, hp)
        if top is not None:
            entries = [e for e in entries if e.reading.size != 1 or e.reading.key >= top]
        return entries

    def _highest_single(self, seat: int, hp: HandPlays) -> float | None:
        """When the highest_single rule holds: the key a single must reach (the hand's
        highest single's); else None."""
        rule = self.game.rules.highest_single
        if rule is None:
            return None
        from ...runtime.expressions import Env

        nxt = self._next_active(seat)
        values = {**self.game.ruleset.options,
                  "next_left": sum(self.hands[nxt]) if nxt is not None else 0,
                  "own_left": sum(self.hands[seat])}
        if not rule(Env(None, values)):
            return None
        with self._bounded(seat):
            return max((e.reading.key for e in hp.entries if e.reading.size == 1),
                       default=None)

    def _must_play(self) -> int | None:
        """The card the hand's first play must contain (the holder card that chose the
        leader, such as ♦3), or None once the hand's first play is made."""
        rule = self.game.rules.must_play_holder
        if rule == "never" or (rule == "first_hand" and self.hand_no != 0):
            return None
        log = self.log
        if not log or log[-1]["type"] != "lead" or log[-1].get("rule") != "holder" \
                or self.to_act != self.first_leader:
            return None  # the first play is made (nobody passes on the lead), or a scenario
            # chose the leader
        hand = self.hands[self.to_act]
        return next((k for k in self.game.rules.holder if hand[k]), None)

    def _holding(self, hp: HandPlays, card: int) -> list[Entry]:
        """The lead entries whose play holds `card` (as its rank when plays are ranks)."""
        moves = self._moves
        key = card if moves.suited else moves.rank_of[card]
        return [e for e in hp.entries if key in e.play]

    def _action(self, hand: list[int], entry: Entry) -> Action:
        if self._moves.suited:
            cards = entry.play
        else:
            must = self._must_play() if self.last is None else None
            picked = self._pick(hand, entry.play, must)
            cards = tuple(sorted(picked)) if len(picked) > 1 else tuple(picked)
        key = (cards, entry.name)
        known = self.game._plays  # Action objects are immutable: share them
        act = known.get(key)
        if act is None:
            if len(known) > 100_000:
                known.clear()
            act = known[key] = Action("play", key[0], key[1])
        return act

    def _iter_actions(self) -> Iterator[Action]:
        return iter(self._actions())

    def _count_actions(self) -> int:
        if self.phase != "play":
            return len(self._actions())
        _, entries, may_pass = self._plays_here()
        return len(entries) + may_pass

    def _pick(self, hand: list[int], play: tuple[int, ...], must: int | None = None) -> list[int]:
        """Actual cards for a rank multiset: suits in the order S H D C (`must` first)."""
        cards: list[int] = []
        kinds_of_rank = self._context.kinds_of_rank
        if must is not None:
            cards.append(must)
            hand = list(hand)
            hand[must] -= 1
            at = play.index(self._context.rank_of[must])
            play = play[:at] + play[at + 1:]
        i = 0
        while i < len(play):
            rank = play[i]
            n = 1
            while i + n < len(play) and play[i + n] == rank:
                n += 1
            i += n
            for k in kinds_of_rank[rank]:
                held = hand[k]
                if held:
                    if held >= n:
                        cards += [k] * n
                        break
                    cards += [k] * held
                    n -= held
        return cards

    # ------------------------------------------------------------ applying

    def _evaluates(self, act: Action) -> bool:
        # Rules run when a hand can end (a claim, a seat going out) and, with ending
        # tables, when a pass ends a round.
        if act.kind == "claim":
            return True
        if act.kind in TRIBUTE_PHASES:
            return False
        if act.kind == "pass":
            # Ending tables are read when a pass ends the round (every other seat holding
            # cards has passed since the last play).
            last = self.last
            tables = self.game.rules.end_tables
            failing = self.game.ruleset.failing_rules
            if not tables or last is None or (failing is not None
                                              and not failing.intersection(tables)):
                return False
            others = sum(1 for s, hand in enumerate(self.hands)
                         if s != last["seat"] and any(hand))
            return self.passes + 1 >= others
        return self.to_act is not None and sum(self.hands[self.to_act]) == len(act.cards)

    def _do(self, act: Action, reading: Reading | None) -> None:
        seat = self.to_act
        assert seat is not None
        self._sampled = None  # a new decision follows
        if self.phase == "auction":
            self._do_auction(seat, act)
            return
        if self.phase in TRIBUTE_PHASES:
            self._do_tribute(seat, act)
            return
        if act is PASS or (act.kind == "pass" and act == PASS):
            self.passes += 1
            self.log.append({"type": "pass", "seat": seat, "hand": self.hand_no})
            self.to_act = self._next_active(seat)
            self._maybe_round_over()
            return
        assert reading is not None
        g = self.game
        hand = self.hands[seat]
        known = self._seat_hp.get(seat)
        hp = known[1] if known is not None and known[0] is hand else self._seat_plays(seat)
        cards = act.cards
        for kind in cards:
            hand[kind] -= 1
        # The smaller hand's plays: the old ones it still holds.
        self._seat_hp[seat] = (hand, self._moves.played(hp, cards))
        if g.has_points:
            points = self._hc.points
            self.round_points += sum(points[k] for k in cards)
        text = g.text(cards)
        self.last = {"seat": seat, "cards": text,
                     "pattern": reading.pattern, "size": reading.size, "key": reading.key,
                     "bomb": reading.bomb, "bomb_size": reading.bomb_size,
                     "exclusive": reading.exclusive}
        # What _read_last would rebuild from that dict: a shedding `beats` reads only
        # these fields, so the play's own reading serves.
        self._last_of = (self.last, reading)
        self.passes = 0
        self.log.append({"type": "play", "seat": seat, "cards": text,
                         "pattern": reading.pattern, "hand": self.hand_no})
        if not any(hand):
            self.out.append(seat)
            self._event(type="out", seat=seat, place=len(self.out))
            if self._hand_over():
                self._end_round(seat)
                self._end_hand()
                return
        nxt = self._next_active(seat)
        if nxt is None:
            self._end_round(seat)
            self._end_hand()
            return
        self.to_act = nxt
        if nxt == seat:  # nobody else holds cards: the round is over (no pass since)
            self._maybe_round_over()

    def _maybe_round_over(self) -> None:
        """Everyone else passed: the last player takes the round's points and leads."""
        assert self.last is not None
        last_seat = self.last["seat"]
        passes = self.passes
        others = 0  # the other seats still holding cards, counted until they outnumber passes
        for s, hand in enumerate(self.hands):
            if s != last_seat and any(hand):
                others += 1
                if passes < others:
                    return
        self._end_round(last_seat)
        if self._ended_by_table():
            self.last = None
            self._end_hand()
            return
        if sum(self.hands[last_seat]):
            self.to_act = last_seat
        elif self.game.rules.takeover == "partner":
            # 接风 to the partner: the first teammate after them still holding cards.
            self.to_act = self._partner_active(last_seat)
        else:
            # 接风: 「当某个玩家出完最后一手牌后，如果其他玩家都弃权，则由那个玩家的下家先出牌」
            self.to_act = self._next_active(last_seat)
        self.last = None
        self.passes = 0

    def _end_round(self, winner: int) -> None:
        self.captured[winner] += self.round_points
        self._event(type="round", winner=winner, points=self.round_points)
        self.round_points = 0

    def _side_values(self) -> list[dict[str, int]]:
        """Per side: secured points and players out, with the other side's (two sides)."""
        g = self.game
        first = self.out[0] if self.out else None
        raw = []
        for side in self.sides:
            finished = sum(self.captured[s] for s in side if s in self.out)
            unfinished = sum(self.captured[s] for s in side if s not in self.out)
            has_first = 1 if first in side else 0
            if g.rules.secured is not None:
                f = g.ruleset.formulas[g.rules.secured]
                given = {"finished_captured": finished, "unfinished_captured": unfinished,
                         "has_first": has_first}
                points = int(f.evaluate({k: given[k] for k in f.inputs}))
            else:
                points = finished + unfinished
            raw.append({"points": points, "out": sum(1 for s in side if s in self.out)})
        out = []
        for i, mine in enumerate(raw):
            others = [r for j, r in enumerate(raw) if j != i]
            out.append({**mine, "opp_points": sum(r["points"] for r in others),
                        "opp_out": sum(r["out"] for r in others)})
        return out

    def _ended_by_table(self) -> bool:
        g = self.game
        if not g.rules.end_tables:
            return False
        # The answer depends only on the sides, the captured points and who is out.
        key = (tuple(map(tuple, self.sides)), tuple(self.captured), tuple(self.out))
        ended = g._ended.get(key)
        if ended is None:
            ended = any(g.lookup(name, values)["state"] == "over"
                        for values in self._side_values() for name in g.rules.end_tables)
            if len(g._ended) > 50_000:
                g._ended.clear()
            g._ended[key] = ended
        return ended

    def _hand_over(self) -> bool:
        g = self.game
        if self._ended_by_table():
            return True
        active = self._active()
        if "one_left" in g.rules.ends and len(active) <= 1:
            return True
        if "first_out" in g.rules.ends and self.out:
            return True
        if "team_out" in g.rules.ends:
            for seats in self.sides:
                if seats and all(not sum(self.hands[s]) for s in seats):
                    return True
        return not active


class LevelState(ShedState):
    """A shedding state with levels: each hand's context is its level's."""

    @property
    def _context(self) -> HandPlaysContext:
        return self.game.context(self.level)

    @property
    def _hc(self) -> HandContext:
        return self.game.context(self.level).hc

    @property
    def _moves(self) -> Any:
        return self.game.context(self.level).moves
