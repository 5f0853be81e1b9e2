"""Throws holding demoted tractors (下放; Taicang 「在甩牌的時候，在可以組成拖拉機的情況下，
才允許下放」, issue 17): every lead of random hands against a brute force over all subsets
of the hand, written from the rule alone — a lead is a single pattern, or any cards of one
plain suit, or such cards plus trumps that may join the suit, each trump inside a part
that reads as a demoted tractor of that suit."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import Position
from rulesdsl.model.hand import TRUMP
from rulesdsl.model.patterns import readings

TAICANG = rulesdsl.load("taicang-zhongxin-wu").game()


def _subsets(cards: list[int]) -> set[tuple[int, ...]]:
    return {tuple(sorted(c)) for n in range(1, len(cards) + 1)
            for c in itertools.combinations(sorted(cards), n)}


def _demoted_split(hc, cards: tuple[int, ...], suit: str) -> bool:
    """Can the cards be split so that every card outside `suit` sits in a part reading as
    a demoted pattern of `suit`, the rest being cards of the suit?"""
    foreign = [k for k in cards if hc.system[k] != suit]
    if not foreign:
        return all(hc.system[k] == suit for k in cards)
    k0 = foreign[0]
    rest = list(cards)
    for size in range(2, len(cards) + 1):
        for part in {tuple(sorted(p)) for p in itertools.combinations(sorted(cards), size)}:
            if k0 not in part:
                continue
            if not any(rd.demoted and rd.system == suit for rd in readings(hc, list(part))):
                continue
            left = list(rest)
            for k in part:
                left.remove(k)
            if _demoted_split(hc, tuple(left), suit):
                return True
    return False


def _brute_leads(hc, hand: list[int]) -> set[tuple[int, ...]]:
    out = set()
    for play in _subsets(hand):
        if readings(hc, list(play)):
            out.add(play)
            continue
        if len(play) < 2:
            continue
        suits = {hc.system[k] for k in play} - {TRUMP}
        if len(suits) == 1 and _demoted_split(hc, play, suits.pop()):
            out.add(play)
    return out


POOL = "C2 C3 C7 C7 C9 C9 CJ CA C8 C8 S8 S8 SA SA S2 S2 S3 S9 D3".split()


def _check_leads(hand: list[int], rng: random.Random):
    """The engine's leads from `hand` are the brute force's: returns the hand context and
    the brute force's leads."""
    st = TAICANG.position(Position(
        hands={0: hand, 1: nt.parse_cards("D4 D4"), 2: nt.parse_cards("D5 D5"),
               3: nt.parse_cards("D6 D6")},
        context={"trump": "H", "level": 8}, dealer=0, turn=0))
    truth = _brute_leads(st.hc, hand)
    listed = [tuple(sorted(a.cards)) for a in st.legal_actions()]
    assert len(listed) == len(set(listed)), "a lead is listed twice"
    assert set(listed) == truth, nt.format_cards(hand)
    assert st.legal_actions().count() == len(truth)
    for play in _subsets(hand):
        assert st.is_legal(" ".join(nt.format_card(k) for k in play)) == (play in truth)
    samples = Counter(tuple(sorted(st.sample_action(rng).cards)) for _ in range(300))
    assert set(samples) <= truth
    return st.hc, truth


@pytest.mark.parametrize("seed", range(12))
def test_random_leads_match_the_brute_force(seed):
    rng = random.Random(seed)
    pool = list(POOL)
    rng.shuffle(pool)
    _check_leads(sorted(nt.parse_cards(" ".join(pool[:rng.randint(6, 10)]))), rng)


@pytest.mark.parametrize("hand", [
    "C7 C7 C8 C8 C9 C9 CA S2 D3",   # ♣7♣7♣8♣8, ♣8♣8♣9♣9 and ♣7♣7♣8♣8♣9♣9 with clubs
    "C8 C8 C9 C9 CA C3 S8 S9",      # ♣8♣8♣9♣9 with ♣A and ♣3
    "SA SA S2 S2 S3 S9 C8 D3",      # the counselor ♠A♠A as the lowest spade pair: ♠A♠A♠2♠2
    "C2 C7 C7 C8 C8 CJ S8 S8 S3",   # ♣7♣7♣8♣8 with ♣2 and ♣J
])
def test_leads_of_hands_with_demoted_tractors_match_the_brute_force(hand):
    # Random hands of the pool seldom hold a whole demoted tractor (none of the seeds
    # above does): these do, so the brute force's splitting into demoted parts is used.
    hc, truth = _check_leads(sorted(nt.parse_cards(hand)), random.Random(hand))
    throws = [p for p in truth if not readings(hc, list(p))
              and len({hc.system[k] for k in p}) == 2]  # a suit and its demoted trumps
    assert throws, "no throw holding a demoted tractor"


def test_sampling_throws_with_demoted_tractors_is_uniform():
    hand = nt.parse_cards("C7 C7 C8 C8 C9 C9 CA S8 S8 S9 S9")
    st = TAICANG.position(Position(
        hands={0: hand, 1: nt.parse_cards("D4"), 2: nt.parse_cards("D5"),
               3: nt.parse_cards("D6")},
        context={"trump": "H", "level": 8}, dealer=0, turn=0))
    mixed = {tuple(sorted(a.cards)) for a in st.legal_actions()
             if {st.hc.system[k] for k in a.cards} == {"C", TRUMP}}
    assert len(mixed) >= 8
    rng = random.Random(3)
    total = st.legal_actions().count()
    n = 60 * total
    seen = Counter(tuple(sorted(st.sample_action(rng).cards)) for _ in range(n))
    # every mixed throw drawn about 60 times: none missing, none far off
    assert all(20 < seen[p] < 110 for p in mixed), min(seen[p] for p in mixed)


def test_a_demoted_throw_is_followed_in_its_natural_suit_and_resolved():
    # ♣8♣8♣9♣9 + ♣A at level 8: nobody holds a higher club tractor or ♣A's better
    st = TAICANG.position(Position(
        hands={0: nt.parse_cards("C8 C8 C9 C9 CA D3"), 1: nt.parse_cards("C2 C3 C4 C5 C6 D7"),
               2: nt.parse_cards("D4 D4 D4 D5 D5 D7"), 3: nt.parse_cards("D6 D6 D6 D9 D9 D7")},
        context={"trump": "H", "level": 8}, dealer=0, turn=0))
    st.apply("C8 C8 C9 C9 CA")
    assert st.trick[0][1] == sorted(nt.parse_cards("C8 C8 C9 C9 CA"))  # the throw stood
    assert {tuple(sorted(a.cards)) for a in st.legal_actions()} == {
        tuple(sorted(nt.parse_cards("C2 C3 C4 C5 C6")))}
