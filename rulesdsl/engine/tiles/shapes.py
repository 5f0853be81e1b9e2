"""Win shapes: can these concealed tiles, with wilds, make N sets and M pairs?

A set never crosses suits, so a hand splits into four groups (m, p, s and the honors).
For each group a memoised table answers "how few wilds make this group into sets only,
or sets plus p pairs" (the table approach of yuanfengyun/q_algorithm); a hand's answer
sums the four groups, choosing which groups hold the pairs. No wild substitution is ever
tried: a wild is only counted where a set is short of a tile, so a check costs a few dict
look-ups whatever the number of wilds. Honors form pungs and pairs, never chows.

Scoring needs the actual readings: `decompositions` walks the tiles lowest first,
choosing the group the lowest tile goes into, and prunes every branch whose rest cannot
win by the tables, so its work follows the number of distinct answers.

Kongs are declared melds (they count as sets, passed as `melds`), so the concealed part
only ever reads as chows, pungs and pairs.

`can_win_keys` is the same check on four integer group keys (base-5 counts, `suit_keys`)
that a running state keeps up to date as tiles move: four int-keyed look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations_with_replacement, product

from .hand import Decomposition, TileSet

# "Impossible": above any wild count, and sums of it stay above it.
NEVER = 1000

SUITED = 27  # kinds 0–26 are the three suits; 27–33 the honors
KINDS = 34  # flowers (34–41) are never part of a shape

_SET_KINDS = frozenset({"chow", "pung", "kong"})

# Per-group tables, shared by every WinShape with the same configuration (module level so
# that building a WinShape per game, or per ruleset, keeps the tables warm).
# (chows allowed, pungs allowed, max pairs) -> {group counts: min wilds for 0..max pairs}.
_TABLES: dict[tuple[bool, bool, int], dict[tuple[int, ...], tuple[int, ...]]] = {}


def _table(chow: bool, pung: bool, pairs: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    return _TABLES.setdefault((chow, pung, pairs), {})


# -- integer group keys ------------------------------------------------------------------
# A group's counts as one integer, base 5 (a kind has 0–4 copies): 9 digits for a suit, 7
# for the honors. Moving one tile adds or subtracts a power of five, so a state can keep
# the four keys of each hand up to date and a win check is four int-keyed look-ups.
# A key holds counts 0–4 only (a fifth copy would carry into the next digit); counts
# that may exceed 4 go through can_win.

GROUP = tuple(k // 9 for k in range(KINDS))  # kind -> group (0–2 suits, 3 honors)
WEIGHT = tuple(5 ** (k % 9) for k in range(KINDS))  # kind -> its digit's value in the key
_GROUP_SIZE = (9, 9, 9, 7)

# (chows allowed, pungs allowed, max pairs, honors?) -> {int key: keyed row}, where a
# keyed row is (tiles in the group, min wilds with no pair, extra wilds for one pair,
# the full row of min wilds for 0..max pairs).
_KEYED: dict[tuple[bool, bool, int, bool], dict[int, tuple]] = {}


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The four group keys (m, p, s, honors) of 34 tile counts (entries past 33 ignored)."""
    keys = [0, 0, 0, 0]
    for k in range(KINDS):
        c = counts[k]
        if c:
            keys[GROUP[k]] += c * WEIGHT[k]
    return keys


