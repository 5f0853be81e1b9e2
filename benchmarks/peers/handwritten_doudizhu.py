"""Dou Dizhu (斗地主) hard-coded in plain Python: the calibration peer of benchmarks/run.py.

What plain Python reaches without a rules layer: the rules of rulesets/extra/dou-dizhu.yaml
(RLCard's patterns; the 叫分 auction as our shedding engine plays it) written out by hand,
on rank-count vectors, with precomputed move tables and no C. Our engine reads the same
rules from data; benchmarks/run.py times both on the same random self-play loop, and
tests/test_handwritten_peer.py checks that both list the same plays.

A hand is a list of 15 counts, by rank index: 0..11 are 3 4 5 6 7 8 9 10 J Q K A (the
chain ranks), 12 is the 2, 13 the little (black) joker, 14 the big (red) joker. A play is a
Move tuple (pattern, length, key, ranks): the pattern id (PATTERNS names them as the rule
file does), the number of steps of a chain (1 for the rest), the rank it is compared by
(a chain's top rank, a composite's main group) and its cards as rank indices (not sorted).
Every play of a hand reads as one pattern only (checked by the test against the engine),
so a play is one action.

Following: only a higher play of the same pattern and length, any bomb (four of a rank)
over a non-bomb, a higher bomb over a bomb, the rocket (both jokers) over everything;
nothing beats the rocket. A reply may always pass; the leader may not.

How it is fast: every play but an airplane's wings is a precomputed tuple, looked up by
rank; a lead lists the hand's plays in one pass over its counts (the chains from running
run lengths); a reply generates only the led pattern above the led key, and the bombs.
A cache of lead plays by rank counts was tried and dropped: in random self-play only about
one lead in five finds its hand again, and keying the cache cost more than it saved. The
random draw is `randrange`, as our engine's `sample_action` draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

Move = tuple[int, int, int, tuple[int, ...]]  # pattern, length, key, rank indices

RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "LJ", "BJ")
TWO, LJ, BJ = 12, 13, 14
RANKS = range(15)
PLAIN = range(13)  # ranks held up to four times (not the jokers)
CHAIN_END = 12  # chains run over ranks 0..11 (3 to A): never the 2 or a joker

(SINGLE, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR, STRAIGHT, PAIR_CHAIN, AIRPLANE,
 AIRPLANE_SINGLES, AIRPLANE_PAIRS, FOUR_TWO, FOUR_TWO_PAIRS, BOMB, ROCKET) = range(14)
PATTERNS = ("single", "pair", "trio", "trio_with_single", "trio_with_pair", "straight",
            "pair_chain", "airplane", "airplane_with_singles", "airplane_with_pairs",
            "four_with_two", "four_with_two_pairs", "bomb", "rocket")

# ---------------------------------------------------------------- move tables

SINGLES: list[Move] = [(SINGLE, 1, r, (r,)) for r in RANKS]
PAIRS: list[Move] = [(PAIR, 1, r, (r, r)) for r in PLAIN]
TRIOS: list[Move] = [(TRIO, 1, r, (r, r, r)) for r in PLAIN]
BOMBS: list[Move] = [(BOMB, 1, r, (r, r, r, r)) for r in PLAIN]
ROCKET_MOVE: Move = (ROCKET, 1, LJ, (LJ, BJ))
# [trio][kicker]; the entry of the trio's own rank is never used.
TRIO_SINGLES: list[list[Move]] = [[(TRIO_SINGLE, 1, t, (t, t, t, s)) for s in RANKS]
                                  for t in PLAIN]
TRIO_PAIRS: list[list[Move]] = [[(TRIO_PAIR, 1, t, (t, t, t, p, p)) for p in PLAIN]
                                for t in PLAIN]
# [four][a][b] with a <= b
FOUR_TWOS: list[list[list[Move]]] = [[[(FOUR_TWO, 1, q, (q, q, q, q, a, b)) for b in RANKS]
                                      for a in RANKS] for q in PLAIN]
FOUR_PAIRS: list[list[list[Move]]] = [[[(FOUR_TWO_PAIRS, 1, q, (q, q, q, q, a, a, b, b))
                                        for b in PLAIN] for a in PLAIN] for q in PLAIN]


def _chains(pattern: int, group: int, shortest: int, longest: int) -> list[list[Move]]:
    """[top][length - shortest]: the chains of `group` cards a rank ending at rank `top`."""
    return [[(pattern, n, top, tuple(r for r in range(top - n + 1, top + 1)
                                     for _ in range(group)))
             for n in range(shortest, min(longest, top + 1) + 1)]
            for top in range(CHAIN_END)]


STRAIGHTS = _chains(STRAIGHT, 1, 5, 12)
PAIR_CHAINS = _chains(PAIR_CHAIN, 2, 3, 10)
AIRPLANES = _chains(AIRPLANE, 3, 2, 6)

# ---------------------------------------------------------------- generating plays


def _wing_sets(ranks: list[int], caps: list[int], k: int) -> list[tuple[int, ...]]:
    """Every multiset of k ranks from `ranks`, at most caps[i] of ranks[i]."""
    out: list[tuple[int, ...]] = []
    n = len(ranks)

    def walk(i: int, k: int, acc: tuple[int, ...]) -> None:
        for j in range(i, n):
            r = ranks[j]
            got = acc
            for m in range(1, min(caps[j], k) + 1):
                got += (r,)
                if m == k:
                    out.append(got)
                else:
                    walk(j + 1, k - m, got)

    walk(0, k, ())
    return out


def _airplane_singles(c: list[int], top: int, n: int, out: list[Move]) -> None:
    """Airplanes of n trios ending at `top` with n single wings: no wing of the airplane's
    ranks, no four of a rank and not both jokers among the wings, and no three wings of a
    rank next to the airplane (they would lengthen it; the 2 is next to no chain)."""
    lo = top - n + 1
    body = AIRPLANES[top][n - 2][3]
    ranks, caps = [], []
    for r in RANKS:
        h = c[r]
        if h and not lo <= r <= top:
            ranks.append(r)
            caps.append(2 if h > 2 and (r == lo - 1 or (r == top + 1 and r < CHAIN_END))
                        else 3 if h > 3 else h)
    both_jokers = c[LJ] and c[BJ]
    for wings in _wing_sets(ranks, caps, n):
        if both_jokers and LJ in wings and BJ in wings:
            continue
        out.append((AIRPLANE_SINGLES, n, top, body + wings))


def _airplane_pairs(c: list[int], top: int, n: int, out: list[Move]) -> None:
    """Airplanes of n trios ending at `top` with n pairs of n other ranks."""
    lo = top - n + 1
    body = AIRPLANES[top][n - 2][3]
    pairs = [r for r in PLAIN if c[r] > 1 and not lo <= r <= top]
    for combo in combinations(pairs, n):
        out.append((AIRPLANE_PAIRS, n, top, body + combo + combo))


def _four_singles(c: list[int], q: int, ones: list[int], out: list[Move]) -> None:
    """Four of rank q with two single kickers (a pair of one rank is fine, the rocket is
    not), never of q's own rank."""
    rows = FOUR_TWOS[q]
    kick = [r for r in ones if r != q]
    for i, a in enumerate(kick):
        row = rows[a]
        if c[a] > 1:
            out.append(row[a])
        for b in kick[i + 1:]:
            if b != BJ or a != LJ:
                out.append(row[b])


