"""How `rulesdsl validate` shows problems: text with the source line and a caret under
the place, GitHub workflow annotations, or JSON with start and end positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .api import FileResult
from .errors import Problem

SHOWN_LINE = 160  # characters of a source line shown above the caret


def source_lines(problem: Problem, cache: dict[str, list[str] | None]) -> list[str]:
    """The problem's source line and a caret line under its range (nothing when the file
    cannot be read again)."""
    if problem.file not in cache:
        try:
            path = Path(problem.file)
            text = path.read_text(encoding="utf-8") if path.is_file() and \
                path.stat().st_size <= 1 << 20 else None
        except (OSError, UnicodeDecodeError):
            text = None
        cache[problem.file] = None if text is None else text.splitlines()
    lines = cache[problem.file]
    if not lines or not 1 <= problem.line <= len(lines):
        return []
    source = lines[problem.line - 1].expandtabs(1)
    if len(source) > SHOWN_LINE:
        source = source[:SHOWN_LINE] + " …"
    start = max(problem.column - 1, 0)
    end = problem.end_column - 1 if problem.end_line == problem.line and \
        problem.end_column is not None else start + 1
    end = min(max(end, start + 1), max(len(source), start + 1))
    gutter = f"{problem.line:>5} | "
    return [gutter + source, " " * (len(gutter) - 2) + "| " + " " * start + "^" * (end - start)]


def text_report(results: list[FileResult]) -> str:
    out: list[str] = []
    cache: dict[str, list[str] | None] = {}
    for r in results:
        for p in r.problems:
            out.append(f"{p.format()} [{p.code}]" if p.code else p.format())
            out.extend(source_lines(p, cache))
    for r in results:
        state = "ok" if r.ok else "INVALID"
        extra = " (examples file)" if r.kind == "examples" else ""
        if r.examples is not None:
            extra += f", {r.examples.passed} examples passed"
            if r.examples.failed:
                extra += f", {len(r.examples.failed)} failed"
            if r.examples.deferred:
                extra += f", {r.examples.deferred} for the engine"
        errors = sum(1 for p in r.problems if p.severity == "error")
        if errors:
            extra += f", {errors} problem(s)"
        out.append(f"{state}: {r.path}{extra}")
    return "\n".join(out) + "\n"


def github_annotation(p: Problem) -> str:
    """A workflow command: GitHub shows it on the file's line in the pull request."""
    level = "error" if p.severity == "error" else "warning"
    message = p.format().split(": ", 1)[-1].replace("%", "%25").replace("\r", "%0D") \
        .replace("\n", "%0A")
    where = f"file={_prop(p.file)},line={p.line},col={p.column}"
    if p.end_line is not None and p.end_column is not None:
        where += f",endLine={p.end_line},endColumn={p.end_column}"
    if p.code:
        where += f",title={p.code}"
    return f"::{level} {where}::{message}"


def _prop(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A") \
        .replace(":", "%3A").replace(",", "%2C")


def json_report(results: list[FileResult]) -> dict[str, Any]:
    return {
        "valid": all(r.ok for r in results),
        "files": [
            {
                "path": r.path,
                "kind": r.kind,
                "valid": r.ok,
                "id": r.ruleset_id,
                "examples": None if r.examples is None else {
                    "passed": r.examples.passed,
                    "failed": len(r.examples.failed),
                    "deferred": r.examples.deferred,
                },
                "problems": [p.to_dict() for p in r.problems],
            }
            for r in results
        ],
    }
