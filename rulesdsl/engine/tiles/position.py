"""A tile hand built from a given position (a play scenario), not from a deal."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ..base import Position

PHASES = ("play",)


def build_position(game: Any, pos: Position) -> Any:
    """A state at a turn: `turn` (default: the dealer) is to act with the hands, melds
    and discards given. The wall's front draws come first in `wall`; `wall_end` are the
    replacements drawn from its end; the rest of the wall is the tiles nobody was given,
    shuffled by the seed, up to `tiles_left` tiles in the wall."""
    from .state import TileState

    if pos.phase not in PHASES:
        raise RulesdslError(f"the tile engine starts a scenario in {', '.join(PHASES)}, "
                            f"not {pos.phase!r}")
    n = game.players
    meld_tiles = [t for ms in pos.melds.values() for kind, tile, _ in ms
                  for t in _meld_tiles(kind, tile)]
    turned = pos.context.get("turned")
    pos.check_deck(game.ruleset.deck, nt.format_tile,
                   also=meld_tiles + [t for ts in pos.discards.values() for t in ts]
                   + [t for ts in pos.flowers.values() for t in ts]
                   + ([] if turned is None else [turned]))
    st = TileState(game)
    st.seed, st.max_hands, st.hand_no = pos.seed, 1, 0
    st.dealer = 0 if pos.dealer is None else pos.dealer
    if game.turn_up and turned is None:
        raise RulesdslError("this ruleset turns up a tile after the deal: give it in "
                            "context (turned)")
    st.turned = turned if game.turn_up else None
    st.hands = [pos.counts(s, nt.TILE_KINDS) for s in range(n)]
    st.voids = [pos.voids.get(s) for s in range(n)]
    st.kong_bills, st.hand_wins = [], []
    if game.rules.void_suit == "none" and pos.voids:
        raise RulesdslError("voids: this ruleset names no void suits (play.void_suit)")
    if game.rules.void_suit != "none" and None in st.voids:
        raise RulesdslError("voids: every seat's void suit (定缺), e.g. {0: m, 1: p, 2: s, "
                            "3: m}")
    st.melds = [[[kind, tile, concealed] for kind, tile, concealed in pos.melds.get(s, [])]
                for s in range(n)]
    st.flowers = [list(pos.flowers.get(s, [])) for s in range(n)]
    st.discards = [list(pos.discards.get(s, [])) for s in range(n)]
    st.seen = [t for s in range(n) for t in st.discards[s]]
    for ms in pos.melds.values():  # every tile of a claimed meld was seen, as in play
        st.seen += [t for kind, tile, concealed in ms if not concealed
                    for t in _meld_tiles(kind, tile)]
    used = Counter(k for s in range(n) for k in pos.hands.get(s, []))
    used.update(pos.wall)
    used.update(pos.wall_end)
    used.update(meld_tiles)
    used.update(t for ts in pos.discards.values() for t in ts)
    used.update(t for ts in pos.flowers.values() for t in ts)
    if st.turned is not None:
        used[st.turned] += 1
    rest = Counter(game.tiles)
    rest.subtract(used)
    filler = sorted(rest.elements())
    random.Random(f"{pos.seed}/scenario").shuffle(filler)
    given = len(pos.wall) + len(pos.wall_end)
    left = given + len(filler) if pos.tiles_left is None else pos.tiles_left
    if left < given or left - given > len(filler):
        raise RulesdslError(f"a wall of {left} tiles cannot hold the {given} given and the "
                            f"{len(filler)} nobody holds")
    middle = filler[:left - given]
    st.wall = list(pos.wall) + middle + list(reversed(pos.wall_end))
    st.front, st.back = 0, len(st.wall)
    st.pung_locks = [[] for _ in range(n)]
    st.wild_discarded = [False] * n
    st.totals = [0.0] * n
    st.phase, st.source = "turn", "wall"
    st.to_act = st.dealer if pos.turn is None else pos.turn
    if pos.drawn is not None:  # the tile the seat to act has just drawn (it holds it)
        if not st.hands[st.to_act][pos.drawn]:
            raise RulesdslError(f"the seat to act does not hold its drawn tile "
                                f"{nt.format_tile(pos.drawn)}")
        st.drawn = pos.drawn
    st._event(type="position", dealer=st.dealer,
              turned=None if st.turned is None else nt.format_tile(st.turned))
    return st


def _meld_tiles(kind: str, tile: int) -> list[int]:
    if kind == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if kind == "kong" else 3)
