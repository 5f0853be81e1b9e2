"""A trick hand built from a given position (a play scenario), not from a deal."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ..base import Position

PHASES = ("play",)


def build_position(game: Any, pos: Position) -> Any:
    """A state in the play phase: the given hands and kitty, no trick played yet, no
    points taken; `turn` leads (default: the dealer). Hands may differ in size to show one
    decision; a hand played on to its end needs them equal. The dealer's side stands at
    the context's level; `returns` still counts levels from the ladder's start."""
    from .state import TrickState

    if pos.phase not in PHASES:
        raise RulesdslError(f"the trick engine starts a scenario in {', '.join(PHASES)}, "
                            f"not {pos.phase!r}")
    rs = game.ruleset
    pos.check_deck(rs.deck, nt.format_card)
    level = pos.context.get("level", game.ladder[game.start_level])
    if level not in game.ladder:
        raise RulesdslError(f"level {nt.rank_name(level)} is not on the levels ladder")
    st = TrickState(game)
    st.seed, st.max_hands, st.hand_no = pos.seed, 1, 0
    dealer = 0 if pos.dealer is None else pos.dealer
    st.team_levels = [game.start_level] * len(rs.teams)
    st.team_levels[game.team_of[dealer]] = game.ladder.index(level)
    st.dealer, st.phase = dealer, "play"
    st.hands = [pos.counts(s, len(rs.deck)) for s in range(game.players)]
    st.kitty = list(pos.kitty)
    st.trump, st.level = pos.context.get("trump"), level
    st.to_act = st.leader = dealer if pos.turn is None else pos.turn
    st.captures = {name: [0, 0] for name, _ in game.rules.captures}
    st._event(type="position", dealer=dealer, trump=st.trump, level=level)
    return st