def _fours(c: list[int], q: int, ones: list[int], twos: list[int], out: list[Move]) -> None:
    """Four of rank q with two single kickers and with two pairs of two ranks."""
    _four_singles(c, q, ones, out)
    pairs = FOUR_PAIRS[q]
    others = [r for r in twos if r != q]
    for i, a in enumerate(others):
        row = pairs[a]
        for b in others[i + 1:]:
            out.append(row[b])


def lead_plays(c: list[int]) -> list[Move]:
    """Every play of a hand (rank counts), one Move each."""
    ones = [r for r in RANKS if c[r]]
    out = [SINGLES[r] for r in ones]
    twos = [r for r in ones if c[r] > 1]
    if twos:
        out += [PAIRS[r] for r in twos]
        for t in twos:
            if c[t] > 2:
                out.append(TRIOS[t])
                row = TRIO_SINGLES[t]
                out += [row[s] for s in ones if s != t]
                row = TRIO_PAIRS[t]
                out += [row[p] for p in twos if p != t]
                if c[t] == 4:
                    out.append(BOMBS[t])
                    _fours(c, t, ones, twos, out)
    # Chains: the runs of ranks held at least once, twice, three times, ending at r.
    run1 = run2 = run3 = 0
    planes = []
    for r in range(CHAIN_END):
        h = c[r]
        if not h:
            run1 = run2 = run3 = 0
            continue
        run1 += 1
        if run1 >= 5:
            out += STRAIGHTS[r][:run1 - 4]
        if h > 1:
            run2 += 1
            if run2 >= 3:
                out += PAIR_CHAINS[r][:run2 - 2]
            if h > 2:
                run3 += 1
                if run3 >= 2:
                    out += AIRPLANES[r][:run3 - 1]
                    planes.append((r, run3))
            else:
                run3 = 0
        else:
            run2 = run3 = 0
    for top, run in planes:
        for n in range(2, min(run, 5) + 1):
            _airplane_singles(c, top, n, out)
        for n in range(2, min(run, 4) + 1):
            _airplane_pairs(c, top, n, out)
    if c[LJ] and c[BJ]:
        out.append(ROCKET_MOVE)
    return out


