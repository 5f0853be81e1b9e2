"""The shedding family's compiled play model: what its contract reads from `play:`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...runtime.expressions import Fn


@dataclass
class ShedPlay:
    """The shedding family's `play:` section, compiled (engine/shedding/contract.py)."""

    first_lead: str = "random"
    then_lead: str = "first_out"  # or "table": lead_table decides from the last hand
    lead_table: str | None = None
    holder: list[int] = field(default_factory=list)
    must_play_holder: str = "never"  # never | first_hand | every_hand
    takeover: str = "next_player"  # next_player | partner
    must_beat: bool = False
    highest_single: Fn | None = None
    ends: list[str] = field(default_factory=lambda: ["one_left"])
    climb: str | None = None  # with levels: a table (output levels)
    win_at_top: int = 1
    top_failures: int = 0  # hands a side may fail at the top level before it goes back (0: never)
    match_win: int = 1
    seat_score: str | None = None  # a table or formula name
    team_result: str | None = None
    payment: str | None = None
    base: int = 1
    side_payout: str | None = None
    side_score: str | None = None
    end_tables: list[str] = field(default_factory=list)
    secured: str | None = None
    sides: str = "teams"
    auction: dict[str, Any] | None = None  # bids, direction, opener, default_bid, claim_bid
    must_raise: Fn | None = None
    tribute: dict[str, Any] | None = None  # both_last, card, back, resist, leads
    instant_win: list[Fn] = field(default_factory=list)


# The values the shedding engine gives a seat's score table or formula and the payment.
SEAT_NAMES = ["place", "own", "in_hand", "cards_left", "last_captured", "last_in_hand",
              "early", "players", "base"]
