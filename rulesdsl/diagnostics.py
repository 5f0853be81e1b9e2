"""Rule codes: one per kind of problem a rule file can have, so a CI log, an editor or a
person can look a problem up (`rulesdsl doc --codes`) or filter on it.

A problem's code follows from the stage that found it (reading, structure, compiling,
the work bounds, the examples) and the kind of its message; `code_problems` gives each
problem of a stage its code. The table below is the reference: its order is the order
of the stages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from .errors import Problem

# code: (title, what it means and what to do)
CODES: dict[str, tuple[str, str]] = {
    "RD101": ("file cannot be read",
              "the path is missing, a folder, not a regular file, not UTF-8, empty or over "
              "the size bound"),
    "RD102": ("not YAML (or JSON)",
              "a syntax error: the file does not parse; fix the line shown"),
    "RD103": ("duplicate key",
              "a mapping names one key twice; YAML would keep only the last"),
    "RD104": ("document over a bound",
              "too deep, too many values, or aliases that expand too far"),
    "RD110": ("extends cannot be followed",
              "the parent is unknown, outside the file's folder, in a cycle or too deep"),
    "RD201": ("unknown key",
              "a key the language does not have here; the message lists the keys it has"),
    "RD202": ("missing key", "a key this section needs is absent"),
    "RD203": ("wrong kind of value",
              "a string where a number is needed, a list where a mapping is, and so on"),
    "RD204": ("value not allowed",
              "not one of the allowed values or names, or not a valid name"),
    "RD205": ("number out of range", "below the minimum, over a limit, or not finite"),
    "RD206": ("list of the wrong size", "too short, too long, or an item repeated"),
    "RD207": ("language version", "the file's `language:` is not one this rulesdsl reads"),
    "RD301": ("expression syntax", "an expression does not parse"),
    "RD302": ("expression type",
              "an expression gives a value of the wrong type for where it stands"),
    "RD303": ("unknown name in an expression",
              "an expression names a function, value, define or option that does not exist"),
    "RD401": ("unknown reference",
              "a pattern, table, formula, option, context value, card or seat that the "
              "ruleset does not define"),
    "RD402": ("inconsistent rule",
              "the rules contradict each other or the deck (counts, seats, ladders)"),
    "RD403": ("unsupported rule",
              "the language can say it but this family's engine does not play it; the "
              "message names what is supported"),
    "RD501": ("malformed example", "an example or scenario is not written as one can be"),
    "RD502": ("failed example", "an example's expectation does not hold"),
    "RD503": ("failed scenario", "a play scenario does not play as it says"),
    "RD601": ("work bound", "a deal could make the engine list more plays than it may"),
    "RD901": ("warning", "allowed, but probably not what was meant"),
}

_STRUCTURE = (
    (re.compile(r"^unknown key |no keys are allowed|is not allowed as a key"), "RD201"),
    (re.compile(r"^missing key "), "RD202"),
    (re.compile(r"^language version "), "RD207"),
    (re.compile(r"below the minimum|over the limit of \d+$|not a finite number"), "RD205"),
    (re.compile(r"list is too short|items, over the limit|repeats an item"), "RD206"),
    (re.compile(r"is not allowed here$"), "RD203"),
)
_COMPILE = (
    (re.compile(r"^expression .*(unknown|no such|not defined|undefined)", re.S), "RD303"),
    (re.compile(r"^expression .* gives ", re.S), "RD302"),
    (re.compile(r"^expression "), "RD301"),
    (re.compile(r"not supported|unsupported|does not support|cannot play"), "RD403"),
    (re.compile(r"^unknown |^no \w+ named |^no such |is not a choice of|undefined|"
                r"is not (a|an) (pattern|table|formula|option|define)"), "RD401"),
)


def code_of(problem: Problem, stage: str) -> str:
    """The code of one problem found at `stage` (read, structure, compile, bounds,
    examples)."""
    if problem.severity != "error":
        return "RD901"
    message = problem.message
    if stage == "read":
        if message.startswith("duplicate key"):
            return "RD103"
        if problem.path.startswith("extends"):
            return "RD110"
        if "syntax error" in message or "invalid JSON" in message or "YAML error" in message:
            return "RD102"
        if re.search(r"max document|nesting is too deep|alias|expands to", message):
            return "RD104"
        return "RD101"
    if stage == "structure":
        for pattern, code in _STRUCTURE:
            if pattern.search(message):
                return code
        return "RD204"
    if stage == "bounds":
        return "RD601"
    if stage == "examples":
        return "RD503" if problem.path.startswith("scenarios") else "RD502"
    if problem.path.startswith(("examples", "scenarios")):
        return "RD501"
    for pattern, code in _COMPILE:
        if pattern.search(message):
            return code
    return "RD402"


def code_problems(problems: Iterable[Problem], stage: str) -> list[Problem]:
    """The problems, each with its code (one already set is kept)."""
    return [p if p.code else replace(p, code=code_of(p, stage)) for p in problems]


def codes_text() -> str:
    """The codes as a plain reference table (`rulesdsl doc --codes`)."""
    width = max(len(title) for title, _ in CODES.values())
    return "".join(f"{code}  {title:<{width}}  {what}\n"
                   for code, (title, what) in CODES.items())
