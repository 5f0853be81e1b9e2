"""Numbers a rule file may hold, and whether its rules can fail while a hand is played.

Non-finite numbers (`.inf`, `.nan`) are refused wherever they are written: no option,
table or formula can play with them. A ruleset "can fail at play" when an expression
divides by (or takes a power of) something that is not a known non-zero constant, or a
table has no catch-all last row; engines then snapshot a state before each action that
evaluates rules, so a failure leaves the state as it was (engine/base.py `apply`).
"""

from __future__ import annotations

import math
from dataclasses import fields, is_dataclass
from typing import Any

from ..language import ast
from ..language.parser import ExpressionSyntaxError, parse_expression

DIVIDING = ("/", "//", "%")
DIVIDING_CALLS = ("ceil_to", "floor_to")  # their first argument is a step (> 0)


def check_finite(compiler: Any, value: Any, path: tuple = ()) -> None:
    """Report every non-finite number in the document at its location."""
    if isinstance(value, float) and not math.isfinite(value):
        compiler.error(path, f"{value} is not a finite number",
                       expected="a whole number or a finite decimal")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_finite(compiler, v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_finite(compiler, v, path + (i,))


def play_can_fail(compiler: Any) -> bool:
    failing = failing_rules(compiler)
    return failing is None or bool(failing)


def failing_rules(compiler: Any) -> frozenset[str] | None:
    """The tables and formulas that can fail at play, by name; None when an expression
    elsewhere (a define, a pattern's condition) can, so any rule may."""
    nonzero = _nonzero_options(compiler.data.get("options", {}))
    out: set[str] = set()
    for path, text in compiler.normalised.items():
        try:
            node = parse_expression(text)
        except ExpressionSyntaxError:
            return None
        if _may_fail(node, nonzero):
            if len(path) > 1 and path[0] in ("tables", "formulas"):
                out.add(path[1])
            else:
                return None
    for name, spec in (compiler.data.get("tables") or {}).items():
        rows = spec.get("rows") or []
        if not rows or rows[-1].get("when") not in (True, "true"):
            out.add(name)  # some input may match no row
    return frozenset(out)


def _nonzero_options(options: dict[str, Any]) -> set[str]:
    """Options every value of which is a non-zero number (safe divisors)."""
    out = set()
    for name, spec in options.items():
        values = spec.get("choices") or [spec.get("default")]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) and v != 0
               for v in values):
            out.add(name)
    return out


def _safe_divisor(node: ast.Node, nonzero: set[str]) -> bool:
    if isinstance(node, ast.Num):
        return node.value != 0
    if isinstance(node, ast.Name):
        return node.id in nonzero
    if isinstance(node, ast.Neg):
        return _safe_divisor(node.operand, nonzero)
    return False


def _may_fail(node: Any, nonzero: set[str]) -> bool:
    if isinstance(node, ast.BinOp):
        if node.op in DIVIDING and not _safe_divisor(node.right, nonzero):
            return True
        if node.op == "**" and not (isinstance(node.left, ast.Num)
                                    and isinstance(node.right, ast.Num)):
            return True
    if isinstance(node, ast.Call) and node.func in DIVIDING_CALLS:
        step = node.args[0] if node.args else None
        if not (isinstance(step, ast.Num) and step.value > 0):
            return True
    if is_dataclass(node):
        for f in fields(node):
            child = getattr(node, f.name)
            items = child if isinstance(child, tuple) else (child,)
            if any(is_dataclass(c) and _may_fail(c, nonzero) for c in items):
                return True
    return False
