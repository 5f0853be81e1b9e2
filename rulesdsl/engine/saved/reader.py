"""Reading a decoded saved state field by field: each value's type and range checked,
a failure naming the field's path (shared by the three families' checks)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NoReturn

from ... import notation as nt
from ...errors import NotationError, RulesdslError
from ..base import MATCH_HAND_LIMIT

CARD_OF = {nt.format_card(k): k for k in range(nt.CARD_KINDS)}
# What the engines and these checks read from a logged event of each type.
EVENT_KEYS = {"play": ("seat", "cards"), "bury": ("seat", "cards"), "take_kitty": ("seat",),
               "out": ("seat",), "claim": ("seat",), "bid": ("seat", "amount"),
               "pass": ("seat",), "dealer": ("seat",), "round": ("winner", "points"),
               "deal": ("hands",), "throw": ("seat", "cards")}



def fail(path: str, what: str) -> NoReturn:
    raise RulesdslError(f"saved state: {path}: {what}")


def show(value: Any) -> str:
    """A value for a message, bounded: a saved state may carry anything."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to print"
    return text if len(text) <= 40 else text[:37] + "..."


class Reader:
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
            fail(path, f"{show(value)} is not {what}")
        return value

    def count(self, value: Any, path: str) -> int:
        return self.integer(value, path, 0, what="a count")

    def seat(self, value: Any, path: str, none: bool = False) -> int | None:
        if value is None and none:
            return None
        return self.integer(value, path, 0, self.n - 1, f"a seat (0–{self.n - 1})")

    def flag(self, value: Any, path: str) -> bool:
        if type(value) is not bool:
            fail(path, f"{show(value)} is not true or false")
        return value

    def number(self, value: Any, path: str) -> float:
        if type(value) is int and abs(value) < 2 ** 1000:
            return float(value)
        if type(value) is not float or not math.isfinite(value):
            fail(path, f"{show(value)} is not a finite number")
        return value

    def choice(self, value: Any, path: str, options: tuple | list) -> Any:
        if not isinstance(value, str) or value not in options:
            fail(path, f"{show(value)} is not one of {', '.join(map(str, options))}")
        return value

    def kind(self, value: Any, path: str) -> int:
        """A card or tile kind this deck holds."""
        if type(value) is not int or not 0 <= value < self.kinds or not self.deck[value]:
            fail(path, f"{show(value)} is not a {self.what} of this deck")
        return value

    # -- containers

    def items(self, value: Any, path: str, length: int | None = None) -> list:
        if type(value) is not list:
            fail(path, f"{show(value)} is not a list")
        if length is not None and len(value) != length:
            fail(path, f"holds {len(value)} entries, not {length}")
        return value

    def record(self, value: Any, path: str, keys: tuple[str, ...]) -> dict[str, Any]:
        if type(value) is not dict:
            fail(path, f"{show(value)} is not an object")
        if set(value) != set(keys):
            missing = sorted(set(keys) - set(value))
            extra = sorted(set(value) - set(keys))
            fail(path, f"lacks {', '.join(missing)}" if missing else
                  f"has unknown keys {show(extra)}")
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
                fail(f"{path}[{k}]", f"{show(c)} is not a {self.what} count")
            if c > self.deck[k]:
                fail(f"{path}[{k}]", f"{show(c)} × {self.name(k)}; the deck has "
                      f"{self.deck[k]}")
        return value

    def kind_list(self, value: Any, path: str) -> list[int]:
        return self.each(value, path, self.kind)

    def seats(self, value: Any, path: str) -> list[int]:
        """Distinct seats."""
        self.each(value, path, self.seat)
        if len(set(value)) != len(value):
            fail(path, f"names a seat twice: {show(value)}")
        return value

    def cards(self, value: Any, path: str) -> list[int]:
        """Card text (`"S3 S3 H4"`) of cards this deck holds, as kinds. The engine writes
        the canonical names: those are looked up, anything else goes to the notation."""
        if not isinstance(value, str):
            fail(path, f"{show(value)} is not a text of cards")
        kinds = self._texts.get(value)
        if kinds is not None:
            return kinds
        try:
            kinds = [CARD_OF[name] for name in value.split(" ")] if value else []
        except (KeyError, AttributeError):
            try:
                kinds = nt.parse_cards(value)
            except NotationError as exc:
                fail(path, str(exc))
        for k in kinds:
            if not self.deck[k]:
                fail(path, f"{nt.format_card(k)} is not a card of this deck")
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
            fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s)")
        if hand_no > MATCH_HAND_LIMIT:
            fail("hand_no", f"hand {hand_no}: no game plays more than {MATCH_HAND_LIMIT}")
        return hand_no, max_hands, self.data["phase"]

    def log(self, hand_no: int) -> list[dict[str, Any]]:
        """Events: objects with a type and a hand number (never decreasing, never past
        hand_no); a seat, where an event names one, is a seat."""
        events = self.items(self.data["log"], "log")
        last = 0
        for i, event in enumerate(events):
            path = f"log[{i}]"
            if type(event) is not dict:
                fail(path, f"{show(event)} is not an event")
            if not isinstance(event.get("type"), str):
                fail(f"{path}.type", f"{show(event.get('type'))} is not an event type")
            hand = event.get("hand")
            if type(hand) is not int or not last <= hand <= hand_no:
                fail(f"{path}.hand", f"{show(hand)} is not a hand number from {last} to "
                      f"{hand_no}")
            last = hand
            for key in EVENT_KEYS.get(event["type"], ()):
                if key not in event:
                    fail(path, f"a {event['type']} event without its {key}")
            if "seat" in event:
                self.seat(event["seat"], f"{path}.seat")
            if "cards" in event and not isinstance(event["cards"], str):
                fail(f"{path}.cards", f"{show(event['cards'])} is not card text")
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
                fail(f"results[{i}]", f"{show(result)} is not a hand's result")
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
                fail(f"totals[{s}]", f"{totals[s]} is not the sum of the hands' {key} "
                      f"({expected})")

    def conserved(self, total: list[int], path: str, zones: str) -> None:
        """`total` (a count vector of `zones`) is the deck exactly."""
        for k, (have, want) in enumerate(zip(total, self.deck)):
            if have != want:
                fail(path, f"{zones} hold {have} × {self.name(k)}; the deck has {want}")

    def equal(self, have: list[int], want: list[int], path: str, what: tuple[str, str]) \
            -> None:
        """Two count vectors agree: `what` says what each counts, for the message."""
        for k, (a, b) in enumerate(zip(have, want)):
            if a != b:
                fail(path, f"{a} × {self.name(k)} {what[0]}, {b} {what[1]}")


def vector(kinds: int, *parts: list[int]) -> list[int]:
    """The count vector of some lists of kinds."""
    out = [0] * kinds
    for part in parts:
        add(out, part)
    return out


def add(out: list[int], kinds: list[int]) -> None:
    for k in kinds:
        out[k] += 1


def plus(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)]


# ---------------------------------------------------------------- trick
