"""`play.follow.shape: format` — the follow-format ladder (issue 17).

Two oracles:
- the ladder itself against rbtying/shengji's own test vectors (mechanics/src/
  ordered_card.rs, `test_subsequent_decomposition_ordering` and
  `test_full_decomposition_ordering`), and the value-level layout shortcut against a
  direct port of shengji's index assignments;
- the legal follows of random positions of the bundled Tractor ruleset against a brute
  force written from the rule alone: every subset of the follower's cards of the led
  suit-system, each rung matched by splitting the cards into the rung's units, a tractor
  being whatever the ruleset's pattern reader reads as one, and shengji's walk (a play
  meeting a rung is legal; a hand meeting it, with the play not, is illegal).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import Position
from rulesdsl.engine.trick.ladder import full_decomposition, ladder, sequential_groupings
from rulesdsl.model.patterns import readings

# ---------------------------------------------------------------- the ladder


def subsequent(units: list[list[int]], new_adjacency: bool = True, most: int = 99):
    rungs = ladder(tuple(tuple(u) for u in units), most, new_adjacency)
    return [[list(a) for a in r] for r in rungs[1:]]


ONES4 = [[1], [1], [1], [1]]


@pytest.mark.parametrize("units,with_adjacency,without", [
    ([[1]], [], []),
    ([[2]], [[[1], [1]]], [[[1], [1]]]),
    ([[3]], [[[2], [1]], [[1], [1], [1]]], [[[2], [1]], [[1], [1], [1]]]),
    ([[4]], [[[3], [1]], [[2, 2]], [[2], [2]], [[2], [1], [1]], ONES4],
     [[[3], [1]], [[2], [2]], [[2], [1], [1]], ONES4]),
    ([[2, 2]], [[[2], [2]], [[2], [1], [1]], ONES4], [[[2], [2]], [[2], [1], [1]], ONES4]),
    ([[2], [2]], [[[2], [1], [1]], ONES4], [[[2], [1], [1]], ONES4]),
])
def test_the_ladder_is_shenjis(units, with_adjacency, without):
    """shengji's test_subsequent_decomposition_ordering, f (true) and g (false)."""
    assert subsequent(units, True) == with_adjacency
    assert subsequent(units, False) == without


def test_a_four_wide_tractor_of_fours_decomposes_as_shengji_says():
    want = [[[4], [4]], [[4, 3], [1]], [[3, 4], [1]], [[4], [3], [1]], [[4, 2, 2]],
            [[2, 4, 2]], [[2, 2, 4]], [[4, 2], [2]], [[2, 4], [2]], [[4], [2, 2]],
            [[4], [2], [2]], [[4, 2], [1], [1]], [[2, 4], [1], [1]], [[4], [2], [1], [1]],
            [[4], [1], [1], [1], [1]], [[3, 3, 2]], [[3, 2, 3]], [[2, 3, 3]],
            [[3, 3], [2]], [[3, 2], [3]], [[3], [2, 3]], [[3], [3], [2]],
            [[3, 3], [1], [1]], [[3], [3], [1], [1]], [[3, 2, 2], [1]], [[2, 3, 2], [1]],
            [[2, 2, 3], [1]], [[3, 2], [2], [1]], [[2, 3], [2], [1]], [[3], [2, 2], [1]],
            [[3], [2], [2], [1]], [[3, 2], [1], [1], [1]], [[2, 3], [1], [1], [1]],
            [[3], [2], [1], [1], [1]], [[3], [1], [1], [1], [1], [1]], [[2, 2, 2, 2]],
            [[2, 2, 2], [2]], [[2, 2], [2, 2]], [[2, 2], [2], [2]], [[2], [2], [2], [2]],
            [[2, 2, 2], [1], [1]], [[2, 2], [2], [1], [1]], [[2], [2], [2], [1], [1]],
            [[2, 2], [1], [1], [1], [1]], [[2], [2], [1], [1], [1], [1]],
            [[2]] + [[1]] * 6, [[1]] * 8]
    assert subsequent([[4, 4]]) == want


@pytest.mark.parametrize("n", range(1, 13))
def test_all_triples_decompose_one_card_at_a_time(n):
    """shengji's loop over 1..25 triples: each rung replaces a 3 by 2 + 1, then a 2 by 1 + 1."""
    expected = [[3]] * (n - 1) + [[2], [1]]
    for rung in subsequent([[3]] * n):
        assert rung == expected
        v = expected.pop(0)
        v = [v[0] - 1]
        idx = max((i for i, z in enumerate(expected) if z == v), default=None)
        if idx is None:
            break
        expected.insert(idx, v)
        expected.append([1])


