"""The tile engine's fast paths against the plain computations they stand for.

Int-keyed shape rows against the counts table; the hand keys a state keeps, the claim
options it memoises, the winning tiles it lists and the order of seats it reads from
the game, each against a fresh computation on positions of random games; the actions
said to evaluate no rule against a spy on every formula and table; the memoised wild
tables and live-tile answers against building them anew.
"""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.engine.tiles import readings, shapes
from rulesdsl.engine.tiles.actions import DISCARD
from rulesdsl.model.ruleset import Formula, Table
from rulesdsl.runtime.expressions import Env

CONFIGS = [(True, True, 1), (True, True, 0), (True, True, 2), (False, True, 1),
           (True, False, 1), (False, False, 1), (True, True, 7)]
VARIANT = ("language: 1\nid: fast-paths\nextends: wenling-mahjong\nplay:\n"
           "  chow_from: anyone\n  claim_with_wilds: true\n  pung_pass_lock: false\n"
           "  after_win: winner_leaves\n  discard_wins: every_claim\nexamples: []\n")


def _reference_row(counts: tuple[int, ...], chow: bool, pung: bool, pairs: int) -> tuple:
    row = shapes._entry(counts, {}, chow, pung, pairs)
    return (sum(counts), row[0], row[1] - row[0] if pairs else 0, row)


def _key(counts: tuple[int, ...]) -> int:
    return sum(c * 5 ** j for j, c in enumerate(counts))


@pytest.mark.parametrize("chow, pung, pairs", CONFIGS)
@pytest.mark.parametrize("size", [9, 7])
def test_keyed_rows_match_the_counts_table_on_every_small_group(chow, pung, pairs, size):
    chow = chow and size == 9  # the honors never chow
    table: dict[int, tuple] = {}
    for counts in product(range(5), repeat=size):
        if sum(counts) <= 5:
            assert shapes._keyed_entry(_key(counts), table, chow, pung, pairs) == \
                _reference_row(counts, chow, pung, pairs), counts


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.sampled_from(CONFIGS),
       st.booleans())
def test_keyed_rows_match_the_counts_table(digits, config, honors):
    chow, pung, pairs = config
    counts = tuple(digits[:7] if honors else digits)
    chow = chow and not honors
    got = shapes._keyed_entry(_key(counts), {}, chow, pung, pairs)
    assert got == _reference_row(counts, chow, pung, pairs)


@pytest.mark.parametrize("chow, pung, pairs", CONFIGS)
@pytest.mark.parametrize("size", [9, 7])
def test_a_tile_more_saves_one_wild_at_most_on_every_small_group(chow, pung, pairs, size):
    # what lets a hand short of its wilds and one more skip its look-ups on every tile
    chow = chow and size == 9
    table: dict[int, tuple] = {}
    for counts in product(range(5), repeat=size):
        if sum(counts) > 6:
            continue
        row = shapes._keyed_entry(_key(counts), table, chow, pung, pairs)[3]
        for t in range(size):
            if counts[t] < 4:
                more = shapes._keyed_entry(_key(counts) + 5 ** t, table, chow, pung, pairs)[3]
                assert all(r <= m + 1 for r, m in zip(row, more)), (counts, t)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), max_size=17), st.integers(0, 33), st.integers(0, 4),
       st.sampled_from(CONFIGS))
def test_hands_short_of_two_wilds_win_on_no_tile(tiles, tile, wilds, config):
    chow, pung, pairs = config
    kinds = [k for k, on in (("chow", chow), ("pung", pung)) if on]
    shape = shapes.WinShape(4, pairs, kinds)
    counts = [min(tiles.count(k), 3 if k == tile else 4) for k in range(34)]
    keys = shapes.suit_keys(counts)
    more = shapes.suit_keys([c + (k == tile) for k, c in enumerate(counts)])
    assert shape.wilds_short(keys) <= shape.wilds_short(more) + 1
    if shape.wilds_short(keys) > wilds + 1:
        for melds in range(5):
            assert not shape.can_win_keys(more, wilds, melds)
            assert not shape.can_win_keys(keys, wilds + 1, melds)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list[Any]:
    path = Path(tmp_path_factory.mktemp("tiles")) / "variant.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    return [rulesdsl.load(name) for name in ("wenling-mahjong", "sichuan-mahjong", path)]


def _positions(ruleset: Any, seeds: range):
    """Every decision of seeded random games (three hands each)."""
    for seed in seeds:
        state = ruleset.new_game(seed=seed, hands=3)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(state.sample_action(rng))


