"""No test loops over nothing: a module-level collection a test iterates or parametrises
over (`for path in RULESETS`, `@pytest.mark.parametrize("name", NAMES)`) is not empty.
A `for` over an empty list asserts nothing and passes; a glob that stops matching (a
folder moved, a pattern renamed) would turn such a test into one that checks nothing.

A collection that is empty on purpose (a registry of known-wrong cases, empty once all
are fixed) is listed in ALLOWED_EMPTY with the reason it may be.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Sized
from pathlib import Path

from .conftest import ROOT

TESTS = ROOT / "tests"

# module.NAME -> why it may be empty
ALLOWED_EMPTY = {
    # strict-xfail registries: an entry is removed when the validator is fixed
    "tests.test_broken_files.KNOWN_WRONG": "files whose validator output is judged wrong",
    "tests.test_diagnostics.KNOWN_WRONG": "built inputs whose diagnostic is judged wrong",
}

# how an iterated collection is often wrapped: `sorted(NAMES)`, `enumerate(CASES)`,
# `CASES.items()`
_WRAPPERS = {"sorted", "list", "tuple", "set", "enumerate", "reversed"}
_VIEWS = {"items", "keys", "values"}


def _unwrap(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name) and f.id in _WRAPPERS and node.args:
            node = node.args[0]
        elif isinstance(f, ast.Attribute) and f.attr in _VIEWS and not node.args:
            node = f.value
        else:
            break
    return node


def iterated_names(source: str) -> set[str]:
    """The module-level UPPER_CASE names (assigned or imported) that the module iterates
    over (`for`, a comprehension) or passes to `parametrize` as its values."""
    tree = ast.parse(source)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    found: set[str] = set()
    for node in ast.walk(tree):
        iters: list[ast.expr] = []
        if isinstance(node, (ast.For, ast.comprehension)):
            iters.append(node.iter)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "parametrize":
            iters += node.args[1:2] + [k.value for k in node.keywords if k.arg == "argvalues"]
        for it in iters:
            it = _unwrap(it)
            if isinstance(it, ast.Name) and it.id in names and it.id.isupper():
                found.add(it.id)
    return found


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def iterated_collections() -> dict[str, object]:
    """module.NAME -> its value, for every test module under tests/."""
    out: dict[str, object] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        names = iterated_names(path.read_text(encoding="utf-8"))
        if not names:
            continue
        module = importlib.import_module(_module_name(path))
        for name in sorted(names):
            out[f"{module.__name__}.{name}"] = getattr(module, name)
    return out


def test_the_reader_finds_iterated_collections() -> None:
    # The reader sees each form: if it stopped matching one, the check below would pass
    # vacuously itself.
    source = (
        "import pytest\nfrom x import IMPORTED\nA = []\nB = {}\nC = ()\nD = []\nE = []\n"
        "lower = []\nF = []\n"
        "@pytest.mark.parametrize('n', A)\ndef test_a(n): pass\n"
        "@pytest.mark.parametrize('n', argvalues=sorted(B))\ndef test_b(n): pass\n"
        "def test_c():\n    for k, v in C.items(): assert v\n"
        "def test_d():\n    assert all(x for _, x in enumerate(D))\n"
        "def test_e():\n    for x in IMPORTED: assert x\n    for y in lower: assert y\n"
        "def test_f():\n    assert len(F) == 0\n")
    assert iterated_names(source) == {"A", "B", "C", "D", "IMPORTED"}
    found = iterated_collections()
    for key in ("tests.test_rulesets.RULESETS", "tests.test_broken_files.FILES",
                "tests.test_cheating.NAMES", "tests.test_soak.FOUND",
                "tests.fuzz.test_hostile_files.WHOLE_FILES"):
        assert key in found, key
    assert len(found) >= 40, len(found)


def test_no_test_iterates_over_an_empty_collection() -> None:
    found = iterated_collections()
    empty = [key for key, value in found.items()
             if isinstance(value, Sized) and len(value) == 0 and key not in ALLOWED_EMPTY]
    assert empty == [], ("tests iterate over empty collections (they check nothing): "
                         + ", ".join(empty) + "; list one in ALLOWED_EMPTY with the reason "
                         "it may be empty")
    # an allowance that no longer matches anything is stale
    assert sorted(set(ALLOWED_EMPTY) - set(found)) == []
