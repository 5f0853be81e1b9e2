"""The names a rule file defines, where each is defined, and its cards or tiles.

Read from the document as the editor holds it, merged over what it `extends` (so a name
inherited from a parent is found in the parent's file), without compiling: names and
places are there even while the file does not validate. Ranges are 0-based, code points.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import notation as nt
from ..compiler.files import load_merged
from ..errors import RulesdslError, RulesetError
from ..language.yamlio import Document, Mark, load_yaml
from .cursor import CONTEXT, DEFINE, FORMULA, LADDER, OPTION, PATTERN, TABLE, TIER
from .text import Span, split_lines, token_span

# Sections whose keys are names, by kind.
SECTIONS = {DEFINE: "define", OPTION: "options", TABLE: "tables", FORMULA: "formulas",
            CONTEXT: "context", LADDER: "ranks"}


@dataclass(frozen=True)
class Site:
    """Where a name is defined: a file and a range in it."""

    file: str
    span: Span


@dataclass
class Index:
    """Every name of one document (inherited ones included) and where it is defined."""

    path: Path
    data: dict[str, Any] = field(default_factory=dict)
    sites: dict[tuple[str, str], Site] = field(default_factory=dict)

    def names(self, kind: str) -> list[str]:
        return [name for k, name in self.sites if k == kind]

    def has(self, kind: str, name: str) -> bool:
        return (kind, name) in self.sites

    def family(self) -> str | None:
        family = self.data.get("family")
        return family if isinstance(family, str) else None


def same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return str(a) == str(b)


def build_index(path: Path, text: str, fallback: Document | None = None) -> Index:
    """The names of the document: merged over its parents when that reads, else this text
    alone, else `fallback` (the document of the last good compile)."""
    doc: Document | None = None
    try:
        doc = load_merged(path, text=text)
    except RulesetError as exc:
        # A parent's failure (or its naming) leaves this text worth reading alone; a
        # problem in the text itself (not YAML, too large) would only be found again.
        if not any(same_file(p.file, path) and p.path != "extends" for p in exc.problems):
            doc = _alone(text, path)
    except (RulesdslError, OSError, ValueError, RecursionError):
        doc = _alone(text, path)
    doc = doc if doc is not None and isinstance(doc.data, dict) else fallback
    index = Index(path)
    if doc is None or not isinstance(doc.data, dict):
        return index
    index.data = doc.data
    lines_of: dict[str, list[str]] = {str(path): split_lines(text)}
    here = str(path)

    def site(mark: Mark) -> Site:
        file = mark.file or here
        if same_file(file, path):
            file = here
        if file not in lines_of:
            lines_of[file] = _file_lines(file)
        line, column = mark.line - 1, mark.column - 1
        end_line, end_column = getattr(mark, "end_line", None), getattr(mark, "end_column", None)
        if end_line is not None and end_column is not None and \
                (end_line, end_column) > (mark.line, mark.column):
            span = Span(line, column, end_line - 1, end_column - 1)
        else:
            span = token_span(lines_of[file], line, column)
        return Site(file, span)

    for kind, section in SECTIONS.items():
        entries = doc.data.get(section)
        if isinstance(entries, dict):
            for name in entries:
                mark = doc.keys.get((section, name))
                if mark is not None:
                    index.sites[(kind, str(name))] = site(mark)
    listed = (doc.data.get("patterns") or {}).get("list") \
        if isinstance(doc.data.get("patterns"), dict) else None
    for kind, items, prefix in ((PATTERN, listed, ("patterns", "list")),
                                (TIER, doc.data.get("order"), ("order",))):
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                mark = doc.values.get(prefix + (i, "name"))
                if mark is not None:
                    index.sites.setdefault((kind, item["name"]), site(mark))
    return index


def _alone(text: str, path: Path) -> Document | None:
    try:
        return load_yaml(text, str(path))
    except (RulesdslError, ValueError, RecursionError):
        return None


def _file_lines(file: str) -> list[str]:
    """A parent file's lines, to measure the name found there (bounded like the reader)."""
    try:
        with open(file, "rb") as f:
            data = f.read(1 << 20)
        return split_lines(data.decode("utf-8", "replace"))
    except OSError:
        return []


def all_kinds(family: str | None) -> list[str]:
    """Every card or tile of a family in the notation, when no compiled deck is at hand."""
    if family == "tiles":
        return [nt.format_tile(k) for k in range(nt.TILE_KINDS)]
    return [nt.format_card(k) for k in range(nt.CARD_KINDS)]


def inputs_of(index: Index, path: tuple[str, ...]) -> list[str]:
    """The inputs a table's rows or a formula's expression may use."""
    if len(path) >= 2 and path[0] in ("tables", "formulas"):
        spec = (index.data.get(path[0]) or {}).get(path[1]) \
            if isinstance(index.data.get(path[0]), dict) else None
        if isinstance(spec, dict) and isinstance(spec.get("input"), list):
            return [str(x) for x in spec["input"]]
    return []
