"""The work bound on one hand's lead plays (issue 19, bounded work): validation refuses a
file some deal would push past it, play stops there with a located error and an unchanged
state, and the counting validation uses never undercounts what play makes."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl import explain
from rulesdsl.compiler.work_bounds import _widest_hands
from rulesdsl.engine.base import PlayError
from rulesdsl.engine.shedding import moves
from rulesdsl.engine.shedding.moves import MAX_LEAD_PLAYS, MoveGenerator
from rulesdsl.engine.shedding.suited import _choices
from rulesdsl.model.hand import HandContext

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken" / "lead_plays_bound.yaml"


def test_play_past_the_bound_stops_with_a_located_error_and_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The broken file compiles (only validation probes the deal); play must not fill
    # memory: the first seat's plays stop at the bound (lowered here to keep it quick).
    monkeypatch.setattr(moves, "MAX_LEAD_PLAYS", 20_000)
    state = rulesdsl.load(BROKEN).new_game(seed=3, hands=1)
    before = state.to_json()
    with pytest.raises(PlayError) as caught:
        list(state.legal_actions())
    text = str(caught.value)
    assert text.startswith(f"{BROKEN}:23:7: pattern 'bomb_run': the lead plays of a hand of")
    assert "more than 20000 (max lead plays)" in text and "seed 3" in text
    assert state.to_json() == before
    with pytest.raises(PlayError):
        state.sample_action(random.Random(1))
    assert state.to_json() == before


def _generator(name: str) -> tuple[rulesdsl.Ruleset, MoveGenerator]:
    ruleset = rulesdsl.load(name)
    return ruleset, MoveGenerator(HandContext(ruleset, next(iter(ruleset.all_contexts()))))


def test_the_widest_liujia_hand_is_counted_under_the_bound() -> None:
    # Eight wild jokers and 28 cards over every rank: the most plays a Liujia Tong deal
    # can give one hand. Listing them takes seconds; counting them must stay under the
    # bound (or the bundled file would be refused) and must find the many fillings.
    ruleset, gen = _generator("wenling-liujia-tong")
    size = ruleset.deal["hand_size"]
    widest, natural = _widest_hands(ruleset, gen.hc, gen.rank_of, size)
    assert sum(widest) == sum(natural) == size
    assert sum(widest[k] for k in gen.hc.wild_of) == 8
    assert 1_000_000 < gen.count_lead_plays(widest) < MAX_LEAD_PLAYS
    assert gen.count_lead_plays(natural) < 10_000


def _random_hand(ruleset: rulesdsl.Ruleset, gen: MoveGenerator, rng: random.Random,
                 wilds: int) -> list[int]:
    """A hand of the deal's size holding `wilds` wild cards (as many as the deck has)."""
    cards = ruleset.every_card()
    wild = [k for k in cards if k in gen.hc.wild_of]
    plain = [k for k in cards if k not in gen.hc.wild_of]
    rng.shuffle(wild)
    rng.shuffle(plain)
    chosen = wild[:wilds]
    chosen += plain[:ruleset.deal["hand_size"] - len(chosen)]
    hand = [0] * len(ruleset.deck)
    for k in chosen:
        hand[k] += 1
    return hand


@pytest.mark.parametrize("name", ["wenling-liujia-tong", "wenling-duijia-tong",
                                  "extra/dou-dizhu"])
def test_counted_plays_are_never_fewer_than_the_plays_made(name: str) -> None:
    ruleset, gen = _generator(str(ROOT / "rulesets" / f"{name}.yaml"))
    rng = random.Random(19)
    most_wild = sum(ruleset.deck[k] for k in gen.hc.wild_of)
    for trial in range(12):
        hand = _random_hand(ruleset, gen, rng, min(trial % 6, most_wild))
        counted = gen.count_lead_plays(hand)
        made = gen.hand_plays(hand).entries
        # Every entry is one play of one pattern, and each was counted at least once.
        assert len(made) <= counted, (trial, len(made), counted)
        assert made, "a hand of the deal's size holds some play"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), wilds=st.integers(0, 8))