# Replies of the led pattern: (hand, key to beat, length) -> the higher plays.


def _single(c: list[int], key: int, n: int) -> list[Move]:
    return [SINGLES[r] for r in range(key + 1, 15) if c[r]]


def _pair(c: list[int], key: int, n: int) -> list[Move]:
    return [PAIRS[r] for r in range(key + 1, 13) if c[r] > 1]


def _trio(c: list[int], key: int, n: int) -> list[Move]:
    return [TRIOS[r] for r in range(key + 1, 13) if c[r] > 2]


def _trio_single(c: list[int], key: int, n: int) -> list[Move]:
    out: list[Move] = []
    for t in range(key + 1, 13):
        if c[t] > 2:
            row = TRIO_SINGLES[t]
            out += [row[s] for s in RANKS if c[s] and s != t]
    return out


def _trio_pair(c: list[int], key: int, n: int) -> list[Move]:
    out: list[Move] = []
    for t in range(key + 1, 13):
        if c[t] > 2:
            row = TRIO_PAIRS[t]
            out += [row[p] for p in PLAIN if c[p] > 1 and p != t]
    return out


def _run_tops(c: list[int], key: int, n: int, group: int) -> list[int]:
    """The top ranks above `key` of runs of n chain ranks each held `group` times."""
    tops = []
    run = 0
    for r in range(max(0, key + 2 - n), CHAIN_END):
        if c[r] >= group:
            run += 1
            if run >= n and r > key:
                tops.append(r)
        else:
            run = 0
    return tops


def _straight(c: list[int], key: int, n: int) -> list[Move]:
    return [STRAIGHTS[top][n - 5] for top in _run_tops(c, key, n, 1)]


def _pair_chain(c: list[int], key: int, n: int) -> list[Move]:
    return [PAIR_CHAINS[top][n - 3] for top in _run_tops(c, key, n, 2)]


def _airplane(c: list[int], key: int, n: int) -> list[Move]:
    return [AIRPLANES[top][n - 2] for top in _run_tops(c, key, n, 3)]


def _airplane_with_singles(c: list[int], key: int, n: int) -> list[Move]:
    out: list[Move] = []
    for top in _run_tops(c, key, n, 3):
        _airplane_singles(c, top, n, out)
    return out


def _airplane_with_pairs(c: list[int], key: int, n: int) -> list[Move]:
    out: list[Move] = []
    for top in _run_tops(c, key, n, 3):
        _airplane_pairs(c, top, n, out)
    return out


def _four_two(c: list[int], key: int, n: int) -> list[Move]:
    out: list[Move] = []
    ones = [r for r in RANKS if c[r]]
    for q in range(key + 1, 13):
        if c[q] == 4:
            _four_singles(c, q, ones, out)
    return out


def _four_two_pairs(c: list[int], key: int, n: int) -> list[Move]:
    out: list[Move] = []
    for q in range(key + 1, 13):
        if c[q] == 4:
            pairs = FOUR_PAIRS[q]
            others = [r for r in PLAIN if c[r] > 1 and r != q]
            for i, a in enumerate(others):
                row = pairs[a]
                out += [row[b] for b in others[i + 1:]]
    return out


FOLLOW = (_single, _pair, _trio, _trio_single, _trio_pair, _straight, _pair_chain, _airplane,
          _airplane_with_singles, _airplane_with_pairs, _four_two, _four_two_pairs)


