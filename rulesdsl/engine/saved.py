"""Checking a saved state before it is restored (`game.state_from_json`).

A saved state is untrusted input: a client may move a card between hands, duplicate one,
set a hand count to -3 or a seat to 9. `check_saved` reads the decoded JSON (never a
built state) and raises RulesdslError naming the field's path
(`hands[2][14]: -3 is not a card count`) unless the state is one the engine could be in:

- the type and range of every field in the family state's FIELDS (seats within the
  player count, card or tile kinds within the notation and the deck, counts non-negative);
- conservation: every card or tile of the deck is in exactly one zone. Card games count
  per seat what it was dealt (the trick family's deal order, the shedding family's deal
  event) against what it holds and has played this hand (the log's play events), so a
  card moved from one hand to another is caught too;
- the phase's consistency: a seat to act when the phase needs one, the queues, pending
  claims and the play to beat agreeing with the log, totals with the results.

A state built by a family's `position` (a play scenario) has no deal record: it is checked
like the others, with conservation over the whole deck instead of per seat.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any, NoReturn

from .. import notation as nt
from ..errors import NotationError, RulesdslError
from ..model.hand import TRUMP
from ..model.patterns import readings
from ..runtime.expressions import Env
from .base import MATCH_HAND_LIMIT, VOID_SUITS

MELD_KINDS = ("chow", "pung", "kong")
CLAIM_KINDS = ("win", "kong", "pung", "chow")
TILE_SOURCES = ("deal", "wall", "claim", "kong", "bonus", "kong_bonus")
SUITED_HONOR = 34  # tile kinds 0..33 form sets; 34.. are flowers
_CARD_OF = {nt.format_card(k): k for k in range(nt.CARD_KINDS)}
# What the engines and these checks read from a logged event of each type.
_EVENT_KEYS = {"play": ("seat", "cards"), "bury": ("seat", "cards"), "take_kitty": ("seat",),
               "out": ("seat",), "claim": ("seat",), "bid": ("seat", "amount"),
               "pass": ("seat",), "dealer": ("seat",), "round": ("winner", "points"),
               "deal": ("hands",), "throw": ("seat", "cards")}


def check_saved(family: str, game: Any, data: dict[str, Any]) -> None:
    """Raise RulesdslError unless `data` (a decoded saved state, every FIELDS key present)
    is a state of `game` the family's engine could be in."""
    check = {"trick": _check_trick, "shedding": _check_shedding, "tiles": _check_tiles}
    check[family](_Reader(game, data), data)


def _fail(path: str, what: str) -> NoReturn:
    raise RulesdslError(f"saved state: {path}: {what}")


def _show(value: Any) -> str:
    """A value for a message, bounded: a saved state may carry anything."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to print"
    return text if len(text) <= 40 else text[:37] + "..."


class _Reader:
    """Typed reads of a decoded state, each failing with the value's path."""

    def __init__(self, game: Any, data: dict[str, Any]):
        self.game = game
        self.data = data
        self.n = game.players
        deck = game.ruleset.deck
        self.deck = deck
        self.kinds = len(deck)
        self.tiles = game.ruleset.family == "tiles"
        self.name = nt.format_tile if self.tiles else nt.format_card
        self.what = "tile" if self.tiles else "card"
        self._texts: dict[str, list[int]] = {}  # card text -> kinds (read once)

    # -- scalars

    def integer(self, value: Any, path: str, lo: int | None = None, hi: int | None = None,
            what: str = "a whole number") -> int:
        if type(value) is not int or (lo is not None and value < lo) \
                or (hi is not None and value > hi):
            _fail(path, f"{_show(value)} is not {what}")
        return value

    def count(self, value: Any, path: str) -> int:
        return self.integer(value, path, 0, what="a count")

    def seat(self, value: Any, path: str, none: bool = False) -> int | None:
        if value is None and none:
            return None
        return self.integer(value, path, 0, self.n - 1, f"a seat (0–{self.n - 1})")

    def flag(self, value: Any, path: str) -> bool:
        if type(value) is not bool:
            _fail(path, f"{_show(value)} is not true or false")
        return value

    def number(self, value: Any, path: str) -> float:
        if type(value) is int and abs(value) < 2 ** 1000:
            return float(value)
        if type(value) is not float or not math.isfinite(value):
            _fail(path, f"{_show(value)} is not a finite number")
        return value

    def choice(self, value: Any, path: str, options: tuple | list) -> Any:
        if not isinstance(value, str) or value not in options:
            _fail(path, f"{_show(value)} is not one of {', '.join(map(str, options))}")
        return value

    def kind(self, value: Any, path: str) -> int:
        """A card or tile kind this deck holds."""
        if type(value) is not int or not 0 <= value < self.kinds or not self.deck[value]:
            _fail(path, f"{_show(value)} is not a {self.what} of this deck")
        return value

    # -- containers

    def items(self, value: Any, path: str, length: int | None = None) -> list:
        if type(value) is not list:
            _fail(path, f"{_show(value)} is not a list")
        if length is not None and len(value) != length:
            _fail(path, f"holds {len(value)} entries, not {length}")
        return value

    def record(self, value: Any, path: str, keys: tuple[str, ...]) -> dict[str, Any]:
        if type(value) is not dict:
            _fail(path, f"{_show(value)} is not an object")
        if set(value) != set(keys):
            missing = sorted(set(keys) - set(value))
            extra = sorted(set(value) - set(keys))
            _fail(path, f"lacks {', '.join(missing)}" if missing else
                  f"has unknown keys {_show(extra)}")
        return value

    def field(self, key: str, read: Callable[[Any, str], Any]) -> Any:
        return read(self.data[key], key)

    def optional(self, value: Any, path: str, read: Callable[[Any, str], Any]) -> Any:
        return None if value is None else read(value, path)

    def each(self, value: Any, path: str, read: Callable[[Any, str], Any],
             length: int | None = None) -> list:
        for i, item in enumerate(self.items(value, path, length)):
            read(item, f"{path}[{i}]")
        return value

    def counts(self, value: Any, path: str) -> list[int]:
        """A count vector over this deck's kinds, never above the deck's copies."""
        self.items(value, path, self.kinds)
        for k, c in enumerate(value):
            if type(c) is not int or c < 0:
                _fail(f"{path}[{k}]", f"{_show(c)} is not a {self.what} count")
            if c > self.deck[k]:
                _fail(f"{path}[{k}]", f"{_show(c)} × {self.name(k)}; the deck has "
                      f"{self.deck[k]}")
        return value

    def kind_list(self, value: Any, path: str) -> list[int]:
        return self.each(value, path, self.kind)

    def seats(self, value: Any, path: str) -> list[int]:
        """Distinct seats."""
        self.each(value, path, self.seat)
        if len(set(value)) != len(value):
            _fail(path, f"names a seat twice: {_show(value)}")
        return value

    def cards(self, value: Any, path: str) -> list[int]:
        """Card text (`"S3 S3 H4"`) of cards this deck holds, as kinds. The engine writes
        the canonical names: those are looked up, anything else goes to the notation."""
        if not isinstance(value, str):
            _fail(path, f"{_show(value)} is not a text of cards")
        kinds = self._texts.get(value)
        if kinds is not None:
            return kinds
        try:
            kinds = [_CARD_OF[name] for name in value.split(" ")] if value else []
        except (KeyError, AttributeError):
            try:
                kinds = nt.parse_cards(value)
            except NotationError as exc:
                _fail(path, str(exc))
        for k in kinds:
            if not self.deck[k]:
                _fail(path, f"{nt.format_card(k)} is not a card of this deck")
        self._texts[value] = kinds
        return kinds

    # -- the shared fields

    def common(self) -> tuple[int, int | None, str]:
        """seed, max_hands and hand_no read; (hand_no, max_hands, phase) returned."""
        # the bounds new_game puts on its seed and hand count
        self.field("seed", lambda v, p: self.integer(v, p, 0, 2 ** 63 - 1,
                                                     "a seed (0 to 2^63 - 1)"))
        max_hands = self.field("max_hands", lambda v, p: self.optional(
            v, p, lambda v, p: self.integer(v, p, 1, 10_000, "a number of hands (1–10000)")))
        hand_no = self.field("hand_no", self.count)
        if max_hands is not None and hand_no > max_hands:
            _fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s)")
        if hand_no > MATCH_HAND_LIMIT:
            _fail("hand_no", f"hand {hand_no}: no game plays more than {MATCH_HAND_LIMIT}")
        return hand_no, max_hands, self.data["phase"]

    def log(self, hand_no: int) -> list[dict[str, Any]]:
        """Events: objects with a type and a hand number (never decreasing, never past
        hand_no); a seat, where an event names one, is a seat."""
        events = self.items(self.data["log"], "log")
        last = 0
        for i, event in enumerate(events):
            path = f"log[{i}]"
            if type(event) is not dict:
                _fail(path, f"{_show(event)} is not an event")
            if not isinstance(event.get("type"), str):
                _fail(f"{path}.type", f"{_show(event.get('type'))} is not an event type")
            hand = event.get("hand")
            if type(hand) is not int or not last <= hand <= hand_no:
                _fail(f"{path}.hand", f"{_show(hand)} is not a hand number from {last} to "
                      f"{hand_no}")
            last = hand
            for key in _EVENT_KEYS.get(event["type"], ()):
                if key not in event:
                    _fail(path, f"a {event['type']} event without its {key}")
            if "seat" in event:
                self.seat(event["seat"], f"{path}.seat")
            if "cards" in event and not isinstance(event["cards"], str):
                _fail(f"{path}.cards", f"{_show(event['cards'])} is not card text")
        return events

    def hand_events(self, hand: int) -> list[tuple[int, dict[str, Any]]]:
        """(index in the log, event) of one hand's events."""
        return [(i, e) for i, e in enumerate(self.data["log"]) if e["hand"] == hand]

    def played(self, events: list[tuple[int, dict[str, Any]]]) -> list[list[int]]:
        """Per seat, the count vector of the cards its play events show."""
        out = [[0] * self.kinds for _ in range(self.n)]
        for i, e in events:
            if e["type"] == "play":
                for k in self.cards(e.get("cards"), f"log[{i}].cards"):
                    out[e["seat"]][k] += 1
        return out

    def results(self, hand_no: int, read: Callable[[dict[str, Any], str], None]) -> list:
        results = self.items(self.data["results"], "results", hand_no)
        for i, result in enumerate(results):
            if type(result) is not dict:
                _fail(f"results[{i}]", f"{_show(result)} is not a hand's result")
            read(result, f"results[{i}]")
        return results

    def totals(self, results: list[dict[str, Any]], key: str) -> None:
        """Totals are the sum of every finished hand's `key` (payments or returns)."""
        totals = self.each(self.data["totals"], "totals", self.number, self.n)
        for s in range(self.n):
            expected = 0.0
            for result in results:
                expected += result[key][s]
            if not math.isclose(totals[s], expected, rel_tol=1e-9, abs_tol=1e-9):
                _fail(f"totals[{s}]", f"{totals[s]} is not the sum of the hands' {key} "
                      f"({expected})")

    def conserved(self, total: list[int], path: str, zones: str) -> None:
        """`total` (a count vector of `zones`) is the deck exactly."""
        for k, (have, want) in enumerate(zip(total, self.deck)):
            if have != want:
                _fail(path, f"{zones} hold {have} × {self.name(k)}; the deck has {want}")

    def equal(self, have: list[int], want: list[int], path: str, what: tuple[str, str]) \
            -> None:
        """Two count vectors agree: `what` says what each counts, for the message."""
        for k, (a, b) in enumerate(zip(have, want)):
            if a != b:
                _fail(path, f"{a} × {self.name(k)} {what[0]}, {b} {what[1]}")


