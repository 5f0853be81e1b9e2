"""Plays that read suits (rulesets/extra/big-two.yaml) against a hand-written Big Two judge.

The oracle below knows Big Two directly (pagat's rules: singles and pairs by rank then
suit ♦ < ♣ < ♥ < ♠, five-card hands in the classes straight < flush < full house < four of
a kind < straight flush, each ranked by its top card) and shares no code with the engine.
For random deals and random positions during random games, the legal plays the generic
shedding engine lists must be exactly the sets of cards the oracle accepts: every lead,
and every answer to the play on the table, with the first play of a hand holding ♦3.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.compiler.files import compile_with_options
from rulesdsl.engine.base import Action

ROOT = Path(__file__).resolve().parent.parent
RANKS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, nt.ACE, 2]  # low to high
SUITS = ["D", "C", "H", "S"]  # low to high
CLASSES = ["straight", "flush", "full_house", "four_of_a_kind", "straight_flush"]


def straights(low: bool) -> list[list[int]]:
    ladder = [nt.ACE, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, nt.ACE]
    out = []
    for i in range(len(ladder) - 4):
        window = ladder[i:i + 5]
        if i == 0 and not low:
            continue
        if 2 in window and not low:
            continue
        out.append(window)
    return out


def judge(cards: tuple[int, ...], low: bool, suit_first: bool = False) -> dict[str, tuple]:
    """Each pattern the cards read as, with the value that ranks it within the pattern."""
    ranks = [nt.card_rank(k) for k in cards]
    suits = [SUITS.index(nt.card_suit(k)) for k in cards]

    def card_value(i: int) -> tuple[int, int]:
        return RANKS.index(ranks[i]), suits[i]

    by_rank: dict[int, int] = {}
    for r in ranks:
        by_rank[r] = by_rank.get(r, 0) + 1
    n = len(cards)
    out: dict[str, tuple] = {}
    if n == 1:
        out["single"] = card_value(0)
    if n == 2 and len(by_rank) == 1:
        out["pair"] = max(card_value(i) for i in range(2))
    if n == 3 and len(by_rank) == 1:
        out["triple"] = (RANKS.index(ranks[0]),)
    if n == 5:
        for window_index, window in enumerate(straights(low)):
            if sorted(ranks, key=RANKS.index) == sorted(window, key=RANKS.index):
                top = window[-1]
                i = ranks.index(top)
                value = (window_index, suits[i])
                out["straight"] = value
                if len(set(suits)) == 1:
                    out["straight_flush"] = value
        if len(set(suits)) == 1:
            best = max(card_value(i) for i in range(5))
            out["flush"] = (best[1], best[0]) if suit_first else best
        counts = sorted(by_rank.values())
        if counts == [2, 3]:
            out["full_house"] = (RANKS.index(next(r for r, c in by_rank.items() if c == 3)),)
        if counts == [1, 4]:
            out["four_of_a_kind"] = (RANKS.index(next(r for r, c in by_rank.items()
                                                      if c == 4)),)
    return out


def judge_beats(a: str, va: tuple, b: str, vb: tuple) -> bool:
    if a == b:
        return va > vb
    return a in CLASSES and b in CLASSES and CLASSES.index(a) > CLASSES.index(b)


def expected_plays(hand: list[int], low: bool, last: tuple[str, tuple] | None,
                   must: int | None, suit_first: bool = False
                   ) -> set[tuple[tuple[int, ...], str | None]]:
    """The oracle's plays: (sorted cards, pattern when the cards read several ways)."""
    out = set()
    for size in (1, 2, 3, 5):
        for cards in itertools.combinations(sorted(hand), size):
            if must is not None and must not in cards:
                continue
            reads = judge(cards, low, suit_first)
            if last is not None:
                reads = {p: v for p, v in reads.items() if judge_beats(p, v, *last)}
            if len(reads) == 1:
                out.add((cards, None))
            else:
                out.update((cards, p) for p in reads)
    return out


def listed(state) -> set[tuple[tuple[int, ...], str | None]]:
    return {(tuple(sorted(a.cards)), a.pattern) for a in state.legal_actions()
            if a.kind == "play"}


@pytest.mark.parametrize("low,suit_first", [(False, False), (True, False), (False, True)])
def test_big_two_plays_match_the_judge(low: bool, suit_first: bool) -> None:
    rs = compile_with_options(rulesdsl.api.load(ROOT / "rulesets/extra/big-two.yaml"),
                              {"low_straights": low,
                               "flush_order": "suit_first" if suit_first else "suit"})
    rng = random.Random(16 + low + 2 * suit_first)
    d3 = nt.parse_card("D3")
    checked = leads = follows = 0
    for game in range(12):
        st = rs.new_game(seed=1000 * low + game)
        first = True
        while not st.is_terminal():
            seat = st.current_player
            hand = [k for k, c in enumerate(st.hands[seat]) for _ in range(c)]
            last = None
            if st.last is not None and st.last["seat"] != seat:
                last_cards = tuple(sorted(nt.parse_cards(st.last["cards"])))
                value = judge(last_cards, low, suit_first)[st.last["pattern"]]
                last = (st.last["pattern"], value)
            must = d3 if first else None
            assert listed(st) == expected_plays(hand, low, last, must, suit_first)
            passes = any(a.kind == "pass" for a in st.legal_actions())
            assert passes == (last is not None)
            checked += 1
            leads += last is None
            follows += last is not None
            st.apply(st.sample_action(rng))
            first = False
    assert leads > 50 and follows > 100, (leads, follows)


def test_a_typed_play_is_read_with_its_suits() -> None:
    rs = rulesdsl.api.load(ROOT / "rulesets/extra/big-two.yaml")
    st = rs.new_game(seed=5)
    seat = st.current_player
    hand = [k for k, c in enumerate(st.hands[seat]) for _ in range(c)]
    d3 = nt.parse_card("D3")
    assert d3 in hand
    others = [k for k in hand if k != d3]
    # Without ♦3 the first play is refused, whatever it is.
    assert st.why_illegal(Action.of("play", [others[0]])) is not None
    assert "D3" in st.why_illegal(Action.of("play", [others[0]]))
    assert st.is_legal(Action.of("play", [d3]))