def beating(c: list[int], last: Move) -> list[Move]:
    """The plays of a hand that beat `last` (pass, always allowed, not included)."""
    pattern, n, key, _ = last
    if pattern == ROCKET:
        return []
    if pattern == BOMB:
        out = [BOMBS[r] for r in range(key + 1, 13) if c[r] == 4]
    else:
        out = FOLLOW[pattern](c, key, n)
        out += [BOMBS[r] for r in PLAIN if c[r] == 4]
    if c[LJ] and c[BJ]:
        out.append(ROCKET_MOVE)
    return out


def legal_plays(c: list[int], last: Move | None) -> list[Move]:
    """The plays of a hand: every play when leading, else those that beat `last`."""
    return lead_plays(c) if last is None else beating(c, last)


# ---------------------------------------------------------------- the game

DECK = tuple(r for r in PLAIN for _ in range(4)) + (LJ, BJ)
NEXT = (1, 2, 0)  # counter-clockwise: seat s is followed by seat s + 1


def auction(randrange: Callable[[int], int]) -> tuple[int, int, int]:
    """叫分: the opener drawn at random, then in turn pass or a bid above the last (1, 2,
    3), each a uniform choice; a 3 ends it, else two passes after a bid; when all three
    pass, the opener is the landlord at 1. Returns (landlord, bid, decisions)."""
    opener = seat = randrange(3)
    bid, high, passes, decisions = 0, -1, 0, 0
    while True:
        decisions += 1
        choice = randrange(4 - bid)  # 0: pass; else bid + choice
        if choice:
            bid += choice
            high, passes = seat, 0
            if bid == 3:
                break
        else:
            passes += 1
            if (passes == 2 and high >= 0) or (decisions == 3 and high < 0):
                break
        seat = NEXT[seat]
    if high < 0:
        return opener, 1, decisions
    return high, bid, decisions


def play_hand(seed: int, spring: int = 2, bombs_double: bool = True
              ) -> tuple[int, list[int]]:
    """One random self-play hand (deal, auction, play, settlement): every decision a
    uniform choice among the legal actions. Returns (decisions, each seat's returns)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [[0] * 15 for _ in range(3)]
    for i in range(51):
        hands[i % 3][deck[i]] += 1
    landlord, bid, decisions = auction(randrange)
    for r in deck[51:]:
        hands[landlord][r] += 1
    left = [17, 17, 17]
    left[landlord] = 20
    plays = [0, 0, 0]
    bombs = 0
    # The landlord leads; after two passes the last player leads anew.
    seat = last_seat = landlord
    last: Move | None = None
    while True:
        decisions += 1
        c = hands[seat]
        if last is None:
            moves = lead_plays(c)
            move = moves[randrange(len(moves))]
        else:
            moves = beating(c, last)
            i = randrange(len(moves) + 1)
            if not i:  # pass
                seat = NEXT[seat]
                if seat == last_seat:
                    last = None
                continue
            move = moves[i - 1]
        cards = move[3]
        for r in cards:
            c[r] -= 1
        plays[seat] += 1
        if move[0] >= BOMB:
            bombs += 1
        left[seat] -= len(cards)
        if not left[seat]:
            break
        last, last_seat, seat = move, seat, NEXT[seat]
    # Settlement: the side of the first player out wins the bid from each farmer, doubled
    # for every bomb and rocket; a spring (the losers never played; the landlord only led
    # once) multiplies it.
    stake = bid * (2 ** bombs if bombs_double else 1)
    if seat == landlord:
        farmer_plays = sum(plays) - plays[landlord]
        win = stake * (spring if farmer_plays == 0 else 1)
        returns = [-win] * 3
        returns[landlord] = 2 * win
    else:
        win = stake * (spring if plays[landlord] <= 1 else 1)
        returns = [win] * 3
        returns[landlord] = -2 * win
    return decisions, returns


def play_hands(seeds: range) -> int:
    """Random self-play of one hand per seed; the decisions taken."""
    return sum(play_hand(seed)[0] for seed in seeds)


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    play_hands(range(10**6, 10**6 + 50))  # warm-up
    start = time.perf_counter()
    total = play_hands(range(n))
    elapsed = time.perf_counter() - start
    print(f"{n} hands, {total} decisions, {elapsed / total * 1e6:.2f} µs/decision")