def _vector(kinds: int, *parts: list[int]) -> list[int]:
    """The count vector of some lists of kinds."""
    out = [0] * kinds
    for part in parts:
        _add(out, part)
    return out


def _add(out: list[int], kinds: list[int]) -> None:
    for k in kinds:
        out[k] += 1


def _plus(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)]


# ---------------------------------------------------------------- trick


TRICK_PHASES = ("deal", "bury", "play", "over")


def _check_trick(r: _Reader, d: dict[str, Any]) -> None:
    g, n, kinds = r.game, r.n, r.kinds
    rules = g.rules
    hand_no, max_hands, phase = r.common()
    r.choice(phase, "phase", TRICK_PHASES)
    over = phase == "over"
    ladder = g.ladder
    teams = len(g.ruleset.teams)
    r.each(d["team_levels"], "team_levels", lambda v, p: r.integer(
        v, p, 0, len(ladder) - 1, f"a place on the levels ladder (0–{len(ladder) - 1})"),
        teams)
    winner = r.optional(d["match_winner"], "match_winner", lambda v, p: r.integer(
        v, p, 0, teams - 1, f"a team (0–{teams - 1})"))
    dealer = r.seat(d["dealer"], "dealer", none=True)
    order = r.kind_list(d["deal_order"], "deal_order")
    to_hands = g.hand_size * n
    dealt = r.integer(d["dealt"], "dealt", 0, to_hands,
                      f"a number of cards dealt (0–{to_hands})")
    deal_start = r.seat(d["deal_start"], "deal_start")
    deal_seat = r.seat(d["deal_seat"], "deal_seat")
    hands = r.each(d["hands"], "hands", r.counts, n)
    kitty = r.kind_list(d["kitty"], "kitty")
    decl = d["declaration"]
    if decl is not None:
        r.record(decl, "declaration", ("seat", "kind", "count", "overcalled", "overcall_cards"))
        r.seat(decl["seat"], "declaration.seat")
        if r.kind(decl["kind"], "declaration.kind") >= nt.LITTLE_JOKER and (
                rules.declare_jokers == "none" or decl["count"] == 1):
            _fail("declaration.kind", "a joker declares no suit"
                  + (" (a pair of one joker declares no trump)"
                     if rules.declare_jokers != "none" else ""))
        r.integer(decl["count"], "declaration.count", 1, rules.declare_max,
                  f"a number of cards (1–{rules.declare_max})")
        r.flag(decl["overcalled"], "declaration.overcalled")
        r.integer(decl["overcall_cards"], "declaration.overcall_cards", 0,
                  rules.declare_max, f"a number of cards (0–{rules.declare_max})")
    queue = r.optional(d["final_queue"], "final_queue", r.seats)
    to_act = r.seat(d["to_act"], "to_act", none=True)
    trump = d["trump"]
    if trump is not None:
        r.choice(trump, "trump", nt.SUITS)
    level = r.integer(d["level"], "level", what="a rank")
    if level not in ladder:
        _fail("level", f"{_show(level)} is not a rank on the levels ladder")
    leader = r.seat(d["leader"], "leader")
    trick = r.items(d["trick"], "trick")
    for i, entry in enumerate(trick):
        r.items(entry, f"trick[{i}]", 2)
        r.seat(entry[0], f"trick[{i}][0]")
        cards = r.kind_list(entry[1], f"trick[{i}][1]")
        if not cards or cards != sorted(cards):
            _fail(f"trick[{i}][1]", "a play is one or more cards, in kind order")
    r.integer(d["defender_points"], "defender_points")
    captures = d["captures"]
    r.record(captures, "captures", tuple(name for name, _ in rules.captures))
    for name, pair in captures.items():
        r.each(pair, f"captures.{name}", r.count, 2)
    tricks_played = r.count(d["tricks_played"], "tricks_played")
    last = d["last_trick"]
    if last is not None:
        r.record(last, "last_trick", ("winner", "pattern", "size", "units", "group",
                                      "largest"))
        r.seat(last["winner"], "last_trick.winner")
        if not isinstance(last["pattern"], str):
            _fail("last_trick.pattern", f"{_show(last['pattern'])} is not a pattern name")
        for key in ("size", "units", "group", "largest"):
            r.integer(last[key], f"last_trick.{key}", 1, what="a number of cards (1 or more)")
        if last["largest"] > last["size"]:
            _fail("last_trick.largest", "is larger than the lead")
    r.log(hand_no)
    r.results(hand_no, lambda result, path: None)

    # -- the phase
    step = 1 if g.ruleset.direction == "counter-clockwise" else -1
    if over:
        if to_act is not None:
            _fail("to_act", f"{to_act}: nobody acts once the match is over")
        if winner is None and hand_no not in (max_hands, MATCH_HAND_LIMIT):
            _fail("phase", "over, yet no side has won and the hands to play are not done")
        if winner is not None and d["team_levels"][winner] != len(ladder) - 1:
            _fail("match_winner", f"team {winner} won without reaching the top level")
    else:
        if to_act is None:
            _fail("to_act", f"None: the {phase} phase needs a seat to act")
        if winner is not None:
            _fail("match_winner", f"{winner}, yet the match is not over")
        if max_hands is not None and hand_no >= max_hands:
            _fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s) is not played")
    if dealer is None and (phase != "deal" or hand_no):
        _fail("dealer", "None: only the first hand's deal has no dealer yet")
    no_trump = decl is not None and decl["kind"] >= nt.LITTLE_JOKER  # jokers: 无主
    if phase != "deal" and not over and trump is None and order and not no_trump:
        _fail("trump", f"None in the {phase} phase: the deal fixed a trump suit")
    if no_trump and trump is not None and phase != "deal":
        _fail("trump", f"{trump}: the jokers declared no trump")
    if dealer is not None and not over:
        want = ladder[d["team_levels"][g.team_of[dealer]]]
        if level != want:
            _fail("level", f"{nt.rank_name(level)}, not the dealer's side's level "
                  f"{nt.rank_name(want)}")
    if phase != "play" and trick:
        _fail("trick", f"cards on the table in the {phase} phase")
    if (last is None) != (tricks_played == 0) and not over:
        _fail("last_trick", "does not agree with tricks_played")

    events = r.hand_events(hand_no - 1 if over else hand_no)
    played = r.played(events)
    plays = [(i, e) for i, e in events if e["type"] == "play"]
    if phase == "deal":
        _trick_deal(r, order, dealt, deal_start, deal_seat, hands, kitty, queue, to_act,
                    to_hands, step, trump, decl)
        if tricks_played or plays or last is not None:
            _fail("tricks_played", "tricks played before the deal is over")
        _trick_points(r, d, events, phase, dealer, trump, level)
        return
    if order and dealt != to_hands:
        _fail("dealt", f"{dealt} of {to_hands} cards dealt after the deal")
    if queue:
        _fail("final_queue", "seats still to declare after the deal")
    if order and len(kitty) != g.kitty_size:
        _fail("kitty", f"holds {len(kitty)} cards, not {g.kitty_size}")
    if over:
        if any(any(h) for h in hands):
            _fail("hands", "cards left in hand once the match is over")
        if order:
            total = _vector(kinds, kitty)
            for s in range(n):
                total = _plus(total, played[s])
            r.conserved(total, "log", "the kitty and the last hand's plays")
        return
    if phase == "bury":
        if to_act != dealer or leader != dealer:
            _fail("to_act", f"{to_act}: the dealer {dealer} buries")
        if plays:
            _fail("log", "cards played before the bury")
    else:
        _trick_table(r, trick, plays, tricks_played, leader, to_act, step)
    _trick_points(r, d, events, phase, dealer, trump, level)
    # Per seat: what it holds and has played, with the kitty the dealer took and buried,
    # is what it was dealt.
    sizes = [sum(h) for h in hands]
    if order:
        dealt_to = _dealt_to(kinds, n, order, to_hands, deal_start, step)
        rest = _vector(kinds, order[to_hands:])
        buried = _vector(kinds, kitty)
        if phase == "bury":
            r.equal(buried, rest, "kitty", ("in the kitty", "left by the deal"))
        for s in range(n):
            have = _plus(hands[s], played[s])
            want = dealt_to[s]
            if s == dealer:
                want = _plus(want, rest)
                if phase == "play":
                    have = _plus(have, buried)
            r.equal(have, want, f"hands[{s}]", ("held and played", "dealt"))
    else:
        total = _vector(kinds, kitty)
        for s in range(n):
            total = _plus(total, _plus(hands[s], played[s]))
        r.conserved(total, "hands", "the hands, the kitty and this hand's plays")
    # Every seat holds as many cards as the others, less the current trick's play.
    in_trick = {entry[0] for entry in trick}
    lead = len(trick[0][1]) if trick else 0
    base = {sizes[s] + (lead if s in in_trick else 0) for s in range(n)
            if not (phase == "bury" and s == dealer)}
    if len(base) > 1:
        _fail("hands", f"seats hold {sizes} cards: not one hand size")
    if phase == "bury" and sizes[dealer] != base.pop() + g.kitty_size:
        _fail(f"hands[{dealer}]", "the dealer does not hold the kitty")
    if not any(sizes) and not trick:
        _fail("hands", f"every hand is played out, yet the {phase} phase goes on")
    if trick and not _leads(g, trump, level, trick[0][1]):
        _fail("trick[0][1]", "this lead is no pattern and no throw")


