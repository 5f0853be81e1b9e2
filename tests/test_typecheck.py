"""Names and types in expressions are checked before anything runs."""

from __future__ import annotations

import pytest

from rulesdsl import notation as nt
from rulesdsl.language.parser import parse_expression
from rulesdsl.runtime.expressions import (
    CARD,
    HAND,
    RANK,
    SUIT,
    TILE,
    DefineTable,
    Env,
    ExpressionError,
    Scope,
    compile_expression,
)


def card_scope(**defines: str) -> Scope:
    values = {"trump": SUIT, "level": RANK}
    errors = []
    table = DefineTable(CARD, {k: parse_expression(v) for k, v in defines.items()}, values,
                        lambda name, exc: errors.append((name, exc)))
    return Scope(element=CARD, values=values, defines=table)


def run(text: str, card: str, **values):
    scope = card_scope(center_five="suit == trump and rank == 5")
    t, fn = compile_expression(parse_expression(text), scope)
    return t, fn(Env(nt.parse_card(card), {"trump": "H", "level": 2, **values}))


@pytest.mark.parametrize("text, card, expected", [
    ("suit == trump and rank == 5", "H5", True),
    ("center_five", "H5", True),
    ("center_five", "S5", False),
    ("card == SA", "SA", True),
    ("rank == level", "C2", True),
    ("color == color(trump)", "D9", True),
    ("color == color(trump)", "S9", False),
    ("is_joker", "LJ", True),
    ("suit == trump", "BJ", False),
    ("rank in [J, Q, K]", "HQ", True),
    ("rank > 10", "HA", True),
    ("if(is_joker, 1, 2) + 3", "S4", 5),
])
def test_card_predicates(text, card, expected):
    assert run(text, card)[1] == expected


@pytest.mark.parametrize("text, message, suggestion", [
    ("suitt == trump", "unknown name 'suitt'", "did you mean 'suit'?"),
    ("rank == S", "cannot compare a rank with a suit", None),
    ("suit + 1", "this is a suit", None),
    ("not 5", "this is an int", None),
    ("rank == 15", "15 is not a rank", None),
    ("colour(trump) == red", "unknown function 'colour'", "did you mean 'color'?"),
    ("min()", "min() takes 1 or more arguments, got 0", None),
    ("suit < trump", "'<' orders numbers and ranks, not a suit", None),
    ("card.rnk", "a card has no attribute 'rnk'", "did you mean 'rank'?"),
    ("rank in 5", "'in' needs a list on its right, not a rank", None),
])
def test_type_and_name_errors(text, message, suggestion):
    with pytest.raises(ExpressionError) as info:
        compile_expression(parse_expression(text), card_scope())
    assert info.value.message == message
    assert info.value.suggestion == suggestion


def test_error_offsets_point_at_the_name():
    with pytest.raises(ExpressionError) as info:
        compile_expression(parse_expression("is_joker or rnk == 5"), card_scope())
    assert info.value.offset == len("is_joker or ")


def test_define_cycles_are_reported():
    errors = []
    values = {"trump": SUIT}
    table = DefineTable(CARD, {"a": parse_expression("b"), "b": parse_expression("a")}, values,
                        lambda name, exc: errors.append((name, exc.message)))
    table.check_all()
    assert any("cycle" in message for _, message in errors)


def test_hand_scope_reaches_tile_defines_inside_count():
    values = {"turned": TILE}
    tiles = DefineTable(TILE, {"wild": parse_expression("tile == turned")}, values,
                        lambda *a: None)
    outer = Scope(element=None, values=values, defines=tiles)
    scope = Scope(element=HAND, values=values, parent=outer)
    t, fn = compile_expression(parse_expression("count(tiles, wild) >= 2"), scope)
    hand = {"tiles": (nt.tile_kind("3s"), nt.tile_kind("3s"), nt.tile_kind("1m"))}
    assert fn(Env(hand, {"turned": nt.tile_kind("3s")})) is True
    assert fn(Env(hand, {"turned": nt.tile_kind("1m")})) is False
