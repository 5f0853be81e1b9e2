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
    between = pos.last_order is not None
    if between or pos.side_levels or pos.top_failed:
        _between_hands(game, st, pos)
    st._event(type="position", dealer=pos.dealer)
    if between and game.rules.tribute is not None:
        if pos.turn is not None:
            raise RulesdslError("a hand after another starts with its tribute: the engine "
                                "names who acts (no turn)")
        if st._begin_tribute():
            return st
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
        rule = st._then_lead() if between else game.rules.first_lead
        leader = st._leader(rule)
    st.first_leader = st.to_act = leader
    st._event(type="lead", seat=leader, rule=rule)
    return st


def _between_hands(game: Any, st: Any, pos: Position) -> None:
    """A hand that follows another: the last hand's finishing order (the level of its
    first out's side is this hand's; tribute and the lead follow it), each side's level
    and failures at the top."""
    rs = game.ruleset
    sides = len(rs.teams)
    for what, given in (("side_levels", pos.side_levels), ("top_failed", pos.top_failed)):
        if given and game.levels is None:
            raise RulesdslError(f"{what}: the game has no levels")
        for side in given:
            if not 0 <= side < sides:
                raise RulesdslError(f"{what}: no side {side} (sides 0..{sides - 1})")
    owner = None
    if pos.last_order is not None:
        order = list(pos.last_order)
        if sorted(order) != list(range(game.players)):
            raise RulesdslError(f"last_order names seats {order}: a finishing order names "
                                f"every seat 0..{game.players - 1} once")
        owner = next(t for t, seats in enumerate(rs.teams) if order[0] in seats)
        last: dict[str, Any] = {"order": order}
        if game.levels is not None:
            last["climb"] = {"side": owner}
        st.results, st.hand_no, st.max_hands = [last], 1, 2
    if game.levels is None:
        return
    ladder = game.levels["ladder"]
    for level in pos.side_levels.values():
        if level not in ladder:
            raise RulesdslError(f"side_levels: {nt.rank_name(level)} is not on the levels "
                                "ladder")
    st.side_levels = [pos.side_levels.get(t, st.level) for t in range(sides)]
    if owner is not None and st.side_levels[owner] != st.level:
        raise RulesdslError(f"the hand is played at the level of side {owner} (the last "
                            f"hand's first out): {nt.rank_name(st.side_levels[owner])}, not "
                            f"the context's {nt.rank_name(st.level)}")
    if st.level not in st.side_levels:
        raise RulesdslError(f"level {nt.rank_name(st.level)} is no side's level")
    if pos.top_failed:
        limit = game.rules.top_failures
        if not limit:
            raise RulesdslError("top_failed: the game sends no side back (no top_failures)")
        for count in pos.top_failed.values():
            if type(count) is not int or not 0 <= count < limit:
                raise RulesdslError(f"top_failed: {count!r} is not a count of failures "
                                    f"(0 to {limit - 1})")
        st.top_failed = [pos.top_failed.get(t, 0) for t in range(sides)]
