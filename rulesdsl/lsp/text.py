"""Positions in a document's text: lines, words, YAML tokens, and LSP units.

Everything here counts columns in code points (Python string indices), as the validator's
problems and PyYAML's marks do. An LSP client counts in the encoding negotiated at
`initialize` (UTF-16 unless it asked otherwise), so positions are converted at the edge
(`to_client` / `from_client`), never in between.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

# libyaml's scanner when PyYAML has it: same tokens and marks, much faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Line breaks as YAML and LSP both count them (the validator refuses the others).
_BREAK = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"\w+")
# A name in an expression or a card/tile token: what hover, completion and definition act on.
_NAME_CHARS = re.compile(r"[A-Za-z0-9_]")


def split_lines(text: str) -> list[str]:
    """The document's lines without their breaks (a final break gives a last empty line)."""
    return _BREAK.split(text)


@dataclass(frozen=True)
class Span:
    """A range in code points, 0-based lines, end exclusive."""

    line: int
    start: int
    end_line: int
    end: int


# ---------------------------------------------------------------- client units


def _units(char: str, encoding: str) -> int:
    point = ord(char)
    if encoding == "utf-8":
        return 1 if point < 0x80 else 2 if point < 0x800 else 3 if point < 0x10000 else 4
    if encoding == "utf-32":
        return 1
    return 2 if point >= 0x10000 else 1


def to_client(lines: list[str], line: int, column: int, encoding: str) -> tuple[int, int]:
    """A code-point column as the client counts it (columns past the end are clamped)."""
    if line >= len(lines):
        return max(len(lines) - 1, 0), sum(_units(c, encoding) for c in (lines or [""])[-1])
    text = lines[line][:max(column, 0)]
    if encoding == "utf-32" or text.isascii():
        return line, len(text)
    return line, sum(_units(c, encoding) for c in text)


def from_client(lines: list[str], line: int, character: int, encoding: str) -> tuple[int, int]:
    """A client position as a code-point column (clamped to the line)."""
    if not lines:
        return 0, 0
    if line >= len(lines):
        return len(lines) - 1, len(lines[-1])
    text = lines[line]
    if encoding == "utf-32" or text.isascii():
        return line, min(character, len(text))
    seen = 0
    for index, char in enumerate(text):
        if seen >= character:
            return line, index
        seen += _units(char, encoding)
    return line, len(text)


def offset_of(lines: list[str], line: int, column: int) -> int:
    """The string index of a position (lines joined by one-character breaks)."""
    return sum(len(x) + 1 for x in lines[:line]) + column


# ---------------------------------------------------------------- words


def word_at(lines: list[str], line: int, column: int) -> Span | None:
    """The name (letters, digits, underscores) under or just before the cursor."""
    if not 0 <= line < len(lines):
        return None
    text = lines[line]
    start = column
    while start > 0 and _NAME_CHARS.match(text[start - 1]):
        start -= 1
    end = column
    while end < len(text) and _NAME_CHARS.match(text[end]):
        end += 1
    return Span(line, start, line, end) if end > start else None


def word_text(lines: list[str], span: Span) -> str:
    return lines[span.line][span.start:span.end]


def word_from(lines: list[str], line: int, column: int) -> Span | None:
    """The word that starts at this position (a problem's column points at its start)."""
    if not 0 <= line < len(lines):
        return None
    match = _WORD.match(lines[line], column)
    return Span(line, column, line, match.end()) if match else None


# ---------------------------------------------------------------- YAML tokens


def scalar_tokens(text: str) -> dict[tuple[int, int], Span]:
    """Where each scalar token (a key or a value) starts, with its extent: what a problem at
    a value's or key's position underlines. A text that stops scanning keeps the tokens
    read so far."""
    out: dict[tuple[int, int], Span] = {}
    try:
        for token in yaml.scan(text, Loader=_LOADER):
            if isinstance(token, yaml.ScalarToken):
                s, e = token.start_mark, token.end_mark
                out[(s.line, s.column)] = Span(s.line, s.column, e.line, e.column)
    except yaml.YAMLError:
        pass
    except RecursionError:  # the pure-Python scanner on absurd nesting
        pass
    return out


def token_span(lines: list[str], line: int, column: int) -> Span:
    """A best-effort extent of the YAML token starting at a position, from its line alone
    (used for files whose tokens were not scanned, such as a parent file's)."""
    if not 0 <= line < len(lines):
        return Span(line, column, line, column + 1)
    text = lines[line]
    if column >= len(text):
        return Span(line, column, line, column)
    quote = text[column]
    if quote in "'\"":
        i = column + 1
        while i < len(text):
            if text[i] == "\\" and quote == '"':
                i += 2
                continue
            if text[i] == quote:
                if quote == "'" and text[i + 1:i + 2] == "'":
                    i += 2
                    continue
                return Span(line, column, line, i + 1)
            i += 1
        return Span(line, column, line, len(text))
    # A plain scalar ends at ": ", ", " (in flow), a closing bracket or a comment.
    end = len(text)
    for match in re.finditer(r":(\s|$)|,|[\]}]|\s#", text[column:]):
        end = column + match.start()
        break
    while end > column and text[end - 1] == " ":
        end -= 1
    return Span(line, column, line, max(end, column + 1))