def _dealt_to(kinds: int, n: int, order: list[int], dealt: int, start: int,
              step: int) -> list[list[int]]:
    if not 0 <= dealt <= len(order):
        _fail("dealt", f"{dealt}: the deal order holds {len(order)} cards")
    out = [[0] * kinds for _ in range(n)]
    for i in range(dealt):
        out[(start + step * i) % n][order[i]] += 1
    return out


def _trick_deal(r: _Reader, order: list[int], dealt: int,
                deal_start: int, deal_seat: int, hands: list[list[int]], kitty: list[int],
                queue: list[int] | None, to_act: int | None, to_hands: int, step: int,
                trump: str | None, decl: dict[str, Any] | None) -> None:
    """The deal: the hands are exactly the cards dealt so far, in deal order."""
    n, kinds = r.n, r.kinds
    if sorted(order) != r.game.deck:
        r.conserved(_vector(kinds, order), "deal_order", "the cards to deal")
    if trump is not None:
        _fail("trump", f"{trump} before the deal is over")
    if not dealt:
        _fail("dealt", "0: a seat is asked only once it holds a card")
    if deal_seat != (deal_start + step * dealt) % n:
        _fail("deal_seat", f"{deal_seat}: card {dealt + 1} goes to seat "
              f"{(deal_start + step * dealt) % n}")
    dealt_to = _dealt_to(kinds, n, order, dealt, deal_start, step)
    for s in range(n):
        r.equal(hands[s], dealt_to[s], f"hands[{s}]", ("held", "dealt by deal_order"))
    # While cards are dealt (the last one included), the seat that received one is asked;
    # then the final round's seats in turn.
    if queue is None:
        if kitty:
            _fail("kitty", "set aside before the deal is over")
        receiver = (deal_start + step * (dealt - 1)) % n
        if to_act != receiver:
            _fail("to_act", f"{to_act}: seat {receiver} received the last card")
    else:
        if dealt < to_hands:
            _fail("final_queue", "the last round of declaring before the deal is over")
        if not queue or to_act != queue[0]:
            _fail("final_queue", f"{_show(queue)}: the last round asks its first seat "
                  f"({to_act})")
        if kitty != order[to_hands:]:
            _fail("kitty", "is not the cards the deal left")
    if decl is not None and hands[decl["seat"]][decl["kind"]] < decl["count"]:
        _fail("declaration", f"seat {decl['seat']} does not hold the cards it declared")


