"""The state API every engine honours (after OpenSpiel).

    game = rulesdsl.load("some-ruleset")
    state = game.new_game(seed=7)
    while not state.is_terminal():
        action = state.sample_action(rng)        # or pick from state.legal_actions()
        state.apply(action)
    state.returns()

Actions are readable values in the project's notation: a play is the cards
(`"H6 H6 H7 H7"`), other actions name themselves (`"pass"`, `"declare H2 H2"`,
`"bury C3 C4"`). `Action.parse` reads both the text and the JSON form.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import notation as nt
from ..errors import NotationError, RulesdslError
from ..model.ruleset import LookupError_
from ..runtime.expressions import EvaluationError

TERMINAL = -2
CHANCE = -1

ACTION_KINDS = ("play", "pass", "declare", "bury", "bid", "claim", "tribute", "return",
                "discard", "chow", "pung", "kong", "concealed_kong", "added_kong", "win",
                "void")
# Actions of the tile family show tiles (Tenhou notation), not cards.
TILE_ACTIONS = frozenset({"discard", "chow", "pung", "kong", "concealed_kong", "added_kong",
                          "win", "void"})
# `void m` (定缺) names a suit: held as the suit's first tile kind
VOID_SUITS = {suit: nt.tile_kind(f"1{suit}") for suit in ("m", "p", "s")}
_CARD_RANGE = range(nt.CARD_KINDS)
_TILE_RANGE = range(nt.TILE_KINDS)


class PlayError(RulesdslError):
    """A rule failed while an action was applied; the state is as before the action."""


class IllegalAction(RulesdslError):
    """An action the rules do not allow here. The state is left untouched."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Action:
    """A move: its kind, the cards it shows (sorted card kinds), and for a play that
    reads as several patterns, the pattern it is played as."""

    kind: str
    cards: tuple[int, ...] = ()
    pattern: str | None = None
    amount: int | None = None  # a bid's value

    @staticmethod
    def of(kind: str, cards: Iterable[int] = (), pattern: str | None = None) -> Action:
        return Action(kind, tuple(sorted(cards)), pattern)

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"bid {self.amount}"
        if self.kind == "void":
            return f"void {void_suit_name(self.cards[0])}"
        if self.kind in TILE_ACTIONS:
            return f"{self.kind} {nt.format_tiles(self.cards)}".strip()
        text = nt.format_cards(self.cards)
        if self.pattern:
            text = f"{text} as {self.pattern}"
        if self.kind == "play":
            return text
        return f"{self.kind} {text}".strip()

    def to_json(self) -> dict[str, Any]:
        if self.kind == "void":
            return {"type": "void", "suit": void_suit_name(self.cards[0])}
        if self.kind in TILE_ACTIONS:
            return {"type": self.kind, "tiles": nt.format_tiles(self.cards)}
        out: dict[str, Any] = {"type": self.kind, "cards": nt.format_cards(self.cards)}
        if self.pattern:
            out["pattern"] = self.pattern
        if self.amount is not None:
            out["amount"] = self.amount
        return out

    @staticmethod
    def parse(value: Any) -> Action:
        """An action from its text (`"H6 H6"`, `"pass"`, `"declare H2"`) or JSON form."""
        if isinstance(value, Action):
            # An Action built in code may hold anything: only kinds and card or tile
            # numbers the notation has (a negative number would index a hand from its end).
            valid = _CARD_RANGE if value.kind not in TILE_ACTIONS else _TILE_RANGE
            if value.kind not in ACTION_KINDS or not all(
                    type(k) is int and k in valid for k in value.cards) \
                    or (value.pattern is not None and not isinstance(value.pattern, str)) \
                    or (value.kind == "bid") != (type(value.amount) is int) \
                    or (value.kind == "void" and value.cards not in
                        [(k,) for k in VOID_SUITS.values()]):
                raise IllegalAction(f"{value!r} is not an action of the notation")
            return value
        if isinstance(value, dict):
            kind = value.get("type")
            if kind not in ACTION_KINDS:
                raise IllegalAction(f"unknown action type {kind!r}; expected one of "
                                    + ", ".join(ACTION_KINDS))
            pattern = value.get("pattern")
            if pattern is not None and not isinstance(pattern, str):
                raise IllegalAction("a pattern is named by a string")
            if kind == "void":
                return _void(value.get("suit"))
            if kind in TILE_ACTIONS:
                try:
                    return Action.of(kind, nt.parse_tiles(value.get("tiles", "") or ""))
                except NotationError as exc:
                    raise IllegalAction(str(exc)) from None
            if kind == "bid":
                amount = value.get("amount")
                if not isinstance(amount, int) or isinstance(amount, bool):
                    raise IllegalAction("a bid needs a whole-number amount")
                return Action("bid", amount=amount)
            try:
                return Action.of(kind, nt.parse_cards(value.get("cards", "") or ""), pattern)
            except NotationError as exc:
                raise IllegalAction(str(exc)) from None
        if not isinstance(value, str):
            raise IllegalAction(f"{value!r} is not an action")
        text = value.strip()
        if not text:
            raise IllegalAction("empty action; write cards such as 'H6 H6' or 'pass'")
        if text.startswith("bid"):
            amount = text[3:].strip()
            if not (amount.isascii() and amount.isdigit()) or len(amount) > 9:
                raise IllegalAction("write a bid as 'bid N', e.g. 'bid 10'")
            return Action("bid", amount=int(amount))
        pattern = None
        if " as " in f" {text} ":
            text, _, pattern = f" {text} ".partition(" as ")
            text, pattern = text.strip(), pattern.strip() or None
            if pattern is None or " " in pattern:
                raise IllegalAction("name one pattern after 'as', e.g. 'S8 H8 D8 LJ LJ as bomb'")
        head, _, rest = text.partition(" ")
        if head == "void":
            return _void(rest.strip())
        if head in TILE_ACTIONS:
            try:
                return Action.of(head, nt.parse_tiles(rest) if rest.strip() else [])
            except NotationError as exc:
                raise IllegalAction(str(exc)) from None
        try:
            if head in ACTION_KINDS:
                return Action.of(head, nt.parse_cards(rest) if rest.strip() else [], pattern)
            return Action.of("play", nt.parse_cards(text), pattern)
        except NotationError as exc:
            raise IllegalAction(str(exc)) from None


