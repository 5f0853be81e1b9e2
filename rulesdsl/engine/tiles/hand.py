"""Shared types of the tile engine: sets, decompositions and a hand to score.

Tile kinds are rulesdsl.notation's (0–33 suited and honors, 34–41 flowers).
The shape module finds decompositions; the scoring module evaluates them against the
ruleset's items; the state machine builds a ScoringHand when someone wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TileSet:
    """One set of a decomposed hand, as the scoring scope sees it (`each: set`)."""

    kind: str  # pair | chow | pung | kong
    tile: int  # the set's first tile (a chow's lowest), what the wilds stand for included
    concealed: bool = True  # False for claimed (exposed) melds
    wilds: int = 0  # wild tiles standing in this set
    home_wilds: int = 0  # wild tiles in it standing for their own face (财神归位)

    def tiles(self) -> list[int]:
        if self.kind == "chow":
            return [self.tile, self.tile + 1, self.tile + 2]
        size = {"pair": 2, "pung": 3, "kong": 4}[self.kind]
        return [self.tile] * size

    def as_scope(self) -> dict:
        return {"kind": self.kind, "tile": self.tile, "concealed": self.concealed,
                "wilds": self.wilds, "home_wilds": self.home_wilds}


@dataclass(frozen=True)
class Decomposition:
    """A complete reading of a hand: its sets (the pair included) and the wild reading."""

    sets: tuple[TileSet, ...]

    @property
    def pair(self) -> TileSet | None:
        return next((s for s in self.sets if s.kind == "pair"), None)


@dataclass
class ScoringHand:
    """Everything scoring needs about one player's hand at the end."""

    concealed: list[int]  # tile kinds held (wilds included, as held)
    melds: list[TileSet] = field(default_factory=list)  # claimed or declared sets
    exposed_flowers: list[int] = field(default_factory=list)  # flowers and special tiles
    winner: bool = False
    win_tile: int | None = None
    self_drawn: bool = False
    kong_replacement: bool = False
    flower_replacement: bool = False
    robbed_kong: bool = False
    # 海底: no tile could be drawn after the winning one; 天胡/地胡: nobody had claimed or
    # declared a set and the winner had not discarded yet; 杠上炮: the winning discard was
    # made with a kong's replacement in hand
    last_tile: bool = False
    first_turn: bool = False
    kong_discard: bool = False
    seat_wind: int = 27  # 1z
    discarded_wild: bool = False