def _trick_table(r: _Reader, trick: list, plays: list, tricks_played: int, leader: int,
                 to_act: int | None, step: int) -> None:
    """The open trick: led by the leader, in turn, one size; the log shows its plays."""
    n = r.n
    if len(trick) >= n:
        _fail("trick", f"{len(trick)} plays in an open trick of {n} seats")
    if len(plays) != tricks_played * n + len(trick):
        _fail("tricks_played", f"{_show(tricks_played)} trick(s) and {len(trick)} open play(s), "
              f"but the log shows {len(plays)} plays this hand")
    seat = leader
    for i, (seat_i, cards) in enumerate(trick):
        if seat_i != seat:
            _fail(f"trick[{i}][0]", f"{seat_i} plays out of turn (seat {seat}'s turn)")
        if len(cards) != len(trick[0][1]):
            _fail(f"trick[{i}][1]", f"{len(cards)} card(s) follow a lead of "
                  f"{len(trick[0][1])}")
        at, event = plays[len(plays) - len(trick) + i]
        if event["seat"] != seat_i or sorted(r.cards(event["cards"], f"log[{at}].cards")) \
                != cards:
            _fail(f"trick[{i}]", f"is not the log's play at log[{at}]")
        seat = (seat + step) % n
    if to_act != seat:
        _fail("to_act", f"{to_act}: seat {seat} plays next")


def _trick_points(r: _Reader, d: dict[str, Any], events: list, phase: str,
                  dealer: int | None, trump: str | None, level: int) -> None:
    """The points and captures so far are what the log's tricks and failed throws give:
    each trick's points are its cards' points, counted for the defenders when they won
    it; a failed throw's penalty moves points (play.throw.penalty)."""
    g = r.game
    if phase != "play" or dealer is None:
        if d["defender_points"] or any(c for pair in d["captures"].values() for c in pair):
            _fail("defender_points", f"points taken in the {phase} phase")
        return
    hc = g.context(trump, level)
    team_of, dealer_team = g.team_of, g.team_of[dealer]
    selects = [(name, [bool(select(Env(k, hc.values))) if r.deck[k] else False
                       for k in range(r.kinds)]) for name, select in g.rules.captures]
    points = 0
    captures = {name: [0, 0] for name, _ in selects}
    table: list[tuple[int, list[int]]] = []
    for i, e in events:
        kind = e["type"]
        if kind == "play":
            table.append((e["seat"], r.cards(e["cards"], f"log[{i}].cards")))
        elif kind == "trick":
            winner = r.seat(e.get("winner"), f"log[{i}].winner")
            if len(table) != r.n or winner not in {seat for seat, _ in table}:
                _fail(f"log[{i}]", "a trick that is not one play per seat, won by one of them")
            want = sum(hc.points[k] for _, cards in table for k in cards)
            if e.get("points") != want:
                _fail(f"log[{i}].points", f"{_show(e.get('points'))}, but the trick's cards "
                      f"hold {want}")
            team = team_of[winner]
            if team != dealer_team:
                points += want
            for name, hit in selects:
                captures[name][0 if team == dealer_team else 1] += sum(
                    1 for seat, cards in table if team_of[seat] != team for k in cards
                    if hit[k])
            table = []
        elif kind == "throw" and e.get("ok") is False:
            penalty = r.integer(e.get("penalty"), f"log[{i}].penalty")
            points += penalty if team_of[e["seat"]] == dealer_team else -penalty
    if d["defender_points"] != points:
        _fail("defender_points", f"{_show(d['defender_points'])}, but the log's tricks give "
              f"{points}")
    if d["captures"] != captures:
        _fail("captures", f"{_show(d['captures'])}, but the log's tricks give "
              f"{_show(captures)}")


def _leads(game: Any, trump: str | None, level: int, cards: list[int]) -> bool:
    """A lead the engine would accept: a pattern, or a throw of one throwable system
    (cards of another system only inside demoted tractors, 下放, as the engine reads them)."""
    from .trick.plays import demoted_covers, throw_system

    hc = game.context(trump, level)
    if readings(hc, list(cards)):
        return True
    system = throw_system(hc, cards)
    allowed = game.rules.throw_allowed
    if len(cards) < 2 or not (allowed == "any" or (allowed == "plain" and system != TRUMP)):
        return False
    if all(hc.system[k] == system for k in cards):
        return True
    counts = [0] * len(hc.place)
    for k in cards:
        counts[k] += 1
    return bool(demoted_covers(hc, counts, system))


# ---------------------------------------------------------------- shedding


SHED_PHASES = ("auction", "play", "over")
TRIBUTE_PHASES = ("tribute", "return")  # engine/shedding/tribute.py
LAST_KEYS = ("seat", "cards", "pattern", "size", "key", "bomb", "bomb_size", "exclusive")


