"""A shedding ruleset ready to play (`ShedGame`): its hand contexts and move generators
(one per level when the game climbs levels), the text of its cards, its table rows, and
the state class its saved games need."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ...model.hand import HandContext
from ...model.patterns import Reading
from ...model.ruleset import Ruleset
from ..base import Action, Position, restore_state
from .moves import MoveGenerator
from .state import HandPlaysContext, LevelState, ShedState
from .suited import SuitedMoves

SUIT_ORDER = {s: i for i, s in enumerate(nt.SUITS)}


class ShedGame:
    """A shedding-family ruleset ready to play."""

    def __init__(self, ruleset: Ruleset):
        if ruleset.family != "shedding":
            raise RulesdslError(f"{ruleset.id} is a {ruleset.family} ruleset, not shedding")
        if ruleset.play is None:
            raise RulesdslError(f"{ruleset.id} has no play: section; the shedding engine "
                                "needs one (`rulesdsl doc --language play` describes it)")
        self.ruleset = ruleset
        self.rules = ruleset.play
        self.players = ruleset.players
        self.hand_size = ruleset.deal["hand_size"]
        self.hands_dealt = ruleset.deal.get("hands", self.players)
        self.team_of = ruleset.team_of()
        # With levels, each level is its own hand context (where the level card stands,
        # which card is wild): built when first played.
        self.levels = ruleset.levels if "level" in ruleset.context else None
        self._contexts: dict[int | None, HandPlaysContext] = {}
        default = self.context(None)
        self.hc = default.hc  # the first hand's context (without levels: every hand's)
        self.moves = default.moves
        self.deck = ruleset.every_card()
        # A game with levels saves them, one with tribute its tribute: its own state class.
        extra = (("level", "side_levels") if self.levels is not None else ()) + \
            (("top_failed",) if self.levels is not None and self.rules.top_failures
             else ()) + (("tribute",) if self.rules.tribute is not None else ())
        base = LevelState if self.levels is not None else ShedState
        self.state_class: type[ShedState] = base if not extra else type(
            "ShedState", (base,), {"FIELDS": ShedState.FIELDS + extra,
                                   "__module__": ShedState.__module__})
        self._texts: dict[tuple[int, ...], str] = {}
        self._rows: dict[tuple, dict[str, Any]] = {}
        self._ended: dict[tuple, bool] = {}
        self._last_readings: dict[tuple, Reading] = {}
        self._plays: dict[tuple[tuple[int, ...], str | None], Action] = {}
        self._names = [nt.format_card(k) for k in range(len(ruleset.deck))]
        self.has_points = any(self.hc.points)
        self.bomb_patterns = frozenset(p.name for p in ruleset.patterns if p.bomb)
        # Patterns played only as a player's last play (all the cards left).
        self.last_only = frozenset(p.name for p in ruleset.patterns if p.last_only)
        # Do listed plays pass through _restricted (last-only patterns, highest single)?
        self.restricts = bool(self.last_only) or self.rules.highest_single is not None
        self.step = 1 if ruleset.direction == "counter-clockwise" else -1
        # The auction's bids as actions (immutable, so shared by every state).
        self.bid_actions = {b: Action("bid", amount=b)
                            for b in (self.rules.auction or {}).get("bids", [])}

    def context(self, level: int | None) -> HandPlaysContext:
        """The hand context and move generator of a hand at this level (None: without
        levels, or the first hand's start level)."""
        known = self._contexts.get(level)
        if known is None:
            ruleset = self.ruleset
            given = {} if level is None else {"level": level}
            if level is None and self.levels is not None:
                given = {"level": self.levels["start"]}
            hc = HandContext(ruleset, given)
            ranks = MoveGenerator(hc)
            moves: MoveGenerator | SuitedMoves = SuitedMoves(ranks) if ruleset.reads_suits \
                else ranks
            # Each rank key's card kinds in the order S H D C (the suits a rank play shows).
            kinds_of_rank: dict[int, list[int]] = {}
            for kind in sorted(ruleset.kinds(),
                               key=lambda k: SUIT_ORDER.get(nt.card_suit(k) or "", 9)):
                kinds_of_rank.setdefault(ranks.rank_of[kind], []).append(kind)
            known = self._contexts[level] = HandPlaysContext(hc, moves, ranks.rank_of,
                                                             kinds_of_rank)
        return known

    def lookup(self, name: str, values: dict[str, Any]) -> dict[str, Any]:
        """A table's row for these inputs, remembered (a lookup depends on nothing else;
        the row is shared: read it, never change it)."""
        table = self.ruleset.tables[name]
        key = (name, *(values[k] for k in table.inputs))
        out = self._rows.get(key)
        if out is None:
            if len(self._rows) > 50_000:
                self._rows.clear()
            out = self._rows[key] = table.lookup({k: values[k] for k in table.inputs})
        return out

    def format(self, cards: list[int]) -> str:
        """nt.format_cards of cards of this deck, from the names written once."""
        names = self._names
        return " ".join([names[k] for k in cards])

    def text(self, cards: tuple[int, ...]) -> str:
        """nt.format_cards, remembered: the same few plays are written again and again."""
        out = self._texts.get(cards)
        if out is None:
            if len(self._texts) > 50_000:
                self._texts.clear()
            names = self._names
            out = self._texts[cards] = " ".join(names[k] for k in cards)
        return out

    def new_game(self, seed: int = 0, hands: int | None = 1) -> ShedState:
        state = self.state_class(self)
        state.seed = seed
        state.max_hands = hands
        state.totals = [0.0] * self.players

        state._start_hand()
        return state

    def state_from_json(self, text: str) -> ShedState:
        return restore_state(self.state_class, self, text)

    def position(self, pos: Position) -> Any:
        """A state at a given position (play scenarios: engine/shedding/position.py)."""
        from .position import build_position

        return build_position(self, pos)
