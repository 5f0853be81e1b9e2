from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdsl import notation as nt
from rulesdsl.errors import NotationError


@pytest.mark.parametrize("text, expected", [
    ("S2 H10 DK CA", ["S2", "H10", "DK", "CA"]),
    ("HT ♠A ♥5", ["H10", "SA", "H5"]),
    ("BJ LJ", ["BJ", "LJ"]),
    ("H6H6H7,H7", ["H6", "H6", "H7", "H7"]),
])
def test_cards_read_in_every_accepted_form(text, expected):
    assert [nt.format_card(k) for k in nt.parse_cards(text)] == expected


@pytest.mark.parametrize("text", ["X9", "S1", "H11", "S", "BJJ", "5z"])
def test_bad_cards_are_refused_with_a_reason(text):
    with pytest.raises(NotationError, match="is not a card"):
        nt.parse_cards(text)


@given(st.lists(st.integers(min_value=0, max_value=nt.CARD_KINDS - 1), max_size=30))
def test_cards_round_trip(kinds):
    assert nt.parse_cards(nt.format_cards(kinds)) == kinds


@given(st.lists(st.integers(min_value=0, max_value=nt.TILE_KINDS - 1), max_size=30))
def test_tiles_round_trip(kinds):
    assert nt.parse_tiles(nt.format_tiles(kinds)) == kinds


def test_compact_tiles():
    assert nt.format_tiles(nt.parse_tiles("123m456p11z 5f")) == "1m 2m 3m 4p 5p 6p 1z 1z 5f"


@pytest.mark.parametrize("text", ["8z", "9f", "0m", "m1", "12"])
def test_bad_tiles_are_refused(text):
    with pytest.raises(NotationError):
        nt.parse_tiles(text)


def test_card_kinds_are_stable():
    # Logs and compiled tables depend on these numbers.
    assert nt.parse_card("S2") == 0
    assert nt.parse_card("SA") == 12
    assert nt.parse_card("H2") == 13
    assert nt.parse_card("CA") == 51
    assert nt.parse_card("LJ") == 52 and nt.parse_card("BJ") == 53
    assert nt.tile_kind("1m") == 0 and nt.tile_kind("7z") == 33 and nt.tile_kind("8f") == 41


def test_ranks():
    assert [nt.rank_value(r) for r in (1, 2, 10, "J", "Q", "K", "A", "T")] == \
        [1, 2, 10, 11, 12, 13, 14, 10]
    with pytest.raises(NotationError):
        nt.rank_value(15)
