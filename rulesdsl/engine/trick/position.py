"""A trick hand built from a given position (a play scenario), not from a deal."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ..base import Position

PHASES = ("play", "deal")


def build_position(game: Any, pos: Position) -> Any:
    """A state in the play phase: the given hands and kitty, no trick played yet, no
    points taken; `turn` leads (default: the dealer). Hands may differ in size to show one
    decision; a hand played on to its end needs them equal. The dealer's side stands at
    the context's level; `returns` still counts levels from the ladder's start. In the
    deal phase: see `_in_the_deal`."""
    from .state import TrickState

    if pos.phase not in PHASES:
        raise RulesdslError(f"the trick engine starts a scenario in {', '.join(PHASES)}, "
                            f"not {pos.phase!r}")
    rs = game.ruleset
    if pos.phase != "deal" and (pos.to_deal or pos.declared is not None):
        raise RulesdslError("cards to deal and a standing declaration are for a scenario in "
                            "the deal (phase: deal)")
    pos.check_deck(rs.deck, nt.format_card, also=pos.to_deal)
    level = pos.context.get("level", game.ladder[game.start_level])
    if level not in game.ladder:
        raise RulesdslError(f"level {nt.rank_name(level)} is not on the levels ladder")
    if pos.phase == "deal":
        return _in_the_deal(game, pos, TrickState(game), level)
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


def _in_the_deal(game: Any, pos: Position, st: Any, level: int) -> Any:
    """A hand in its deal: `hands` the cards dealt so far, `to_deal` the cards still to
    deal, one at a time from `turn` on (default seat 0), then the kitty; `declared` the
    declaration standing. Declaring goes on as in a dealt hand: a seat may declare just
    after it is dealt a card it could declare with, and everyone in a last round."""
    rs = game.ruleset
    n = game.players
    hands = [pos.counts(s, len(rs.deck)) for s in range(n)]
    if len(pos.kitty) != game.kitty_size:
        raise RulesdslError(f"a hand in the deal names its kitty: {game.kitty_size} cards, "
                            f"not {len(pos.kitty)}")
    st.seed, st.max_hands, st.hand_no = pos.seed, 1, 0
    st.team_levels = [game.start_level] * len(rs.teams)
    st.dealer = pos.dealer
    if pos.dealer is not None:
        st.team_levels[game.team_of[pos.dealer]] = game.ladder.index(level)
    st.level = level
    st.phase = "deal"
    dealt = [k for h in hands for k, c in enumerate(h) for _ in range(c)]
    st.deal_order = dealt + list(pos.to_deal) + list(pos.kitty)
    st.dealt = len(dealt)
    st.deal_start = st.deal_seat = 0 if pos.turn is None else pos.turn
    st.hands = hands
    st.kitty, st.final_queue, st.to_act, st.trump, st.trick = [], None, None, None, []
    st.captures = {name: [0, 0] for name, _ in game.rules.captures}
    st.declaration = None
    if pos.declared is not None:
        seat, cards = pos.declared
        if not 0 <= seat < n or not cards or len(set(cards)) != 1 \
                or hands[seat][cards[0]] < len(cards):
            raise RulesdslError("the standing declaration is one card, or copies of one card, "
                                "that its seat holds")
        st.declaration = {"seat": seat, "kind": cards[0], "count": len(cards),
                          "overcalled": False, "overcall_cards": 0}
    st._event(type="position", dealer=pos.dealer, trump=None, level=level)
    st._advance()
    return st