def test_filling_counts_match_the_fillings_made(seed: int, wilds: int) -> None:
    # Liujia's wild jokers stand for any rank: every filling passes, so the count is
    # exact for demands of natural ranks (the DP against the generator's own walk).
    ruleset, gen = _generator("wenling-liujia-tong")
    assert gen._uniform is not None
    rng = random.Random(seed)
    hand = _random_hand(ruleset, gen, rng, wilds)
    held = gen._held(gen.rank_counts(hand))
    pattern = rng.choice([p for p in ruleset.patterns if p.shape in ("group", "run")])
    instances = [i for n in range(1, 13) for i in gen.matcher.instances(pattern, n)]
    checked = 0
    for inst in rng.sample(instances, min(20, len(instances))):
        if any(rank in gen.wild_rank for rank, _ in inst.demand):
            continue  # a joker demanded as itself: the count is an upper bound there
        made = list(gen._fillings(inst, held, pattern.wilds))
        assert gen._fill_count(inst, held, pattern.wilds) == len(made)
        assert len(set(made)) == len(made)
        checked += 1
    assert checked


@settings(max_examples=200, deadline=None)
@given(held=st.lists(st.tuples(st.integers(0, 53), st.integers(1, 8)), max_size=4,
                     unique_by=lambda x: x[0]), count=st.integers(0, 10))
def test_card_choices_are_the_distinct_combinations(held: list[tuple[int, int]],
                                                     count: int) -> None:
    # The suited move generator's choice of cards for a rank: one per multiset, as the
    # combinations of every copy, deduplicated, would give.
    held_sorted = tuple(sorted(held))
    pool = [k for k, c in held_sorted for _ in range(c)]
    assert sorted(_choices(held_sorted, count)) == sorted(set(
        itertools.combinations(pool, count)))


def test_an_example_search_stops_at_its_bound_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = rulesdsl.load("dou-dizhu")
    values, shown = explain.resolve_context(ruleset)
    found = explain.explain_data(ruleset, values, shown)["patterns"]
    assert all(p["example"] is not None and "note" not in p for p in found)
    monkeypatch.setattr(explain, "MAX_EXAMPLE_SEARCH", 2)
    stopped = explain.explain_data(ruleset, values, shown)["patterns"]
    cut = [p for p in stopped if p["example"] is None]
    assert cut, "some pattern needs more than two instances to find its example"
    assert all("(max example search)" in p["note"] for p in cut)
    # the patterns found within two instances are the same as before
    same = {p["name"]: p["example"] for p in stopped if p["example"] is not None}
    assert same == {p["name"]: p["example"] for p in found if p["name"] in same}


@pytest.mark.parametrize("name", ["big-two", "guandan"])
def test_counted_card_plays_stop_where_spreading_them_stops(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Validation counts a lead's card plays without spreading them: with the bound set
    # just below and at the count, spreading them all must fail and pass alike.
    from rulesdsl.engine.shedding import suited
    from rulesdsl.engine.shedding.moves import LeadPlaysBound

    game = rulesdsl.load(name)
    rng = random.Random(8)
    checked = 0
    for seed in range(6):
        st = game.new_game(seed=seed, hands=1)
        while st.phase != "play":
            st.apply(st.sample_action(rng))
        for hand in st.hands:
            hand = list(hand)
            monkeypatch.setattr(suited, "MAX_LEAD_PLAYS", MAX_LEAD_PLAYS)
            fresh = suited.SuitedMoves(MoveGenerator(st.moves.hc))
            used = fresh.count_card_plays(hand)
            assert used > 0
            for bound, fails in ((used - 1, True), (used, False)):
                monkeypatch.setattr(suited, "MAX_LEAD_PLAYS", bound)
                spread = suited.SuitedMoves(MoveGenerator(st.moves.hc))
                try:
                    assert spread.hand_plays(hand).entries is not None
                    failed = False
                except LeadPlaysBound:
                    failed = True
                assert failed is fails, (name, seed, bound)
                checked += 1
    assert checked >= 24
