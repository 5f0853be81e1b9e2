"""The expression grammar: parse → pretty-print → parse is the identity."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesdsl.language import ast
from rulesdsl.language.parser import (
    MAX_EXPRESSION_DEPTH,
    ExpressionSyntaxError,
    parse_expression,
)

KEYWORDS = {"and", "or", "not", "in"}
names = st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True).filter(
    lambda s: s not in KEYWORDS)
cards = st.sampled_from(["SA", "H10", "D2", "CK", "BJ", "LJ", "SQ", "HJ"])
tiles = st.sampled_from(["1m", "9p", "5s", "7z", "3f", "8f"])
strings = st.text(alphabet=st.characters(blacklist_characters="'\n\r",
                                         blacklist_categories=("Cs",)), max_size=8)

leaves = st.one_of(
    st.builds(ast.Num, st.integers(min_value=0, max_value=10**6)),
    st.builds(ast.Str, strings),
    st.builds(ast.CardLit, cards),
    st.builds(ast.TileLit, tiles),
    st.builds(ast.Name, names),
)


def _extend(children):
    pairs = st.tuples(children, children)
    return st.one_of(
        st.builds(ast.Not, children),
        st.builds(ast.Neg, children),
        st.builds(lambda op, p: ast.BoolOp(op, *p), st.sampled_from(["and", "or"]), pairs),
        st.builds(lambda op, p: ast.BinOp(op, *p),
                  st.sampled_from(["+", "-", "*", "/", "//", "%", "**"]), pairs),
        st.builds(lambda op, p: ast.Compare(op, *p),
                  st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in"]), pairs),
        st.builds(ast.Attr, children, names),
        st.builds(lambda f, a: ast.Call(f, tuple(a)), names, st.lists(children, max_size=3)),
        st.builds(lambda a: ast.ListExpr(tuple(a)), st.lists(children, max_size=3)),
    )


expressions = st.recursive(leaves, _extend, max_leaves=25)


@given(expressions)
def test_print_then_parse_gives_the_same_tree(node):
    text = ast.unparse(node)
    assert parse_expression(text) == node


@given(expressions)
def test_parse_print_parse_is_stable(node):
    text = ast.unparse(node)
    once = parse_expression(text)
    assert ast.unparse(once) == text
    assert parse_expression(ast.unparse(once)) == once


@pytest.mark.parametrize("text, canonical", [
    ("suit==trump and rank==5", "suit == trump and rank == 5"),
    ("((a))", "a"),
    ("ceil_to(10,min(500,(base+20)*2**fan))", "ceil_to(10, min(500, (base + 20) * 2 ** fan))"),
    ("♠A == HT", "SA == H10"),
    ("not (a or b)", "not (a or b)"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("rank in [J,Q,K]", "rank in [J, Q, K]"),
    ("x not in [1]", "x not in [1]"),
    ("turned.is_flower", "turned.is_flower"),
])
def test_canonical_form(text, canonical):
    assert ast.unparse(parse_expression(text)) == canonical


@pytest.mark.parametrize("text, offset, message", [
    ("suit ==", 7, "unexpected end of expression"),
    ("suit == == 5", 8, "unexpected '=='"),
    ("a $ b", 2, "unexpected character '$'"),
    ("x == 'abc", 5, "unterminated string"),
    ("", 0, "empty expression"),
    ("rank == 5)", 9, "unexpected ')'"),
])
def test_syntax_errors_say_where(text, offset, message):
    with pytest.raises(ExpressionSyntaxError) as info:
        parse_expression(text)
    assert info.value.offset == offset
    assert info.value.message == message


def test_nesting_is_bounded():
    deep = "(" * (MAX_EXPRESSION_DEPTH + 1) + "a" + ")" * (MAX_EXPRESSION_DEPTH + 1)
    with pytest.raises(ExpressionSyntaxError, match="max expression depth"):
        parse_expression(deep)
    with pytest.raises(ExpressionSyntaxError, match="max expression depth"):
        parse_expression("not " * 300 + "a")


def test_length_is_bounded():
    with pytest.raises(ExpressionSyntaxError, match="max expression length"):
        parse_expression("a or " * 1000 + "a")
