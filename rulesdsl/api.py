"""The Python API: load a ruleset by bundled id or path, validate files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .compiler import FORMAT_VERSION, LANGUAGE_VERSION, compile_file, resolve_source
from .compiler.work_bounds import probe_lead_plays
from .errors import Problem, RulesetError, did_you_mean
from .examples import ExampleReport, run_examples
from .model.ruleset import Ruleset
from .resources import bundled_rulesets


def load(name_or_path: str | Path) -> Ruleset:
    """A compiled ruleset from a bundled id, a YAML path or a
    compiled JSON file. Raises RulesetError for anything invalid."""
    try:
        path = resolve_source(name_or_path)
    except KeyError:
        text = str(name_or_path)
        raise RulesetError([Problem(text, 1, 1, "", f"no ruleset named {text!r}",
                                    expected="a bundled id or a path to a rule file",
                                    suggestion=did_you_mean(text, bundled_rulesets()))]) \
            from None
    return compile_file(path)


def compiled_json(ruleset: Ruleset) -> str:
    """The compiled, fully resolved ruleset as deployed by servers and named by logs."""
    payload = {
        "format": FORMAT_VERSION,
        "language": LANGUAGE_VERSION,
        "id": ruleset.id,
        "version": ruleset.version,
        "hash": ruleset.hash,
        "ruleset": ruleset.resolved,
    }
    return json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


@dataclass
class FileResult:
    path: str
    ruleset: Ruleset | None = None
    problems: list[Problem] = field(default_factory=list)
    examples: ExampleReport | None = None

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def validate_file(path: str | Path, run_examples_too: bool = True,
                  text: str | None = None) -> FileResult:
    """Every problem of one rule file; `text` stands for the file's content (an editor's
    buffer: `extends:` still resolves next to `path`)."""
    result = FileResult(str(path))
    try:
        ruleset = compile_file(path, text)
    except RulesetError as exc:
        result.problems = exc.problems
        return result
    result.ruleset = ruleset
    result.problems = list(getattr(ruleset, "warnings", []))
    bound = probe_lead_plays(ruleset)
    if bound:
        result.problems.extend(bound)
        return result
    if run_examples_too:
        report = run_examples(ruleset)
        result.examples = report
        result.problems.extend(report.failed)
    return result


def rule_files(paths: list[str]) -> list[Path]:
    """Expand folders into the rule files they hold (sorted)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*") if q.suffix in (".yaml", ".yml")
                              and q.is_file()))
        else:
            out.append(path)
    return out
