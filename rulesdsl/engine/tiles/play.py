"""The tile family's compiled play model: what its contract reads from `play:`."""

from __future__ import annotations

from dataclasses import dataclass

from ...runtime.expressions import Fn


@dataclass
class TilePlay:
    """The tile family's `play:` section, compiled (engine/tiles/contract.py)."""

    bonus: Fn | None = None
    wall: str | None = None
    chow_from: str = "previous_player"
    claim_with_wilds: bool = False
    pung_pass_lock: bool = True
    rob_kong: str = "added_only"
    discarded_wild: str = "forfeit"
    to_winner: str | None = None
    between_others: str | None = None
    stake: int = 1
    # play.kong_payments (刮风下雨): {from: discarder | others, amount} per kong kind
    kong_exposed: dict | None = None
    kong_added: dict | None = None
    kong_concealed: dict | None = None
    next_dealer: str = "unless_dealer_wins"  # after a win: or next_player, winner,
    # first_winner
    dealer_after_draw: str = "next_player"  # after a hand nobody won: or stays
    after_win: str = "end_hand"  # winner_leaves: 血战到底, the others play on
    discard_wins: str = "first_in_turn"  # every_claim: 一炮多响, every claimed win stands
    discard_win_paid_by: str = "everyone"  # discarder: only the discarder pays (放炮)
    kong_transfer: str = "none"  # to_winner: 呼叫转移
    # play.exhaustive_draw: 查花猪 (a formula over stake), 查大叫, 退税
    void_held_pays: str | None = None
    not_ready_pays: str = "nothing"
    refund_kongs: str = "none"
    void_suit: str = "none"  # declare: 定缺, each player names a suit to be void of
    # 包三家 (play.liability): which discard in the live-tile phase is live (an expression
    # over `seen`, the copies discarded or claimed before it), what the liable player pays,
    # whether their own total is zeroed, and who is exempt.
    live_tile: Fn | None = None
    liable_pays: str = "every_payment"
    liable_total_zero: bool = True
    liable_exempt: Fn | None = None  # None: all_live and not ready
