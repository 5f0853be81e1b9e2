"""A human at the terminal: the hand shown with coloured suits, sorted by this hand's order,
the table, the legal choices, and a second chance after any bad input."""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import notation as nt
from ..engine.base import Action, IllegalAction
from ..errors import RulesdslError

RED = {"H", "D"}
MAX_LISTED = 40


def _card_markup(kind: int) -> str:
    if kind == nt.BIG_JOKER:
        return "[bold red]BJ[/]"
    if kind == nt.LITTLE_JOKER:
        return "[bold]LJ[/]"
    suit = nt.card_suit(kind) or ""
    text = f"{nt.SUIT_PICTURES.get(suit, suit)}{nt.rank_name(nt.card_rank(kind))}"
    return f"[red]{text}[/]" if suit in RED else text


class HumanAgent:
    name = "human"

    def __init__(self, ask: Callable[[str], str] | None = None, console=None):
        from rich.console import Console

        self.ask = ask or input
        self.console = console or Console(highlight=False)

    # -- showing the table

    def _sorted_cards(self, state, seat: int) -> list[int]:
        counts = state.hands[seat]
        cards = [k for k, c in enumerate(counts) for _ in range(c)]
        hc = getattr(state, "hc", None) or getattr(state.game, "hc", None)
        if hc is None:
            return cards
        # Trumps first, then suit by suit, strongest first.
        return sorted(cards, key=lambda k: (not hc.is_trump[k], str(hc.system[k]),
                                            -hc.strength[k]))

    def show(self, state, seat: int) -> None:
        family = state.game.ruleset.family
        out = self.console.print
        out(f"\n[bold]{state.game.ruleset.id}[/] — seat {seat}, phase {state.phase}")
        if family == "tiles":
            obs = state.observation(seat)
            turned = f"wild tile turned: {obs['turned']}   " if obs.get("turned") else ""
            out(f"{turned}wall: {obs['wall_left']} tiles")
            out(f"your hand: {obs['hand']}")
            if obs["last_discard"]:
                d = obs["last_discard"]
                out(f"discarded by seat {d['seat']}: {nt.format_tile(d['tile'])}")
            return
        if family == "trick" and state.trump:
            out(f"trump: {nt.SUIT_PICTURES.get(state.trump, state.trump)}   level: "
                f"{nt.rank_name(state.level)}   defenders' points: {state.defender_points}")
        hand = " ".join(_card_markup(k) for k in self._sorted_cards(state, seat))
        out(f"your hand: {hand}")
        if family == "trick" and state.trick:
            for s, cards in state.trick:
                out(f"  seat {s}: " + " ".join(_card_markup(k) for k in cards))
        if family == "shedding" and state.last:
            out(f"to beat: seat {state.last['seat']} played {state.last['cards']} "
                f"({state.last['pattern']})")

    # -- choosing

    def act(self, state, rng: random.Random) -> Action:
        seat = state.current_player
        self.show(state, seat)
        legal = state.legal_actions()
        count = legal.count()
        listed = list(legal) if count <= MAX_LISTED else []
        for i, action in enumerate(listed, 1):
            self.console.print(f"  {i:2d}. {action}")
        if not listed:
            self.console.print(f"  ({count} choices: type the cards, e.g. "
                               f"'{legal.sample(rng)}')")
        while True:
            try:
                text = self.ask("your move> ").strip()
            except EOFError:
                raise RulesdslError("input ended before the game did") from None
            if text.isdigit() and listed:
                index = int(text)
                if 1 <= index <= len(listed):
                    return listed[index - 1]
                self.console.print(f"[red]choose 1 to {len(listed)}[/]")
                continue
            try:
                action = Action.parse(text)
            except IllegalAction as exc:
                self.console.print(f"[red]{exc.reason}[/] — try again")
                continue
            reason = state.why_illegal(action)
            if reason is None:
                return action
            self.console.print(f"[red]{reason}[/] — try again")
