"""Parsing expressions: Lark parse tree → typed nodes (rulesdsl.language.ast)."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import notation
from ..errors import RulesdslError
from ..notation import canonical_card_literal
from ..resources import grammar_path
from . import ast

if TYPE_CHECKING:
    from lark import Lark

# lark (~0.07 s to import) is only imported when a text is not in the per-user tree cache
# below; `_lark()` returns the names this module uses from it.

MAX_EXPRESSION_CHARS = 2000
# Nesting as an author sees it (ast.nesting): a flat chain such as `a and b and c` is one
# level however long.
MAX_EXPRESSION_DEPTH = 64
# Operations on one path of the tree, chains included: the compiler and the engines walk
# trees recursively, and a chain leans one level per term (1000 terms of `1+1+...` fit in
# the length bound).
MAX_TREE_DEPTH = 4 * MAX_EXPRESSION_DEPTH


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
def _lark() -> Any:
    import lark
    import lark.exceptions

    return lark, lark.exceptions


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # Analysing the grammar costs ~0.1 s per process; Lark can pickle the result. The
    # cache file is keyed by Lark on the grammar text, the options and its own version, so
    # a stale or corrupt file is rebuilt (and failing to read or write it only costs time).
    folder = _cache_dir()
    cache: str | bool = str(folder / "expr-grammar.lark-cache") if folder else False
    return _lark()[0].Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        maybe_placeholders=True,
        propagate_positions=True,
        cache=cache,
    )


def _pos(meta_or_token) -> int:
    # A lark Token and a Meta both carry start_pos (None or absent when unknown).
    return getattr(meta_or_token, "start_pos", 0) or 0


@lru_cache(maxsize=1)
def _to_ast() -> Any:
    """The transformer class, defined on first use so that lark is imported lazily."""
    lark = _lark()[0]

    @lark.v_args(meta=True)
    class ToAst(lark.Transformer_NonRecursive):
        """The one place where parse trees become typed expression nodes (without
        recursion: a long flat chain makes a tree as deep as its terms)."""

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

    return ToAst


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


def parse_expression(text: str) -> ast.Node:
    """Parse one expression, or raise ExpressionSyntaxError with an offset."""
    if isinstance(text, str):
        return _parse_text(text)  # the nodes are frozen, so one parse serves every use
    return _parse_uncached(text)


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> ast.Node:
    trees = _tree_cache()
    if trees is not None:
        node = trees.get(text)
        if node is not None:
            return node
    node = _parse_uncached(text)
    if trees is not None:
        trees.put(text, node)
    return node


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
    lark, errors = _lark()
    try:
        tree = _parser().parse(text)
    except errors.UnexpectedEOF as exc:
        raise ExpressionSyntaxError("unexpected end of expression", len(text),
                                    _describe_expected(exc.expected)) from None
    except errors.UnexpectedToken as exc:
        if exc.token.type == "$END":
            raise ExpressionSyntaxError("unexpected end of expression", len(text),
                                        _describe_expected(exc.expected)) from None
        raise ExpressionSyntaxError(f"unexpected {exc.token.value!r}",
                                    exc.pos_in_stream or 0,
                                    _describe_expected(exc.expected)) from None
    except errors.UnexpectedCharacters as exc:
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
    except errors.UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ExpressionSyntaxError(str(exc).splitlines()[0], getattr(exc, "pos_in_stream", 0)
                                    or 0) from None
    if isinstance(tree, lark.Token):  # a bare terminal cannot be produced, but be safe
        raise ExpressionSyntaxError("not an expression", 0)
    node = _to_ast()().transform(tree)
    if ast.nesting(node) > MAX_EXPRESSION_DEPTH:
        raise ExpressionSyntaxError(
            f"expression nests more than {MAX_EXPRESSION_DEPTH} levels "
            "(max expression depth)", 0)
    if ast.depth(node) - 1 > MAX_TREE_DEPTH:  # operations on the longest path
        raise ExpressionSyntaxError(
            f"expression chains more than {MAX_TREE_DEPTH} operations (max expression chain)",
            0, f"a chain of at most {MAX_TREE_DEPTH} operations")
    return node


# ---------------------------------------------------------------- per-user tree cache
#
# Parsing needs lark (imported and set up in ~0.1 s) although a rule file's expressions
# rarely change between runs. Parsed trees are kept as JSON (plain lists, never pickle) in
# the per-user cache folder, in a file named by a hash of everything that decides a tree:
# the grammar, this module, the node classes and the card notation. A missing, stale or
# unreadable file only costs a parse; only texts that parsed without error are kept.

TREE_CACHE_LIMIT = 4096  # texts kept in the file (those used by the last run first)

# Node class → how its fields are stored: "v" a plain value, "n" a node, "ns" nodes.
_SHAPES: dict[type, tuple[str, ...]] = {
    ast.Num: ("v",), ast.Str: ("v",), ast.CardLit: ("v",), ast.TileLit: ("v",),
    ast.Name: ("v",), ast.Attr: ("n", "v"), ast.Call: ("v", "ns"), ast.ListExpr: ("ns",),
    ast.Not: ("n",), ast.Neg: ("n",), ast.BoolOp: ("v", "n", "n"), ast.BinOp: ("v", "n", "n"),
    ast.Compare: ("v", "n", "n"),
}
_BY_NAME = {cls.__name__: cls for cls in _SHAPES}
_FIELDS = {cls: tuple(f for f in cls.__dataclass_fields__ if f != "pos") for cls in _SHAPES}


def _encode(node: ast.Node) -> list:
    cls = type(node)
    out: list = [cls.__name__, node.pos]
    for how, name in zip(_SHAPES[cls], _FIELDS[cls], strict=True):
        value = getattr(node, name)
        out.append(_encode(value) if how == "n" else
                   [_encode(v) for v in value] if how == "ns" else value)
    return out


def _decode(data: list) -> ast.Node:
    cls = _BY_NAME[data[0]]
    args = [_decode(v) if how == "n" else tuple(_decode(x) for x in v) if how == "ns" else v
            for how, v in zip(_SHAPES[cls], data[2:], strict=True)]
    return cls(*args, pos=data[1])


class _TreeCache:
    def __init__(self, path: Path):
        self.path = path
        self.stored: dict[str, Any] = {}
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self.stored = loaded
        except (OSError, ValueError):
            pass
        self.used: dict[str, Any] = {}
        self.dirty = False

    def get(self, text: str) -> ast.Node | None:
        data = self.stored.get(text)
        if data is None:
            return None
        try:
            node = _decode(data)
        except (KeyError, TypeError, ValueError, IndexError, RecursionError):
            return None  # not a tree this version wrote: parse instead
        self.used[text] = data
        return node

    def put(self, text: str, node: ast.Node) -> None:
        self.used[text] = _encode(node)
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        kept = dict(self.used)
        for text, data in self.stored.items():
            if len(kept) >= TREE_CACHE_LIMIT:
                break
            kept.setdefault(text, data)
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(kept, ensure_ascii=False, separators=(",", ":")),
                           encoding="utf-8")
            os.replace(tmp, self.path)
            for old in self.path.parent.glob("expr-trees-*.json"):
                if old != self.path:  # trees of an older grammar or parser
                    old.unlink(missing_ok=True)
        except OSError:
            tmp.unlink(missing_ok=True)


@lru_cache(maxsize=1)
def _tree_cache() -> _TreeCache | None:
    folder = _cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256()
    try:
        for source in (grammar_path(), Path(__file__), Path(ast.__file__),
                       Path(notation.__file__)):
            digest.update(source.read_bytes())
    except OSError:
        return None  # sources not readable (a frozen install): no cache
    cache = _TreeCache(folder / f"expr-trees-{digest.hexdigest()[:16]}.json")
    atexit.register(cache.save)
    return cache