# Per base-5 number below 5**5 (the low or high five digits of a key): its digit sum, and
# its lowest non-zero digit as (position, count); (5, 0) for zero.
_LOW_DIGITS = 3125
_DIGIT_SUM = tuple(sum(_n // 5 ** _j % 5 for _j in range(5)) for _n in range(_LOW_DIGITS))
_LOWEST = tuple(next(((_j, _n // 5 ** _j % 5) for _j in range(5) if _n // 5 ** _j % 5),
                     (5, 0)) for _n in range(_LOW_DIGITS))
_POW5 = tuple(5 ** _j for _j in range(9))
_KEYED_LIMIT = 200_000  # rows per keyed table (about 200 bytes each) before it is cleared


def _keyed_entry(key: int, table: dict[int, tuple], chow: bool, pung: bool,
                 pairs: int) -> tuple:
    """_entry on an int group key, memoised in `table` as keyed rows (see _KEYED): the
    same recursion on the same digits, without building a tuple per step."""
    hit = table.get(key)
    if hit is not None:
        return hit
    low, high = key % _LOW_DIGITS, key // _LOW_DIGITS
    tiles = _DIGIT_SUM[low] + _DIGIT_SUM[high]
    if not tiles:
        row = tuple(2 * p for p in range(pairs + 1))  # only all-wild pairs are left
    elif pairs == 1:
        row = _keyed_one_pair(key, low, high, table, chow, pung)
    else:
        i, c = _LOWEST[low] if low else _LOWEST[high]
        if not low:
            i += 5
        best = [NEVER] * (pairs + 1)
        span = range(pairs + 1)
        w = _POW5[i]
        if pung:
            for r in range(1, min(3, c) + 1):
                sub = table.get(key - r * w) or _keyed_entry(key - r * w, table, chow, pung,
                                                              pairs)
                sub = sub[3]
                for p in span:
                    v = 3 - r + sub[p]
                    if v < best[p]:
                        best[p] = v
        if pairs:
            for r in range(1, min(2, c) + 1):
                sub = table.get(key - r * w) or _keyed_entry(key - r * w, table, chow, pung,
                                                              pairs)
                sub = sub[3]
                for p in range(1, pairs + 1):
                    v = 2 - r + sub[p - 1]
                    if v < best[p]:
                        best[p] = v
        if chow:
            for run, wilds in _chows_through(key, i):
                sub = (table.get(run) or _keyed_entry(run, table, chow, pung, pairs))[3]
                for p in span:
                    v = wilds + sub[p]
                    if v < best[p]:
                        best[p] = v
        row = tuple(min(b, NEVER) for b in best)
    entry = table[key] = (tiles, row[0], row[1] - row[0] if pairs else 0, row)
    return entry


def _chows_through(key: int, i: int) -> list[tuple[int, int]]:
    """Each chow through the key's lowest tile i: the key left once it is taken, and the
    wilds it needs (as in _entry: a real tile where one is present, a wild where none is)."""
    out = []
    for a in range(max(0, i - 2), min(i, 6) + 1):
        run, wilds = key, 0
        for j in (a, a + 1, a + 2):
            if key // _POW5[j] % 5:
                run -= _POW5[j]
            else:
                wilds += 1
        out.append((run, wilds))
    return out


def _keyed_one_pair(key: int, low: int, high: int, table: dict[int, tuple], chow: bool,
                    pung: bool) -> tuple[int, int]:
    """The row of a non-empty key for one pair (the common shape): _keyed_entry's
    recursion with the two minima held in locals."""
    i, c = _LOWEST[low] if low else _LOWEST[high]
    if not low:
        i += 5
    w = _POW5[i]
    b0 = b1 = NEVER
    if pung:
        for r in range(1, min(3, c) + 1):
            k = key - r * w
            sub = (table.get(k) or _keyed_entry(k, table, chow, pung, 1))[3]
            if 3 - r + sub[0] < b0:
                b0 = 3 - r + sub[0]
            if 3 - r + sub[1] < b1:
                b1 = 3 - r + sub[1]
    for r in range(1, min(2, c) + 1):
        k = key - r * w
        sub = (table.get(k) or _keyed_entry(k, table, chow, pung, 1))[3]
        if 2 - r + sub[0] < b1:
            b1 = 2 - r + sub[0]
    if chow:
        for run, wilds in _chows_through(key, i):
            sub = (table.get(run) or _keyed_entry(run, table, chow, pung, 1))[3]
            if wilds + sub[0] < b0:
                b0 = wilds + sub[0]
            if wilds + sub[1] < b1:
                b1 = wilds + sub[1]
    return (min(b0, NEVER), min(b1, NEVER))


def _entry(key: tuple[int, ...], table: dict, chow: bool, pung: bool,
           pairs: int) -> tuple[int, ...]:
    """Fewest wilds that make the group `key` into sets plus p pairs, for p = 0..pairs.

    The lowest tile present must be real in some group: a pung or a pair of it (with
    wilds making up the size), or a chow through it. That choice exhausts the readings,
    and memoising on the remaining counts keeps the table small (a suit has at most a
    few thousand reachable keys in play).
    """
    hit = table.get(key)
    if hit is not None:
        return hit
    i = next((j for j, c in enumerate(key) if c), -1)
    if i < 0:
        result = tuple(2 * p for p in range(pairs + 1))  # only all-wild pairs are left
        table[key] = result
        return result
    best = [NEVER] * (pairs + 1)
    c = key[i]
    rest = list(key)
    if pung:
        for r in range(1, min(3, c) + 1):
            rest[i] = c - r
            sub = _entry(tuple(rest), table, chow, pung, pairs)
            for p in range(pairs + 1):
                best[p] = min(best[p], 3 - r + sub[p])
    if pairs:
        for r in range(1, min(2, c) + 1):
            rest[i] = c - r
            sub = _entry(tuple(rest), table, chow, pung, pairs)
            for p in range(1, pairs + 1):
                best[p] = min(best[p], 2 - r + sub[p - 1])
    rest[i] = c
    if chow:
        # Chows through tile i, which may sit low, middle or high (tiles below i are gone,
        # so those positions are wilds). Using a real tile where one is present is never
        # worse than a wild there: swap the wild into the group that used the real tile.
        for a in range(max(0, i - 2), min(i, 6) + 1):
            run = list(key)
            wilds = 0
            for j in (a, a + 1, a + 2):
                if run[j]:
                    run[j] -= 1
                else:
                    wilds += 1
            sub = _entry(tuple(run), table, chow, pung, pairs)
            for p in range(pairs + 1):
                best[p] = min(best[p], wilds + sub[p])
    result = tuple(min(b, NEVER) for b in best)
    table[key] = result
    return result


class WinShape:
    """`sets` sets and `pairs` pairs, sets drawn from `set_kinds`; built once per ruleset."""

    __slots__ = ("sets", "pairs", "set_kinds", "_chow", "_pung", "_suits", "_honors",
                 "_ksuits", "_khonors")

    def __init__(self, sets: int, pairs: int, set_kinds: Iterable[str]):
        kinds = frozenset(set_kinds)
        unknown = kinds - _SET_KINDS
        if unknown:
            raise ValueError(f"unknown set kinds {sorted(unknown)}; use chow, pung, kong")
        if sets < 0 or pairs < 0:
            raise ValueError("a win shape needs non-negative sets and pairs")
        self.sets = sets
        self.pairs = pairs
        self.set_kinds = kinds
        self._chow = "chow" in kinds
        self._pung = "pung" in kinds
        self._suits = _table(self._chow, self._pung, pairs)
        self._honors = _table(False, self._pung, pairs)  # honors never chow
        self._ksuits = _KEYED.setdefault((self._chow, self._pung, pairs, False), {})
        self._khonors = _KEYED.setdefault((False, self._pung, pairs, True), {})

    def __repr__(self) -> str:
        return f"WinShape(sets={self.sets}, pairs={self.pairs}, set_kinds={sorted(self.set_kinds)})"

    # -- the per-group minimum -------------------------------------------------------

    def _row(self, key: tuple[int, ...], honors: bool) -> tuple[int, ...]:
        """Fill a table row on a miss (each key is computed once per process)."""
        if honors:
            return _entry(key, self._honors, False, self._pung, self.pairs)
        return _entry(key, self._suits, self._chow, self._pung, self.pairs)

    def _min_wilds(self, counts: Sequence[int], pairs: int) -> int:
        """Fewest wilds so the tiles make some number of sets plus exactly `pairs` pairs."""
        # Unrolled over the four groups: this is the hot path of every win check.
        suits, honors = self._suits, self._honors
        key = tuple(counts[0:9])
        a = suits.get(key) or self._row(key, False)
        key = tuple(counts[9:18])
        b = suits.get(key) or self._row(key, False)
        key = tuple(counts[18:27])
        c = suits.get(key) or self._row(key, False)
        key = tuple(counts[27:34])
        d = honors.get(key) or self._row(key, True)
        if pairs == 1:  # the common case: pick the group that holds the pair
            total = a[0] + b[0] + c[0] + d[0] + min(
                a[1] - a[0], b[1] - b[0], c[1] - c[0], d[1] - d[0])
        elif pairs == 0:
            total = a[0] + b[0] + c[0] + d[0]
        else:  # share the pairs among the groups
            acc = a[: pairs + 1]
            for row in (b, c, d):
                acc = tuple(min(acc[q] + row[p - q] for q in range(p + 1))
                            for p in range(pairs + 1))
            total = acc[pairs]
        return total if total < NEVER else NEVER

    def _keyed_row(self, key: int, honors: bool) -> tuple:
        """Fill an int-keyed row on a miss (and the rows of the keys it reads)."""
        table = self._khonors if honors else self._ksuits
        if len(table) > _KEYED_LIMIT:
            table.clear()
        return _keyed_entry(key, table, self._chow and not honors, self._pung, self.pairs)

    # -- the public checks -----------------------------------------------------------

    def can_win_keys(self, keys: Sequence[int], wilds: int, melds: int = 0) -> bool:
        """can_win on group keys (see suit_keys): the same answer for the same tiles, in
        four int-keyed look-ups. The engine keeps each hand's keys up to date as tiles
        move, so its in-play check never rebuilds counts."""
        ks, kh = self._ksuits, self._khonors
        a = ks.get(keys[0]) or self._keyed_row(keys[0], False)
        b = ks.get(keys[1]) or self._keyed_row(keys[1], False)
        c = ks.get(keys[2]) or self._keyed_row(keys[2], False)
        d = kh.get(keys[3]) or self._keyed_row(keys[3], True)
        left = self.sets - melds
        if (left < 0 or wilds < 0
                or a[0] + b[0] + c[0] + d[0] + wilds != 3 * left + 2 * self.pairs):
            return False
        if self.pairs == 1:  # the common shape, inlined
            need = a[1] + b[1] + c[1] + d[1] + min(a[2], b[2], c[2], d[2])
        else:
            need = self._need(a, b, c, d)
        if need > wilds:
            return False
        return need == wilds or self._chow or self._pung

    def wilds_short(self, keys: Sequence[int]) -> int:
        """The fewest wilds with which the tiles of these group keys make sets and the
        pairs, every tile used, whatever the tile count: can_win_keys wins only with that
        many wilds or more. A tile more lowers it by one at most (a wild could stand in
        for that tile), so tiles short by more than their wilds and one win with no tile
        added."""
        ks, kh = self._ksuits, self._khonors
        return self._need(ks.get(keys[0]) or self._keyed_row(keys[0], False),
                          ks.get(keys[1]) or self._keyed_row(keys[1], False),
                          ks.get(keys[2]) or self._keyed_row(keys[2], False),
                          kh.get(keys[3]) or self._keyed_row(keys[3], True))

    def _need(self, a: tuple, b: tuple, c: tuple, d: tuple) -> int:
        """The fewest wilds for four groups' keyed rows, the pairs in the best groups."""
        if self.pairs == 1:
            return a[1] + b[1] + c[1] + d[1] + min(a[2], b[2], c[2], d[2])
        if self.pairs == 0:
            return a[1] + b[1] + c[1] + d[1]
        pairs = self.pairs
        acc = a[3]
        for row in (b[3], c[3], d[3]):
            acc = tuple(min(acc[q] + row[p - q] for q in range(p + 1))
                        for p in range(pairs + 1))
        return acc[pairs]

    def _target(self, melds: int) -> int:
        """Concealed tiles plus wilds that a win needs, or -1 if `melds` is too many."""
        left = self.sets - melds
        return 3 * left + 2 * self.pairs if left >= 0 else -1

    def wilds_needed(self, counts: Sequence[int], melds: int) -> int:
        """Fewest wilds with which the concealed `counts` (34 kinds; entries past 33 are
        ignored) make up to (sets − melds) sets plus the pairs, every tile used.

        The hand then wins with exactly target − tiles wilds, which is this number plus
        a multiple of three (the extra wilds make whole sets of their own). NEVER if no
        number of wilds completes it (too many tiles for the shape, or a bad shape).
        """
        target = self._target(melds)
        if target < 0:
            return NEVER
        tiles = sum(counts[:KINDS])
        need = self._min_wilds(counts, self.pairs)
        if tiles + need > target:
            return NEVER
        if tiles + need < target and not (self._chow or self._pung):
            return NEVER  # the extra wilds would have to make sets, and no set kind is allowed
        return need

    def can_win(self, counts: Sequence[int], wilds: int, melds: int) -> bool:
        """Do the concealed `counts` plus `wilds` wild tiles make (sets − melds) sets and the
        pairs exactly? The tile count must match the shape's size exactly."""
        left = self.sets - melds
        tiles = sum(counts) if len(counts) <= KINDS else sum(counts[:KINDS])
        if left < 0 or wilds < 0 or tiles + wilds != 3 * left + 2 * self.pairs:
            return False
        if self.pairs == 1:
            # The common shape, inlined: four table rows, the pair in the cheapest group.
            suits = self._suits
            key = tuple(counts[0:9])
            a = suits.get(key) or self._row(key, False)
            key = tuple(counts[9:18])
            b = suits.get(key) or self._row(key, False)
            key = tuple(counts[18:27])
            c = suits.get(key) or self._row(key, False)
            key = tuple(counts[27:34])
            d = self._honors.get(key) or self._row(key, True)
            a0, b0, c0, d0 = a[0], b[0], c[0], d[0]
            need = a0 + b0 + c0 + d0 + min(a[1] - a0, b[1] - b0, c[1] - c0, d[1] - d0)
        else:
            need = self._min_wilds(counts, self.pairs)
        if need > wilds:
            return False
        return need == wilds or self._chow or self._pung

    # -- every reading, for scoring --------------------------------------------------

    def decompositions(self, counts: Sequence[int], wilds: int, melds: int,
                       wild_kind: int | None = None) -> Iterator[Decomposition]:
        """Every distinct reading of the concealed `counts` plus `wilds` wilds as
        (sets − melds) sets and the pairs (distinct as multisets of TileSets).

        Each TileSet is concealed, counts the wilds standing in it, and as `home_wilds`
        those standing for `wild_kind` (the wild tile's own kind, when the wilds are
        copies of one tile; None when not applicable). Wilds may stand for any kind 0–33
        (even a fifth copy of a kind: the tile supply is the caller's rule, not the
        shape's), so a set made only of wilds is read once per face it could show.
        """
        target = self._target(melds)
        if target < 0 or wilds < 0:
            return
        work = [int(c) for c in counts[:KINDS]]
        if sum(work) + wilds != target or self._min_wilds(work, self.pairs) > wilds:
            return
        seen: set[tuple] = set()
        made: dict[tuple, TileSet] = {}  # one TileSet object per distinct set reading
        wild_sets, wild_pairs = self._wild_faces(wild_kind)
        for reading in self._walk(work, 0, None, wilds, self.sets - melds, self.pairs, [],
                                  wild_kind, wild_sets, wild_pairs):
            if reading in seen:
                continue
            seen.add(reading)
            sets = []
            for item in reading:
                ts = made.get(item)
                if ts is None:
                    ts = made[item] = TileSet(item[1], item[0], True, item[2], item[3])
                sets.append(ts)
            yield Decomposition(tuple(sets))

    def _options(self, work: list[int], i: int, wild_kind: int | None,
                 sets: int, pairs: int) -> Iterator[tuple[tuple, tuple[int, ...], int]]:
        """The groups that can hold one real copy of tile i, the lowest left: each as
        (its reading (tile, kind, wilds, home), the real tiles it takes, wilds it takes)."""
        c = work[i]
        if sets and self._pung:
            for r in range(1, min(3, c) + 1):
                w = 3 - r
                yield (i, "pung", w, w if i == wild_kind else 0), (i,) * r, w
        if pairs:
            for r in range(1, min(2, c) + 1):
                w = 2 - r
                yield (i, "pair", w, w if i == wild_kind else 0), (i,) * r, w
        if sets and self._chow and i < SUITED:
            base, pos = i - i % 9, i % 9
            for a in range(max(0, pos - 2), min(pos, 6) + 1):
                run = (base + a, base + a + 1, base + a + 2)
                # Each position above i may be real (if present) or a wild: both readings
                # are distinct for scoring (which set the wild sits in). Positions below i
                # are wilds (those tiles are used up); i itself is real.
                choices = [((j, True),) if j == i else
                           ((j, False), (j, True)) if j > i and work[j] else ((j, False),)
                           for j in run]
                for pick in product(*choices):
                    reals = tuple(j for j, real in pick if real)
                    faces = [j for j, real in pick if not real]
                    home = sum(1 for f in faces if f == wild_kind)
                    yield (run[0], "chow", len(faces), home), reals, len(faces)

    def _walk(self, work: list[int], start: int, last: tuple | None, wilds: int, sets: int,
              pairs: int, chosen: list[tuple], wild_kind: int | None,
              wild_sets: list[tuple], wild_pairs: list[tuple]) -> Iterator[tuple]:
        i = start
        while i < KINDS and not work[i]:
            i += 1
        if i == KINDS:
            # Only wilds left; by the count invariant wilds == 3·sets + 2·pairs. Each
            # all-wild set or pair is read once per face it could show.
            for made_sets in combinations_with_replacement(wild_sets if sets else (), sets):
                for made_pairs in combinations_with_replacement(wild_pairs, pairs):
                    yield tuple(sorted((*chosen, *made_sets, *made_pairs)))
            return
        if i != start:
            last = None
        for reading, reals, used in list(self._options(work, i, wild_kind, sets, pairs)):
            # Groups holding copies of the same lowest tile are taken in sorted order, so
            # one multiset of groups is not walked once per ordering.
            key = (reading, reals)
            if used > wilds or (last is not None and key < last):
                continue
            for t in reals:
                work[t] -= 1
            s2 = sets - (reading[1] != "pair")
            p2 = pairs - (reading[1] == "pair")
            # Prune: the rest must still win with the wilds left (the table check is
            # exact, so every branch taken yields at least one reading).
            if self._min_wilds(work, p2) <= wilds - used:
                chosen.append(reading)
                yield from self._walk(work, i, key, wilds - used, s2, p2, chosen, wild_kind,
                                      wild_sets, wild_pairs)
                chosen.pop()
            for t in reals:
                work[t] += 1

    def _wild_faces(self, wild_kind: int | None) -> tuple[list[tuple], list[tuple]]:
        """The readings of a set, and of a pair, made only of wilds: one per face."""
        sets: list[tuple] = []
        if self._pung:
            sets += [(f, "pung", 3, 3 if f == wild_kind else 0) for f in range(KINDS)]
        if self._chow:
            for f in range(SUITED):
                if f % 9 <= 6:
                    home = (wild_kind is not None and 0 <= wild_kind - f <= 2
                            and wild_kind // 9 == f // 9)
                    sets.append((f, "chow", 3, int(home)))
        pairs = [(f, "pair", 2, 2 if f == wild_kind else 0) for f in range(KINDS)]
        return sets, pairs
