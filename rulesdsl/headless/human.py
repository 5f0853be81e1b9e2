"""A human at the terminal: the table (every seat's cards left, partner, trump and level or
the wild tile, the trick or round so far, discards and melds), the hand sorted by this
hand's order with trumps and wilds marked, and numbered choices, grouped when there are
many. Cards may be typed in either notation (`♠8 ♥8` or `S8 H8`, any case); `pass` and
`help` are understood; any bad input gets a reason and a second chance.

The other seats' plays are told as they happen by the narrator (`rulesdsl play` with a
human seat tells that seat only what it sees)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .. import notation as nt
from ..engine.base import Action, IllegalAction
from ..errors import RulesdslError
from .narrate import card_markup

MAX_LISTED = 40  # choices shown at once; more are grouped
MAX_SCANNED = 5000  # legal actions read to build the groups (the rest: type the cards)
HELP = ("Type a choice's number, or the cards (♠8 ♥8 or S8 H8), `pass`, `more` for the next "
        "page of a long list, `back` to the groups, `help` for this.")


def typed_action(text: str, tiles: bool) -> str:
    """A person's typing as an action's text: card letters in capitals (suit pictures are
    read as they are); tiles and words as typed."""
    words = text.split()
    if tiles or not words or words[0].lower() in ("pass", "help", "more", "back", "bid",
                                                  "declare", "bury", "claim"):
        head = [words[0].lower()] if words else []
        rest = words[1:] if words else []
        return " ".join(head + ([w.upper() for w in rest] if not tiles else rest))
    cut = next((i for i, w in enumerate(words) if w.lower() == "as"), len(words))
    return " ".join([w.upper() if w.isascii() else w for w in words[:cut]]
                    + ["as", *words[cut + 1:]][:len(words) - cut])


class HumanAgent:
    name = "human"

    def __init__(self, ask: Callable[[str], str] | None = None, console: Any = None):
        from rich.console import Console

        self.ask = ask or input
        self.console = console or Console(highlight=False)

    # -- showing the table

    def _sorted_cards(self, state: Any, seat: int) -> list[int]:
        counts = state.hands[seat]
        cards = [k for k, c in enumerate(counts) for _ in range(c)]
        hc = getattr(state, "hc", None) or getattr(state.game, "hc", None)
        if hc is None:
            return cards
        # Trumps first, then suit by suit, strongest first.
        return sorted(cards, key=lambda k: (not hc.is_trump[k], str(hc.system[k]),
                                            -hc.strength[k]))

    def show(self, state: Any, seat: int) -> None:
        ruleset = state.game.ruleset
        out = self.console.print
        obs = state.observation(seat)
        partners = [s for team in (ruleset.teams or []) if seat in team and len(team) > 1
                    for s in team if s != seat]
        partner = f" (partner: {', '.join(f'seat {s}' for s in partners)})" if partners else ""
        out(f"\n[bold]{ruleset.id}[/] — you are seat {seat}{partner}; phase {state.phase}")
        left = obs.get("hand_sizes") or obs.get("cards_left")
        if left:
            out("cards left: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(left)))
        if ruleset.family == "tiles":
            self._show_tiles(state, obs)
            return
        if ruleset.family == "trick" and obs.get("trump") is not None:
            trump = obs["trump"]
            out(f"trump: {nt.SUIT_PICTURES.get(trump, trump)}   level: {obs.get('level')}   "
                f"defenders' points: {obs.get('defender_points')}   "
                f"levels: {' / '.join(str(x) for x in obs.get('team_levels') or [])}")
        hc = getattr(state, "hc", None)
        wild = getattr(hc, "wild_of", {}) if hc is not None else {}
        hand = " ".join(card_markup(k, bool(hc is not None and hc.is_trump[k]), k in wild)
                        for k in self._sorted_cards(state, seat))
        marks = " (trumps underlined" + (", wilds reversed)" if wild else ")")
        out(f"your hand: {hand}" + (marks if hc is not None else ""))
        trick = obs.get("trick") or []
        for s, cards in trick:
            out(f"  seat {s} played: {self._cards(cards)}")
        last = obs.get("last")
        if ruleset.family == "shedding" and last:
            out(f"to beat: seat {last['seat']} played {self._cards(last['cards'])} "
                f"({last['pattern']})")
        if obs.get("round_points"):
            out(f"points in this round: {obs['round_points']}")

    def _action(self, action: Action, tiles: bool) -> str:
        """An action in this terminal's notation (suit pictures), its words as they are."""
        if tiles or not action.cards:
            return str(action)
        cards = " ".join(card_markup(k) for k in action.cards)
        head = "" if action.kind == "play" else f"{action.kind} "
        return head + cards + (f" as {action.pattern}" if action.pattern else "")

    def _tiles(self, state: Any, obs: dict[str, Any]) -> str:
        """The hand's tiles, each wild one marked (this hand's wilds: the turned tile's)."""
        try:
            turned = nt.parse_tiles(obs["turned"])[0] if obs.get("turned") else None
            wild = state.game.spec(turned).wild
            kinds = nt.parse_tiles(obs.get("hand") or "")
        except Exception:  # an engine without a turned-tile table: the text as it is
            return str(obs.get("hand"))
        return " ".join(f"[reverse]{nt.format_tile(k)}[/]" if wild[k] else nt.format_tile(k)
                        for k in kinds)

    def _cards(self, text: str) -> str:
        try:
            return " ".join(card_markup(k) for k in nt.parse_cards(text))
        except Exception:  # a log's own text: shown as it is
            return text

    def _show_tiles(self, state: Any, obs: dict[str, Any]) -> None:
        out = self.console.print
        if obs.get("turned"):
            out(f"wild tile turned up: [reverse]{obs['turned']}[/]")
        out(f"wall: {obs.get('wall_left')} tiles")
        for s, discards in enumerate(obs.get("discards") or []):
            melds = (obs.get("others_melds") or {}).get(s) or []
            shown = " ".join(f"{m[0]} {m[1]}" for m in melds)
            out(f"  seat {s} discards: {discards or '—'}" + (f"   melds: {shown}"
                                                             if shown else ""))
        out(f"your hand: {self._tiles(state, obs)} (wilds reversed)")
        d = obs.get("last_discard")
        if d:
            out(f"discarded by seat {d['seat']}: {nt.format_tile(d['tile'])}")

    # -- choosing

    def _groups(self, legal: Any) -> list[tuple[str, list[Action]]]:
        """The legal actions (at most MAX_SCANNED) grouped by kind and size."""
        groups: dict[str, list[Action]] = {}
        for n, action in enumerate(legal):
            if n >= MAX_SCANNED:
                break
            size = len(action.cards)
            label = action.kind if not size or action.kind != "play" else \
                f"play {size} card{'s' if size != 1 else ''}"
            if action.pattern:
                label += f" as {action.pattern}"
            groups.setdefault(label, []).append(action)
        return sorted(groups.items(), key=lambda g: (g[0] != "pass", len(g[1][0].cards), g[0]))

    def act(self, state: Any, rng: random.Random) -> Action:
        seat = state.current_player
        self.show(state, seat)
        legal = state.legal_actions()
        count = legal.count()
        tiles = state.game.ruleset.family == "tiles"
        groups = self._groups(legal) if count > MAX_LISTED else \
            [("", list(legal))]
        chosen: list[Action] | None = groups[0][1] if len(groups) == 1 else None
        page = 0
        while True:
            if chosen is None:
                self.console.print(f"{count} choices, in groups:")
                for i, (label, actions) in enumerate(groups, 1):
                    self.console.print(f"  {i:2d}. {label} ({len(actions)})")
                listed: list[Action] = []
            else:
                listed = chosen[page * MAX_LISTED:(page + 1) * MAX_LISTED]
                for i, action in enumerate(listed, 1):
                    self.console.print(f"  {i:2d}. {self._action(action, tiles)}")
                if len(chosen) > (page + 1) * MAX_LISTED:
                    self.console.print("  … `more` for the next page")
            try:
                text = self.ask("your move> ").strip()
            except EOFError:
                raise RulesdslError("input ended before the game did") from None
            word = text.lower()
            if word == "help" or not text:
                self.console.print(HELP)
                continue
            if word == "more" and chosen is not None:
                page = page + 1 if len(chosen) > (page + 1) * MAX_LISTED else 0
                continue
            if word == "back" and len(groups) > 1:
                chosen, page = None, 0
                continue
            if text.isdigit():
                index = int(text)
                options = groups if chosen is None else listed
                if not 1 <= index <= len(options):
                    self.console.print(f"[red]choose 1 to {len(options)}[/]")
                    continue
                if chosen is None:
                    chosen, page = groups[index - 1][1], 0
                    continue
                return listed[index - 1]
            try:
                action = Action.parse(typed_action(text, tiles))
            except IllegalAction as exc:
                self.console.print(f"[red]{exc.reason}[/] — try again (`help`)")
                continue
            reason = state.why_illegal(action)
            if reason is None:
                return action
            self.console.print(f"[red]{reason}[/] — try again")