def test_full_decompositions_of_five_and_six_cards_are_shengjis():
    f = lambda n: [[list(a) for a in r] for r in full_decomposition(n, 99)]  # noqa: E731
    assert f(2) == [[[2]], [[1], [1]]]
    assert f(5) == [[[5]], [[4], [1]], [[3, 2]], [[2, 3]], [[3], [2]], [[3], [1], [1]],
                    [[2, 2], [1]], [[2], [2], [1]], [[2], [1], [1], [1]], [[1]] * 5]
    assert f(6) == [[[6]], [[5], [1]], [[4, 2]], [[2, 4]], [[4], [2]], [[4], [1], [1]],
                    [[3, 3]], [[3], [3]], [[3, 2], [1]], [[2, 3], [1]], [[3], [2], [1]],
                    [[3], [1], [1], [1]], [[2, 2, 2]], [[2, 2], [2]], [[2], [2], [2]],
                    [[2, 2], [1], [1]], [[2], [2], [1], [1]], [[2], [1], [1], [1], [1]],
                    [[1]] * 6]


def _index_assignments(length: int) -> list[list[list[int]]]:
    """shengji's compute_adjacent_assignments, ported index for index."""
    if length == 1:
        return [[[0]]]
    elem = length - 1
    out: list[list[list[int]]] = []
    for part in _index_assignments(length - 1):
        for i in range(len(part)):
            out.append([p + [elem] if j == i else list(p) for j, p in enumerate(part)])
        out.append([list(p) for p in part] + [[elem]])
    out.sort(key=lambda a: (-max(len(v) for v in a), len(a)))
    return out


def _index_groupings(values: tuple[int, ...]) -> list:
    out: dict = {}
    for assignment in _index_assignments(len(values)):
        parts = [[values[i] for i in sub] for sub in assignment]
        if all(len(set(p)) == 1 for p in parts):
            out.setdefault(tuple(map(tuple, parts)), None)
            continue
        choices = [list(dict.fromkeys(itertools.permutations(p))) for p in parts]
        for combo in itertools.product(*choices):
            out.setdefault(tuple(combo), None)
    return list(out)


@pytest.mark.parametrize("values", [(2, 2), (3, 2), (2, 2, 2), (3, 2, 2), (3, 3, 2),
                                    (4, 3, 2), (2, 2, 2, 2), (3, 3, 2, 2), (4, 2, 2, 2, 2),
                                    (3, 3, 3, 2, 2)])
def test_layouts_built_on_values_equal_shengjis_index_assignments(values):
    assert list(sequential_groupings(values)) == _index_groupings(values)


def test_a_long_two_deck_tractor_keeps_a_small_ladder():
    rungs = ladder(((2,) * 12,), 2)
    assert len(rungs) < 1000
    assert rungs[0] == ((2,) * 12,) and rungs[-1] == ((1,),) * 24
    assert all(v <= 2 for r in rungs for a in r for v in a)


# ---------------------------------------------------------------- the engine


TRACTOR = rulesdsl.load("tractor")
GAME = TRACTOR.game()


def _sub_multisets(cards: list[int], n: int) -> set[tuple[int, ...]]:
    return {tuple(sorted(c)) for c in itertools.combinations(sorted(cards), n)}


def _splits(hc, cards: tuple[int, ...], rung) -> bool:
    """Can `cards` be split into the rung's units exactly? Pairs are identical cards,
    singles anything, and a run of pairs whatever the pattern reader reads as a
    tractor of that length."""
    if not rung:
        return not cards
    first, rest = rung[0], rung[1:]
    size = sum(first)
    if len(cards) != sum(map(sum, rung)):
        return False
    for part in _sub_multisets(list(cards), size):
        if first == (1,):
            ok = True
        elif first == (2,):
            ok = part[0] == part[1]
        else:
            ok = any(rd.pattern == "tractor" for rd in readings(hc, list(part)))
        if ok:
            left = list(cards)
            for k in part:
                left.remove(k)
            if _splits(hc, tuple(sorted(left)), rest):
                return True
    return False


