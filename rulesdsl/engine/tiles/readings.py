"""Reading a tile hand into sets and pairs: the wild tables, the decomposer (every
reading, wilds standing in, bounded), and the waits a reading had before its win tile."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ... import notation as nt
from ...model.ruleset import Ruleset
from ...runtime.expressions import Env
from .hand import Decomposition, TileSet

PLAYABLE = 34  # kinds 0..33 form sets; 34.. are flowers
MAX_READINGS = 3000
MAX_STEPS = 200_000
WAITS = ("closed", "edge", "pair", "other")
# (ruleset id, the values) -> (the ruleset, its _Wilds): pure, and built per hand scored
_WILD_TABLES: dict[tuple, tuple[Ruleset, Any]] = {}
_WILD_TABLES_LIMIT = 1000


# ------------------------------------------------------------------ the wild tables


@dataclass
class _Wilds:
    """Which tile kinds are wild in this hand and what each can stand for."""

    wild: list[bool]
    stands: dict[int, frozenset[int]]  # wild face -> kinds it stands for

    @classmethod
    def of(cls, ruleset: Ruleset, values: dict[str, Any]) -> _Wilds:
        """The tables of these values (shared: read them, never change them)."""
        try:  # type-tagged, so that True and 1 stay apart
            key = (id(ruleset), tuple(sorted((k, v.__class__, v) for k, v in values.items())))
            hit = _WILD_TABLES.get(key)
        except TypeError:  # an unhashable value: not memoised
            return cls._build(ruleset, values)
        if hit is not None and hit[0] is ruleset:
            return hit[1]
        found = cls._build(ruleset, values)
        if len(_WILD_TABLES) > _WILD_TABLES_LIMIT:
            _WILD_TABLES.clear()
        _WILD_TABLES[key] = (ruleset, found)
        return found

    @classmethod
    def _build(cls, ruleset: Ruleset, values: dict[str, Any]) -> _Wilds:
        wild = [False] * nt.TILE_KINDS
        stands: dict[int, frozenset[int]] = {}
        for kind in range(nt.TILE_KINDS):
            if kind < len(ruleset.deck) and not ruleset.deck[kind]:
                continue
            env = Env(kind, values)
            for w in ruleset.wilds:
                if w.select(env):
                    wild[kind] = True
                    stands[kind] = frozenset(
                        j for j in range(PLAYABLE)
                        if (j >= len(ruleset.deck) or ruleset.deck[j])
                        and w.stands_for(Env(j, values)))
                    break
        return cls(wild, stands)

    def split(self, tiles: Iterable[int]) -> tuple[list[int], list[int], list[int]]:
        """(34 counts of plain tiles, wild tiles, unplaceable tiles such as held flowers)."""
        counts = [0] * PLAYABLE
        wilds: list[int] = []
        stray: list[int] = []
        for t in tiles:
            if self.wild[t]:
                wilds.append(t)
            elif t < PLAYABLE:
                counts[t] += 1
            else:
                stray.append(t)
        return counts, wilds, stray


# ------------------------------------------------------------------ the decomposer


def _suit_ok(start: int) -> bool:
    return 0 <= start < 27 and start % 9 <= 6


class _Search:
    """Recursive search for complete (`sets`/`pairs` given) or maximal partial readings.

    The pool of wilds is kept by class: a wild that can stand for its own face is its own
    class (it reads as `home` there); wilds that never can and stand for the same kinds are
    interchangeable and share a class, which keeps symmetric readings out of the search.
    """

    def __init__(self, counts: list[int], wild_faces: list[int], stands: dict[int,
                 frozenset[int]], sets: int | None, pairs: int | None, chows: bool):
        self.counts = list(counts)
        self.pool: dict[Any, int] = {}
        self.class_stands: dict[Any, frozenset[int]] = {}
        for f in wild_faces:
            st = stands.get(f, frozenset())
            key: Any = f if f in st else ("any", st)
            self.pool[key] = self.pool.get(key, 0) + 1
            self.class_stands[key] = st
        self.sets = sets
        self.pairs = pairs
        self.complete = sets is not None
        self.chows = chows
        self.results: dict[tuple, Decomposition] = {}
        self.steps = 0
        self.truncated = False
        self.acc: list[TileSet] = []
        self.left: list[int] = []

    # ---- wild filling

    def _fills(self, slots: list[int]) -> Iterator[tuple[list[Any], int]]:
        """Ways to fill these slot kinds with wilds from the pool: (classes used, home)."""
        if not slots:
            yield [], 0
            return
        j, rest = slots[0], slots[1:]
        for key, n in list(self.pool.items()):
            if n <= 0 or j not in self.class_stands[key]:
                continue
            self.pool[key] -= 1
            inner = self._fills(rest)
            try:
                for used, home in inner:
                    yield [key, *used], home + (1 if key == j else 0)
            finally:
                inner.close()
                self.pool[key] += 1

    def _place(self, kind: str, tile: int, reals: list[int], wild_slots: list[int]) -> Iterator[
            None]:
        """Take `reals` from the counts and fill `wild_slots` every possible way."""
        for r in reals:
            self.counts[r] -= 1
        seen: set[tuple[int, tuple[str, ...]]] = set()
        fills = self._fills(wild_slots)
        try:
            for used, home in fills:
                key = (home, tuple(sorted(map(repr, used))))
                if key in seen:
                    continue
                seen.add(key)
                # the wilds in `used` stay taken from the pool while _fills is suspended
                self.acc.append(TileSet(kind, tile, True, len(used), home))
                try:
                    yield
                finally:
                    self.acc.pop()
        finally:
            fills.close()
            for r in reals:
                self.counts[r] += 1

    # ---- the search

    def run(self, limit: int = MAX_READINGS) -> list[Decomposition]:
        self.limit = limit
        if self.complete:
            assert self.sets is not None and self.pairs is not None
            size = sum(self.counts) + sum(self.pool.values())
            if size != 3 * self.sets + 2 * self.pairs:
                return []
        self._rec(0)
        return list(self.results.values())

    def _stop(self) -> bool:
        self.steps += 1
        if len(self.results) >= self.limit or self.steps > MAX_STEPS:
            self.truncated = True
            return True
        return False

    def _rec(self, start: int) -> None:
        if self._stop():
            return
        k = start
        while k < PLAYABLE and not self.counts[k]:
            k += 1
        if k == PLAYABLE:
            self._finish()
            return
        c = self.counts[k]
        need_sets = self.sets is None or self.sets > 0
        need_pairs = self.pairs is None or self.pairs > 0
        # pungs, then pairs, then chows: the usual order of value
        if need_sets:
            for r in range(min(c, 3), 0, -1):
                self._descend(self._place("pung", k, [k] * r, [k] * (3 - r)), k, "sets")
        if need_pairs:
            for r in range(min(c, 2), 0, -1):
                self._descend(self._place("pair", k, [k] * r, [k] * (2 - r)), k, "pairs")
        if need_sets and self.chows and k < 27:
            for p in range(3):
                s = k - p
                if not _suit_ok(s):
                    continue
                self._chow(s, k)
        if not self.complete and c == 1:
            # leave this tile unused (a second copy would have made a pair: never maximal)
            self.counts[k] -= 1
            self.left.append(k)
            self._rec(k)
            self.left.pop()
            self.counts[k] += 1

    def _chow(self, s: int, k: int) -> None:
        above = [j for j in (s, s + 1, s + 2) if j > k]
        # each tile above k: real when held, or a wild standing in
        options: list[list[bool]] = [[]]
        for j in above:
            choices = [True, False] if self.counts[j] else [False]
            options = [o + [c] for o in options for c in choices]
        for real_above in options:
            reals = [k] + [j for j, real in zip(above, real_above) if real]
            wild_slots = [j for j in (s, s + 1, s + 2) if j not in reals]
            self._descend(self._place("chow", s, reals, wild_slots), k, "sets")

    def _descend(self, placements: Iterator[None], k: int, what: str) -> None:
        for _ in placements:
            if what == "sets" and self.sets is not None:
                self.sets -= 1
                self._rec(k)
                self.sets += 1
            elif what == "pairs" and self.pairs is not None:
                self.pairs -= 1
                self._rec(k)
                self.pairs += 1
            else:
                self._rec(k)
            if len(self.results) >= self.limit:
                return

    def _wild_total(self) -> int:
        return sum(self.pool.values())

    def _finish(self, first_shape: int = 0) -> None:
        """No plain tile left: the remaining wilds make whole sets of their own."""
        w = self._wild_total()
        if self.complete:
            if self.sets == 0 and self.pairs == 0:
                if w == 0:
                    self._record()
                return
            self._all_wild_sets(first_shape)
            return
        if w >= 2:
            if not self._all_wild_sets(first_shape):
                self._record()  # wilds that stand for nothing
            return
        if w == 1:
            st = next(self.class_stands[key] for key, n in self.pool.items() if n)
            if any(t in st for t in self.left):
                return  # the wild could pair an unused tile: not maximal
        for a in self.left:
            if self.chows and _suit_ok(a) and a + 1 in self.left and a + 2 in self.left:
                return  # an unused chow: not maximal
        self._record()

    def _wild_shapes(self) -> list[tuple[str, int]]:
        kinds = sorted(set().union(*(self.class_stands[key] for key, n in self.pool.items()
                                     if n)))
        shapes = [("pung", j) for j in kinds]
        if self.chows:
            shapes += [("chow", s) for s in kinds if _suit_ok(s)]
        return shapes + [("pair", j) for j in kinds]

    def _all_wild_sets(self, first_shape: int) -> bool:
        """Try each set made of wilds alone, in a fixed order (shape index >= first_shape,
        so one reading is not found once per order of its sets); False if none fits."""
        tried = False
        for index, (kind, tile) in enumerate(self._wild_shapes()):
            if index < first_shape:
                continue
            what = "pairs" if kind == "pair" else "sets"
            if what == "pairs" and self.pairs is not None and self.pairs <= 0:
                continue
            if what == "sets" and self.sets is not None and self.sets <= 0:
                continue
            slots = [tile] * 2 if kind == "pair" else (
                [tile, tile + 1, tile + 2] if kind == "chow" else [tile] * 3)
            for _ in self._place(kind, tile, [], slots):
                tried = True
                if what == "pairs" and self.pairs is not None:
                    self.pairs -= 1
                    self._finish(index)
                    self.pairs += 1
                elif what == "sets" and self.sets is not None:
                    self.sets -= 1
                    self._finish(index)
                    self.sets += 1
                else:
                    self._finish(index)
                if self._stop():
                    return tried
        return tried

    def _record(self) -> None:
        key = tuple(sorted(self.acc, key=lambda s: (s.tile, s.kind, s.wilds, s.home_wilds)))
        if key not in self.results:
            self.results[key] = Decomposition(key)


def brute_force_readings(counts: list[int], wild_faces: list[int],
                         stands: dict[int, frozenset[int]], sets: int | None,
                         pairs: int | None, chows: bool = True,
                         limit: int = MAX_READINGS) -> tuple[list[Decomposition], bool]:
    """Readings of the plain `counts` (34 kinds) with these wilds: complete ones (exactly
    `sets` sets and `pairs` pairs) or, with sets=None, maximal partial ones. Also says
    whether the search hit its bound."""
    search = _Search(counts, wild_faces, stands, sets, pairs, chows)
    found = search.run(limit)
    return found, search.truncated


def _stands_ok(dec: Decomposition, counts: list[int], allowed: frozenset[int]) -> bool:
    """Some way of placing the plain tiles leaves the wilds only on kinds they stand for."""
    if all(not s.wilds for s in dec.sets):
        return True
    return any(all(t in allowed for s, mask in zip(dec.sets, assignment)
                   for t, is_wild in zip(s.tiles(), mask) if is_wild)
               for assignment in _slot_assignments(counts, dec.sets))


def _shape_readings(counts: list[int], wild_faces: list[int],
                    stands: dict[int, frozenset[int]], sets: int, pairs: int,
                    set_kinds: Iterable[str], limit: int = MAX_READINGS
                    ) -> tuple[list[Decomposition], bool] | None:
    """Complete readings from the shape module (rulesdsl.engine.tiles.shapes), which
    lets a wild stand for any kind and knows one wild face: its readings are filtered by
    what the wilds stand for. None when it cannot express these wilds."""
    try:
        from .shapes import WinShape
    except ImportError:
        return None
    faces = set(wild_faces)
    homes = [f for f in faces if f in stands.get(f, frozenset())]
    if len(faces) > 1 and homes:
        return None  # several wild faces, one of them standing for itself
    wild_kind = homes[0] if homes else None
    allowed = frozenset().union(*(stands.get(f, frozenset()) for f in faces)) if faces \
        else frozenset()
    shape = WinShape(sets, pairs, set_kinds)
    out: list[Decomposition] = []
    for dec in shape.decompositions(counts, len(wild_faces), 0, wild_kind):
        if _stands_ok(dec, counts, allowed):
            out.append(dec)
            if len(out) >= limit:
                return out, True
    return out, False


def find_readings(counts: list[int], wild_faces: list[int], stands: dict[int, frozenset[int]],
                  sets: int | None, pairs: int | None, chows: bool = True,
                  limit: int = MAX_READINGS) -> tuple[list[Decomposition], bool]:
    """The decomposer the scorer uses: complete readings from the shape module when it
    is there, partial readings (and any case it cannot express) from the search here;
    at most `limit` of them (the flag says whether the search stopped there)."""
    if sets is not None and pairs is not None:
        kinds = ["chow", "pung"] if chows else ["pung"]
        found = _shape_readings(counts, wild_faces, stands, sets, pairs, kinds, limit)
        if found is not None:
            return found
    return brute_force_readings(counts, wild_faces, stands, sets, pairs, chows, limit)


# ------------------------------------------------------------------ waits


def _slot_assignments(counts: list[int], sets: tuple[TileSet, ...]) -> list[list[list[bool]]]:
    """For each way the plain tiles fit the sets: per set, which slots hold a wild."""
    out: list[list[list[bool]]] = []
    counts = list(counts)

    def rec(i: int, acc: list[list[bool]]) -> None:
        if len(out) >= 16:
            return
        if i == len(sets):
            out.append(list(acc))
            return
        s = sets[i]
        tiles = s.tiles()
        n = len(tiles)
        if s.kind == "chow":
            masks = [[(m >> b) & 1 == 1 for b in range(n)] for m in range(1 << n)
                     if bin(m).count("1") == s.wilds]
        else:
            masks = [[b < s.wilds for b in range(n)]]
        for mask in masks:
            reals = [t for t, w in zip(tiles, mask) if not w]
            if any(t >= PLAYABLE for t in reals):
                continue
            for t in reals:
                counts[t] -= 1
            if all(counts[t] >= 0 for t in reals):
                rec(i + 1, acc + [mask])
            for t in reals:
                counts[t] += 1

    rec(0, [])
    return out


def wait_of(s: TileSet, position: int) -> str:
    """The wait when the winning tile is at `position` of set `s`."""
    if s.kind == "pair":
        return "pair"
    if s.kind == "chow":
        if position == 1:
            return "closed"
        number = nt.tile_number(s.tile)
        if (number == 1 and position == 2) or (number == 7 and position == 0):
            return "edge"
    return "other"


def wins_for(dec: Decomposition, counts: list[int], win_tile: int | None,
             win_is_wild: bool) -> list[tuple[str, int | None]]:
    """Each way this reading can have been completed by the winning tile: (the wait, the
    index in `dec.sets` of the set it completed), waits in WAITS order."""
    if win_tile is None:
        return [("other", None)]
    found: set[tuple[str, int]] = set()
    for assignment in _slot_assignments(counts, dec.sets):
        for i, (s, mask) in enumerate(zip(dec.sets, assignment)):
            for pos, (t, is_wild) in enumerate(zip(s.tiles(), mask)):
                if (win_is_wild and is_wild) or (not win_is_wild and not is_wild
                                                 and t == win_tile):
                    found.add((wait_of(s, pos), i))
    ordered = sorted(found, key=lambda f: (WAITS.index(f[0]), f[1]))
    return list(ordered) or [("other", None)]

