"""Name resolution, type checking and compilation of expressions to closures.

`compile_expression(node, scope)` checks a parsed expression against a scope (the
element under consideration, the defines, the context, options and inputs) and
returns its type and a closure `fn(env) -> value`. Closures are only used when a
ruleset is compiled or specialised for a hand; hot paths use the integer tables
built from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import notation as nt
from ..errors import RulesdslError, did_you_mean
from ..language import ast

Fn = Callable[["Env"], Any]


class ExpressionError(RulesdslError):
    """A type or name error in an expression; `offset` is 0-based in its text."""

    def __init__(self, message: str, offset: int = 0, expected: str | None = None,
                 suggestion: str | None = None, quiet: bool = False):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.expected = expected
        self.suggestion = suggestion
        # quiet: a consequence of a problem already reported elsewhere (a broken define).
        self.quiet = quiet


class EvaluationError(RulesdslError):
    """An expression failed while being evaluated (division by zero, no value)."""


class Env:
    """What an expression sees while it runs: its element, the named values, its parent."""

    __slots__ = ("element", "values", "parent")

    def __init__(self, element: Any, values: dict[str, Any], parent: Env | None = None):
        self.element = element
        self.values = values
        self.parent = parent


# ---------------------------------------------------------------- types

BOOL, INT, STRING, SUIT, RANK, COLOR = "bool", "int", "string", "suit", "rank", "color"
CARD, TILE, TILESUIT, SET, HAND, ANY = "card", "tile", "tilesuit", "set", "hand", "any"


def a(t: str) -> str:
    """'a suit', 'an int': a type name with its article, for messages."""
    return f"an {t}" if t[:1] in "aeiou" else f"a {t}"


def list_of(t: str) -> str:
    return f"list[{t}]"


def element_type(t: str) -> str | None:
    return t[5:-1] if t.startswith("list[") else None


def _tile_attr(fn: Callable[[int], Any]) -> Callable[[Any], Any]:
    return lambda tile: fn(tile) if tile is not None else None


def _suit_color(suit: str | None) -> str | None:
    return nt.SUIT_COLORS.get(suit) if suit else None


_MAJOR_HONOR = set(range(27, 34))

ATTRIBUTES: dict[str, dict[str, tuple[str, Callable[[Any], Any]]]] = {
    CARD: {
        "card": (CARD, lambda c: c),
        "suit": (SUIT, nt.card_suit),
        "rank": (RANK, nt.card_rank),
        "color": (COLOR, lambda c: _suit_color(nt.card_suit(c))),
        "is_joker": (BOOL, lambda c: 52 <= c < 100),
    },
    TILE: {
        "tile": (TILE, lambda t: t),
        "suit": (TILESUIT, _tile_attr(nt.tile_suit)),
        "number": (INT, _tile_attr(nt.tile_number)),
        "is_suited": (BOOL, lambda t: t is not None and t < 27),
        "is_honor": (BOOL, lambda t: t is not None and 27 <= t < 34),
        "is_wind": (BOOL, lambda t: t is not None and 27 <= t < 31),
        "is_dragon": (BOOL, lambda t: t is not None and 31 <= t < 34),
        "is_terminal": (BOOL, lambda t: t is not None and t < 27 and t % 9 in (0, 8)),
        "is_flower": (BOOL, lambda t: t is not None and t >= 34),
        # a wind's own; a flower's seat wind (春梅 1f 5f east … 冬菊 4f 8f north)
        "wind": (TILE, lambda t: t if t is not None and 27 <= t < 31 else
                 27 + (t - 34) % 4 if t is not None and t >= 34 else None),
    },
    SET: {
        "kind": (STRING, lambda s: s["kind"]),
        "concealed": (BOOL, lambda s: s["concealed"]),
        "claimed": (BOOL, lambda s: not s["concealed"]),
        "tile": (TILE, lambda s: s["tile"]),
        "wilds": (INT, lambda s: s["wilds"]),
        "home_wilds": (INT, lambda s: s.get("home_wilds", 0)),
        # the set the winning tile completed (in the reading scored)
        "completed": (BOOL, lambda s: s.get("completed", False)),
    },
    HAND: {
        "winner": (BOOL, lambda h: h["winner"]),
        "self_drawn": (BOOL, lambda h: h["self_drawn"]),
        "kong_replacement": (BOOL, lambda h: h["kong_replacement"]),
        "robbed_kong": (BOOL, lambda h: h["robbed_kong"]),
        "last_tile": (BOOL, lambda h: h.get("last_tile", False)),
        "first_turn": (BOOL, lambda h: h.get("first_turn", False)),
        "kong_discard": (BOOL, lambda h: h.get("kong_discard", False)),
        "wait": (STRING, lambda h: h["wait"]),
        "wilds": (INT, lambda h: h["wilds"]),
        "flowers": (INT, lambda h: h["flowers"]),
        "seat_wind": (TILE, lambda h: h["seat_wind"]),
        "sets": (list_of(SET), lambda h: h["sets"]),
        "tiles": (list_of(TILE), lambda h: h["tiles"]),
        "exposed_flowers": (list_of(TILE), lambda h: h["exposed_flowers"]),
        "first_suit": (TILESUIT, lambda h: h["first_suit"]),
        "win_tile": (TILE, lambda h: h.get("win_tile")),
        "flower_replacement": (BOOL, lambda h: h.get("flower_replacement", False)),
        "seven_pairs": (BOOL, lambda h: h.get("seven_pairs", False)),
    },
}


def _constants_for(element: str | None) -> dict[str, tuple[str, Any]]:
    consts: dict[str, tuple[str, Any]] = {"true": (BOOL, True), "false": (BOOL, False)}
    if element == CARD or element is None:
        consts.update({s: (SUIT, s) for s in nt.SUITS})
        consts.update({n: (RANK, v) for n, v in (("J", 11), ("Q", 12), ("K", 13), ("A", 14))})
        consts.update({"red": (COLOR, "red"), "black": (COLOR, "black")})
    if element in (TILE, SET, HAND):
        consts.update({s: (TILESUIT, s) for s in nt.TILE_SUITS})
        consts.update({w: (STRING, w) for w in
                       ("pair", "chow", "pung", "kong", "closed", "edge", "other")})
    return consts


# ---------------------------------------------------------------- scopes


@dataclass
class Scope:
    """Names visible to one expression."""

    element: str | None = None
    values: dict[str, str] = field(default_factory=dict)  # context, options, inputs
    defines: DefineTable | None = None
    parent: Scope | None = None

    def child(self, element: str, defines: DefineTable | None) -> Scope:
        return Scope(element=element, values=self.values, defines=defines, parent=self)

    def visible_names(self) -> list[str]:
        names = list(ATTRIBUTES.get(self.element or "", {}))
        if self.defines:
            names += list(self.defines.raw)
        names += list(self.values)
        names += list(_constants_for(self.element))
        if self.parent:
            names += self.parent.visible_names()
        return names


class DefineTable:
    """Named expressions over one element type, type-checked lazily, cycles detected."""

    def __init__(self, element: str, raw: dict[str, ast.Node], values: dict[str, str],
                 on_error: Callable[[str, ExpressionError], None]):
        self.element = element
        self.raw = raw
        self.values = values
        self.on_error = on_error
        self.compiled: dict[str, tuple[str, Fn] | None] = {}
        self._active: list[str] = []

    def resolve(self, name: str) -> tuple[str, Fn] | None:
        if name in self.compiled:
            return self.compiled[name]
        if name in self._active:
            cycle = " -> ".join(self._active[self._active.index(name):] + [name])
            raise ExpressionError(f"definitions refer to each other in a cycle: {cycle}")
        self._active.append(name)
        try:
            scope = Scope(element=self.element, values=self.values, defines=self)
            try:
                result: tuple[str, Fn] | None = compile_expression(self.raw[name], scope)
            except ExpressionError as exc:
                if not exc.quiet:
                    self.on_error(name, exc)
                result = None
        finally:
            self._active.pop()
        self.compiled[name] = result
        return result

    def check_all(self) -> None:
        for name in self.raw:
            try:
                self.resolve(name)
            except ExpressionError as exc:
                if not exc.quiet:
                    self.on_error(name, exc)
                self.compiled[name] = None


# ---------------------------------------------------------------- compiler

_FUNCTIONS = ("min", "max", "abs", "ceil_to", "floor_to", "color", "if", "count", "all", "any",
              "len", "largest_group", "groups")


def _define_over(scope: Scope, element: str, name: str) -> tuple[str, Fn] | None:
    """The define `name` over `element` values visible from this scope, compiled."""
    at: Scope | None = scope
    while at is not None:
        table = at.defines
        if table is not None and table.element == element and name in table.raw:
            return table.resolve(name)
        at = at.parent
    return None


def _at_depth(env: Env, depth: int) -> Env:
    for _ in range(depth):
        assert env.parent is not None
        env = env.parent
    return env


def _resolve_name(node: ast.Name, scope: Scope) -> tuple[str, Fn]:
    name = node.id
    depth = 0
    current: Scope | None = scope
    while current is not None:
        attrs = ATTRIBUTES.get(current.element or "", {})
        if name in attrs:
            t, getter = attrs[name]
            if depth == 0:
                return t, lambda env, g=getter: g(env.element)
            return t, lambda env, g=getter, d=depth: g(_at_depth(env, d).element)
        if current.defines and name in current.defines.raw:
            try:
                resolved = current.defines.resolve(name)
            except ExpressionError as exc:
                if exc.offset == 0 and "cycle" in exc.message:
                    exc.offset = node.pos  # point at the reference that closes the cycle
                raise
            if resolved is None:
                raise ExpressionError(f"{name!r} is defined with an error", node.pos,
                                      quiet=True)
            t, fn = resolved
            if depth == 0:
                return t, fn
            return t, lambda env, f=fn, d=depth: f(_at_depth(env, d))
        if name in current.values:
            t = current.values[name]
            return t, lambda env: env.values[name]
        consts = _constants_for(current.element)
        if name in consts and current.parent is None:
            t, value = consts[name]
            return t, lambda env, v=value: v
        current = current.parent
        depth += 1
    consts = _constants_for(scope.element)
    if name in consts:
        t, value = consts[name]
        return t, lambda env: value
    raise ExpressionError(f"unknown name {name!r}", node.pos,
                          suggestion=did_you_mean(name, scope.visible_names()))


def _as_rank(node: ast.Node) -> int | None:
    if isinstance(node, ast.Num):
        try:
            return nt.rank_value(node.value)
        except nt.NotationError:
            raise ExpressionError(f"{node.value} is not a rank", node.pos,
                                  expected="a rank: 1 (low ace), 2-10, J, Q, K, A") from None
    return None


def _compatible(a: str, b: str) -> bool:
    return a == b or ANY in (a, b) or (element_type(a) is not None and element_type(b) == ANY) \
        or (element_type(b) is not None and element_type(a) == ANY)


def _coerce_pair(left: ast.Node, lt: str, lf: Fn, right: ast.Node, rt: str, rf: Fn):
    """Read a number as a rank where the other side is a rank (`rank == 5`)."""
    if lt == RANK and rt == INT:
        r = _as_rank(right)
        if r is not None:
            return lt, lf, RANK, (lambda env: r)
    if rt == RANK and lt == INT:
        r = _as_rank(left)
        if r is not None:
            return RANK, (lambda env: r), rt, rf
    if lt == RANK and rt == list_of(INT) and isinstance(right, ast.ListExpr):
        values = tuple(_as_rank(i) for i in right.items)
        if all(v is not None for v in values):
            return lt, lf, list_of(RANK), (lambda env: values)
    return lt, lf, rt, rf


def _numeric(value: Any) -> Any:
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def compile_expression(node: ast.Node, scope: Scope) -> tuple[str, Fn]:
    """Type-check `node` in `scope`; return (type, closure)."""
    if isinstance(node, ast.Num):
        v = node.value
        return INT, lambda env: v
    if isinstance(node, ast.Str):
        s = node.value
        return STRING, lambda env: s
    if isinstance(node, ast.CardLit):
        kind = nt.parse_card(node.text)
        return CARD, lambda env: kind
    if isinstance(node, ast.TileLit):
        tile = nt.tile_kind(node.text)
        return TILE, lambda env: tile
    if isinstance(node, ast.Name):
        return _resolve_name(node, scope)
    if isinstance(node, ast.Attr):
        ot, of = compile_expression(node.obj, scope)
        attrs = ATTRIBUTES.get(ot, {})
        defined = _define_over(scope, ot, node.name)
        if node.name not in attrs and defined is not None:
            # a define applied to a value of its element type: `win_tile.wild`
            dt, df = defined
            return dt, lambda env: df(Env(of(env), env.values))
        if node.name not in attrs:
            raise ExpressionError(f"{a(ot)} has no attribute {node.name!r}", node.pos,
                                  expected=", ".join(attrs) or None,
                                  suggestion=did_you_mean(node.name, attrs))
        t, getter = attrs[node.name]
        return t, lambda env: getter(of(env))
    if isinstance(node, ast.ListExpr):
        compiled = [compile_expression(i, scope) for i in node.items]
        types = {t for t, _ in compiled}
        if len(types) > 1:
            raise ExpressionError(f"a list mixes {', '.join(sorted(types))}", node.pos,
                                  expected="items of one type")
        t = types.pop() if types else ANY
        fns = [f for _, f in compiled]
        return list_of(t), lambda env: tuple(f(env) for f in fns)
    if isinstance(node, ast.Not):
        t, f = compile_expression(node.operand, scope)
        _expect(t, BOOL, node.operand)
        return BOOL, lambda env: not f(env)
    if isinstance(node, ast.Neg):
        t, f = compile_expression(node.operand, scope)
        _expect(t, INT, node.operand)
        return INT, lambda env: -f(env)
    if isinstance(node, ast.BoolOp):
        lt, lf = compile_expression(node.left, scope)
        rt, rf = compile_expression(node.right, scope)
        _expect(lt, BOOL, node.left)
        _expect(rt, BOOL, node.right)
        if node.op == "and":
            return BOOL, lambda env: bool(lf(env)) and bool(rf(env))
        return BOOL, lambda env: bool(lf(env)) or bool(rf(env))
    if isinstance(node, ast.Compare):
        return _compile_compare(node, scope)
    if isinstance(node, ast.BinOp):
        lt, lf = compile_expression(node.left, scope)
        rt, rf = compile_expression(node.right, scope)
        _expect(lt, INT, node.left)
        _expect(rt, INT, node.right)
        return INT, _arith(node.op, lf, rf)
    if isinstance(node, ast.Call):
        return _compile_call(node, scope)
    raise ExpressionError("not an expression", getattr(node, "pos", 0))


def _expect(actual: str, wanted: str, node: ast.Node) -> None:
    if actual != wanted and actual != ANY:
        raise ExpressionError(f"this is {a(actual)}", node.pos, expected=f"{a(wanted)}")


def _arith(op: str, lf: Fn, rf: Fn) -> Fn:
    def divide(a: Any, b: Any) -> Any:
        if b == 0:
            raise EvaluationError("division by zero")
        return _numeric(Fraction(a) / Fraction(b))

    def floordiv(a: Any, b: Any) -> Any:
        if b == 0:
            raise EvaluationError("division by zero")
        return a // b

    def modulo(a: Any, b: Any) -> Any:
        if b == 0:
            raise EvaluationError("division by zero")
        return a % b

    def power(a: Any, b: Any) -> Any:
        if b < 0 or b > 64 or abs(a) > 1 << 32:
            raise EvaluationError(f"{a} ** {b} is out of range (exponent 0..64)")
        return a**b

    ops: dict[str, Callable[[Any, Any], Any]] = {
        "+": lambda a, b: a + b,
        "-": lambda a, b: a - b,
        "*": lambda a, b: a * b,
        "/": divide,
        "//": floordiv,
        "%": modulo,
        "**": power,
    }
    f = ops[op]
    return lambda env: f(lf(env), rf(env))


def _compile_compare(node: ast.Compare, scope: Scope) -> tuple[str, Fn]:
    lt, lf = compile_expression(node.left, scope)
    rt, rf = compile_expression(node.right, scope)
    lt, lf, rt, rf = _coerce_pair(node.left, lt, lf, node.right, rt, rf)
    if node.op in ("in", "not in"):
        inner = element_type(rt)
        if inner is None:
            raise ExpressionError(f"'{node.op}' needs a list on its right, not {a(rt)}",
                                  node.right.pos, expected="a list such as [J, Q, K]")
        if not _compatible(lt, inner):
            raise ExpressionError(f"cannot look for {a(lt)} in a list of {inner}", node.pos)
        if node.op == "in":
            return BOOL, lambda env: lf(env) in rf(env)
        return BOOL, lambda env: lf(env) not in rf(env)
    if not _compatible(lt, rt):
        raise ExpressionError(f"cannot compare {a(lt)} with {a(rt)}", node.pos,
                              expected=f"{a(lt)} on both sides")
    op = node.op
    if op == "==":
        return BOOL, lambda env: lf(env) == rf(env)
    if op == "!=":
        return BOOL, lambda env: lf(env) != rf(env)
    if lt not in (INT, RANK):
        raise ExpressionError(f"'{op}' orders numbers and ranks, not {a(lt)}", node.pos)
    cmp: dict[str, Callable[[Any, Any], bool]] = {
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
    }
    c = cmp[op]

    def ordered(env: Env) -> bool:
        a, b = lf(env), rf(env)
        if a is None or b is None:
            return False
        return c(a, b)

    return BOOL, ordered


def _compile_call(node: ast.Call, scope: Scope) -> tuple[str, Fn]:
    name, args = node.func, node.args
    if name not in _FUNCTIONS:
        raise ExpressionError(f"unknown function {name!r}", node.pos,
                              expected=", ".join(_FUNCTIONS),
                              suggestion=did_you_mean(name, _FUNCTIONS))

    def arity(n: int | tuple[int, int]) -> None:
        low, high = (n, n) if isinstance(n, int) else n
        if not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} or more"
            raise ExpressionError(f"{name}() takes {want} arguments, got {len(args)}", node.pos)

    if name in ("count", "all", "any"):
        arity(2)
        lt, lf = compile_expression(args[0], scope)
        inner = element_type(lt)
        if inner is None:
            raise ExpressionError(f"{name}() needs a list first, not {a(lt)}", args[0].pos)
        defines = scope.defines if scope.defines and scope.defines.element == inner else None
        if defines is None and scope.parent is not None:
            p = scope.parent
            while p is not None:
                if p.defines and p.defines.element == inner:
                    defines = p.defines
                    break
                p = p.parent
        pt, pf = compile_expression(args[1], scope.child(inner, defines))
        _expect(pt, BOOL, args[1])
        if name == "count":
            return INT, lambda env: sum(1 for x in lf(env) if pf(Env(x, env.values, env)))
        if name == "all":
            return BOOL, lambda env: all(pf(Env(x, env.values, env)) for x in lf(env))
        return BOOL, lambda env: any(pf(Env(x, env.values, env)) for x in lf(env))

    compiled = [compile_expression(a, scope) for a in args]
    types = [t for t, _ in compiled]
    fns = [f for _, f in compiled]
    if name in ("min", "max"):
        arity((1, 64))
        for t, arg in zip(types, args):
            _expect(t, INT, arg)
        agg = min if name == "min" else max
        return INT, lambda env: agg(f(env) for f in fns)
    if name == "abs":
        arity(1)
        _expect(types[0], INT, args[0])
        return INT, lambda env: abs(fns[0](env))
    if name in ("ceil_to", "floor_to"):
        arity(2)
        _expect(types[0], INT, args[0])
        _expect(types[1], INT, args[1])
        step_f, x_f = fns
        up = name == "ceil_to"

        def rounded(env: Env) -> Any:
            step, x = step_f(env), x_f(env)
            if step <= 0:
                raise EvaluationError(f"{name} needs a positive step, got {step}")
            q = -(-x // step) if up else x // step
            return _numeric(q * step)

        return INT, rounded
    if name == "color":
        arity(1)
        if types[0] == SUIT:
            return COLOR, lambda env: _suit_color(fns[0](env))
        if types[0] == CARD:
            return COLOR, lambda env: ATTRIBUTES[CARD]["color"][1](fns[0](env))
        raise ExpressionError(f"color() takes a suit or a card, not {a(types[0])}", args[0].pos)
    if name == "if":
        arity(3)
        _expect(types[0], BOOL, args[0])
        if not _compatible(types[1], types[2]):
            raise ExpressionError(f"if() branches differ: {types[1]} and {types[2]}", node.pos,
                                  expected="the same type in both branches")
        cond, then, other = fns
        t = types[1] if types[1] != ANY else types[2]
        return t, lambda env: then(env) if cond(env) else other(env)
    if name == "groups":
        arity(2)
        if types[0] != list_of(TILE):
            raise ExpressionError(f"groups() needs a list of tiles, not {a(types[0])}",
                                  args[0].pos)
        if types[1] != INT:
            raise ExpressionError(f"groups() counts kinds held at least N times: N is an "
                                  f"int, not {a(types[1])}", args[1].pos)

        def groups(env: Env) -> int:
            held: dict[int, int] = {}
            for t in fns[0](env):
                held[t] = held.get(t, 0) + 1
            n = fns[1](env)
            return sum(1 for c in held.values() if c >= n)

        return INT, groups
    if name == "largest_group":
        arity(1)
        if types[0] != list_of(CARD):
            raise ExpressionError(f"largest_group() needs a list of cards, not {a(types[0])}",
                                  args[0].pos)

        def largest(env: Env) -> int:
            ranks: dict[int, int] = {}
            for c in fns[0](env):
                r = nt.card_rank(c)
                ranks[r] = ranks.get(r, 0) + 1
            return max(ranks.values(), default=0)

        return INT, largest
    if name == "len":
        arity(1)
        if element_type(types[0]) is None:
            raise ExpressionError(f"len() needs a list, not {a(types[0])}", args[0].pos)
        return INT, lambda env: len(fns[0](env))
    raise ExpressionError(f"unknown function {name!r}", node.pos)  # pragma: no cover


# Types a YAML author may declare for context values and inputs.
DECLARABLE_TYPES = {
    "suit": SUIT,
    "rank": RANK,
    "tile": TILE,
    "card": CARD,
    "int": INT,
    "bool": BOOL,
    "string": STRING,
}
