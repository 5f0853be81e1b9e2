"""A game told as a person reads it: one line per trick, round or turn, from the engine's
events as they happen, and a result in words.

The narrator reads only events and the state's public parts (the hand context, to sort
cards by this hand's order), never a game's name: every family's events have a line.
Two notations, one per output: suit pictures (red hearts and diamonds) on a terminal,
letters (`S8 H8`) when piped. With `viewer=SEAT` (a person at the table) nothing that seat
could not see is told: the other hands, the kitty, what another seat buries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import notation as nt
from ..errors import NotationError

RED_SUITS = {"H", "D"}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def card_markup(kind: int, trump: bool = False, wild: bool = False) -> str:
    """A card in suit pictures, as rich markup: hearts and diamonds red, the big joker red;
    a trump underlined, a wild card reversed."""
    if kind == nt.BIG_JOKER:
        text = "[bold red]BJ[/]"
    elif kind == nt.LITTLE_JOKER:
        text = "[bold]LJ[/]"
    else:
        suit = nt.card_suit(kind) or ""
        text = f"{nt.SUIT_PICTURES.get(suit, suit)}{nt.rank_name(nt.card_rank(kind))}"
        text = f"[red]{text}[/]" if suit in RED_SUITS else text
    if wild:
        return f"[reverse]{text}[/]"
    return f"[underline]{text}[/]" if trump else text


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


class Narrator:
    """Turns events into lines; `write(line, markup)` prints one (markup: rich's)."""

    def __init__(self, ruleset: Any, write: Callable[[str], None], pictures: bool,
                 viewer: int | None = None, quiet: bool = False):
        self.ruleset = ruleset
        self.write = write
        self.pictures = pictures
        self.viewer = viewer
        self.quiet = quiet
        self.tiles = ruleset.family == "tiles"
        self.hand_no = 0
        self.round: list[str] = []  # the plays of the trick or round under way
        self.rounds = 0
        self.turns: list[str] = []  # tile turns not yet written (one line a go-around)
        self.state: Any = None
        self._opened = False  # a hand_start opened the hand its deal event belongs to
        self.told = 0  # results already told
        start = (ruleset.levels or {}).get("start") if isinstance(ruleset.levels, dict) else None
        self.levels: list[Any] | None = None if start is None else \
            [nt.rank_name(start) if isinstance(start, int) else start] * 2

    # ---------------------------------------------------------------- notation

    def _order(self, kinds: list[int]) -> list[int]:
        """Cards by this hand's order: trumps first, then suit by suit, strongest first."""
        hc = getattr(self.state, "hc", None) if self.state is not None else None
        if hc is None or self.tiles:
            return sorted(kinds)
        return sorted(kinds, key=lambda k: (not hc.is_trump[k], str(hc.system[k]),
                                            -hc.strength[k], k))

    def cards(self, text: str | None) -> str:
        """Cards or tiles written in the log's notation, in this output's notation."""
        if not text:
            return "—"
        if self.tiles:
            return text
        try:
            kinds = nt.parse_cards(text)
        except NotationError:
            return text
        hc = getattr(self.state, "hc", None) if self.state is not None else None
        shown = []
        for k in self._order(kinds):
            token = self._card(k)
            if hc is not None and hc.is_trump[k] and self.pictures:
                token = f"[bold]{token}[/]"
            shown.append(token)
        return " ".join(shown)

    def _card(self, kind: int) -> str:
        return card_markup(kind) if self.pictures else nt.format_card(kind)

    def suit(self, suit: str | None) -> str:
        if not suit:
            return "no trump"
        if not self.pictures:
            return suit
        picture = nt.SUIT_PICTURES.get(suit, suit)
        return f"[red]{picture}[/]" if suit in RED_SUITS else picture

    def seat(self, seat: Any) -> str:
        return "nobody" if seat is None else f"seat {seat}"

    def hidden(self, seat: Any) -> bool:
        return self.viewer is not None and seat != self.viewer

    # ---------------------------------------------------------------- events

    def events(self, state: Any, events: Iterable[dict[str, Any]]) -> None:
        self.state = state
        for event in events:
            if event.get("type") in ("hand_start", "deal"):
                self._tell_results(event.get("hand"))  # the last hand's, before the next
            handler = getattr(self, f"_on_{event.get('type')}", None)
            if handler is not None:
                handler(event)
        self._tell_results(None)

    def _tell_results(self, before_hand: Any) -> None:
        """Results, not events, say how a hand ended (not every ending logs one); those of
        hands before `before_hand` (None: all) not told yet."""
        for result in self.state.results[self.told:]:
            if before_hand is not None and result.get("hand", -1) >= before_hand:
                break
            self._close_hand()
            self.write(f"  [bold]Result[/]: {describe_result(result, self.levels)}")
            if isinstance(result.get("team_levels"), list):
                self.levels = list(result["team_levels"])
            self.told += 1

    def say(self, line: str) -> None:
        if not self.quiet:
            self.write(line)

    def _flush_turns(self) -> None:
        if self.turns:
            self.say("  " + " · ".join(self.turns))
            self.turns = []

    def _turn(self, text: str) -> None:
        self.turns.append(text)
        if len(self.turns) >= self.ruleset.players:
            self._flush_turns()

    def _start_hand(self, detail: str) -> None:
        self._flush_turns()
        self._opened = False
        self.hand_no += 1
        self.rounds = 0
        self.say(f"\n[bold]Hand {self.hand_no}[/]" + (f" — {detail}" if detail else ""))

    def _on_hand_start(self, e: dict[str, Any]) -> None:
        parts = []
        if e.get("dealer") is not None:
            parts.append(f"dealer {self.seat(e['dealer'])}")
        if e.get("level") is not None:
            parts.append(f"level {e['level']}")
        self._start_hand(", ".join(parts))
        self._opened = True

    def _on_deal(self, e: dict[str, Any]) -> None:
        if not self._opened:
            detail = []
            if e.get("dealer") is not None:
                detail.append(f"dealer {self.seat(e['dealer'])}")
            if e.get("turned"):
                detail.append(f"turned up {e['turned']}")
            self._start_hand(", ".join(detail))
        self._opened = False
        hands = e.get("hands") or []
        for seat, text in enumerate(hands):
            if not self.hidden(seat):
                self.say(f"  {self.seat(seat)} holds {self.cards(text)}")
        if e.get("kitty") and self.viewer is None:
            self.say(f"  kitty: {self.cards(e['kitty'])}")

    def _on_trump(self, e: dict[str, Any]) -> None:
        how = f", declared by {self.seat(e.get('dealer'))}" if e.get("declared") else ""
        self.say(f"  trump {self.suit(e.get('suit'))}, level {e.get('level')}{how}")

    def _on_declare(self, e: dict[str, Any]) -> None:
        self.say(f"  {self.seat(e['seat'])} declares {self.cards(e.get('cards'))}")

    def _on_bid(self, e: dict[str, Any]) -> None:
        self.say(f"  {self.seat(e['seat'])} bids {e.get('amount')}")

    def _on_dealer(self, e: dict[str, Any]) -> None:
        bid = f" at {e['bid']}" if e.get("bid") is not None else ""
        kitty = f", takes the kitty {self.cards(e['kitty'])}" if e.get("kitty") else ""
        self.say(f"  {self.seat(e['seat'])} is the dealer{bid}{kitty}")

    def _on_take_kitty(self, e: dict[str, Any]) -> None:
        shown = "" if self.hidden(e["seat"]) else f": {self.cards(e.get('cards'))}"
        self.say(f"  {self.seat(e['seat'])} takes the kitty{shown}")

    def _on_bury(self, e: dict[str, Any]) -> None:
        shown = "" if self.hidden(e["seat"]) else f" {self.cards(e.get('cards'))}"
        self.say(f"  {self.seat(e['seat'])} buries{shown or ' the kitty'}")

    def _on_turn_up_kitty(self, e: dict[str, Any]) -> None:
        self.say(f"  nobody declared: the kitty is turned up {self.cards(e.get('cards'))}")

    def _on_lead(self, e: dict[str, Any]) -> None:
        self.say(f"  {self.seat(e['seat'])} leads first ({e.get('rule', '')})")

    def _on_throw(self, e: dict[str, Any]) -> None:
        if e.get("ok", True):
            return
        self.round.append(f"{self.seat(e['seat'])} throws {self.cards(e.get('cards'))}, "
                          f"which fails: must play {self.cards(e.get('forced'))}"
                          + (f" (penalty {e['penalty']})" if e.get("penalty") else ""))

    def _on_play(self, e: dict[str, Any]) -> None:
        pattern = f" ({e['pattern']})" if e.get("pattern") and not self.tiles else ""
        self.round.append(f"{self.seat(e['seat'])} {self.cards(e.get('cards'))}{pattern}")

    def _on_pass(self, e: dict[str, Any]) -> None:
        if self.tiles:
            return  # a pass on a discard is not worth a line
        phase = getattr(self.state, "phase", "")
        if self.round or phase in ("play", "over"):
            self.round.append(f"{self.seat(e['seat'])} passes")
        else:
            self.say(f"  {self.seat(e['seat'])} passes")

    def _end_round(self, e: dict[str, Any], what: str) -> None:
        self.rounds += 1
        points = f", {e['points']} points" if e.get("points") else ""
        plays = " · ".join(self.round)
        self.say(f"  {what} {self.rounds}: {plays}  → {self.seat(e.get('winner'))} wins"
                 f"{points}")
        self.round = []

    def _on_trick(self, e: dict[str, Any]) -> None:
        self._end_round(e, "trick")

    def _on_round(self, e: dict[str, Any]) -> None:
        self._end_round(e, "round")

    def _on_out(self, e: dict[str, Any]) -> None:
        self.round.append(f"{self.seat(e['seat'])} is out ({ordinal(e.get('place', 0))})")

    def _on_give(self, e: dict[str, Any]) -> None:
        cards = "a card" if self.hidden(e.get("seat")) and self.hidden(e.get("to")) \
            else self.cards(e.get("cards") or e.get("card"))
        self.say(f"  {self.seat(e.get('seat'))} gives {cards} to {self.seat(e.get('to'))}")

    def _on_tribute_resisted(self, e: dict[str, Any]) -> None:
        self.say("  tribute resisted")

    # -- tiles

    def _on_bonus(self, e: dict[str, Any]) -> None:
        self._turn(f"{self.seat(e['seat'])} shows {e.get('tile')}")

    def _on_void(self, e: dict[str, Any]) -> None:
        return  # hidden until every seat has chosen (the voids event)

    def _on_voids(self, e: dict[str, Any]) -> None:
        named = ", ".join(f"{self.seat(s)} {suit}" for s, suit in enumerate(e.get("suits", [])))
        self.say(f"  void suits: {named}")

    def _on_discard(self, e: dict[str, Any]) -> None:
        self._turn(f"{self.seat(e['seat'])} {e.get('tile')}")

    def _meld(self, e: dict[str, Any], what: str) -> None:
        self._flush_turns()
        source = f" from {self.seat(e['discarder'])}" if e.get("discarder") is not None else ""
        self.say(f"  {self.seat(e['seat'])} {what} {e.get('tile')}{source}")

    def _on_chow(self, e: dict[str, Any]) -> None:
        self._meld(e, "chows")

    def _on_pung(self, e: dict[str, Any]) -> None:
        self._meld(e, "pungs")

    def _on_kong(self, e: dict[str, Any]) -> None:
        self._meld(e, "kongs")

    def _on_concealed_kong(self, e: dict[str, Any]) -> None:
        self._meld(e, "makes a concealed kong of")

    def _on_added_kong(self, e: dict[str, Any]) -> None:
        self._meld(e, "adds to a kong:")

    def _on_win(self, e: dict[str, Any]) -> None:
        self._flush_turns()
        how = "self-drawn" if e.get("self_drawn") else \
            f"on {self.seat(e.get('discarder'))}'s discard"
        self.say(f"  [bold]{self.seat(e['seat'])} wins[/], {how}")

    def _on_exhausted(self, e: dict[str, Any]) -> None:
        self._flush_turns()
        self.say("  the wall is exhausted")

    def _on_kong_payment(self, e: dict[str, Any]) -> None:
        self.say(f"  kong paid: {self._money(e.get('payments'))}")

    def _on_kong_transfer(self, e: dict[str, Any]) -> None:
        self.say(f"  kong money moves: {self._money(e.get('payments'))}")

    def _on_draw_settlement(self, e: dict[str, Any]) -> None:
        self.say(f"  at the draw ({e.get('rule')}): {self._money(e.get('payments'))}")

    def _on_win_settled(self, e: dict[str, Any]) -> None:
        winner = e.get("seat", e.get("winner"))
        self.say(f"  {self.seat(winner)}'s win paid: {self._money(e.get('payments'))}")

    def _money(self, payments: Any) -> str:
        if not isinstance(payments, list):
            return str(payments)
        return ", ".join(f"{self.seat(s)} {v:+g}" for s, v in enumerate(payments) if v)

    # -- the end of a hand, and of the match

    def _close_hand(self) -> None:
        self._flush_turns()
        if self.round:
            self.say("  " + " · ".join(self.round))
            self.round = []

    def _on_match_end(self, e: dict[str, Any]) -> None:
        winner = e.get("winner", e.get("side"))
        self.write("\n[bold]Match over[/]" + (f": side {winner} wins" if winner is not None
                                                else ""))


def describe_result(r: dict[str, Any], before: list[Any] | None = None) -> str:
    """A hand's result in words, from the keys its family's result holds (`before`: each
    side's level before the hand, to say how far it climbed)."""
    parts: list[str] = []
    if "defender_points" in r:
        side = r.get("side")
        verdict = {"dealer": "the dealer's side wins", "defenders": "the defenders win",
                   "none": "neither side wins"}.get(str(side), f"side {side}")
        detail = [f"defenders took {r['defender_points']} points"]
        if r.get("kitty_capture"):
            detail.append(f"the kitty added {r['kitty_capture']}")
        if r.get("overcall_bonus"):
            detail.append(f"overcall bonus {r['overcall_bonus']}")
        for name, counts in (r.get("captures") or {}).items():
            if isinstance(counts, list) and any(counts):
                detail.append(", ".join(f"side {i} captured {c} {name}"
                                        for i, c in enumerate(counts) if c))
        parts.append(f"{verdict} ({'; '.join(detail)})")
        after = r.get("team_levels")
        if isinstance(after, list):
            moves = [f"side {i} climbs {b} → {a}" for i, (b, a) in
                     enumerate(zip(before or after, after)) if a != b]
            parts.append(", ".join(moves) if moves else
                         "levels stay " + " / ".join(str(x) for x in after))
    elif "order" in r:
        order = r.get("order") or []
        if order:
            parts.append("finishing order " + ", ".join(f"seat {s}" for s in order))
        climb = r.get("climb")
        if isinstance(climb, dict) and climb.get("levels"):
            parts.append(f"side {climb.get('side')} climbs {climb['levels']} levels"
                         + (f": {climb['from']} → {climb['to']}" if "to" in climb else ""))
    elif "winners" in r or "winner" in r:
        winners = r.get("winners") or ([r["winner"]] if r.get("winner") is not None else [])
        if winners:
            how = "self-drawn" if r.get("self_drawn") else (
                f"on seat {r['discarder']}'s discard" if r.get("discarder") is not None
                else "")
            parts.append("won by " + ", ".join(f"seat {w}" for w in winners)
                         + (f" ({how})" if how and len(winners) == 1 else ""))
        else:
            parts.append("a draw: nobody won")
    pay = r.get("returns") or r.get("payments")
    if isinstance(pay, list):
        parts.append("returns " + ", ".join(f"seat {s} {v:+g}" for s, v in enumerate(pay)))
    return "; ".join(parts) if parts else "hand over"