def _check_shedding(r: _Reader, d: dict[str, Any]) -> None:
    g, n, kinds = r.game, r.n, r.kinds
    rules = g.rules
    hand_no, max_hands, phase = r.common()
    hc = g.hc
    if g.levels is not None:  # the hand's level and each side's, on the levels ladder
        ladder = g.levels["ladder"]
        names = [nt.rank_name(x) for x in ladder]
        level = d["level"]
        if level not in ladder or type(level) is not int:
            _fail("level", f"{_show(level)} is not a level (one of {', '.join(names)})")
        side_levels = r.items(d["side_levels"], "side_levels")
        if len(side_levels) != len(g.ruleset.teams):
            _fail("side_levels", f"{_show(side_levels)} does not give every side a level")
        for i, x in enumerate(side_levels):
            if x not in ladder or type(x) is not int:
                _fail(f"side_levels[{i}]", f"{_show(x)} is not a level")
        if level not in side_levels and phase != "over":  # (over: the winner has climbed)
            _fail("level", f"{nt.rank_name(level)} is no side's level")
        hc = g.context(level).hc
        if rules.top_failures:
            failed = r.items(d["top_failed"], "top_failed")
            if len(failed) != len(g.ruleset.teams):
                _fail("top_failed", f"{_show(failed)} does not count every side's failures")
            for i, x in enumerate(failed):
                if type(x) is not int or not 0 <= x < rules.top_failures:
                    _fail(f"top_failed[{i}]", f"{_show(x)} is not a count of failures "
                          f"(0 to {rules.top_failures - 1})")
    r.choice(phase, "phase", SHED_PHASES + (TRIBUTE_PHASES if rules.tribute else ()))
    over = phase == "over"
    hands = r.each(d["hands"], "hands", r.counts, n)
    unused = r.kind_list(d["unused"], "unused")
    kitty = r.kind_list(d["kitty"], "kitty")
    to_act = r.seat(d["to_act"], "to_act", none=True)
    last = d["last"]
    if last is not None:
        r.record(last, "last", LAST_KEYS)
        r.seat(last["seat"], "last.seat")
        last_cards = r.cards(last["cards"], "last.cards")
        if not last_cards:
            _fail("last.cards", "the play to beat shows no cards")
        r.choice(last["pattern"], "last.pattern", [p.name for p in g.ruleset.patterns])
        r.integer(last["size"], "last.size", 1, what="a size (1 or more)")
        r.number(last["key"], "last.key")
        r.flag(last["bomb"], "last.bomb")
        r.number(last["bomb_size"], "last.bomb_size")
        r.flag(last["exclusive"], "last.exclusive")
        fields = tuple(last[k] for k in LAST_KEYS[2:])
        if not any((x.pattern, x.size, x.key, x.bomb, x.bomb_size, x.exclusive) == fields
                   for x in readings(hc, sorted(last_cards))):
            _fail("last", f"{last['cards']} does not read as that {last['pattern']}")
    passes = r.count(d["passes"], "passes")
    round_points = r.integer(d["round_points"], "round_points")
    captured = r.each(d["captured"], "captured", r.integer, n)
    out = r.seats(d["out"], "out")
    r.seat(d["first_leader"], "first_leader", none=True)
    r.log(hand_no)
    results = r.results(hand_no, lambda result, path: _shed_result(r, result, path))
    r.totals(results, "returns")
    auction = d["auction"]
    if auction is not None:
        r.record(auction, "auction", ("bid", "high", "opener", "turns", "passes"))
        r.count(auction["bid"], "auction.bid")
        r.seat(auction["high"], "auction.high", none=True)
        r.seat(auction["opener"], "auction.opener")
        r.count(auction["turns"], "auction.turns")
        r.count(auction["passes"], "auction.passes")
    dealer = r.seat(d["dealer"], "dealer", none=True)
    sides = r.items(d["sides"], "sides")
    for i, side in enumerate(sides):
        r.seats(side, f"sides[{i}]")

    if rules.tribute is not None:
        _shed_tribute(r, d["tribute"], phase, to_act, results,
                      r.hand_events(hand_no - 1 if over else hand_no))
        if phase in TRIBUTE_PHASES and (last is not None or out or passes or round_points
                                        or any(captured)):
            _fail("last", "cards played during the tribute")
    # -- the phase
    if over:
        if to_act is not None:
            _fail("to_act", f"{to_act}: nobody acts once the game is over")
        ended = bool(results) and results[-1].get("match_winner") is not None
        if not ended and hand_no != max_hands and hand_no != MATCH_HAND_LIMIT:
            _fail("phase", "over before the hands to play are done")
    else:
        if to_act is None:
            _fail("to_act", f"None: the {phase} phase needs a seat to act")
        if max_hands is not None and hand_no >= max_hands:
            _fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s) is not played")
    base_sides = [[s for s in seats if s < n] for seats in g.ruleset.teams]
    alone = [[dealer], [s for s in range(n) if s != dealer]]
    if sides != base_sides and not (rules.sides == "dealer_alone" and dealer is not None
                                    and phase != "auction" and sides == alone):
        _fail("sides", f"{_show(sides)} are not this game's sides")
    bids = rules.auction["bids"] if rules.auction else []
    if (auction is None) != (rules.auction is None) and not over:
        _fail("auction", "does not match the ruleset's auction" if auction is not None
              else "None: this game starts every hand with an auction")
    events = r.hand_events(hand_no - 1 if over else hand_no)
    if phase == "auction":
        _shed_auction(r, auction, dealer, to_act, events, bids, rules.auction)
        if last is not None or out or passes or round_points or any(captured):
            _fail("last", "cards played during the auction")
    elif phase == "play":
        if auction is not None:
            high = auction["high"]
            if high is None or dealer != high:
                _fail("dealer", f"{dealer}: the auction's winner {high} deals")
            if auction["bid"] not in bids and auction["bid"] != rules.auction["default_bid"]:
                _fail("auction.bid", f"{_show(auction['bid'])} is not one of the bids")
        if not any(hands[to_act]):
            _fail("to_act", f"{to_act} holds no cards")
        empty = {s for s in range(n) if not any(hands[s])}
        if set(out) != empty:
            _fail("out", f"{_show(out)}, but seats {sorted(empty)} hold no cards")
    # -- the log: the play to beat, passes, rounds, seats out
    plays = [(i, e) for i, e in events if e["type"] == "play"]
    at = plays[-1][0] if plays else -1
    after = [e for i, e in events if i > at]
    if last is not None:
        if not plays:
            _fail("last", "no play this hand to beat")
        event = plays[-1][1]
        if event["seat"] != last["seat"] or event.get("pattern") != last["pattern"] or \
                sorted(r.cards(event["cards"], f"log[{at}].cards")) != sorted(last_cards):
            _fail("last", f"is not the log's last play (log[{at}])")
    if phase == "play":
        rounds_after = any(e["type"] == "round" for e in after)
        if last is None and plays and not rounds_after:
            _fail("last", "None, yet the round of the last play is not over")
        if last is not None and rounds_after:
            _fail("last", "the round of this play is over")
        since = sum(1 for e in after if e["type"] == "pass") if last is not None else 0
        if passes != since:
            _fail("passes", f"{_show(passes)}, but the log shows another number of passes "
                  f"since the last play")
        if last is not None:
            others = sum(1 for s in range(n) if s != last["seat"] and any(hands[s]))
            if passes >= others:
                _fail("passes", f"{_show(passes)}: every other seat has passed, the round is "
                      f"over")
    points = hc.points
    won = [0] * n
    table = 0
    for i, e in events:
        if e["type"] == "round":
            winner = r.seat(e.get("winner"), f"log[{i}].winner")
            won[winner] += r.integer(e.get("points"), f"log[{i}].points")
            table = 0
        elif e["type"] == "play":
            table += sum(points[k] for k in r.cards(e["cards"], f"log[{i}].cards"))
    if won != captured:
        _fail("captured", f"{_show(captured)}, but the log's rounds give {_show(won)}")
    if round_points != table:
        _fail("round_points", f"{_show(round_points)}, but this round's plays hold {table}")
    gone = [e["seat"] for _, e in events if e["type"] in ("out", "claim")]  # a claim wins
    if out != gone:
        _fail("out", f"{_show(out)} is not the log's order of seats going out")
    # -- conservation: per seat against its deal, with the kitty the dealer took and the
    # cards given between hands (tribute)
    played = r.played(events)
    for i, e in events:
        if e["type"] == "give":
            giver, taker = r.seat(e.get("seat"), f"log[{i}].seat"), \
                r.seat(e.get("to"), f"log[{i}].to")
            card = r.cards(e.get("card"), f"log[{i}].card")
            if len(card) != 1:
                _fail(f"log[{i}].card", "a give event moves one card")
            played[giver] = _plus(played[giver], _vector(kinds, card))
            played[taker] = [a - b for a, b in zip(played[taker], _vector(kinds, card))]
    deal = next(((i, e) for i, e in events if e["type"] == "deal"), None)
    took = next((e for _, e in events if e["type"] == "dealer"), None)
    if took is not None and took.get("seat") != dealer:
        _fail("dealer", f"{dealer}, but seat {took.get('seat')} took the kitty")
    if phase == "play" and auction is not None and took is None and deal is not None:
        _fail("log", "an auction's hand in play, but nobody took the kitty")
    if deal is None:
        if not events or events[0][1]["type"] != "position":
            _fail("log", f"hand {hand_no} has no deal")
        total = _vector(kinds, unused, kitty)
        for s in range(n):
            total = _plus(total, _plus(hands[s], played[s]))
        r.conserved(total, "hands", "the hands, this hand's plays, the kitty and unused cards")
        return
    at, event = deal
    dealt = r.items(event.get("hands"), f"log[{at}].hands", n)
    if kitty != r.cards(event.get("kitty"), f"log[{at}].kitty"):
        _fail("kitty", "is not the kitty dealt")
    if unused != r.cards(event.get("unused"), f"log[{at}].unused"):
        _fail("unused", "is not the cards the deal left unused")
    total = _vector(kinds, unused, kitty)
    for s in range(n):
        mine = _vector(kinds, r.cards(dealt[s], f"log[{at}].hands[{s}]"))
        total = _plus(total, mine)
        have = _plus(hands[s], played[s])
        if took is not None and s == dealer:
            mine = _plus(mine, _vector(kinds, kitty))
        r.equal(have, mine, f"hands[{s}]", ("held and played", "dealt"))
    r.conserved(total, f"log[{at}]", "the hands dealt, the kitty and the unused cards")


