"""A hand's lead plays (`HandPlays`), made only as far as they are asked for.

Random and search agents mostly follow: a follow needs only the plays of the led pattern
and size, and the bombs. So a wild hand's plays are made by shape when a follow asks, and
in full only when the seat leads (or lists its actions), by which time its hand is
smaller and its plays far fewer. (A hand holding no wild card is made whole at the first
question: that is a few filters over precompiled instances.) Whatever is made, a shape's
list is the full list filtered, in the same order (a test checks it), so every agent sees
the same actions and the same draws as if everything had been made at once.
"""

from __future__ import annotations

import operator
from typing import NamedTuple, Protocol

from ...model.hand import HandContext
from ...model.patterns import Reading, beats

Play = tuple[int, ...]  # sorted rank keys
Shape = tuple[str, int]  # (pattern, size): what a follow must match


class Entry(NamedTuple):
    """One lead action of a hand: a play, and its pattern when the play has several."""

    play: Play
    name: str | None  # the pattern named in the action (None: the play has one reading)
    reading: Reading
    packed: int  # the play's rank demand, packed
    shape: Shape | None  # (pattern, size) to follow with; None for a bomb


class PlayMaker(Protocol):
    """What makes a hand's plays on demand (the move generator)."""

    def lead_entries(self, packed: int) -> list[Entry]: ...

    def shape_entries(self, packed: int, shape: Shape) -> list[Entry]: ...

    def bomb_entries(self, packed: int) -> list[Entry]: ...

    def whole(self, packed: int) -> bool: ...


class HandPlays:
    """The lead plays of one rank-count vector, indexed for following. Made in full on
    first need (`entries`), or by shape (`beating`) until then."""

    __slots__ = ("packed", "_entries", "_guard", "_plays", "_parent", "_maker", "_shapes")

    def __init__(self, packed: int, entries: list[Entry] | None, guard: int,
                 parent: HandPlays | None = None, maker: PlayMaker | None = None):
        self.packed = packed  # the hand's rank counts
        self._entries = entries  # sorted by (play, name): the order of legal_actions()
        self._guard = guard
        self._plays: dict[Play, list[Reading]] | None = None
        # The larger hand these plays were pruned from: its lists, filtered, are ours.
        self._parent = parent
        self._maker = maker  # None: entries were given, nothing is made later
        # The entries of one (pattern, size), or the bombs under None, in entry order;
        # made when first asked.
        self._shapes: dict[Shape | None, list[Entry]] = {}

    @property
    def made(self) -> bool:
        """Are the lead plays made in full?"""
        return self._entries is not None

    @property
    def entries(self) -> list[Entry]:
        """Every lead play, sorted by (play, name)."""
        out = self._entries
        if out is None:
            parent = self._parent
            if parent is not None and parent._entries is not None:
                out = self._held(parent._entries)
            else:
                assert self._maker is not None
                out = self._maker.lead_entries(self.packed)
            self._entries = out
        return out

    @property
    def plays(self) -> dict[Play, list[Reading]]:
        """Each play's readings (one per pattern, sorted by name)."""
        if self._plays is None:
            plays: dict[Play, list[Reading]] = {}
            for e in self.entries:
                plays.setdefault(e.play, []).append(e.reading)
            self._plays = plays
        return self._plays

    def _held(self, entries: list[Entry]) -> list[Entry]:
        g = self._guard
        cg = self.packed | g
        return [e for e in entries if (cg - e.packed) & g == g]

    def _whole(self) -> bool:
        """Are this hand's plays cheaper made whole than by shape? (Without wild cards a
        whole list is a few filters over precompiled instances, and following by shape
        would walk the composites twice: once to follow, again to lead.)"""
        maker = self._maker
        return maker is not None and maker.whole(self.packed)

    def of_shape(self, shape: Shape | None) -> list[Entry]:
        """The entries of one (pattern, size), or the bombs (None: a bomb's entry has no
        shape), in entry order."""
        out = self._shapes.get(shape)
        if out is None:
            parent = self._parent
            known = None if parent is None else parent._shapes.get(shape)
            if known is not None:  # (the larger hand's list filtered: a few entries)
                out = self._held(known)
            elif self._entries is not None or self._whole():
                out = [e for e in self.entries if e.shape == shape]
            else:
                assert self._maker is not None
                out = self._maker.bomb_entries(self.packed) if shape is None else \
                    self._maker.shape_entries(self.packed, shape)
            self._shapes[shape] = out
        return out

    def beating(self, hc: HandContext, after: Reading) -> list[Entry]:
        """The entries whose reading beats `after`, in entry order."""
        bombs = self.of_shape(None)
        if after.bomb:
            return [e for e in bombs if beats(hc, e.reading, after)]
        key = after.key
        same = [e for e in self.of_shape((after.pattern, after.size)) if e.reading.key > key]
        above = hc.ruleset.classes_above(after.pattern) if hc.ruleset.classes else ()
        for pattern in above:  # a higher class of the same size beats it whatever its key
            same.extend(self.of_shape((pattern, after.size)))
        if above or (bombs and same):
            return sorted(same + bombs, key=entry_order)
        return same or list(bombs)

    def pruned(self, packed: int) -> HandPlays:
        """The plays a smaller hand (packed counts) still holds: filtered now when made
        in full, else made on demand (from what this hand made, where it made it)."""
        if self._entries is None:
            return HandPlays(packed, None, self._guard, self, self._maker)
        g = self._guard
        cg = packed | g
        return HandPlays(packed, [e for e in self._entries if (cg - e.packed) & g == g], g,
                         self, self._maker)


# The order of legal_actions(): by play, then by the pattern named. Only a play with several
# readings has several entries, and then every one is named, so names are compared only
# between strings (a C-level key: this sorts every follow that a bomb could also beat).
entry_order = operator.attrgetter("play", "name")


def shape_of(r: Reading) -> Shape | None:
    return None if r.bomb else (r.pattern, r.size)
