"""A play's lead entries depend on its cards alone, wild cards included (issue 22).

The move generator makes each play's entries once and shares them with every later hand
holding the play (`_entries_of`), wild hands too. That is sound only if any hand holding
a play finds the same readings for it. Checked here against the validator's own reader
(`rulesdsl.model.patterns.readings`, which reads a set of cards with no hand around it):
for random hands of the wild rulesets, listed by one generator whose shared cache the
earlier hands filled, and read alone as a follow reads a play, every play's readings are
(as values) the best reading per pattern that `readings` finds for its cards, and no
play of the hand is missing.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.model.patterns import readings


def best_per_pattern(found) -> set:
    best: dict[str, object] = {}
    for x in found:
        old = best.get(x.pattern)
        if old is None or x.key > old.key:
            best[x.pattern] = x
    return set(best.values())


def cards_for(play: tuple[int, ...], hand: list[int], rank_of: list[int]) -> list[int]:
    """Card kinds from the hand realising a play's rank keys."""
    left = Counter(play)
    out = []
    for kind, count in enumerate(hand):
        r = rank_of[kind]
        take = min(count, left[r])
        out.extend([kind] * take)
        left[r] -= take
    assert not +left, "the hand does not hold the play"
    return out


@pytest.mark.parametrize("name", ["wenling-duijia-tong", "wenling-liujia-tong", "dou-dizhu"])
def test_shared_entries_read_as_the_validator_reads_the_cards(name: str) -> None:
    game = rulesdsl.load(name)
    state = game.new_game(seed=3, hands=1)
    moves, hc = state.moves, state.hc
    deck = [k for k, c in enumerate(hc.ruleset.deck) for _ in range(c)]
    jokers = [k for k in deck if k in hc.wild_of]
    rng = random.Random(11)
    checked = wild_plays = 0
    for trial in range(20):
        # Small hands (the reader is slow), with wild jokers in most of them.
        cards = rng.sample([k for k in deck if k not in hc.wild_of], rng.randint(10, 18))
        cards += rng.sample(jokers, min(len(jokers), rng.randint(0, 4)))
        hand = [0] * len(hc.ruleset.deck)
        for k in cards:
            hand[k] += 1
        hp = moves.hand_plays(hand)  # the shared cache holds the earlier hands' plays
        listed: dict[tuple[int, ...], set] = {}
        packed_of = {}
        for e in hp.entries:
            listed.setdefault(e.play, set()).add(e.reading)
            packed_of[e.play] = e.packed
        for play, got in listed.items():
            kinds = cards_for(play, hand, moves.rank_of)
            assert got == best_per_pattern(readings(hc, kinds)), (trial, play)
            # ...and a play read alone (as a follow reads it) finds the same.
            alone = moves._entries(packed_of[play], moves._readings(packed_of[play]))[1]
            assert {e.reading for e in alone} == got, (trial, play)
            checked += 1
            wild_plays += any(k in hc.wild_of for k in kinds)
        # No play is missing: every sub-multiset of a few held cards that reads is listed.
        for _ in range(60):
            pick = rng.sample(cards, rng.randint(1, min(6, len(cards))))
            if readings(hc, pick):
                assert moves.play_key(tuple(pick)) in listed, (trial, pick)
    assert checked > 200
    if jokers:
        assert wild_plays > 50


@functools.lru_cache(maxsize=1)
def liujia_moves():
    return rulesdsl.load("wenling-liujia-tong").new_game(seed=1, hands=1).moves


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_shortfall_of_a_demand_counts_rank_by_rank(data) -> None:
    """`_short` reads every rank field at once; here, the sum rank by rank."""
    moves = liujia_moves()
    ranks = moves.ranks
    counts = st.integers(min_value=0, max_value=32)
    hand = {r: data.draw(counts) for r in ranks}
    demand = {r: data.draw(counts) for r in ranks}
    held = moves._held(Counter(hand))
    expected = sum(max(0, demand[r] - hand[r]) for r in ranks)
    assert moves._short(moves.pack(demand.items()), held) == expected


@pytest.mark.parametrize("name", ["wenling-liujia-tong", "dou-dizhu", "guandan"])
def test_composite_sizes_hold_every_instance_size(name: str) -> None:
    """Reading a play skips the composite patterns that cannot have its size: every size
    with an instance (walked by the reference matcher) must be among `_part_sizes`."""
    moves = rulesdsl.load(name).new_game(seed=1, hands=1).moves
    if moves.suited:  # a suited generator reads rank plays underneath
        moves = moves.ranks
    composites = [pd for pd in moves.hc.ruleset.patterns if pd.shape == "parts"]
    assert composites
    for pd in composites:
        sizes = moves._part_sizes(pd)
        walked = {n for n in range(1, 13) if moves.matcher.instances(pd, n)}
        assert walked and walked <= sizes, (pd.name, sorted(walked), sorted(sizes))


@pytest.mark.parametrize("name", ["big-two", "guandan"])
def test_one_suit_spread_finds_what_the_full_spread_reads(name: str, monkeypatch) -> None:
    """A `suit: same` pattern's card sets are spread suit by suit; every card play and
    reading must be what spreading over every suit of every rank, then reading, finds."""
    game = rulesdsl.load(name)
    deck = [k for k, c in enumerate(game.new_game(seed=1, hands=1).hc.ruleset.deck)
            for _ in range(c)]
    rng = random.Random(4)
    hands = []
    for _ in range(12):
        hand = [0] * (max(deck) + 1)
        for k in rng.sample(deck, rng.randint(8, 16)):
            hand[k] += 1
        hands.append(hand)

    def listed() -> list[list[tuple]]:
        moves = game.new_game(seed=1, hands=1).moves
        assert moves.suited
        moves._by_kinds.clear()  # the game's generator is shared: list each hand afresh
        moves._by_ranks.clear()
        return [[(e.play, e.name, e.reading) for e in moves.hand_plays(h).entries]
                for h in hands]

    by_suit = listed()
    from rulesdsl.engine.shedding.suited import SuitedMoves

    monkeypatch.setattr(SuitedMoves, "_one_suit", lambda self, per_rank, pd:
                        self._spread(per_rank))
    assert by_suit == listed()
    assert sum(len(x) for x in by_suit) > 100
