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


def language_reference() -> Path:
    """The language reference (docs/language.md; `rulesdsl doc --language` prints it)."""
    return data_dir("docs") / "language.md"


def reference_section(topic: str) -> str | None:
    """The reference's section on `topic` (a top-level key such as `patterns`, or words
    of a heading), from its heading to the next heading of the same or a higher level;
    None when no heading names it."""
    lines = language_reference().read_text(encoding="utf-8").splitlines()
    want = topic.strip().lower().strip("`")
    for i, line in enumerate(lines):
        if not line.startswith("#"):
            continue
        level = len(line) - len(line.lstrip("#"))
        heading = line[level:].strip().lower()
        words = heading.replace("`", " ").replace(":", " ").split()
        if want and (want in words or heading.startswith(want)):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("#")
                        and len(lines[j]) - len(lines[j].lstrip("#")) <= level), len(lines))
            return "\n".join(lines[i:end]).rstrip() + "\n"
    return None
