"""A hand's plays made by shape (what a follow asks) are the full list filtered, in the same
order: one generator makes every lead play, a fresh one only the asked shape or the
bombs, on many hands of every shedding ruleset whose plays are ranks."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl.engine.shedding.moves import MoveGenerator
from rulesdsl.resources import bundled_rulesets

RANKED = [name for name in sorted(bundled_rulesets())
          if rulesdsl.load(name).family == "shedding"
          and type(rulesdsl.load(name).new_game(seed=0).moves) is MoveGenerator]


def hands(name: str, count: int, seed: int):
    """(move generator, card counts) of random sub-hands of dealt hands."""
    ruleset = rulesdsl.load(name)
    rng = random.Random(seed)
    out = []
    for g in range(count):
        st = ruleset.new_game(seed=seed * 1000 + g, hands=1)
        while st.phase != "play":
            st.apply(st.sample_action(rng))
        for seat in range(ruleset.players):
            cards = [k for k, c in enumerate(st.hands[seat]) for _ in range(c)]
            keep = rng.sample(cards, rng.randrange(1, len(cards) + 1))
            hand = [0] * len(st.hands[seat])
            for k in keep:
                hand[k] += 1
            out.append((st.moves, hand))
    return out


def test_the_ranked_shedding_rulesets_are_covered():
    assert {"wenling-liujia-tong", "wenling-duijia-tong", "dou-dizhu"} <= set(RANKED)


@pytest.mark.parametrize("name", RANKED)
def test_shapes_and_bombs_are_the_full_list_filtered(name):
    shapes_checked = 0
    for moves, hand in hands(name, 3, 7):
        full_gen = MoveGenerator(moves.hc)
        lazy_gen = MoveGenerator(moves.hc)
        ranks = full_gen.rank_counts(hand)
        packed = full_gen.pack(ranks.items())
        full = full_gen._lead_plays(full_gen._held(ranks), packed).entries
        shapes = {e.shape for e in full if e.shape is not None}
        shapes |= {(pd.name, n) for pd in moves.hc.ruleset.patterns for n in (2, 5, 9)}
        for shape in sorted(shapes):
            want = [e for e in full if e.shape == shape]
            assert lazy_gen.shape_entries(packed, shape) == want, shape
            shapes_checked += 1
        assert lazy_gen.bomb_entries(packed) == [e for e in full if e.reading.bomb]
    assert shapes_checked > 20


@pytest.mark.parametrize("name", ["wenling-liujia-tong", "dou-dizhu"])
def test_a_hand_played_down_follows_as_the_full_list_does(name):
    # A lazy hand, pruned play by play, answers `beating` exactly as a hand whose plays
    # were made in full and pruned the same way.
    ruleset = rulesdsl.load(name)
    rng = random.Random(3)
    for g in range(3):
        st = ruleset.new_game(seed=500 + g, hands=1)
        while st.phase != "play":
            st.apply(st.sample_action(rng))
        hc = st.moves.hc
        lazy_gen, full_gen = MoveGenerator(hc), MoveGenerator(hc)
        hand = list(st.hands[0])
        lazy = lazy_gen.hand_plays(hand)
        full = full_gen.hand_plays(hand)
        assert full.entries and full.made  # made in full at once
        for _ in range(8):
            leads = full.entries
            if not leads:
                break
            for after in rng.sample(leads, min(6, len(leads))):
                assert lazy.beating(hc, after.reading) == full.beating(hc, after.reading)
            play = rng.choice(leads)
            cards = []
            for rank in play.play:  # the engine's cards for these ranks
                kind = next(k for k, c in enumerate(hand) if c and
                            lazy_gen.rank_of[k] == rank)
                hand[kind] -= 1
                cards.append(kind)
            lazy = lazy_gen.played(lazy, tuple(cards))
            full = full_gen.played(full, tuple(cards))
        assert not lazy.made or lazy.entries == full.entries


SUITED = [name for name in sorted(bundled_rulesets())
          if rulesdsl.load(name).family == "shedding"
          and type(rulesdsl.load(name).new_game(seed=0).moves) is not MoveGenerator]


def test_the_suited_shedding_rulesets_are_covered():
    assert {"big-two", "guandan"} <= set(SUITED)


@pytest.mark.parametrize("name", SUITED)
def test_suited_shapes_and_bombs_are_the_full_card_list_filtered(name):
    # Card plays are spread by shape for a follow: each shape's, and the bombs, must be
    # what spreading every rank play (a lead) lists, filtered, in the same order.
    from rulesdsl.engine.shedding.suited import SuitedMoves

    shapes_checked = 0
    for moves, hand in hands(name, 2, 11):
        full_gen = SuitedMoves(MoveGenerator(moves.hc))
        lazy_gen = SuitedMoves(MoveGenerator(moves.hc))
        full = full_gen.hand_plays(hand).entries
        lazy = lazy_gen.hand_plays(hand)
        shapes = {e.shape for e in full if e.shape is not None}
        shapes |= {(pd.name, n) for pd in moves.hc.ruleset.patterns for n in (2, 5)}
        for shape in sorted(shapes):
            assert lazy.of_shape(shape) == [e for e in full if e.shape == shape], shape
            shapes_checked += 1
        assert lazy.of_shape(None) == [e for e in full if e.reading.bomb]
        assert not lazy.made  # nothing but the asked shapes was spread
    assert shapes_checked > 10
