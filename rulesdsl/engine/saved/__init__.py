"""Checking a saved state before it is restored (`game.state_from_json`).

A saved state is untrusted input: a client may move a card between hands, duplicate one,
set a hand count to -3 or a seat to 9. `check_saved` reads the decoded JSON (never a
built state) and raises RulesdslError naming the field's path
(`hands[2][14]: -3 is not a card count`) unless the state is one the engine could be in:

- the type and range of every field in the family state's FIELDS (seats within the
  player count, card or tile kinds within the notation and the deck, counts non-negative);
- conservation: every card or tile of the deck is in exactly one zone. Card games count
  per seat what it was dealt (the trick family's deal order, the shedding family's deal
  event) against what it holds and has played this hand (the log's play events), so a
  card moved from one hand to another is caught too;
- the phase's consistency: a seat to act when the phase needs one, the queues, pending
  claims and the play to beat agreeing with the log, totals with the results.

A state built by a family's `position` (a play scenario) has no deal record: it is checked
like the others, with conservation over the whole deck instead of per seat.
"""

from __future__ import annotations

from typing import Any

from .reader import Reader
from .shedding import check_shedding
from .tiles import check_tiles
from .trick import check_trick


def check_saved(family: str, game: Any, data: dict[str, Any]) -> None:
    """Raise RulesdslError unless `data` (a decoded saved state, every FIELDS key present)
    is a state of `game` the family's engine could be in."""
    check = {"trick": check_trick, "shedding": check_shedding, "tiles": check_tiles}
    check[family](Reader(game, data), data)