def _shed_tribute(r: _Reader, t: Any, phase: str, to_act: int | None,
                  results: list[dict[str, Any]], events: list) -> None:
    """The tribute agrees with the last hand's finishing order, the phase and the log."""
    g = r.game
    if t is None:
        if phase in TRIBUTE_PHASES:
            _fail("tribute", f"None in the {phase} phase")
        return
    r.record(t, "tribute", ("payers", "receivers", "paid", "back"))
    # The tribute paid before the hand in play (over: before the hand that ended the game).
    before = results[:-1] if phase == "over" else results
    if not before:
        _fail("tribute", "a tribute before the first hand")
    order = before[-1]["order"]
    sides = {s: i for i, seats in enumerate(g.ruleset.teams) for s in seats}
    if g.rules.tribute["both_last"] and len(order) >= 4 and \
            sides[order[-1]] == sides[order[-2]] != sides[order[0]]:
        payers, receivers = [order[-2], order[-1]], [order[0], order[1]]
    else:
        payers, receivers = [order[-1]], [order[0]]
    if t["payers"] != payers or t["receivers"] != receivers:
        _fail("tribute", "its payers and receivers are not the last hand's")
    paid = r.items(t["paid"], "tribute.paid")
    back = r.items(t["back"], "tribute.back")
    for name, entries, seats in (("paid", paid, payers), ("back", back, receivers)):
        for i, entry in enumerate(entries):
            if not isinstance(entry, list) or len(entry) != 2 or entry[0] not in seats:
                _fail(f"tribute.{name}[{i}]", f"{_show(entry)} is not [seat, card]")
            r.integer(entry[1], f"tribute.{name}[{i}][1]", 0, len(g.ruleset.deck) - 1,
                      "a card kind")
    if len(paid) > len(payers) or len(back) > len(receivers) or \
            (back and len(paid) != len(payers)):
        _fail("tribute", "more cards paid or given back than the tribute has")
    if sorted(p[0] for p in paid) != sorted(payers[:len(paid)]) or \
            [b[0] for b in back] != receivers[:len(back)]:
        _fail("tribute", "paid or given back out of turn")
    if phase == "tribute" and (len(paid) == len(payers) or to_act != payers[len(paid)]):
        _fail("to_act", f"{to_act}: not the payer whose turn it is")
    if phase == "return" and (len(paid) != len(payers) or len(back) == len(receivers)
                              or to_act != receivers[len(back)]):
        _fail("to_act", f"{to_act}: not the receiver whose turn it is")
    if phase not in TRIBUTE_PHASES and (len(paid) != len(payers)
                                        or len(back) != len(receivers)):
        _fail("tribute", f"unfinished in the {phase} phase")
    gives = [e for _, e in events if e["type"] == "give"]
    expect = len(payers) + len(back) if phase != "tribute" else 0
    if len(gives) != expect:
        _fail("log", "the give events do not match the tribute")


def _shed_auction(r: _Reader, auction: dict[str, Any] | None, dealer: int | None,
                  to_act: int | None, events: list, bids: list[int],
                  rule: dict[str, Any] | None) -> None:
    """The auction agrees with the log's bids and passes, and its turn order."""
    if auction is None or rule is None:
        _fail("auction", "None in the auction phase")
    if dealer is not None:
        _fail("dealer", f"{dealer} before the auction is over")
    turns = [e for _, e in events if e["type"] in ("bid", "pass", "claim")]
    made = [e for e in turns if e["type"] == "bid"]
    high = made[-1]["seat"] if made else None
    bid = made[-1].get("amount") if made else 0
    since = 0
    for e in turns:
        since = 0 if e["type"] == "bid" else since + 1
    if (auction["turns"], auction["high"], auction["bid"], auction["passes"]) != \
            (len(turns), high, bid, since):
        _fail("auction", f"{_show(auction)} does not agree with the log's bids and passes")
    if bid and bid not in bids:
        _fail("auction.bid", f"{bid} is not one of the bids")
    step = 1 if rule["direction"] == "counter-clockwise" else -1
    seat = (auction["opener"] + step * auction["turns"]) % r.n
    if to_act != seat:
        _fail("to_act", f"{to_act}: seat {seat} bids next")


def _shed_result(r: _Reader, result: dict[str, Any], path: str) -> None:
    """What the engine reads back from a result: the finishing order, the dealer and the
    returns (the totals)."""
    order = r.seats(result.get("order"), f"{path}.order")
    if len(order) != r.n:
        _fail(f"{path}.order", f"{_show(order)} does not order every seat")
    r.seat(result.get("dealer"), f"{path}.dealer", none=True)
    r.each(result.get("returns"), f"{path}.returns", r.number, r.n)
    if result.get("match_winner") is not None:
        if r.game.levels is None:
            _fail(f"{path}.match_winner", "this game has no levels, so no match winner")
        r.integer(result["match_winner"], f"{path}.match_winner", 0,
                  len(r.game.ruleset.teams) - 1, "a side")


# ---------------------------------------------------------------- tiles


TILE_PHASES = ("void", "turn", "claims", "rob", "over")
TILE_ZONES = "the hands, melds, discards, flowers, the wall and the turned tile"


