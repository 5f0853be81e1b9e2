"""Seed citations: the passages a rule file quotes in its comments, by the rule they sit on.

Rule files cite their source text in comments, quoted 「like this」, on the line of the
rule or in the comment block just above it. `Citations.at(path)` gives the passages
for one rule (a key path such as `("deal", "hand_size")`); the rulebook turns them into
numbered footnotes. Only the quoted passages are taken: the author's own remarks (gaps,
file names, conventions) stay in the rule file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..model.ruleset import Ruleset

QUOTE = re.compile(r"「([^「」]{2,400})」")
# Comment lines above a rule that belong to it: stop at a blank line or code.
MAX_BLOCK = 12


def passages(text: str) -> list[str]:
    """The 「quoted」 passages of a text, each once, in order."""
    out: list[str] = []
    for m in QUOTE.finditer(text or ""):
        p = m.group(1).strip()
        if p and p not in out:
            out.append(p)
    return out


def _comment(line: str) -> str | None:
    """The comment on a line (after a `#` outside quotes), or None."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'" and (i == 0 or line[i - 1] in " :[{,-"):
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:]
    return None


class Citations:
    """The quoted passages of a rule file's comments, found by rule path."""

    def __init__(self, ruleset: Ruleset):
        doc = ruleset.document
        self.doc = doc
        self.lines: dict[str, list[str]] = {}
        if doc is not None:
            self._read(doc.file)

    def _read(self, file: str | None) -> list[str]:
        if not file:
            return []
        if file not in self.lines:
            try:
                self.lines[file] = Path(file).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self.lines[file] = []
        return self.lines[file]

    def _line(self, path: tuple[Any, ...]) -> tuple[list[str], int] | None:
        doc = self.doc
        if doc is None:
            return None
        table = doc.keys if path in doc.keys else doc.values
        mark = table.get(path)
        if mark is None:
            return None
        lines = self._read(mark.file or doc.file)
        if not 1 <= mark.line <= len(lines):
            return None
        return lines, mark.line - 1

    def comments(self, path: tuple[Any, ...], above: bool = True) -> str:
        """The comment text of a rule: its own line's comment and the comment block right
        above it (when `above`)."""
        found = self._line(tuple(path))
        if found is None:
            return ""
        lines, index = found
        texts: list[str] = []
        own = _comment(lines[index])
        if above:
            block: list[str] = []
            i = index - 1
            while i >= 0 and len(block) < MAX_BLOCK:
                stripped = lines[i].strip()
                if not stripped.startswith("#"):
                    break
                block.insert(0, stripped[1:])
                i -= 1
            texts.extend(block)
        if own is not None:
            texts.append(own)
        return "\n".join(texts)

    def at(self, *paths: tuple[Any, ...], above: bool = True) -> list[str]:
        """The passages cited for these rules, each once."""
        out: list[str] = []
        for path in paths:
            for p in passages(self.comments(path, above)):
                if p not in out:
                    out.append(p)
        return out


def cite_text(text: Any) -> list[str]:
    """The passages of an example's `cite:` (its quoted passages; a cite without quotes is
    the passage itself, up to the author's remarks after it)."""
    text = str(text or "").strip()
    found = passages(text)
    if found:
        return found
    for cut in (" — ", " (", "; ", " - "):
        if cut in text:
            text = text.split(cut, 1)[0]
    text = text.strip()
    if not text or re.search(r"\bgap\b", text, re.I):
        return []
    return [text]
