"""Parsing expressions: Lark parse tree → typed nodes (rulesdsl.language.ast)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import RulesdslError
from ..model.notation import canonical_card_literal
from ..resources import grammar_path
from . import ast

MAX_EXPRESSION_CHARS = 2000
MAX_EXPRESSION_DEPTH = 64


class ExpressionSyntaxError(RulesdslError):
    """An expression that does not parse. `offset` is 0-based within the text."""

    def __init__(self, message: str, offset: int, expected: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.expected = expected


def _cache_dir() -> Path | None:
    """A per-user folder for the analysed grammar, or None when there is none to write.

    Never the package folder: an installed wheel may be read-only and shared."""
    base = os.environ.get("RULESDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "rulesdsl")
    if base == "off":
        return None
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return Path(base) if os.access(base, os.W_OK | os.X_OK) else None


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # Analysing the grammar costs ~0.1 s per process; Lark can pickle the result. The
    # cache file is keyed by Lark on the grammar text, the options and its own version, so
    # a stale or corrupt file is rebuilt (and failing to read or write it only costs time).
    folder = _cache_dir()
    cache: str | bool = str(folder / "expr-grammar.lark-cache") if folder else False
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        maybe_placeholders=True,
        propagate_positions=True,
        cache=cache,
    )


def _pos(meta_or_token) -> int:
    if isinstance(meta_or_token, Token):
        return meta_or_token.start_pos or 0
    return getattr(meta_or_token, "start_pos", 0) or 0


@v_args(meta=True)
class ToAst(Transformer):
    """The one place where parse trees become typed expression nodes."""

    def number(self, meta, children):
        return ast.Num(int(children[0]), pos=_pos(meta))

    def string(self, meta, children):
        return ast.Str(str(children[0])[1:-1], pos=_pos(meta))

    def card(self, meta, children):
        return ast.CardLit(canonical_card_literal(str(children[0])), pos=_pos(meta))

    def tile(self, meta, children):
        return ast.TileLit(str(children[0]), pos=_pos(meta))

    def name(self, meta, children):
        return ast.Name(str(children[0]), pos=_pos(meta))

    def attr(self, meta, children):
        obj, name = children
        return ast.Attr(obj, str(name), pos=_pos(name))

    def call(self, meta, children):
        func, args = children
        return ast.Call(str(func), tuple(args or ()), pos=_pos(meta))

    def arguments(self, meta, children):
        return list(children)

    def list_(self, meta, children):
        return ast.ListExpr(tuple(children[0] or ()), pos=_pos(meta))

    def not_(self, meta, children):
        return ast.Not(children[0], pos=_pos(meta))

    def neg(self, meta, children):
        return ast.Neg(children[0], pos=_pos(meta))

    def or_(self, meta, children):
        return ast.BoolOp("or", children[0], children[1], pos=_pos(meta))

    def and_(self, meta, children):
        return ast.BoolOp("and", children[0], children[1], pos=_pos(meta))

    def compare(self, meta, children):
        left, op, right = children
        return ast.Compare(str(op), left, right, pos=_pos(op))

    def in_(self, meta, children):
        return ast.Compare("in", children[0], children[1], pos=_pos(meta))

    def not_in(self, meta, children):
        return ast.Compare("not in", children[0], children[1], pos=_pos(meta))

    def binop(self, meta, children):
        left, op, right = children
        return ast.BinOp(str(op), left, right, pos=_pos(op))

    def pow_(self, meta, children):
        return ast.BinOp("**", children[0], children[1], pos=_pos(meta))


_TERMINAL_NAMES = {
    "NUMBER": "a number",
    "STRING": "a 'string'",
    "NAME": "a name",
    "CARD": "a card",
    "TILE": "a tile",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "MINUS": "'-'",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/', '//' or '%'",
    "DOT": "'.'",
    "OR": "'or'",
    "AND": "'and'",
    "NOT": "'not'",
    "IN": "'in'",
    "__ANON_0": "'**'",
}


def _describe_expected(names) -> str:
    words = sorted({_TERMINAL_NAMES.get(n, n.lower()) for n in names if n != "$END"})
    if "$END" in names:
        words.append("the end of the expression")
    if len(words) > 6:
        words = words[:6] + ["…"]
    return ", ".join(words)


def _nesting(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch in "([":
            depth += 1
            best = max(best, depth)
        elif ch in ")]":
            depth -= 1
    return best


def _tree_depth(tree: Tree) -> int:
    best = 0
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        best = max(best, d)
        if isinstance(node, Tree):
            stack.extend((c, d + 1) for c in node.children)
    return best


def parse_expression(text: str) -> ast.Node:
    """Parse one expression, or raise ExpressionSyntaxError with an offset."""
    if isinstance(text, str):
        return _parse_text(text)  # the nodes are frozen, so one parse serves every use
    return _parse_uncached(text)


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> ast.Node:
    return _parse_uncached(text)


def _parse_uncached(text: str) -> ast.Node:
    if not isinstance(text, str):
        raise ExpressionSyntaxError("an expression must be a string", 0, "a quoted expression")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExpressionSyntaxError(
            f"expression is {len(text)} characters, over the limit of {MAX_EXPRESSION_CHARS} "
            "(max expression length)", 0)
    if not text.strip():
        raise ExpressionSyntaxError("empty expression", 0, "an expression such as "
                                    "\"suit == trump\"")
    if _nesting(text) > MAX_EXPRESSION_DEPTH:
        raise ExpressionSyntaxError(
            f"expression nests more than {MAX_EXPRESSION_DEPTH} brackets deep "
            "(max expression depth)", 0)
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF as exc:
        raise ExpressionSyntaxError("unexpected end of expression", len(text),
                                    _describe_expected(exc.expected)) from None
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            raise ExpressionSyntaxError("unexpected end of expression", len(text),
                                        _describe_expected(exc.expected)) from None
        raise ExpressionSyntaxError(f"unexpected {exc.token.value!r}",
                                    exc.pos_in_stream or 0,
                                    _describe_expected(exc.expected)) from None
    except UnexpectedCharacters as exc:
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        if char == "'":
            raise ExpressionSyntaxError("unterminated string", exc.pos_in_stream,
                                        "a closing ' after the text") from None
        if char == '"':
            raise ExpressionSyntaxError("strings are written in single quotes inside "
                                        "expressions", exc.pos_in_stream,
                                        "'text' in single quotes") from None
        raise ExpressionSyntaxError(f"unexpected character {char!r}", exc.pos_in_stream) \
            from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ExpressionSyntaxError(str(exc).splitlines()[0], getattr(exc, "pos_in_stream", 0)
                                    or 0) from None
    if _tree_depth(tree) > 4 * MAX_EXPRESSION_DEPTH:
        raise ExpressionSyntaxError(
            f"expression nests too deeply (max expression depth {MAX_EXPRESSION_DEPTH})", 0)
    if isinstance(tree, Token):  # a bare terminal cannot be produced, but be safe
        raise ExpressionSyntaxError("not an expression", 0)
    node = ToAst().transform(tree)
    if ast.depth(node) > MAX_EXPRESSION_DEPTH:
        raise ExpressionSyntaxError(
            f"expression nests more than {MAX_EXPRESSION_DEPTH} levels "
            "(max expression depth)", 0)
    return node
