"""Trick scenarios that start past the deal's first facts (issue 17): a side's level, the
declaration the hand was played under, a later hand — and the positions refused."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import Position
from rulesdsl.errors import RulesdslError

TRACTOR = rulesdsl.load("tractor").game()


def _position(**kw):
    base = {"hands": {0: nt.parse_cards("CA"), 1: nt.parse_cards("C3"),
                      2: nt.parse_cards("C6"), 3: nt.parse_cards("C7")},
            "context": {"trump": "H", "level": 5}, "dealer": 0, "turn": 0,
            "kitty": nt.parse_cards("S3 D3 D4 S6 S7 S8 S9 SJ")}
    base.update(kw)
    return TRACTOR.position(Position(**base))


def test_side_levels_set_the_other_side_and_the_dealer_plays_at_the_context_level():
    st = _position(side_levels={1: nt.rank_value("Q")})
    assert [TRACTOR.ladder[i] for i in st.team_levels] == [5, 12]


@pytest.mark.parametrize("kw,message", [
    ({"side_levels": {0: 9}}, "the dealer's side plays at the hand's level"),
    ({"side_levels": {2: 9}}, "no side 2"),
    ({"declared": (0, nt.parse_cards("S5 S5"))}, "a card of the trump suit"),
    ({"declared": (0, nt.parse_cards("H5 S5"))}, "copies of one card"),
    ({"hand": 0}, "hand_number"),
])
def test_inconsistent_positions_are_refused(kw, message):
    with pytest.raises(RulesdslError, match=message):
        _position(**kw)


def test_an_overcall_declaration_earns_its_bonus_only_when_it_overcalled():
    rs = rulesdsl.load("taicang-zhongxin-wu").game()
    for overcall, levels in ((True, 13), (False, 12)):
        st = rs.position(Position(
            hands={0: nt.parse_cards("CA"), 1: nt.parse_cards("C3"),
                   2: nt.parse_cards("C4"), 3: nt.parse_cards("C6")},
            context={"trump": "H", "level": 2}, dealer=0, turn=0,
            kitty=nt.parse_cards("D3 D4 D6 D7 D8 D9 C7 C8 C9 S3"),
            declared=(0, nt.parse_cards("H2 H2")), overcall=overcall))
        for cards in ("CA", "C3", "C4", "C6"):
            st.apply(cards)
        assert st.results[-1]["levels"] == levels


def test_a_later_hand_is_numbered_and_ends_the_position():
    st = _position(hand=3)
    assert st.hand_no == 2
    for cards in ("CA", "C3", "C6", "C7"):
        st.apply(cards)
    assert st.is_terminal() and st.hand_no == 3
