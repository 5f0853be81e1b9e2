"""No-trump hands: a pair of one joker declares no trump (无主), where only jokers and level
cards are trumps; at an equal count the big joker's pair beats the little joker's, which
beats any suit's (rbtying/shengji: "JokerOrGreaterLength"; 升级's 无主). Checked by scenarios
in the deal and by the hand that follows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl import notation as nt
from rulesdsl.api import load, validate_file

TEXT = """\
language: 1
id: tiny-no-trump
family: trick
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 2, jokers: true}
deal: {hand_size: 25, kitty: 8}
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
  hollow: forbidden
  list:
    - {name: single, group: 1}
    - {name: pair, group: 2}
    - {name: tractor, run: {group: 2, length: {min: 2}}}
points: {5: 5, 10: 10, K: 10}
levels:
  ladder: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  start: 2
tables:
  result:
    input: [points]
    output: {side: [dealer, defenders, none], levels: int, next_dealer: [partner, next_player]}
    rows:
      - {when: "points >= 80", side: defenders, levels: "(points - 80) // 40 + 1",
         next_dealer: next_player}
      - {when: "true", side: dealer, levels: 1, next_dealer: partner}
play:
  declare: {select: level_card, max: 2, overcall_min: 2, overcall: more, jokers: JOKERS}
  result: {table: result}
examples:
  - scenario: "a pair of big jokers overcalls a pair of level cards: no trump"
    phase: deal
    context: {level: 2}
    hands: {0: "H2 H2", 1: "BJ"}
    declared: {seat: 0, cards: "H2 H2"}
    to_deal: "S3 BJ"
    kitty: "C3 C4 C5 C6 C7 C8 C9 C10"
    turn: 0
    expect: {to_act: 1, actions: ["pass", "declare BJ BJ"]}
  - scenario: "a pair of little jokers does not overcall a pair of big jokers"
    phase: deal
    context: {level: 2}
    hands: {0: "BJ BJ", 1: "LJ"}
    declared: {seat: 0, cards: "BJ BJ"}
    to_deal: "S3 LJ"
    kitty: "C3 C4 C5 C6 C7 C8 C9 C10"
    turn: 0
    expect: {phase: bury, to_act: 0}
"""


@pytest.fixture()
def path(tmp_path) -> Path:
    p = tmp_path / "tiny-no-trump.yaml"
    p.write_text(TEXT.replace("JOKERS", "pairs"), encoding="utf-8")
    return p


def test_the_scenarios(path) -> None:
    assert [p.format() for p in validate_file(path).problems] == []


def test_without_joker_declarations_the_scenarios_fail(tmp_path) -> None:
    p = tmp_path / "tiny.yaml"
    p.write_text(TEXT.replace("JOKERS", "none"), encoding="utf-8")
    assert len(validate_file(p).problems) == 1  # the big jokers no longer overcall


def test_a_no_trump_hand_has_only_jokers_and_level_cards_as_trumps(path) -> None:
    from rulesdsl.engine.base import Position

    rs = load(path)
    st = rs.game().position(Position(
        hands={0: nt.parse_cards("H2 H2"), 1: nt.parse_cards("BJ")}, context={"level": 2},
        phase="deal", declared=(0, nt.parse_cards("H2 H2")), to_deal=nt.parse_cards("S3 BJ"),
        kitty=nt.parse_cards("C3 C4 C5 C6 C7 C8 C9 C10"), turn=0))
    st.apply(list(st.legal_actions())[-1])  # declare BJ BJ
    assert st.trump is None and st.dealer == 1
    from rulesdsl.model.hand import TRUMP

    trumps = {k for k in range(54) if st.hc.system[k] == TRUMP}
    assert nt.parse_card("BJ") in trumps and nt.parse_card("S2") in trumps
    assert not any(nt.card_rank(k) != 2 and k < 52 for k in trumps)


def test_random_matches_with_joker_declarations_play_through(path) -> None:
    rs = load(path)
    declared = no_trump_saved = 0
    for seed in range(6):
        st = rs.new_game(seed=seed, hands=2)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(st.sample_action(rng))
            if st.phase == "play" and st.trump is None:  # a no-trump hand saves and restores
                assert rs.state_from_json(st.to_json()).to_json() == st.to_json()
                no_trump_saved += 1
        declared += sum(1 for e in st.log if e["type"] == "declare" and "J" in e["cards"])
        # a saved match restores, no-trump hands included
        assert rs.state_from_json(st.to_json()).to_json() == st.to_json()
    assert declared >= 1 and no_trump_saved >= 1, (declared, no_trump_saved)
