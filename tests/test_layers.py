"""The package's layering, checked from the source text alone (docs/architecture.md).

Every import under rulesdsl/ is read with `ast` (nothing is imported, so a broken module
cannot hide an edge), including imports inside functions and under `if TYPE_CHECKING:`:
a lazy or type-only import still ties one layer to another. Each module belongs to a
unit (a subpackage such as rulesdsl.engine, or a top-level module such as rulesdsl.cli),
and each unit to a layer; a unit may import only from its own layer or a lower one.
"""

from __future__ import annotations

import ast
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .conftest import ROOT

PACKAGE = "rulesdsl"
SOURCE = ROOT / PACKAGE

# Lowest first. Top-level modules are their own unit; a subpackage is one unit.
BASE = ("rulesdsl.errors", "rulesdsl.diagnostics", "rulesdsl.resources", "rulesdsl.notation")
INTERFACES = (
    "rulesdsl",  # rulesdsl/__init__.py
    "rulesdsl.__main__",
    "rulesdsl.examples",
    "rulesdsl.scenarios",
    "rulesdsl.api",
    "rulesdsl.problem_report",
    "rulesdsl.cli",
    "rulesdsl.lsp",
    "rulesdsl.explain",
    "rulesdsl.rulebook",
    "rulesdsl.headless",
    "rulesdsl.adapters",
)
LAYERS: dict[str, int] = {
    **dict.fromkeys(BASE, 1),
    "rulesdsl.language": 2,
    "rulesdsl.runtime": 3,
    "rulesdsl.model": 4,
    "rulesdsl.engine": 5,
    "rulesdsl.compiler": 6,
    **dict.fromkeys(INTERFACES, 7),
}

ENGINE = "rulesdsl.engine"
FAMILIES = ("trick", "shedding", "tiles")


