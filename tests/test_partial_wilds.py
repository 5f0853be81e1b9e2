"""A wild card picked by suit as well as rank (掼蛋's 逢人配: only the heart of the level).

Only ♥5 is wild; ♠5, ♦5 and ♣5 are ordinary fives. The engine's legal plays must be
exactly what a brute force over every set of held cards reads with `readings`, where
cards are told apart as the rules tell them apart: every ordinary card by its rank, the
wild ♥5 by itself. So a pair of ordinary fives and ♠5 with ♥5 are different plays, and
♥5 completes a run or a bomb that ♠5 cannot.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from rulesdsl import notation as nt
from rulesdsl.api import load
from rulesdsl.model.patterns import Reading, beats, readings

TEXT = """\
language: 1
id: heart-five
family: shedding
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 2, jokers: true}
deal: {hand_size: 25, kitty: 8}
ranks:
  single: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2]
  run: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
order:
  - {name: big_joker, select: "card == BJ"}
  - {name: little_joker, select: "card == LJ"}
  - {name: ranks, select: "true", by: single}
wilds:
  - {name: heart_five, select: "card == H5", stands_for: "not is_joker"}
patterns:
  sameness: rank
  list:
    - {name: single, group: 1}
    - {name: pair, group: 2}
    - {name: triple, group: 3}
    - {name: full_house, parts: [{group: 3}, {group: 2}], key: 0, distinct: true}
    - {name: straight, run: {group: 1, length: 5, over: run}, by: run}
    - {name: bomb, group: {min: 4}, where: "not is_joker", bomb: true}
    - name: straight_flush
      run: {group: 1, length: 5, over: run}
      suit: same
      by: run
      bomb: true
      counts_as_size: 5.5
play:
  takeover: next_player
examples:
  - pattern: "S5 H5"
    expect: pair
  - pattern: "S9 H5"
    expect: pair
    note: "♥5 stands for a nine"
  - pattern: "S9 D5"
    expect: none
    note: "♦5 is an ordinary five"
  - pattern: "S3 H4 H5 C6 S7"
    expect: straight
  - pattern: "S3 H4 S9 C6 S7"
    expect: none
  - pattern: "S3 H4 D9 C6 H5"
    expect: none
  - pattern: "S3 H4 H5 C6 H5"
    expect: straight
    note: "two wild ♥5: one stands for 5 (itself), the other for 7"
  - pattern: "S9 H9 D9 H5"
    expect: bomb
  - pattern: "S9 H9 D9 D5"
    expect: none
  - pattern: "S9 S9 H9 H9 D9 D9 C9 C9 H5 H5"
    includes: [{name: bomb, size: 10, bomb_size: 10}]
    note: "two wilds make a ten-card bomb of a rank two decks hold eight of"
  - pattern: "S3 S4 H5 S6 S7"
    includes: [{name: straight_flush, size: 5, bomb_size: 5.5}]
  - beats: "S3 S4 H5 S6 S7"
    over: "SA HA DA CA SA"
    as: [straight_flush, bomb]
    expect: true
    note: "counts_as_size 5.5: above every five-card bomb"
  - beats: "S3 S4 H5 S6 S7"
    over: "S4 H4 D4 C4 S4 H4"
    as: [straight_flush, bomb]
    expect: false
    note: "…and below every six-card bomb"
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("hw")) / "heart-five.yaml"
    path.write_text(TEXT, encoding="utf-8")
    return load(path)


def key_of(st):
    """How the rules tell cards apart: ordinary cards by rank, the wild ♥5 by itself."""
    h5 = nt.parse_card("H5")
    return lambda k: (1, 0) if k == h5 else (0, nt.card_rank(k))


def brute(st) -> set[tuple]:
    hc = st.game.hc
    seat = st.to_act
    pool = [k for k, c in enumerate(st.hands[seat]) for _ in range(c)]
    prev = None
    if st.last is not None and st.last["seat"] != seat:
        last = st.last
        prev = Reading(last["pattern"], last["size"], last["key"], None, last["bomb"],
                       last["bomb_size"], False, last["exclusive"])
    key = key_of(st)
    out: set[tuple] = {("pass",)} if prev is not None else set()
    for n in range(1, len(pool) + 1):
        for combo in set(itertools.combinations(pool, n)):
            rs = readings(hc, list(combo))
            if prev is not None:
                rs = [r for r in rs if beats(hc, r, prev)]
            cards = tuple(sorted(key(k) for k in combo))
            out |= {(cards, r.pattern) for r in rs}
    return out


def listed(st) -> set[tuple]:
    hc = st.game.hc
    key = key_of(st)
    out = set()
    for a in st.legal_actions():
        if a.kind == "pass":
            out.add(("pass",))
            continue
        names = {r.pattern for r in readings(hc, list(a.cards))}
        pattern = a.pattern or names.pop()
        out.add((tuple(sorted(key(k) for k in a.cards)), pattern))
    return out


def test_the_examples_hold(ruleset) -> None:
    from rulesdsl.api import validate_file

    assert validate_file(ruleset.document.file).ok


def test_legal_plays_equal_the_brute_force(ruleset) -> None:
    rng = random.Random(5)
    full = [k for k, c in enumerate(ruleset.deck) for _ in range(c)
            if nt.card_rank(k) in (3, 4, 5, 6, 7, 9)]
    h5 = nt.parse_card("H5")
    probe = ruleset.game().position
    from rulesdsl.engine.base import Position

    checked = 0
    for _ in range(40):
        rng.shuffle(full)
        hand = full[:rng.randint(3, 8)]
        if h5 not in hand and rng.random() < 0.7:
            hand[0] = h5
        rest = [k for k in full if k not in hand][:20]
        hands = {0: list(hand), 1: nt.parse_cards("S8")}
        st = probe(Position(hands=hands, turn=0))
        if rng.random() < 0.6:
            shown = rng.sample(rest, rng.randint(1, 5))
            names = sorted({r.pattern for r in readings(st.game.hc, shown)})
            if names:
                hands = {0: shown + nt.parse_cards("S10"), 1: list(hand)}
                st = probe(Position(hands=hands, turn=0))
                from rulesdsl.engine.base import Action

                st.apply(Action.of("play", shown, names[0] if len(names) > 1 else None))
        assert listed(st) == brute(st)
        for a in st.legal_actions():
            assert st.is_legal(a)
        checked += 1
    assert checked == 40


def test_the_wild_heart_is_played_apart_from_the_other_fives(ruleset) -> None:
    from rulesdsl.engine.base import Position

    st = ruleset.game().position(Position(hands={0: nt.parse_cards("S5 D5 H5 S9"),
                                                 1: nt.parse_cards("S8")}, turn=0))
    plays = {str(a) for a in st.legal_actions()}
    # the pair of ordinary fives, ♠5 with the wild, and the wild standing for a nine
    assert {"S5 D5", "S5 H5", "S9 H5"} <= plays, plays