def _void(suit: Any) -> Action:
    if suit not in VOID_SUITS:
        raise IllegalAction("name the void suit: 'void m', 'void p' or 'void s'")
    return Action("void", (VOID_SUITS[suit],))


def void_suit_name(kind: int) -> str:
    """The suit letter of a void suit held as its first tile kind (VOID_SUITS)."""
    return next((s for s, k in VOID_SUITS.items() if kind == k), "?")


class LegalActions:
    """The legal actions of a state, never materialised: iterate, count, test, sample."""

    def __init__(self, iterate: Callable[[], Iterator[Action]], count: Callable[[], int],
                 contains: Callable[[Action], bool],
                 sample: Callable[[random.Random], Action]):
        self._iterate = iterate
        self._count = count
        self._contains = contains
        self._sample = sample

    def __iter__(self) -> Iterator[Action]:
        return self._iterate()

    def __len__(self) -> int:
        return self._count()

    def count(self) -> int:
        return self._count()

    def __contains__(self, action: object) -> bool:
        try:
            return self._contains(Action.parse(action))
        except IllegalAction:
            return False

    def sample(self, rng: random.Random) -> Action:
        return self._sample(rng)

    def __repr__(self) -> str:
        return f"<LegalActions: {self.count()}>"


@dataclass
class Position:
    """A hand's position, given rather than dealt: what a play scenario starts from.

    `hands` maps a seat to the card or tile kinds it holds (seats not listed hold
    nothing); `context` the hand's context values (trump, level, turned …); `turn` the
    seat to act (None: whoever the engine's own rule names, e.g. the first lead);
    `phase` where the hand starts (each engine names the phases it can start in). The
    others are family-specific and optional: the kitty (cards), the wall (tiles: the
    draw order, then `wall_end` the replacements drawn from its end, `tiles_left` how many
    tiles the wall holds), exposed `melds` and `discards` per seat (tiles)."""

    hands: dict[int, list[int]]
    context: dict[str, Any] = field(default_factory=dict)
    dealer: int | None = None
    turn: int | None = None
    phase: str = "play"
    kitty: list[int] = field(default_factory=list)
    wall: list[int] = field(default_factory=list)
    wall_end: list[int] = field(default_factory=list)
    tiles_left: int | None = None
    melds: dict[int, list[tuple[str, list[int]]]] = field(default_factory=dict)
    discards: dict[int, list[int]] = field(default_factory=dict)
    bid: int | None = None  # shedding: the auction's winning bid, for a hand in play
    flowers: dict[int, list[int]] = field(default_factory=dict)  # tiles: exposed bonus tiles
    drawn: int | None = None  # tiles: the tile the seat to act has just drawn
    # shedding: the hand follows one that ended in this order (first out first), with each
    # side's level and failures at the top
    last_order: list[int] | None = None
    side_levels: dict[int, int] = field(default_factory=dict)
    top_failed: dict[int, int] = field(default_factory=dict)
    # trick, in the deal: the cards still to deal (in order, from `turn`) and the
    # declaration standing (seat, its cards)
    to_deal: list[int] = field(default_factory=list)
    declared: tuple[int, list[int]] | None = None
    # trick, in play: the standing declaration was an overcall (its cards earn the
    # overcall bonus); the hand's number in the match, from 1
    overcall: bool = False
    hand: int = 1
    # tiles, with play.void_suit: seat -> its void suit (定缺) as the suit's first tile kind
    voids: dict[int, int] = field(default_factory=dict)
    seed: int = 0

    def check_deck(self, deck: list[int], show: Callable[[int], str],
                   also: Iterable[int] = ()) -> None:
        """Refuse a position holding cards the deck lacks, or more copies than it has."""
        held = Counter(k for kinds in self.hands.values() for k in kinds)
        held.update(self.kitty)
        held.update(self.wall)
        held.update(self.wall_end)
        held.update(also)
        for kind, n in sorted(held.items()):
            have = deck[kind] if 0 <= kind < len(deck) else 0
            if n > have:
                raise RulesdslError(f"the position holds {n} × {show(kind)}; the deck has "
                                    f"{have}")

    def counts(self, seat: int, kinds: int) -> list[int]:
        out = [0] * kinds
        for k in self.hands.get(seat, []):
            out[k] += 1
        return out


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), faster than copy.deepcopy."""
    if type(value) is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) for v in value]
    return value


STATE_FORMAT = 1


class EngineState:
    """What every engine's state shares: the turn, legality through `_check`, copying and
    JSON. A family's state lists its data in FIELDS and implements `_check` (raise
    IllegalAction, or return what `_do` needs), `_do`, `_iter_actions`, `_count_actions`,
    `sample_action`, `returns` and `observation`."""

    FIELDS: tuple[str, ...] = ()
    family = ""
    # What sample_action just drew at this decision, with what `_check` would return for
    # it (a family that remembers it sets it there and clears it in `_do`): apply takes
    # that very object without parsing it again.
    _sampled: tuple[Any, Any] | None = None
    # addable()'s listing of this decision's plays, dropped by apply.
    _card_plays: list[Counter] | None = None

    def __init__(self, game: Any):
        self.game = game
        self.phase = ""
        self.to_act: int | None = None

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        assert self.to_act is not None
        return self.to_act

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> LegalActions:
        return LegalActions(self._iter_actions, self._count_actions, self.is_legal,
                            self.sample_action)

    def is_legal(self, action: Any) -> bool:
        try:
            self._check(Action.parse(action))
        except IllegalAction:
            return False
        return True

    def why_illegal(self, action: Any) -> str | None:
        """The reason an action is illegal here, or None when it is legal."""
        try:
            self._check(Action.parse(action))
        except IllegalAction as exc:
            return exc.reason
        return None

    def apply(self, action: Any) -> None:
        """Apply a legal action; raise IllegalAction (state untouched) otherwise. A rule
        that fails while the action is applied (a division by zero in a formula, a table
        with no matching row) raises PlayError naming the rule, the seed and the action,
        and leaves the state as it was: a ruleset whose rules can fail at all is
        snapshotted before each action that evaluates them (`_evaluates`)."""
        sampled = self._sampled
        act = action if sampled is not None and sampled[0] is action else Action.parse(action)
        checked = self._check(act)
        saved = self._snapshot() if self.game.ruleset.play_can_fail and \
            self._evaluates(act) else None
        try:
            self._do(act, checked)
        except (LookupError_, EvaluationError, ArithmeticError) as exc:
            if saved is not None:
                self._restore(saved)
            raise PlayError(f"{exc} (seed {getattr(self, 'seed', '?')}, hand "
                            f"{getattr(self, 'hand_no', '?')}, action {act})") from None
        if self._card_plays is not None:
            self._card_plays = None

    def _evaluates(self, act: Action) -> bool:
        """May applying this action evaluate a table, formula or condition? A family
        answers cheaply (e.g. only the play that ends a hand); when unsure, True."""
        return True

    def _snapshot(self) -> tuple[bytes, int, int]:
        # The log and the results only grow during an action: their lengths suffice.
        fields = {k: getattr(self, k) for k in self.FIELDS if k not in ("log", "results")}
        return pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL), len(self.log), \
            len(self.results)

    def _restore(self, saved: tuple[bytes, int, int]) -> None:
        data, logged, results = saved
        fresh = type(self)(self.game)  # memos start empty, as after restore_state
        for key, value in pickle.loads(data).items():
            setattr(fresh, key, value)
        fresh.log, fresh.results = self.log[:logged], self.results[:results]
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    def clone(self) -> Any:
        other = type(self)(self.game)
        for key in self.FIELDS:
            setattr(other, key, copy.deepcopy(getattr(self, key)))
        return other

    def to_json(self) -> str:
        data: dict[str, Any] = {"format": STATE_FORMAT, "family": self.family,
                                "ruleset": self.game.ruleset.hash}
        for key in self.FIELDS:
            data[key] = getattr(self, key)
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EngineState) and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]

    def sample_hidden(self, seat: int, rng: random.Random) -> Any:
        """A new, independent state with the same public history in which what `seat`
        cannot see (other hands, the kitty, the undealt cards, the wall) is dealt anew,
        consistently with what it has seen: its own hand and everything public stay, every
        hand keeps its size, and each family's hooks keep shown cards where they were shown
        and shown voids void (engine/hidden.py says how the deal meets them, and when it
        falls back to dropping a void). The family also rewrites its records of the deal
        (and a tile wall's drawn places) from the new hands, so the sample tells nothing
        the seat could not see and passes `state_from_json`, and the seed is drawn anew
        (it fixes later hands' deals). A finished state is simply copied."""
        from .hidden import deal_hidden

        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise RulesdslError(f"no seat {seat!r}: a seat is an int from 0 to "
                                f"{self.game.players - 1}")
        other = type(self)(self.game)
        for key in self.FIELDS:  # JSON data: json_copy is a faster deep copy
            setattr(other, key, json_copy(getattr(self, key)))
        if self.phase == "over":
            return other
        zones, pins = self._hidden_zones(seat)
        other._set_hidden(seat, zones, deal_hidden(zones, pins, rng), rng)
        other.seed = rng.randrange(2 ** 63)
        return other

    def addable(self, partial: tuple[int, ...]) -> set[int]:
        """Card kinds that, added to `partial`, still grow into a legal action that shows
        cards (building a play one card at a time). This default reads the listed legal
        actions; an engine whose actions are too many to list overrides it."""
        have = Counter(partial)
        out: set[int] = set()
        listed = self._card_plays
        if listed is None:  # one listing per decision, however many cards are added
            listed = self._card_plays = [
                Counter(a.cards) for a in self._iter_actions()
                if a.cards and a.kind not in TILE_ACTIONS]
        for cards in listed:
            if all(cards[k] >= c for k, c in have.items()):
                out.update(k for k, c in cards.items() if c > have[k])
        return out

    # -- what each family supplies

    def _check(self, act: Action) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _do(self, act: Action, checked: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _iter_actions(self) -> Iterator[Action]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _count_actions(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def sample_action(self, rng: random.Random) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def _hidden_zones(self, seat: int) -> tuple[list[Any], list[Any]]:  # pragma: no cover
        """The zones `seat` cannot see and the pins on them (engine/hidden.py)."""
        raise NotImplementedError

    def _set_hidden(self, seat: int, zones: list[Any], contents: list[list[int]],
                    rng: random.Random) -> None:  # pragma: no cover - abstract
        """Put the zones' new contents in place, with the records of the deal."""
        raise NotImplementedError


# A match (hands=None) that has not ended by then is over: every game's work is bounded.
MATCH_HAND_LIMIT = 10_000


def restore_state(state_class: type, game: Any, text: str, check: bool = True) -> Any:
    """A state saved with `to_json()`, for this game's ruleset only, and only one the
    engine could be in (engine/saved/ checks every field before the state is built).
    `check=False` skips that check, for code that restores a position it built by hand
    (a test's scaffold need not be reachable); never for text from outside."""
    from .saved import check_saved

    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:  # also: too many digits, nesting
        raise RulesdslError(f"not a saved state: {str(exc)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT \
            or data.get("family") != state_class.family:
        raise RulesdslError(f"not a saved {state_class.family} state (format {STATE_FORMAT})")
    if data.get("ruleset") != game.ruleset.hash:
        raise RulesdslError("the saved state belongs to another ruleset (hash differs)")
    missing = [k for k in state_class.FIELDS if k not in data]
    if missing:
        raise RulesdslError(f"the saved state lacks {', '.join(missing)}")
    if check:
        check_saved(state_class.family, game, data)
    state = state_class(game)
    for key in state_class.FIELDS:
        setattr(state, key, data[key])  # freshly decoded: nothing else holds these values
    return state
