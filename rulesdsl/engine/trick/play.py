"""The trick family's compiled play model: what its contract reads from `play:`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...runtime.expressions import Fn


@dataclass
class TrickPlay:
    """The trick family's `play:` section, compiled (engine/trick/contract.py)."""

    declare_select: Fn | None = None
    declare_max: int = 3
    overcall_min: int = 2
    overcall: str = "more"
    suit_order: list[str] = field(default_factory=lambda: ["D", "C", "H", "S"])
    reinforce: bool = True
    declare_jokers: str = "none"  # pairs: a pair of one joker declares no trump
    reinforce_overcall: bool = False  # the player whose overcall stands may reinforce it
    self_overcall: bool = True
    fallback: str = "random_suit"
    later_fallback: str | None = None  # after the first hand (None: as fallback)
    first_dealer: str = "declarer"
    kitty_capture: str | None = None  # a formula's name
    follow_shape: str = "ignore"  # or pairs, format
    only_tractors_draw_tractors: bool = False  # format: no rung adds adjacency to a unit
    throw_allowed: str = "plain"
    throw_test: str = "units"  # or smallest_card
    throw_ranked_by: str = "largest_unit"  # or every_unit, highest_card
    throw_ruff_match: str = "arrangement"  # or components
    throw_failure: str = "smallest_card"
    throw_penalty: int = 0
    captures: list[tuple[str, Fn]] = field(default_factory=list)
    kitty_captures: list[str] = field(default_factory=list)  # also counted from the kitty
    result_table: str | None = None
    swing: str | None = None
    overcall_bonus: str | None = None
    overcall_bonus_to: str = "winning_side"  # or defenders
    overcall_bonus_draw: str = "defenders"  # who takes the bonus when the table names no side
    max_levels: int | None = None  # the most levels a hand moves a side, bonus included
    pass_must_stop: str = "any"  # or as_dealer: a must_stop level is passed only defending it
    next_dealer: str = "table"  # or climbing_side


# Names the trick engine supplies to the result table and the swing formula.
def trick_result_names(captures: list[str]) -> list[str]:
    names = ["points", "kitty_points", "defender_levels", "dealer_levels"]
    for c in captures:
        names += [f"defender_{c}", f"dealer_{c}"]
    return names