def _meld_tiles(kind: str, tile: int) -> list[int]:
    if kind == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if kind == "kong" else 3)


def _tile_claim(r: _Reader, path: str, seat: int, kind: str, tiles: list[int],
                last: dict[str, int], hand: list[int]) -> None:
    """A claim waiting for the others' answers: a pung, kong or chow of the discard the
    seat could make with tiles it holds (a win is settled at once, never left waiting)."""
    tile = last["tile"]
    rules = r.game.rules
    if kind == "win":
        _fail(f"{path}[1]", "a win is settled when claimed, never left waiting")
    if kind == "chow":
        run = sorted([*tiles, tile])
        ok = len(tiles) == 2 and run[2] < 27 and run[0] // 9 == run[2] // 9 and \
            run == list(range(run[0], run[0] + 3))
        step = 1 if r.game.ruleset.direction == "counter-clockwise" else -1
        if rules.chow_from == "previous_player" and seat != (last["seat"] + step) % r.n:
            _fail(f"{path}[0]", f"seat {seat} may not chow seat {last['seat']}'s discard")
    else:
        ok = tiles == [tile] * (2 if kind == "pung" else 3)
    need = Counter(tiles)
    if not ok or any(hand[t] < c for t, c in need.items()):
        _fail(f"{path}[2]", f"seat {seat} cannot {kind} {nt.format_tile(tile)} with "
              f"{_show([nt.format_tile(t) for t in tiles])}")


def _tile_result(r: _Reader, result: dict[str, Any], path: str) -> None:
    """What is read back from a hand's result: the payments (the totals), the winner and
    how the hand was won (where the winning tile went)."""
    r.each(result.get("payments"), f"{path}.payments", r.number, r.n)
    if "wins" in result:  # players left as they won: each win, and the sum
        wins = r.items(result["wins"], f"{path}.wins")
        total = [0.0] * r.n
        for i, win in enumerate(wins):
            if type(win) is not dict or not {"winner", "payments"} <= set(win):
                _fail(f"{path}.wins[{i}]", "is not a win (winner, payments …)")
            r.seat(win["winner"], f"{path}.wins[{i}].winner")
            paid = r.each(win["payments"], f"{path}.wins[{i}].payments", r.number, r.n)
            total = [a + b for a, b in zip(total, paid)]
        for key in ("kong_payments", "draw_payments"):
            if key in result:
                extra = r.each(result[key], f"{path}.{key}", r.number, r.n)
                total = [a + b for a, b in zip(total, extra)]
        if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(total,
                                                                     result["payments"])):
            _fail(f"{path}.payments", "are not the sum of its wins, kongs and draw "
                  "settlements")
        if result.get("winner") != (wins[0]["winner"] if wins else None):
            _fail(f"{path}.winner", "is not its first win's")
        return
    if r.seat(result.get("winner"), f"{path}.winner", none=True) is not None:
        r.flag(result.get("self_drawn"), f"{path}.self_drawn")
        r.flag(result.get("robbed_kong"), f"{path}.robbed_kong")


def _tile_ledger(r: _Reader, bills: list[Any], pending: list[Any],
                 events: list[dict[str, Any]]) -> None:
    """The hand's kong bills and wins so far, as its log has them: each kong_payment and
    kong_transfer event a bill, each win_settled event a win."""
    want: list[dict[str, Any]] = []
    logged_wins: list[dict[str, Any]] = []
    for e in events:
        kind = e.get("type")
        if kind == "kong_payment":
            want.append({"seat": e.get("seat"), "payments": e.get("payments")})
        elif kind == "kong_transfer":
            k = e.get("kong")
            if type(k) is not int or not 0 <= k < len(want):
                _fail("kong_bills", "the log passes on a kong payment it never made")
            want[k]["transferred"] = True
            want.append({"seat": e.get("seat"), "payments": e.get("payments"),
                         "transfer": True, "kong": k})
        elif kind == "win_settled":
            logged_wins.append({k: v for k, v in e.items() if k not in ("type", "hand")})
    if len(bills) != len(want):
        _fail("kong_bills", f"{len(bills)} bills, but the log shows {len(want)} this hand")
    for i, (bill, w) in enumerate(zip(bills, want)):
        path = f"kong_bills[{i}]"
        if not isinstance(bill, dict) or set(bill) != set(w):
            _fail(path, f"{_show(bill)} is not the log's bill {_show(w)}")
        paid = r.each(bill["payments"], f"{path}.payments", r.number, r.n)
        if bill["seat"] != w["seat"] or bill.get("kong") != w.get("kong") or not all(
                math.isclose(a, b, abs_tol=1e-9) for a, b in zip(paid, w["payments"])):
            _fail(path, f"{_show(bill)} is not the log's bill {_show(w)}")
    if len(pending) != len(logged_wins):
        _fail("hand_wins", f"{len(pending)} wins, but the log settles {len(logged_wins)} "
              "this hand")
    for i, (rec, w) in enumerate(zip(pending, logged_wins)):
        if not isinstance(rec, dict) or {k: v for k, v in rec.items() if k != "scores"} != w:
            _fail(f"hand_wins[{i}]", "is not the win the log settles")
        r.seat(rec["winner"], f"hand_wins[{i}].winner")
        r.each(rec["payments"], f"hand_wins[{i}].payments", r.number, r.n)


