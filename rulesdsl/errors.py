"""Problems found in rule files, and the exceptions that carry them.

Every problem names a place (`file:line:column` and the YAML path), says what is
wrong and what was expected, and may offer a suggestion for a near-miss name.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    column: int
    path: str
    message: str
    expected: str | None = None
    suggestion: str | None = None
    severity: str = "error"  # error | warning
    code: str | None = None  # the kind of problem (rulesdsl/diagnostics.py, `rulesdsl doc --codes`)
    end_line: int | None = None  # where the offending token ends (column exclusive), if known
    end_column: int | None = None

    def format(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: {self.path or '<root>'}: {self.message}"
        if self.expected:
            text += f"; expected {self.expected}"
        if self.suggestion:
            text += f" ({self.suggestion})"
        if self.severity != "error":
            text = f"{text} [{self.severity}]"
        return text

    def to_dict(self) -> dict:
        return asdict(self)


class RulesdslError(Exception):
    """Base of every error this package raises on purpose."""


class RulesetError(RulesdslError):
    """A rule file (or examples file) is invalid. Carries its problems."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = [p for p in problems]
        errors = [p for p in self.problems if p.severity == "error"] or self.problems
        head = errors[0].format() if errors else "invalid ruleset"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(head + more)


class NotationError(RulesdslError, ValueError):
    """A card, tile or rank written in a way the notation does not allow."""


def spell(value: object) -> str:
    """A value as a rule file writes it (`true`, `null`, `[1, 2]`, `{fan: 3}`), not as
    Python prints it, for messages; a string on its own is quoted ('H5')."""
    import yaml

    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, tuple):
        value = list(value)
    try:
        text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True,
                              width=10_000)
    except yaml.YAMLError:
        return str(value)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def spell_choice(value: object) -> str:
    """One of a list of choices: a name as written, any other value as `spell` writes it."""
    return value if isinstance(value, str) else spell(value)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    names = [c for c in candidates if isinstance(c, str)]
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in names}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return f"did you mean '{close[0]}'?" if close else None


def format_path(path: Iterable[object]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
