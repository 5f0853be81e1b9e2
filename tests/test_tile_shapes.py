"""The tile engine's win shapes: can_win, wilds_needed and decompositions.

Hand-built cases first; then the wild-free shape check against a plain recursive
decomposer and the wild checks against brute-force substitution (fine in a test, never in
the engine); then `decompositions` against `can_win` on random hands with 0–4 wilds; last
the four-sets-and-a-pair shape against the `mahjong` package's agari check.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from rulesdsl.engine.tiles.hand import Decomposition, TileSet
from rulesdsl.engine.tiles.shapes import NEVER, WinShape
from rulesdsl.notation import parse_tiles

STANDARD = WinShape(4, 1, {"chow", "pung"})
FIVE = WinShape(5, 1, {"chow", "pung", "kong"})  # five sets and a pair, kongs as melds
PUNGS_ONLY = WinShape(4, 1, {"pung", "kong"})


def counts(text: str) -> list[int]:
    out = [0] * 34
    for kind in parse_tiles(text):
        out[kind] += 1
    return out


def from_kinds(kinds) -> list[int]:
    out = [0] * 34
    for kind in kinds:
        out[kind] += 1
    return out


def readings_of(shape: WinShape, c: list[int], wilds: int = 0, wild_kind: int | None = None,
                melds: int = 0) -> set[tuple]:
    """Decompositions as sorted (kind, tile, wilds, home) tuples, for comparing."""
    return {tuple(sorted((s.kind, s.tile, s.wilds, s.home_wilds) for s in d.sets))
            for d in shape.decompositions(c, wilds, melds, wild_kind)}


def readings(shape: WinShape, text: str, wilds: int = 0, melds: int = 0,
             wild_kind: int | None = None) -> set[tuple]:
    return readings_of(shape, counts(text), wilds, wild_kind, melds)


# -- hand-built cases ------------------------------------------------------------------


@pytest.mark.parametrize("hand", [
    "123m456p789s11122z",      # chows, an honor pung, an honor pair
    "11122233344455m",         # pungs or chows in one suit
    "11123456789999m",         # the nine gates shape
    "22334455667788p",         # 234 234 567 567 88 and more
    "111z222z333z444z55z",     # all honors
    "123m123m123m123m55m",     # four identical chows
])
def test_standard_wins(hand):
    c = counts(hand)
    assert STANDARD.can_win(c, 0, 0)
    assert STANDARD.wilds_needed(c, 0) == 0
    assert any(True for _ in STANDARD.decompositions(c, 0, 0))


@pytest.mark.parametrize("hand", [
    "1133557799m1133z",   # seven pairs is not sets and a pair
    "1133m5577p99s1122z",  # seven pairs across suits
    "19m19p19s1234567z1m",  # thirteen orphans is not a shape either
    "123z456z777z11z123m",  # honors never chow
    "12345678m12345p1z",   # one off
])
def test_not_wins(hand):
    assert not STANDARD.can_win(counts(hand), 0, 0)
    assert not list(STANDARD.decompositions(counts(hand), 0, 0))


def test_seven_pairs_that_also_reads_as_sets():
    # 112233 is 123 123: these seven pairs are also a standard shape.
    assert STANDARD.can_win(counts("112233m445566p77s"), 0, 0)


def test_tile_count_must_match_exactly():
    c = counts("123m456p789s11122z")
    assert not STANDARD.can_win(c, 1, 0)            # 15 tiles
    assert not STANDARD.can_win(c, 0, 1)            # one meld leaves room for 11 only
    assert not STANDARD.can_win(counts("123m456p789s111z"), 0, 0)  # 12 tiles
    assert not STANDARD.can_win(counts("123m456p789s111z"), 1, 0)  # 13 tiles
    assert STANDARD.can_win(counts("123m456p789s111z"), 2, 0)       # wild pair
    assert not STANDARD.can_win(c, 0, 5)            # more melds than sets
    assert STANDARD.wilds_needed(c, 5) >= NEVER
    assert not list(STANDARD.decompositions(c, 1, 0))


def test_melds_shrink_the_concealed_shape():
    assert STANDARD.can_win(counts("11z"), 0, 4)
    assert STANDARD.can_win(counts("123m55z"), 0, 3)
    assert FIVE.can_win(counts("123m456p11z"), 0, 3)
    assert FIVE.can_win(counts("1m"), 1, 5)
    assert not FIVE.can_win(counts("1m2m"), 0, 5)


def test_wilds_complete_chows_pungs_and_pairs():
    assert STANDARD.can_win(counts("13m456p789s11122z"), 1, 0)     # kanchan 1_3
    assert STANDARD.can_win(counts("12m456p789s11122z"), 1, 0)     # edge 12_
    assert STANDARD.can_win(counts("123m456p789s1122z"), 1, 0)     # pung 11_ or pair
    assert STANDARD.can_win(counts("123m456p789s1112z"), 1, 0)     # pair 2_
    assert STANDARD.can_win(counts("13m79m456p111z22z"), 2, 0)     # two gaps, a wild each
    assert not STANDARD.can_win(counts("159m456p789s1112z"), 1, 0)
    # the fewest wilds a shape needs, whatever the count
    assert STANDARD.wilds_needed(counts("13m456p789s11122z"), 0) == 1
    assert STANDARD.wilds_needed(counts("1m"), 0) == 1   # a pair 1_ and four all-wild sets
    assert STANDARD.wilds_needed(counts("1m5p"), 0) == 3  # pair 1_, 5p__ (or 34_5 …)
    assert STANDARD.wilds_needed(counts(""), 0) == 2
    assert STANDARD.wilds_needed(counts("113355m"), 0) == 2  # 11 + 33_ + 55_ (or 3_5 …)
    assert STANDARD.wilds_needed(counts("1133557799m1133z"), 0) >= NEVER  # no room left
    assert STANDARD.wilds_needed(counts("111m222m333m444m555m"), 0) >= NEVER  # 15 tiles


def test_all_wild_sets_and_pairs():
    assert STANDARD.can_win(counts("123m456p789s"), 5, 0)  # an all-wild set and a pair
    assert STANDARD.can_win(counts("123m456p789s11z"), 3, 0)
    assert FIVE.can_win(counts(""), 2, 5)
    assert STANDARD.can_win(counts(""), 14, 0)
    got = readings(STANDARD, "123m456p789s11z", 3)
    faces = {r for r in got if ("pung", 31, 3, 0) in r}
    assert faces  # the all-wild set may read as a pung of whites …
    assert any(("chow", 0, 3, 0) in r for r in got)  # … or as 123m
    assert not any(s[0] == "chow" and s[1] >= 27 for r in got for s in r)
    # With 11z the pair and the three chows kept, the wild set shows any of 34 pung
    # faces or 21 chow faces; other readings move wilds into the tiles' sets.
    kept = [r for r in got if {("chow", 0, 0, 0), ("chow", 12, 0, 0), ("chow", 24, 0, 0),
                               ("pair", 27, 0, 0)} <= set(r)]
    assert len(kept) == 34 + 21
    assert len(got) > len(kept)


def test_honors_never_chow():
    assert not STANDARD.can_win(counts("123z123m456m789m11m"), 0, 0)
    assert STANDARD.can_win(counts("123z123m456m789m"), 2, 0) is False
    # 1z2z3z with wilds: each honor needs its own pung or pair
    assert STANDARD.wilds_needed(counts("1z2z3z"), 0) == 5  # 1z__ 2z__ 3z_
    assert STANDARD.wilds_needed(counts("1m2m3m"), 0) == 2  # 123m and a wild pair
    honors = readings(STANDARD, "123z123m456m", 5)
    assert honors and all(s[0] != "chow" or s[1] < 27 for r in honors for s in r)


def test_pungs_only_shape():
    assert not PUNGS_ONLY.can_win(counts("123m456p789s11122z"), 0, 0)
    assert PUNGS_ONLY.can_win(counts("111m444p777s11122z"), 0, 0)
    assert PUNGS_ONLY.wilds_needed(counts("13m"), 4) == NEVER  # two tiles, one pair left
    assert PUNGS_ONLY.wilds_needed(counts("13m"), 3) == 3  # 1m__ + 3m_ (or 1m_ + 3m__)


def test_wild_readings_and_home_wilds():
    # Wild is 5z (white); one wild in 12m + pair + sets.
    got = readings(STANDARD, "12m456p789s11122z", 1, wild_kind=31)
    assert got == {(("chow", 0, 1, 0), ("chow", 12, 0, 0), ("chow", 24, 0, 0),
                    ("pair", 28, 0, 0), ("pung", 27, 0, 0))}
    # A wild pair read as whites is "home" (财神归位) twice over.
    got = readings(STANDARD, "123m456p789s111z", 2, wild_kind=31)
    assert any(("pair", 31, 2, 2) in r for r in got)
    assert any(("pair", 0, 2, 0) in r for r in got)
    assert all(s[3] == 0 or (s[1] == 31 or s[0] == "chow") for r in got for s in r)
    # A wild completing a chow through the wild kind: 4_6m with wild 5m is home.
    got = readings(STANDARD, "46m456p789s11122z", 1, wild_kind=4)
    assert got == {(("chow", 3, 1, 1), ("chow", 12, 0, 0), ("chow", 24, 0, 0),
                    ("pair", 28, 0, 0), ("pung", 27, 0, 0))}
    # Without a wild kind nothing is home.
    assert all(s[3] == 0 for r in readings(STANDARD, "46m456p789s11122z", 1) for s in r)


def test_wild_may_stand_in_either_set():
    # 123m + 33m + wild: the wild is the third 3m (123 + 33_) or completes 12_ (+ 333):
    # both readings, since a set's wild count matters to scoring.
    got = readings(STANDARD, "12333m456p789s11z", 1)
    assert any(("chow", 0, 0, 0) in r and ("pung", 2, 1, 0) in r for r in got)
    assert any(("chow", 0, 1, 0) in r and ("pung", 2, 0, 0) in r for r in got)


def test_decompositions_are_decompositions():
    ds = list(STANDARD.decompositions(counts("11122233344455m"), 0, 0))
    assert all(isinstance(d, Decomposition) for d in ds)
    assert all(isinstance(s, TileSet) and s.concealed for d in ds for s in d.sets)
    assert all(d.pair is not None for d in ds)
    # 111 222 333 444 55 and 123 123 123 444 55 are both there
    got = {tuple(sorted((s.kind, s.tile) for s in d.sets)) for d in ds}
    assert (("pair", 4), ("pung", 0), ("pung", 1), ("pung", 2), ("pung", 3)) in got
    assert (("chow", 0), ("chow", 0), ("chow", 0), ("pair", 4), ("pung", 3)) in got
    assert len(got) == len(ds)


# -- independent references (slow on purpose) ------------------------------------------


def plain_decompositions(c: list[int], sets: int, pairs: int, chow: bool = True,
                         pung: bool = True) -> set[tuple]:
    """Wild-free decompositions by the textbook recursion (lowest tile first)."""
    out: set[tuple] = set()

    def walk(c, sets, pairs, acc):
        i = next((k for k in range(34) if c[k]), None)
        if i is None:
            if sets == 0 and pairs == 0:
                out.add(tuple(sorted(acc)))
            return
        if pung and sets and c[i] >= 3:
            c[i] -= 3
            walk(c, sets - 1, pairs, acc + [("pung", i)])
            c[i] += 3
        if pairs and c[i] >= 2:
            c[i] -= 2
            walk(c, sets, pairs - 1, acc + [("pair", i)])
            c[i] += 2
        if chow and sets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            walk(c, sets - 1, pairs, acc + [("chow", i)])
            for k in (i, i + 1, i + 2):
                c[k] += 1

    walk(list(c), sets, pairs, [])
    return out


def brute_can_win(c: list[int], wilds: int, sets: int, pairs: int) -> bool:
    """Try every substitution of the wilds (34^w readings): the reference, not the way."""
    if sum(c) + wilds != 3 * sets + 2 * pairs:
        return False
    for subs in combinations_with_replacement(range(34), wilds):
        d = list(c)
        for k in subs:
            d[k] += 1
        if plain_decompositions(d, sets, pairs):
            return True
    return False


def random_complete(rng: random.Random, sets: int, pairs: int = 1) -> list[int]:
    """Kinds of a random complete hand (no kind more than four times)."""
    while True:
        kinds = []
        for _ in range(sets):
            if rng.random() < 0.5:
                suit, start = rng.randrange(3), rng.randrange(7)
                kinds += [suit * 9 + start + k for k in range(3)]
            else:
                kinds += [rng.randrange(34)] * 3
        for _ in range(pairs):
            kinds += [rng.randrange(34)] * 2
        if max(Counter(kinds).values()) <= 4:
            return kinds


def random_kinds(rng: random.Random, n: int, suits: int = 4) -> list[int]:
    """n tiles from a wall of four of each kind (few suits makes wins likelier)."""
    pool = [k for k in range(34) if k // 9 < suits] * 4
    return rng.sample(pool, n)


def random_hand(rng: random.Random, sets: int, wilds: int) -> list[int]:
    """A hand of sets·3 + 2 − wilds tiles: complete with tiles turned into wilds, a
    complete hand with one tile changed, or a random one."""
    size = 3 * sets + 2 - wilds
    roll = rng.random()
    if roll < 0.45:
        kinds = random_complete(rng, sets)
        rng.shuffle(kinds)
        kinds = kinds[:size]
        if roll < 0.2 and kinds:
            kinds[rng.randrange(len(kinds))] = rng.randrange(34)
        return kinds
    return random_kinds(rng, size, suits=rng.choice((1, 2, 4)))


def test_wild_free_shapes_against_plain_recursion():
    rng = random.Random(11)
    for _ in range(600):
        shape, sets = rng.choice(((STANDARD, 4), (FIVE, 5)))
        c = from_kinds(random_hand(rng, sets, 0))
        plain = plain_decompositions(c, sets, 1)
        assert shape.can_win(c, 0, 0) == bool(plain)
        ours = {tuple(sorted((s.kind, s.tile) for s in d.sets))
                for d in shape.decompositions(c, 0, 0)}
        assert ours == plain


def test_pungs_only_against_plain_recursion():
    rng = random.Random(12)
    for _ in range(300):
        c = from_kinds(random_hand(rng, 4, 0))
        plain = plain_decompositions(c, 4, 1, chow=False)
        assert PUNGS_ONLY.can_win(c, 0, 0) == bool(plain)


def test_wilds_against_brute_substitution():
    rng = random.Random(13)
    for _ in range(120):
        wilds = rng.choice((1, 1, 2, 2, 3)) if rng.random() < 0.9 else 0
        sets = rng.choice((2, 3, 4))  # small shapes keep the brute force quick
        melds = 4 - sets
        c = from_kinds(random_hand(rng, sets, wilds))
        expected = brute_can_win(c, wilds, sets, 1)
        assert STANDARD.can_win(c, wilds, melds) == expected, (c, wilds)


def mark_wilds(reading: tuple, subs: tuple, wild_kind: int | None, out: set[tuple]) -> None:
    """Add to `out` every way to mark the substituted tiles `subs` as wilds in `reading`."""
    room = [Counter(TileSet(kind, tile).tiles()) for kind, tile in reading]
    marks: list[list[int]] = [[] for _ in reading]

    def mark(n: int) -> None:
        if n == len(subs):
            out.add(tuple(sorted(
                (kind, tile, len(m), sum(1 for t in m if t == wild_kind))
                for (kind, tile), m in zip(reading, marks))))
            return
        for at, held in enumerate(room):
            if held[subs[n]] > marks[at].count(subs[n]):
                marks[at].append(subs[n])
                mark(n + 1)
                marks[at].pop()

    mark(0)


def brute_readings(c: list[int], wilds: int, sets: int, wild_kind: int | None) -> set[tuple]:
    """Every reading by substitution: put each multiset of kinds in for the wilds,
    decompose wild-free, and mark the substituted tiles as wilds in every way the sets
    can hold them."""
    out: set[tuple] = set()
    for subs in combinations_with_replacement(range(34), wilds):
        d = list(c)
        for k in subs:
            d[k] += 1
        for reading in plain_decompositions(d, sets, 1):
            mark_wilds(reading, subs, wild_kind, out)
    return out


@pytest.mark.parametrize("wilds, sets, hands", [(1, 4, 80), (2, 3, 40)])
def test_readings_against_brute_substitution(wilds, sets, hands):
    """Our readings with one or two wilds are exactly the substitution readings."""
    shape = WinShape(sets, 1, {"chow", "pung"})
    rng = random.Random(14 + wilds)
    wins = 0
    for _ in range(hands):
        c = from_kinds(random_hand(rng, sets, wilds))
        wild_kind = rng.choice((None, rng.randrange(34)))
        got = readings_of(shape, c, wilds, wild_kind)
        assert got == brute_readings(c, wilds, sets, wild_kind), c
        wins += bool(got)
    assert wins >= hands // 4


# -- decompositions against can_win, 0–4 wilds ------------------------------------------


def explains(d: Decomposition, c: list[int], wilds: int, wild_kind: int | None) -> bool:
    """Can each set's wilds be placed on its tiles so the real tiles are exactly `c`, with
    `home_wilds` the wilds placed on `wild_kind`?"""
    sets = list(d.sets)

    def place(n: int, left: list[int]) -> bool:
        if n == len(sets):
            return not any(left)
        s = sets[n]
        tiles = s.tiles()
        for spots in combinations(range(len(tiles)), s.wilds):
            home = sum(1 for p in spots if tiles[p] == wild_kind)
            if home != s.home_wilds:
                continue
            real = [t for p, t in enumerate(tiles) if p not in spots]
            if all(left[t] >= n_t for t, n_t in Counter(real).items()):
                for t in real:
                    left[t] -= 1
                ok = place(n + 1, left)
                for t in real:
                    left[t] += 1
                if ok:
                    return True
        return False

    return sum(s.wilds for s in sets) == wilds and place(0, list(c))


def test_decompositions_agree_with_can_win():
    rng = random.Random(15)
    wins = 0
    for _ in range(400):
        wilds = rng.randrange(5)
        shape, sets = rng.choice(((STANDARD, 4), (FIVE, 5)))
        melds = rng.choice((0, 0, 0, 1, 2))
        wild_kind = rng.choice((None, rng.randrange(34)))
        c = from_kinds(random_hand(rng, sets - melds, wilds))
        win = shape.can_win(c, wilds, melds)
        ds = list(shape.decompositions(c, wilds, melds, wild_kind))
        assert bool(ds) == win, (c, wilds, melds)
        assert win == (shape.wilds_needed(c, melds) <= wilds)
        keys = [tuple(sorted((s.kind, s.tile, s.wilds, s.home_wilds) for s in d.sets))
                for d in ds]
        assert len(set(keys)) == len(keys)  # distinct multisets
        for d in ds:
            assert sum(s.kind == "pair" for s in d.sets) == 1
            assert sum(s.kind != "pair" for s in d.sets) == sets - melds
            assert all(s.kind != "chow" or s.tile < 27 and s.tile % 9 <= 6 for s in d.sets)
            assert explains(d, c, wilds, wild_kind), (c, wilds, d)
        wins += win
    assert wins > 100  # the sample really exercises winning hands


def test_seventeen_tiles_with_four_wilds_is_quick():
    rng = random.Random(16)
    slowest = 0.0
    hands = ["1112345678999m", "1111222233334m", "111233344456m7m", "123456789m1234p"]
    for text in hands:
        start = time.perf_counter()
        n = sum(1 for _ in FIVE.decompositions(counts(text), 4, 0, 31))
        slowest = max(slowest, time.perf_counter() - start)
        assert n > 0
    for _ in range(40):
        kinds = random_kinds(rng, 13, suits=1)
        start = time.perf_counter()
        for _ in FIVE.decompositions(from_kinds(kinds), 4, 0, 31):
            pass
        slowest = max(slowest, time.perf_counter() - start)
    assert slowest < 1.0  # typically under 0.1 s; the bound leaves room for slow machines


# -- against the mahjong package's agari check -------------------------------------------


def test_against_mahjong_agari():
    pytest.importorskip("mahjong")
    from mahjong import constants
    from mahjong.agari import Agari

    # The package's 34-array is ours: man 0–8, pin 9–17, sou 18–26, then E S W N and
    # haku (white), hatsu (green), chun (red) at 27–33.
    assert [constants.EAST, constants.SOUTH, constants.WEST, constants.NORTH] == \
        parse_tiles("1234z")
    assert [constants.HAKU, constants.HATSU, constants.CHUN] == parse_tiles("567z")

    def seven_pairs_or_orphans(c: list[int]) -> bool:
        # Agari also accepts seven pairs and thirteen orphans, which are not the
        # sets-and-a-pair shape; such hands are left out of the comparison (a seven-pairs
        # hand may also read as sets, e.g. 112233m, and then we could not tell).
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        return (sum(1 for n in c if n == 2) == 7
                or (all(c[k] for k in orphans) and sum(c[k] for k in orphans) == 14))

    rng = random.Random(17)
    agari = Agari()
    compared = {"complete": 0, "random": 0, "near": 0}
    quota = {"complete": 1000, "random": 1000, "near": 500}
    agree_wins = 0
    for label, n in quota.items():
        while compared[label] < n:
            if label == "complete":
                kinds = random_complete(rng, 4)
            elif label == "near":  # a complete hand with one tile changed
                kinds = random_complete(rng, 4)
                kinds[rng.randrange(14)] = rng.randrange(34)
                if max(Counter(kinds).values()) > 4:
                    continue
            else:
                kinds = random_kinds(rng, 14, suits=rng.choice((1, 2, 4)))
            c = from_kinds(kinds)
            if seven_pairs_or_orphans(c):
                continue
            ours = STANDARD.can_win(c, 0, 0)
            assert ours == agari.is_agari(c), kinds
            agree_wins += ours
            compared[label] += 1
    assert sum(compared.values()) >= 2000
    assert agree_wins >= 1000  # every built-complete hand, and some of the others