def _brute_legal(hc, rungs, suit_cards: list[int], n: int) -> set[tuple[int, ...]]:
    legal = set()
    for play in _sub_multisets(suit_cards, n):
        for rung in rungs:
            if _splits(hc, play, rung):
                legal.add(play)
                break
            if any(_splits(hc, sub, rung) for sub in _sub_multisets(suit_cards, n)):
                break
    return legal


LEADS = [  # (lead, suit of the lead) with 4♠ trump unless said
    "H8 H8 H9 H9", "H8 H8", "H8 H8 H9 H9 H10 H10", "HA HK HK HQ HQ", "HA HA HJ HJ H10",
    "HK HK HQ", "H8",
]


@pytest.mark.parametrize("lead", LEADS)
def test_random_follows_match_the_brute_force(lead):
    rng = random.Random(hash(lead) % 1000)
    hearts = [nt.parse_card(f"H{r}") for r in ["2", "3", "5", "6", "7", "10", "J", "Q"]]
    lead_cards = nt.parse_cards(lead)
    n = len(lead_cards)
    from rulesdsl.engine.trick.formats import lead_ladder

    checked = 0
    for _ in range(30):
        pool = [k for k in hearts for _ in range(2)]
        for k in lead_cards:
            if k in pool:
                pool.remove(k)
        rng.shuffle(pool)
        held = sorted(pool[:rng.randint(n, 9)])
        st = GAME.position(Position(
            hands={0: lead_cards + nt.parse_cards("D2"), 1: held + nt.parse_cards("C3"),
                   2: nt.parse_cards("D3 D5 D6 D7 D8 D9 D10"),
                   3: nt.parse_cards("C5 C6 C7 C8 C9 C10 CJ")},
            context={"trump": "S", "level": 4}, dealer=0, turn=0))
        st.apply(" ".join(nt.format_card(k) for k in lead_cards))
        if st.to_act != 1:
            continue
        hc = st.hc
        rungs = lead_ladder(hc, st.trick[0][1], True)
        n_led = len(st.trick[0][1])  # a failed throw leads fewer cards
        truth = _brute_legal(hc, rungs, held, n_led)
        got = {tuple(sorted(a.cards)) for a in st.legal_actions()}
        assert got == truth, (lead, nt.format_cards(held))
        assert st.legal_actions().count() == len(truth)
        for play in _sub_multisets(held, n_led):
            assert st.is_legal(" ".join(nt.format_card(k) for k in play)) == (play in truth)
        seen = Counter(tuple(sorted(st.sample_action(rng).cards)) for _ in range(40))
        assert set(seen) <= truth
        checked += 1
    assert checked >= 20


def after_lead(*hands: str):
    """A Tractor hand (4♠ trump) just after seat 0 led its first four or five cards."""
    st = GAME.position(Position(hands={s: nt.parse_cards(h) for s, h in enumerate(hands)},
                                context={"trump": "S", "level": 4}, dealer=0, turn=0))
    st.apply(" ".join(hands[0].split()[:-1]))
    return st


def test_sampling_a_listed_rung_is_uniform():
    # a thrown tractor and single; the follower holds two tractors: 2233 + a card, 3355 + …
    st = after_lead("HA HK HK HQ HQ D2", "H2 H2 H3 H3 H5 H5 H7 H9", "C2 C3 C5 C6 C7",
                    "C8 C9 C10 CJ CQ")
    plays = {tuple(sorted(a.cards)) for a in st.legal_actions()}
    assert len(plays) == st.legal_actions().count() >= 4
    rng = random.Random(1)
    seen = Counter(tuple(sorted(st.sample_action(rng).cards)) for _ in range(4000))
    assert set(seen) == plays
    expected = 4000 / len(plays)
    assert all(abs(c - expected) < 0.25 * expected for c in seen.values())


def test_building_a_format_follow_card_by_card_offers_only_completable_cards():
    st = after_lead("H8 H8 H9 H9 D2", "H2 H2 H3 H3 H5 H5 H7", "D3 D5 D6 D7", "D8 D9 D10 DJ")
    plays = [Counter(a.cards) for a in st.legal_actions()]
    for partial in [(), tuple(nt.parse_cards("H2")), tuple(nt.parse_cards("H5")),
                    tuple(nt.parse_cards("H2 H5")), tuple(nt.parse_cards("H7"))]:
        have = Counter(partial)
        truth = {k for p in plays if all(p[c] >= m for c, m in have.items())
                 for k, c in p.items() if c > have[k]}
        assert st.addable(partial) == truth, nt.format_cards(list(partial))