def _fresh_keys(state: Any, seat: int) -> tuple[list[int], int]:
    wild = state._spec().wild
    hand = state.hands[seat]
    plain = [0 if wild[k] else hand[k] for k in range(shapes.KINDS)]
    return shapes.suit_keys(plain), sum(c for c, w in zip(hand, wild) if w)


def test_kept_state_matches_a_fresh_computation(games):
    for ruleset in games:
        g = ruleset.game()
        for n, state in enumerate(_positions(ruleset, range(12))):
            seats = range(g.players)
            wild = state._spec().wild
            for s in seats:
                entry = state._hand_entry(s, wild)
                assert (entry[1], entry[2]) == _fresh_keys(state, s)
                order, x = [], s
                for _ in range(g.players - 1):
                    x = state._next(x)
                    if x not in state._won():
                        order.append(x)
                assert list(state._order_after(s)) == order
            if state.phase == "claims":
                seat = state.to_act
                assert state._claim_options(seat) == state._compute_claim_options(seat)
            if state.phase == "turn":
                hand = state.hands[state.to_act]
                spec = state._spec()
                discards = [a for a in state._turn_actions(state.to_act) if a.kind == "discard"]
                if state._void_held(state.to_act) is None:
                    assert discards == [a for c, a in zip(hand, spec.discards)
                                        if c and a is not None]
                assert all(a is DISCARD[a.cards[0]] for a in discards)
            if n % 5 == 0:
                for s in seats:
                    kinds = range(len(wild))
                    assert list(state._winning_tiles(s, kinds)) == \
                        [t for t in kinds if state._can_win(s, t)]


def test_actions_said_to_evaluate_nothing_run_no_rule_that_can_fail(games, monkeypatch):
    ran: list[str] = []
    evaluate, lookup = Formula.evaluate, Table.lookup

    def spy_evaluate(self: Formula, *args: Any, **kw: Any) -> Any:
        ran.append(self.name)
        return evaluate(self, *args, **kw)

    def spy_lookup(self: Table, *args: Any, **kw: Any) -> Any:
        ran.append(self.name)
        return lookup(self, *args, **kw)

    monkeypatch.setattr(Formula, "evaluate", spy_evaluate)
    monkeypatch.setattr(Table, "lookup", spy_lookup)
    for ruleset in games:
        failing = ruleset.failing_rules
        assert failing  # these rulesets can fail at play: the check means something
        quiet = 0
        for seed in range(25):
            state = ruleset.new_game(seed=seed, hands=2)
            rng = random.Random(seed)
            while not state.is_terminal():
                action = state.sample_action(rng)
                evaluates = state._evaluates(action)
                ran.clear()
                state.apply(action)
                if not evaluates:
                    quiet += 1
                    assert not failing.intersection(ran), (ruleset.id, seed, action, ran)
        assert quiet  # most actions take no snapshot


def test_wild_tables_are_memoised_per_ruleset_and_values(games):
    for ruleset in games:
        for turned in (None, 0, 4, 27, 33, 34):
            values = {**ruleset.options, "turned": turned}
            got = readings._Wilds.of(ruleset, values)
            fresh = readings._Wilds._build(ruleset, values)
            assert (got.wild, got.stands) == (fresh.wild, fresh.stands)
            assert readings._Wilds.of(ruleset, dict(values)) is got


def test_live_tiles_are_memoised_per_turned_tile_and_copies_seen(games):
    ruleset = games[0]
    rule = ruleset.play.live_tile
    assert rule is not None
    state = ruleset.new_game(seed=3)
    for turned in (0, 9, 27, None):
        state.turned = turned
        for seen in range(5):
            values = ruleset.context_values({"turned": turned})
            assert state._is_live(seen) == bool(rule(Env(None, {**values, "seen": seen})))


def test_seven_pairs_match_a_count_of_pairs(games):
    for ruleset in games[1:2]:  # a ruleset with win.seven_pairs
        assert ruleset.game().seven_pairs
        for state in _positions(ruleset, range(4)):
            for s in range(ruleset.game().players):
                for extra in (None, *range(0, 42, 5)):
                    counts = [state.hands[s][k] + (k == extra) for k in range(shapes.KINDS)]
                    want = not state.melds[s] and all(c % 2 == 0 for c in counts) and \
                        sum(counts) // 2 == state.game.seven_pairs
                    assert state._seven_pairs(s, extra) == want
