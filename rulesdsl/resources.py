"""Where the grammar and the bundled rulesets live.

In a wheel they are inside the package (`rulesdsl/grammar`, `rulesdsl/rulesets`);
in a source checkout or an editable install they sit beside the package at the
repository's top level.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    inside = _PACKAGE / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / name


def grammar_path(name: str = "expr.lark") -> Path:
    return data_dir("grammar") / name


def rulesets_dir() -> Path:
    return data_dir("rulesets")


def bundled_rulesets() -> dict[str, Path]:
    """Bundled ruleset ids mapped to their files (extras included)."""
    root = rulesets_dir()
    found: dict[str, Path] = {}
    if root.is_dir():
        for path in sorted(root.rglob("*.yaml")):
            found.setdefault(path.stem, path)
    return found