def test_random_matches_of_tractor_stay_legal_and_restore():
    rng = random.Random(11)
    st = GAME.new_game(seed=11, hands=2)
    steps = 0
    while not st.is_terminal() and steps < 2000:
        act = st.sample_action(rng)
        assert st.is_legal(act)
        st.apply(act)
        steps += 1
    back = GAME.state_from_json(st.to_json())
    assert back.to_json() == st.to_json()


FOUR_DECKS = """\
language: 1
id: four-deck-format
family: trick
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 4, jokers: true}
deal: {hand_size: 50, kitty: 16}
context:
  trump: {type: suit}
  level: {type: rank, ladder: levels}
define:
  level_card: "rank == level"
ranks:
  natural: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  levels: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
trump: "is_joker or level_card or suit == trump"
order:
  - {name: big_joker, select: "card == BJ"}
  - {name: little_joker, select: "card == LJ"}
  - {name: trump_level, select: "suit == trump and level_card"}
  - {name: off_level, select: level_card}
  - {name: trump_suit, select: "suit == trump", by: natural}
  - {name: plain, select: "true", by: natural}
patterns:
  sameness: card
  hollow: allowed
  list:
    - {name: single, group: 1}
    - {name: pair, group: 2}
    - {name: four, group: 4}
    - {name: tractor, run: {group: 2, length: {min: 2}}}
points: {5: 5, 10: 10, K: 10}
levels: {ladder: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], start: 2}
tables:
  result:
    input: [points]
    output: {side: [dealer, defenders, none], levels: int, next_dealer: [partner, next_player]}
    rows:
      - {when: "true", side: none, levels: 0, next_dealer: next_player}
play:
  declare: {select: level_card}
  follow: {shape: format, only_tractors_draw_tractors: DRAW}
  result: {table: result}
"""


@pytest.mark.parametrize("only_tractors,expected", [
    (False, {"H2 H2 H3 H3"}),                         # a led four draws a tractor
    (True, {"H2 H2 H3 H3", "H2 H2 H9 H9", "H3 H3 H9 H9"}),  # only two pairs
])
def test_only_tractors_draw_tractors_in_play(tmp_path, only_tractors, expected):
    path = tmp_path / "four.yaml"
    path.write_text(FOUR_DECKS.replace("DRAW", str(only_tractors).lower()), encoding="utf-8")
    game = rulesdsl.load(path).game()
    st = game.position(Position(
        hands={0: nt.parse_cards("H7 H7 H7 H7 D2"), 1: nt.parse_cards("H2 H2 H3 H3 H9 H9"),
               2: nt.parse_cards("C2 C3 C4 C6"), 3: nt.parse_cards("C7 C8 C9 C10")},
        context={"trump": "S", "level": 5}, dealer=0, turn=0))
    st.apply("H7 H7 H7 H7")
    got = {" ".join(nt.format_card(k) for k in sorted(a.cards)) for a in st.legal_actions()}
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 4), max_size=7))
def test_distinct_permutations_are_the_first_reached_permutations(values: list[int]) -> None:
    # the layouts' orders, without walking every permutation of equal values
    from rulesdsl.engine.trick.ladder import distinct_permutations

    p = tuple(values)
    assert distinct_permutations(p) == list(dict.fromkeys(itertools.permutations(p)))


def test_a_lead_beyond_the_layout_bound_ends_with_pairs_and_singles() -> None:
    # A tractor of twelve triples (three decks): its 36 cards have millions of layouts.
    # The decomposition stops at MAX_LAYOUTS and the ladder ends with the pairs-and-singles
    # rungs, each once, down to all singles (bounded work, never an endless search).
    from rulesdsl.engine.trick import ladder as lad

    assert len(lad.full_decomposition(36, 3)) == lad.MAX_LAYOUTS
    rungs = lad.ladder(((3,) * 12,), 3)
    assert rungs[0] == ((3,) * 12,)
    assert rungs[-1] == ((1,),) * 36
    tail = [((2,),) * p + ((1,),) * (36 - 2 * p) for p in range(18, -1, -1)]
    assert rungs[-len(tail):] == tail
    assert len(set(rungs)) == len(rungs)
    # a lead within the bound is untouched: twelve pairs (two decks) walk every layout
    assert (24, 2) not in lad._BOUNDED and len(lad.ladder(((2,) * 12,), 2)) < lad.MAX_RUNGS
