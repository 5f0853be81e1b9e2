"""Typed expression nodes and their canonical printed form.

Nodes compare by structure (positions are kept for messages but ignored in
equality), so `parse(unparse(node)) == node` is the round-trip property the tests
check.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Node:
    pos: int = field(default=0, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class CardLit(Node):
    text: str  # canonical notation, e.g. "SA", "H10", "BJ"


@dataclass(frozen=True)
class TileLit(Node):
    text: str  # Tenhou notation, e.g. "5z"


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # "and" | "or"
    left: Node
    right: Node


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # + - * / // % **
    left: Node
    right: Node


@dataclass(frozen=True)
class Compare(Node):
    op: str  # == != < <= > >= in "not in"
    left: Node
    right: Node


# Precedence levels, loosest first; mirrors grammar/expr.lark.
_OR, _AND, _NOT, _CMP, _SUM, _PRODUCT, _UNARY, _POW, _POSTFIX, _ATOM = range(1, 11)


def precedence(node: Node) -> int:
    if isinstance(node, BoolOp):
        return _OR if node.op == "or" else _AND
    if isinstance(node, Not):
        return _NOT
    if isinstance(node, Compare):
        return _CMP
    if isinstance(node, BinOp):
        if node.op in ("+", "-"):
            return _SUM
        if node.op == "**":
            return _POW
        return _PRODUCT
    if isinstance(node, Neg):
        return _UNARY
    if isinstance(node, Attr):
        return _POSTFIX
    return _ATOM


def unparse(node: Node) -> str:
    """The canonical text of an expression (minimal parentheses, single spaces)."""

    def wrap(child: Node, minimum: int) -> str:
        text = unparse(child)
        return f"({text})" if precedence(child) < minimum else text

    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Str):
        return f"'{node.value}'"
    if isinstance(node, (CardLit, TileLit)):
        return node.text
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Attr):
        return f"{wrap(node.obj, _POSTFIX)}.{node.name}"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(unparse(a) for a in node.args)})"
    if isinstance(node, ListExpr):
        return f"[{', '.join(unparse(a) for a in node.items)}]"
    if isinstance(node, Not):
        return f"not {wrap(node.operand, _NOT)}"
    if isinstance(node, Neg):
        return f"-{wrap(node.operand, _UNARY)}"
    if isinstance(node, BoolOp):
        level = precedence(node)
        return f"{wrap(node.left, level)} {node.op} {wrap(node.right, level + 1)}"
    if isinstance(node, Compare):
        return f"{wrap(node.left, _SUM)} {node.op} {wrap(node.right, _SUM)}"
    if isinstance(node, BinOp):
        if node.op == "**":
            return f"{wrap(node.left, _POSTFIX)} ** {wrap(node.right, _UNARY)}"
        level = precedence(node)
        return f"{wrap(node.left, level)} {node.op} {wrap(node.right, level + 1)}"
    raise TypeError(f"not an expression node: {node!r}")


def walk(node: Node):
    """Every node of the tree, parents first."""
    yield node
    for child in children(node):
        yield from walk(child)


def children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Attr):
        return (node.obj,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, ListExpr):
        return node.items
    if isinstance(node, (Not, Neg)):
        return (node.operand,)
    if isinstance(node, (BoolOp, BinOp, Compare)):
        return (node.left, node.right)
    return ()


def depth(node: Node) -> int:
    """Depth of the tree, computed without recursion (trees may be hostile)."""
    best = 0
    stack = [(node, 1)]
    while stack:
        current, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in children(current))
    return best


def nesting(node: Node) -> int:
    """Nesting depth as an author sees it: a flat chain of one precedence level
    (`a and b and c`, `x + y - z`) is one level however long, since its nodes lean left;
    brackets on the right, `not`, `-`, `**`, calls and lists nest."""
    best = 0
    stack = [(node, 1)]
    while stack:
        current, d = stack.pop()
        best = max(best, d)
        if isinstance(current, (BoolOp, BinOp)) and current.op != "**":
            left = current.left
            stack.append((left, d if precedence(left) == precedence(current) else d + 1))
            stack.append((current.right, d + 1))
        else:
            stack.extend((c, d + 1) for c in children(current))
    return best
