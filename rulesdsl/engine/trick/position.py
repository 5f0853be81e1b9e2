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
    if pos.phase != "deal" and pos.to_deal:
        raise RulesdslError("cards to deal are for a scenario in the deal (phase: deal)")
    if pos.phase == "deal" and pos.overcall:
        raise RulesdslError("in the deal a standing declaration is an overcall only once "
                            "made there: declare it as an action")
    if type(pos.hand) is not int or not 1 <= pos.hand <= 10_000:
        raise RulesdslError("hand_number: the hand's number in the match, from 1")
    pos.check_deck(rs.deck, nt.format_card, also=pos.to_deal)
    level = pos.context.get("level", game.ladder[game.start_level])
    if level not in game.ladder:
        raise RulesdslError(f"level {nt.rank_name(level)} is not on the levels ladder")
    if pos.phase == "deal":
        return _in_the_deal(game, pos, TrickState(game), level)
    st = TrickState(game)
    st.seed, st.hand_no = pos.seed, pos.hand - 1
    st.max_hands = pos.hand
    dealer = 0 if pos.dealer is None else pos.dealer
    st.team_levels = _side_levels(game, pos, dealer, level)
    if pos.declared is not None:
        seat, cards = pos.declared
        if not 0 <= seat < game.players or not cards or len(set(cards)) != 1:
            raise RulesdslError("the declaration is one card, or copies of one card")
        if nt.card_suit(cards[0]) != pos.context.get("trump"):
            raise RulesdslError("the declaration names the hand's trump: a card of the "
                                "trump suit (a joker for none)")
        st.declaration = {"seat": seat, "kind": cards[0], "count": len(cards),
                          "overcalled": pos.overcall,
                          "overcall_cards": len(cards) if pos.overcall else 0}
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
    st.seed, st.hand_no = pos.seed, pos.hand - 1
    st.max_hands = pos.hand
    st.dealer = pos.dealer
    st.team_levels = _side_levels(game, pos, pos.dealer, level)
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


def _side_levels(game: Any, pos: Position, dealer: int | None, level: int) -> list[int]:
    """Each side's level (ladder index): `side_levels` where given; the dealer's side at
    the hand's level, the others at the ladder's start."""
    levels = [game.start_level] * len(game.ruleset.teams)
    for side, rank in pos.side_levels.items():
        if not 0 <= side < len(levels):
            raise RulesdslError(f"side_levels: no side {side}; the sides are 0 to "
                                f"{len(levels) - 1}")
        if rank not in game.ladder:
            raise RulesdslError(f"side_levels: {nt.rank_name(rank)} is not on the levels "
                                "ladder")
        levels[side] = game.ladder.index(rank)
    if dealer is not None:
        side = game.team_of[dealer]
        if side in pos.side_levels and pos.side_levels[side] != level:
            raise RulesdslError(f"side_levels: the dealer's side plays at the hand's level "
                                f"{nt.rank_name(level)}, not {nt.rank_name(pos.side_levels[side])}")
        levels[side] = game.ladder.index(level)
    return levels
