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

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import NotationError, RulesdslError
from ..model import notation as nt

TERMINAL = -2
CHANCE = -1

ACTION_KINDS = ("play", "pass", "declare", "bury", "bid", "claim", "discard", "chow", "pung",
                "kong", "concealed_kong", "added_kong", "win")
# Actions of the tile family show tiles (Tenhou notation), not cards.
TILE_ACTIONS = frozenset({"discard", "chow", "pung", "kong", "concealed_kong", "added_kong",
                          "win"})


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
        if self.kind in TILE_ACTIONS:
            return f"{self.kind} {nt.format_tiles(self.cards)}".strip()
        text = nt.format_cards(self.cards)
        if self.pattern:
            text = f"{text} as {self.pattern}"
        if self.kind == "play":
            return text
        return f"{self.kind} {text}".strip()

    def to_json(self) -> dict[str, Any]:
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
            return value
        if isinstance(value, dict):
            kind = value.get("type")
            if kind not in ACTION_KINDS:
                raise IllegalAction(f"unknown action type {kind!r}; expected one of "
                                    + ", ".join(ACTION_KINDS))
            pattern = value.get("pattern")
            if pattern is not None and not isinstance(pattern, str):
                raise IllegalAction("a pattern is named by a string")
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
            if not amount.isdigit() or len(amount) > 9:
                raise IllegalAction("write a bid as 'bid N', e.g. 'bid 10'")
            return Action("bid", amount=int(amount))
        pattern = None
        if " as " in f" {text} ":
            text, _, pattern = f" {text} ".partition(" as ")
            text, pattern = text.strip(), pattern.strip() or None
            if pattern is None or " " in pattern:
                raise IllegalAction("name one pattern after 'as', e.g. 'S8 H8 D8 LJ LJ as bomb'")
        head, _, rest = text.partition(" ")
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