@dataclass(frozen=True)
class Import:
    """One imported module, resolved to its absolute name, and where the import is."""

    source: str  # the importing module
    target: str  # the imported module (a submodule if the name is one, else the package)
    path: Path
    line: int

    @property
    def where(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}"


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under `root` (the package's own directory), by name."""
    modules: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _resolve_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module a `from X import ...` reads from."""
    if node.level == 0:
        return node.module or ""
    # A package's __init__ is its own anchor; a plain module's anchor is its parent.
    anchor = module.split(".") if is_package else module.split(".")[:-1]
    if node.level - 1 > len(anchor) - 1:
        raise ValueError(f"relative import beyond the top-level package in {module}")
    base = anchor[: len(anchor) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(path: Path, module: str, modules: Mapping[str, Path], package: str) -> list[Import]:
    """Every import of the package's own modules in one file, at any depth of the tree."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def own(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    for node in ast.walk(tree):  # walk, not tree.body: lazy and TYPE_CHECKING imports count
        if isinstance(node, ast.Import):
            for alias in node.names:
                if own(alias.name):
                    found.append(Import(module, alias.name, path, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(node, module, is_package)
            if not own(base):
                continue
            for alias in node.names:
                # `from .. import notation` imports the module rulesdsl.notation, not an
                # attribute of the package; anything else is a name defined in `base`.
                sub = f"{base}.{alias.name}"
                target = sub if sub in modules else base
                found.append(Import(module, target, path, node.lineno))
    return found


def all_imports(root: Path = SOURCE, package: str = PACKAGE) -> list[Import]:
    modules = module_names(root, package)
    result: list[Import] = []
    for module, path in modules.items():
        result.extend(imports_of(path, module, modules, package))
    # ast.walk is breadth-first; sort so messages read top to bottom, file by file.
    return sorted(result, key=lambda i: (str(i.path), i.line, i.target))


def unit_of(module: str) -> str:
    """The layer unit: the first-level subpackage (rulesdsl.engine for
    rulesdsl.engine.trick.state), or the top-level module itself (rulesdsl.cli)."""
    return ".".join(module.split(".")[:2])


def unit_graph(imports: Iterable[Import]) -> dict[str, dict[str, list[Import]]]:
    """Edges between distinct units, each with the imports that make it."""
    graph: dict[str, dict[str, list[Import]]] = defaultdict(lambda: defaultdict(list))
    for imp in imports:
        a, b = unit_of(imp.source), unit_of(imp.target)
        if a != b:  # imports inside one unit are that unit's own business
            graph[a][b].append(imp)
    return graph


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit); components in sorted order."""
    nodes = sorted(set(graph) | {b for a in graph for b in graph[a]})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, sorted(graph.get(start, ()))))
        while work:
            node, succ = work[-1]
            if succ:
                nxt = succ.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                components.append(sorted(comp))
    return sorted(components)


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One shortest cycle (as a node path, first node repeated at the end) per strongly
    connected component of more than one node, or of one node with an edge to itself."""
    found: list[list[str]] = []
    for comp in strongly_connected(graph):
        start = comp[0]
        if len(comp) == 1 and start not in graph.get(start, ()):
            continue
        members = set(comp)
        # BFS inside the component from start back to start: the shortest cycle through it.
        parent: dict[str, str] = {}
        queue = deque([start])
        closing: str | None = None
        while queue and closing is None:
            node = queue.popleft()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    closing = node
                    break
                if nxt in members and nxt not in parent:
                    parent[nxt] = node
                    queue.append(nxt)
        assert closing is not None  # a component of this kind always closes
        path = [closing]
        while path[-1] != start:
            path.append(parent[path[-1]])
        found.append([*reversed(path), start])
    return found


def _upward(a: str, b: str) -> bool:
    return a in LAYERS and b in LAYERS and LAYERS[b] > LAYERS[a]


def _sites(imps: list[Import], limit: int = 6) -> str:
    # One import line may name several modules; list each file:line once.
    wheres = list(dict.fromkeys(i.where for i in imps))
    shown = ", ".join(wheres[:limit])
    return shown + (f" (+{len(wheres) - limit} more)" if len(wheres) > limit else "")


# -- the sanity checks: the walker sees real edges, the detector sees real cycles --------


def test_walker_finds_known_edges() -> None:
    graph = unit_graph(all_imports())
    # The compiler reads rule files through the language layer; if this edge were missing
    # the walker would be blind and every layering test would pass vacuously.
    assert "rulesdsl.language" in graph["rulesdsl.compiler"]
    assert "rulesdsl.model" in graph["rulesdsl.compiler"]
    assert "rulesdsl.errors" in graph["rulesdsl.notation"]


def test_walker_resolves_relative_and_lazy_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .sub import mod\n")
    (pkg / "base.py").write_text("X = 1\n")
    (pkg / "sub" / "__init__.py").write_text("from .. import base\n")
    (pkg / "sub" / "mod.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from .. import base, X\n"  # a submodule and a package attribute
        "if TYPE_CHECKING:\n"
        "    from ..sub import other\n"
        "def f():\n"
        "    import pkg.base\n"
        "    from . import mod\n"
    )
    (pkg / "sub" / "other.py").write_text("")
    found = {(i.source, i.target, i.line) for i in all_imports(pkg, "pkg")}
    assert found == {
        ("pkg", "pkg.sub.mod", 1),
        ("pkg.sub", "pkg.base", 1),
        ("pkg.sub.mod", "pkg.base", 2),
        ("pkg.sub.mod", "pkg", 2),
        ("pkg.sub.mod", "pkg.sub.other", 4),
        ("pkg.sub.mod", "pkg.base", 6),
        ("pkg.sub.mod", "pkg.sub.mod", 7),
    }


def test_every_import_names_an_existing_module() -> None:
    # Guards the resolver (a wrong anchor would invent modules) and catches an import left
    # pointing at a file that a move has taken away.
    modules = module_names(SOURCE, PACKAGE)
    missing = [f"{i.where}: {i.target}" for i in all_imports() if i.target not in modules]
    assert not missing, "imports of modules that do not exist:\n" + "\n".join(missing)


def test_cycle_detector_on_synthetic_graphs() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a"}, "f": {"f"}}
    assert cycles(graph) == [["a", "b", "c", "a"], ["f", "f"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    # Two cycles sharing a node are one component; the shortest is reported.
    assert cycles({"a": {"b", "c"}, "b": {"a"}, "c": {"d"}, "d": {"a"}}) == [["a", "b", "a"]]


# -- the layering itself ---------------------------------------------------------------


def test_every_unit_has_a_layer() -> None:
    # A new subpackage or top-level module must be placed in the layer list on purpose.
    units = {unit_of(m) for m in module_names(SOURCE, PACKAGE)}
    assert sorted(units - set(LAYERS)) == []


def test_no_import_cycle_between_units() -> None:
    graph = unit_graph(all_imports())
    messages = []
    for cycle in cycles(graph):
        edges = [
            # The upward edge is usually the one to remove; say which it is.
            f"  {a} -> {b}{' (upward)' if _upward(a, b) else ''}: {_sites(graph[a][b])}"
            for a, b in zip(cycle, cycle[1:])
        ]
        messages.append(" -> ".join(cycle) + "\n" + "\n".join(edges))
    assert not messages, "import cycles between units:\n" + "\n".join(messages)


def test_imports_go_to_the_same_or_a_lower_layer() -> None:
    violations = []
    for imp in all_imports():
        a, b = unit_of(imp.source), unit_of(imp.target)
        if a == b or a not in LAYERS or b not in LAYERS:
            continue  # unplaced units fail test_every_unit_has_a_layer instead
        if LAYERS[b] > LAYERS[a]:
            violations.append(
                f"{imp.where}: {a} (layer {LAYERS[a]}) imports {imp.target} "
                f"of {b} (layer {LAYERS[b]})"
            )
    assert not violations, "upward imports:\n" + "\n".join(violations)


def _family(module: str) -> str | None:
    parts = module.split(".")
    if module.startswith(ENGINE + ".") and len(parts) > 2 and parts[2] in FAMILIES:
        return parts[2]
    return None


def test_engine_families_do_not_import_each_other() -> None:
    # Families share only engine/base.py, engine/contract.py and the layers below.
    violations = []
    for imp in all_imports():
        mine, theirs = _family(imp.source), _family(imp.target)
        if mine and theirs and mine != theirs:
            violations.append(f"{imp.where}: engine/{mine} imports {imp.target}")
    assert not violations, "one family imports another:\n" + "\n".join(violations)


def test_model_imports_neither_engine_nor_compiler() -> None:
    # The model is what the engines and the compiler share; it must not know either.
    forbidden = ("rulesdsl.engine", "rulesdsl.compiler")
    violations = [
        f"{imp.where}: {imp.source} imports {imp.target}"
        for imp in all_imports()
        if unit_of(imp.source) == "rulesdsl.model" and unit_of(imp.target) in forbidden
    ]
    assert not violations, "the model imports upwards:\n" + "\n".join(violations)
