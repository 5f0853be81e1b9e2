"""A shedding hand built from a given position (a play scenario), not from a deal."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ..base import Position

PHASES = ("play", "auction")


def build_position(game: Any, pos: Position) -> Any:
    """A state in the auction (when the ruleset has one) or the play phase, with the given
    hands and kitty; nothing played or captured yet. In play, `turn` leads (default: the
    first lead's rule); an auction-won hand needs `dealer` (and `bid`: default the default
    bid)."""
    if pos.phase not in PHASES or (pos.phase == "auction" and game.rules.auction is None):
        can = [p for p in PHASES if p != "auction" or game.rules.auction is not None]
        raise RulesdslError(f"the shedding engine starts this scenario in "
                            f"{', '.join(can)}, not {pos.phase!r}")
    rs = game.ruleset
    pos.check_deck(rs.deck, nt.format_card)
    n = game.players
    st = game.state_class(game)
    st.seed, st.max_hands, st.hand_no = pos.seed, 1, 0
    if game.levels is not None:  # every side at the scenario's level
        level = pos.context.get("level", game.levels["start"])
        if level not in game.levels["ladder"]:
            raise RulesdslError(f"level {nt.rank_name(level)} is not on the levels ladder")
        st.level = level
        st.side_levels = [level] * len(rs.teams)
    st.hands = [pos.counts(s, len(rs.deck)) for s in range(n)]
    st.kitty = list(pos.kitty)
    st.captured, st.totals = [0] * n, [0.0] * n
    st.sides = [[s for s in seats if s < n] for seats in rs.teams]
    st._event(type="position", dealer=pos.dealer)
    auction = game.rules.auction
    if pos.phase == "auction":
        opener = 0 if pos.turn is None else pos.turn
        st.phase, st.to_act = "auction", opener
        st.auction = {"bid": 0, "high": None, "opener": opener, "turns": 0, "passes": 0}
        return st
    st.phase = "play"
    if auction is not None:
        if pos.dealer is None:
            raise RulesdslError("a scenario in play after an auction needs its dealer")
        st.dealer = pos.dealer
        bid = auction["default_bid"] if pos.bid is None else pos.bid
        if bid not in auction["bids"] and bid != auction["default_bid"]:
            raise RulesdslError(f"bid {bid} is not one of the auction's bids "
                                f"({', '.join(map(str, auction['bids']))})")
        st.auction = {"bid": bid, "high": pos.dealer,
                      "opener": pos.dealer, "turns": n, "passes": n - 1}
        st._set_sides()
    elif pos.dealer is not None:
        st.dealer = pos.dealer
    if pos.turn is not None:
        leader, rule = pos.turn, "scenario"
    elif st.dealer is not None and auction is not None:
        leader, rule = st.dealer, "dealer"
    else:
        rule = game.rules.first_lead
        leader = st._leader(rule)
    st.first_leader = st.to_act = leader
    st._event(type="lead", seat=leader, rule=rule)
    return st
