"""The validator's problems as LSP diagnostics, and their "did you mean" quick fixes.

Each problem is shown at the token it names: the problem's own end when the validator
gives one, else the name it quotes (`unknown name 'levl_card'`) or the YAML token that
starts at its position. A problem in another file of the `extends:` chain is shown at
this file's `extends:` value, naming the file and position it comes from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from ..errors import Problem
from ..language.yamlio import load_yaml
from .names import same_file
from .text import (
    Span,
    from_client,
    scalar_tokens,
    split_lines,
    to_client,
    token_span,
    word_from,
)

SOURCE = "rulesdsl"
_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


@dataclass(frozen=True)
class Located:
    """A problem placed in this document (code points), before conversion to LSP units."""

    span: Span
    message: str
    severity: str
    code: str | None
    replacement: str | None  # the name a "did you mean" offers
    origin: tuple[str, Span] | None = None  # (file, span) of a problem in another file


def replacement_of(suggestion: str | None) -> str | None:
    match = _DID_YOU_MEAN.search(suggestion or "")
    return match.group(1) if match else None


def describe(problem: Problem) -> str:
    """The problem's words without its position (the editor shows that)."""
    text = problem.message
    if problem.expected:
        text += f"; expected {problem.expected}"
    if problem.suggestion:
        text += f" ({problem.suggestion})"
    return text


def locate(problems: list[Problem], path: Path, text: str) -> list[Located]:
    """Every problem of a validation placed in the document at `path` holding `text`."""
    lines = split_lines(text)
    tokens: dict[tuple[int, int], Span] | None = None
    extends_span: Span | None = None
    out: list[Located] = []
    for p in problems:
        code = getattr(p, "code", None)
        if same_file(p.file, path) or p.file == str(path):
            if tokens is None:
                tokens = scalar_tokens(text) if len(text) <= 1 << 20 else {}
            span = problem_span(p, lines, tokens)
            out.append(Located(span, describe(p), p.severity, code, replacement_of(p.suggestion)))
            continue
        # Another file (a parent this one extends): shown at this file's `extends:`.
        if extends_span is None:
            extends_span = _extends_span(text, lines)
        origin_lines = _read_lines(p.file)
        origin = problem_span(p, origin_lines, {}) if origin_lines else \
            Span(max(p.line - 1, 0), max(p.column - 1, 0), max(p.line - 1, 0), p.column)
        where = f"{p.file}:{p.line}:{p.column}"
        out.append(Located(extends_span, f"in {where} (extended by this file): {describe(p)}",
                           p.severity, code, None, (p.file, origin)))
    return out


def problem_span(p: Problem, lines: list[str], tokens: dict[tuple[int, int], Span]) -> Span:
    """The range of the token a problem is about."""
    line, column = max(p.line - 1, 0), max(p.column - 1, 0)
    if lines and line >= len(lines):
        line, column = len(lines) - 1, len(lines[-1])
    end_line, end_column = getattr(p, "end_line", None), getattr(p, "end_column", None)
    if end_line is not None and end_column is not None:
        given = Span(line, column, end_line - 1, end_column - 1)
        # A one-character end is only a position (inside an expression): the name there
        # is better; a longer one is the token itself.
        if (given.end_line, given.end) > (line, column + 1):
            return given
    word = word_from(lines, line, column)
    if word is not None and f"'{lines[line][word.start:word.end]}'" in p.message:
        return word  # the name the message quotes
    token = tokens.get((line, column))
    if token is not None:
        return token
    if word is not None:
        return word
    if lines and line < len(lines) and column < len(lines[line]):
        return token_span(lines, line, column)
    return Span(line, column, line, column + 1)


def _extends_span(text: str, lines: list[str]) -> Span:
    try:
        doc = load_yaml(text)
        mark = doc.values.get(("extends",)) or doc.keys.get(("extends",))
    except Exception:  # any unreadable text: the first line then
        mark = None
    if mark is None:
        for i, line in enumerate(lines):
            if line.startswith("extends:"):
                return Span(i, 0, i, len(line.rstrip()))
        return Span(0, 0, 0, len(lines[0]) if lines else 0)
    return token_span(lines, mark.line - 1, mark.column - 1)


def _read_lines(file: str) -> list[str]:
    try:
        with open(file, "rb") as f:
            return split_lines(f.read(1 << 20).decode("utf-8", "replace"))
    except OSError:
        return []


# ---------------------------------------------------------------- LSP conversion


def to_range(lines: list[str], span: Span, encoding: str) -> lsp.Range:
    sl, sc = to_client(lines, span.line, span.start, encoding)
    el, ec = to_client(lines, span.end_line, span.end, encoding)
    return lsp.Range(start=lsp.Position(line=sl, character=sc),
                     end=lsp.Position(line=el, character=ec))


def to_diagnostics(located: list[Located], text: str, encoding: str,
                   uri_of: Any) -> list[lsp.Diagnostic]:
    """LSP diagnostics; `uri_of(file)` names another file for related information."""
    lines = split_lines(text)
    out = []
    for item in located:
        related = None
        if item.origin is not None:
            file, span = item.origin
            other = _read_lines(file)
            related = [lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri_of(file), range=to_range(other, span, encoding)),
                message="the problem is here")]
        out.append(lsp.Diagnostic(
            range=to_range(lines, item.span, encoding),
            message=item.message,
            severity=_SEVERITY.get(item.severity, lsp.DiagnosticSeverity.Information),
            source=SOURCE,
            code=item.code,
            related_information=related,
            data={"replacement": item.replacement} if item.replacement else None,
        ))
    return out


def internal_error(exc: BaseException) -> lsp.Diagnostic:
    """What the editor shows when the validator itself failed on this text (a bug)."""
    return lsp.Diagnostic(
        range=lsp.Range(start=lsp.Position(line=0, character=0),
                        end=lsp.Position(line=0, character=0)),
        message=f"rulesdsl could not validate this file: {type(exc).__name__}: {exc}"[:500],
        severity=lsp.DiagnosticSeverity.Error, source=SOURCE)


# ---------------------------------------------------------------- quick fixes


def quick_fixes(uri: str, text: str, encoding: str,
                diagnostics: list[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    """For each "did you mean 'X'?" diagnostic, an edit putting X in its range (inside the
    quotes when the range is a quoted scalar)."""
    lines = split_lines(text)
    actions = []
    for d in diagnostics:
        if d.source not in (None, SOURCE):
            continue
        replacement = d.data.get("replacement") if isinstance(d.data, dict) else None
        replacement = replacement or replacement_of(d.message)
        if not replacement:
            continue
        target = d.range
        written = _text_in(lines, target, encoding)
        if len(written) >= 2 and written[0] in "'\"" and written[-1] == written[0]:
            target = lsp.Range(
                start=lsp.Position(line=target.start.line, character=target.start.character + 1),
                end=lsp.Position(line=target.end.line, character=target.end.character - 1))
        edit = lsp.TextEdit(range=target, new_text=replacement)
        actions.append(lsp.CodeAction(
            title=f"Change to '{replacement}'",
            kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[d],
            is_preferred=True,
            edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
        ))
    return actions


def _text_in(lines: list[str], r: lsp.Range, encoding: str) -> str:
    if r.start.line != r.end.line or r.start.line >= len(lines):
        return ""
    _, start = from_client(lines, r.start.line, r.start.character, encoding)
    _, end = from_client(lines, r.end.line, r.end.character, encoding)
    return lines[r.start.line][start:end]