def _check_tiles(r: _Reader, d: dict[str, Any]) -> None:
    g, n, kinds = r.game, r.n, r.kinds
    hand_no, max_hands, phase = r.common()
    r.choice(phase, "phase", TILE_PHASES)
    over = phase == "over"
    r.seat(d["dealer"], "dealer")
    wall = r.kind_list(d["wall"], "wall")
    front = r.integer(d["front"], "front", 0, len(wall),
                      f"a place in the wall (0–{len(wall)})")
    back = r.integer(d["back"], "back", front, len(wall),
                     f"a place in the wall ({front}–{len(wall)})")
    if g.turn_up:
        turned = r.kind(d["turned"], "turned")
    elif d["turned"] is not None:
        _fail("turned", "this ruleset turns up no tile: null")
    else:
        turned = None
    hands = r.each(d["hands"], "hands", r.counts, n)
    melds = r.items(d["melds"], "melds", n)
    for s, seat_melds in enumerate(melds):
        for i, meld in enumerate(r.items(seat_melds, f"melds[{s}]")):
            path = f"melds[{s}][{i}]"
            r.items(meld, path, 3)
            kind = r.choice(meld[0], f"{path}[0]", MELD_KINDS)
            tile = r.kind(meld[1], f"{path}[1]")
            if tile >= SUITED_HONOR or (kind == "chow" and (tile >= 27 or tile % 9 > 6)):
                _fail(f"{path}[1]", f"no {kind} starts at {nt.format_tile(tile)}")
            if r.flag(meld[2], f"{path}[2]") and kind != "kong":
                _fail(f"{path}[2]", f"a {kind} is never concealed")
    bonus = g.spec(turned).bonus
    for s, hand in enumerate(hands):
        # bonus tiles are set aside as they come, while the wall can replace them
        held = [k for k in g.spec(turned).bonus_kinds if hand[k]]
        if held and back > front:
            _fail(f"hands[{s}][{held[0]}]", f"a bonus tile {nt.format_tile(held[0])} kept "
                  f"in hand")
    flowers = r.items(d["flowers"], "flowers", n)
    for s, tiles in enumerate(flowers):
        for i, tile in enumerate(r.kind_list(tiles, f"flowers[{s}]")):
            if not bonus[tile]:
                _fail(f"flowers[{s}][{i}]", f"{nt.format_tile(tile)} is no bonus tile")
    discards = r.each(d["discards"], "discards", r.kind_list, n)
    to_act = r.seat(d["to_act"], "to_act", none=True)
    voids = r.items(d["voids"], "voids", n)
    suits = set(VOID_SUITS.values())
    for s, v in enumerate(voids):
        if v is not None and (g.rules.void_suit == "none" or type(v) is not int
                              or v not in suits):
            _fail(f"voids[{s}]", f"{_show(v)} is not a void suit of this ruleset")
    if g.rules.void_suit != "none" and phase not in ("void", "over") and None in voids:
        _fail("voids", "every seat names its void suit before play")
    kong_bills = r.items(d["kong_bills"], "kong_bills")
    hand_wins = r.items(d["hand_wins"], "hand_wins")
    r.log(hand_no)
    this_hand = hand_no - 1 if over else hand_no
    _tile_ledger(r, kong_bills, hand_wins, [e for _, e in r.hand_events(this_hand)])
    won = set() if over else {w["winner"] for w in hand_wins}
    r.optional(d["drawn"], "drawn", r.kind)
    source = r.choice(d["source"], "source", TILE_SOURCES)
    last = d["last_discard"]
    if last is not None:
        r.record(last, "last_discard", ("seat", "tile"))
        r.seat(last["seat"], "last_discard.seat")
        r.kind(last["tile"], "last_discard.tile")
    queue = r.seats(d["claim_queue"], "claim_queue")
    claims = r.items(d["claims"], "claims")
    for i, claim in enumerate(claims):
        r.items(claim, f"claims[{i}]", 3)
        r.seat(claim[0], f"claims[{i}][0]")
        r.choice(claim[1], f"claims[{i}][1]", CLAIM_KINDS)
        r.kind_list(claim[2], f"claims[{i}][2]")
    kong = d["kong_tile"]
    if kong is not None:
        r.record(kong, "kong_tile", ("seat", "tile"))
        r.seat(kong["seat"], "kong_tile.seat")
        r.kind(kong["tile"], "kong_tile.tile")
    r.each(d["pung_locks"], "pung_locks", r.kind_list, n)
    r.each(d["wild_discarded"], "wild_discarded", r.flag, n)
    for i, live in enumerate(r.items(d["live_discards"], "live_discards")):
        r.record(live, f"live_discards[{i}]", ("seat", "tile", "live"))
        r.seat(live["seat"], f"live_discards[{i}].seat")
        r.kind(live["tile"], f"live_discards[{i}].tile")
        r.flag(live["live"], f"live_discards[{i}].live")
    seen = r.kind_list(d["seen"], "seen")
    for tile, c in Counter(seen).items():
        if c > r.deck[tile]:
            _fail("seen", f"{c} × {nt.format_tile(tile)} seen; the deck has {r.deck[tile]}")
    r.log(hand_no)
    results = r.results(hand_no, lambda result, path: _tile_result(r, result, path))
    r.totals(results, "payments")
    total = _vector(kinds, wall[front:back], [] if turned is None else [turned])
    for s in range(n):
        total = _plus(total, hands[s])
        for meld in melds[s]:
            _add(total, _meld_tiles(meld[0], meld[1]))
        _add(total, discards[s])
        _add(total, flowers[s])

    # -- the phase
    if over:
        if to_act is not None:
            _fail("to_act", f"{to_act}: nobody acts once the game is over")
        if hand_no not in (max_hands, MATCH_HAND_LIMIT):
            _fail("phase", "over before the hands to play are done")
        if not results or not isinstance(results[-1], dict):
            _fail("results", "no result, yet the game is over")
        end = results[-1]
        needed = ("winner", "winners", "wins") if "wins" in end else ("winner",) \
            if end.get("winner") is None else ("winner", "self_drawn", "robbed_kong")
        for key in needed:
            if key not in end:
                _fail(f"results[{len(results) - 1}]", f"lacks {key!r}")
        if end["winner"] is not None and "wins" not in end and not end["self_drawn"]:
            # the tile won on left the discards (or the robbed kong); when players leave
            # as they win, it went into the winner's hand
            won = kong if end["robbed_kong"] else last
            if won is None:
                _fail("last_discard", "None, yet the last hand was won on a discard")
            total[won["tile"]] += 1
        r.conserved(total, "hands", TILE_ZONES)
        return
    if to_act is None:
        _fail("to_act", f"None: the {phase} phase needs a seat to act")
    if to_act in won or won & set(queue):
        _fail("to_act", f"{to_act}: a player who has won is out of play")
    if max_hands is not None and hand_no >= max_hands:
        _fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s) is not played")
    extra = None  # the seat holding a tile more than a waiting hand
    if phase == "void":  # 定缺, before the dealer's first discard
        if last is not None or queue or claims or kong is not None or source != "deal":
            _fail("phase", "void suits are named right after the deal, before any play")
        extra = d["dealer"]
    elif phase == "turn":
        if last is not None or queue or claims or kong is not None:
            _fail("claim_queue", "claims pending on a seat's turn")
        extra = to_act
    elif phase == "claims":
        if last is None or kong is not None:
            _fail("last_discard", "claims need a discard to claim")
        if not discards[last["seat"]] or discards[last["seat"]][-1] != last["tile"]:
            _fail("last_discard", "is not the discarder's last discard")
        asked = [c[0] for c in claims]
        if not queue or to_act != queue[0] or last["seat"] in queue or \
                last["seat"] in asked or set(asked) & set(queue) or \
                len(set(asked)) != len(asked):
            _fail("claim_queue", f"{_show(queue)}: the seats asked about the discard "
                  f"(to_act {to_act})")
        for i, (seat, kind, tiles) in enumerate(claims):
            _tile_claim(r, f"claims[{i}]", seat, kind, tiles, last, hands[seat])
    else:
        if kong is None or last is not None or any(c[1] != "win" for c in claims) or (
                claims and g.rules.discard_wins != "every_claim"):
            _fail("kong_tile", "robbing needs an added kong waiting")
        owner, tile = kong["seat"], kong["tile"]
        if not hands[owner][tile] or ["pung", tile, False] not in melds[owner]:
            _fail("kong_tile", f"seat {owner} holds no {nt.format_tile(tile)} to add to an "
                  f"exposed pung")
        if not queue or to_act != queue[0] or owner in queue:
            _fail("claim_queue", f"{_show(queue)}: the seats that may rob (to_act {to_act})")
        extra = owner
    # -- conservation: wall, hands, melds, discards, flowers and the turned tile
    r.conserved(total, "hands", TILE_ZONES)
    # Every seat holds a waiting hand (melds counting three), the seat to act one more;
    # bonus tiles set aside after the wall ran out are not replaced.
    size = g.hand_size
    for s in range(n):
        held = sum(hands[s]) + 3 * len(melds[s])
        want = size + (g.dealer_extra if source == "deal" else 1) if s == extra else size
        if s in won:  # the nearest winner on a discard took the tile won on
            want = held if held in (size, size + 1) else size
        if held != want and not (back == front and held < want):
            _fail(f"hands[{s}]", f"holds {held} tiles counting melds as three, not {want}")
