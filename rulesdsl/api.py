"""The Python API: load a ruleset by bundled id or path, validate files."""

from __future__ import annotations

import json
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fnmatch import fnmatch
from itertools import repeat
from pathlib import Path

from .compiler import FORMAT_VERSION, LANGUAGE_VERSION, compile_file, resolve_source
from .compiler.files import diagnose_file, read_document, resolve_confined
from .compiler.work_bounds import probe_lead_plays
from .diagnostics import code_problems
from .errors import Problem, RulesetError, did_you_mean
from .examples import ExampleReport, load_examples_file, run_examples
from .language.yamlio import Document
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
    kind: str = "ruleset"  # or "examples": a file holding only examples
    ruleset_id: str | None = None  # the compiled ruleset's id (kept when `ruleset` is not)

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)


def validate_file(path: str | Path, run_examples_too: bool = True,
                  text: str | None = None) -> FileResult:
    """Every problem of one rule file at once, each with its code: reading, structure,
    expressions and references together; then, for a ruleset that compiles, the work
    bounds and the examples. `text` stands for the file's content (an editor's buffer:
    `extends:` still resolves next to `path`)."""
    return _validate_rule_file(path, run_examples_too, text, None)


def _validate_rule_file(path: str | Path, run_examples_too: bool, text: str | None,
                        read: Document | None) -> FileResult:
    """validate_file, given the file's document when it was read already (`read`)."""
    result = FileResult(str(path))
    ruleset, result.problems = diagnose_file(path, text, read)
    if ruleset is None:
        return result
    result.ruleset, result.ruleset_id = ruleset, ruleset.id
    bound = probe_lead_plays(ruleset)
    if bound:
        result.problems.extend(code_problems(bound, "bounds"))
        return result
    if run_examples_too:
        report = run_examples(ruleset)
        result.examples = report
        result.problems.extend(code_problems(report.failed, "examples"))
    return result


def rule_files(paths: list[str], exclude: list[str] | None = None) -> list[Path]:
    """Expand folders into the rule files they hold (sorted), leaving out the paths that
    match an `exclude` glob (`PurePath.match`, from the right: `*.examples.yaml`,
    `drafts/*`, or a whole path)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*") if q.suffix in (".yaml", ".yml")
                              and q.is_file()))
        else:
            out.append(path)
    globs = exclude or []
    return [f for f in out if not any(f.match(g) or fnmatch(f.as_posix(), g)
                                      for g in globs)]


def validate_paths(paths: list[str], run_examples_too: bool = True,
                   exclude: list[str] | None = None, jobs: int = 1) -> list[FileResult]:
    """Every problem of every rule file under `paths` (a missing path is one problem and
    the rest go on). A file holding only `examples:` is an examples file: it is run
    against the ruleset its `ruleset:` names.

    With `jobs` above 1, on Linux (where worker processes are forked, everything already
    imported), up to that many workers validate the files, larger files first; the
    results come in the same order with the same problems and examples, but hold no
    compiled ruleset (`ruleset` is None; `ruleset_id` names it)."""
    files = rule_files(paths, exclude)
    if jobs > 1 and len(files) > 1 and sys.platform == "linux":
        # The largest files go first, so that no worker is left with a long one at the end.
        order = sorted(range(len(files)), key=lambda i: -_size(files[i]))
        results: list[FileResult | None] = [None] * len(files)
        with ProcessPoolExecutor(min(jobs, len(files)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            done = pool.map(_validate_apart, [files[i] for i in order],
                            repeat(run_examples_too))
            for i, result in zip(order, done):
                results[i] = result
        return [r for r in results if r is not None]
    return [validate_path(path, run_examples_too) for path in files]


def validate_path(path: Path, run_examples_too: bool = True) -> FileResult:
    """One path of validate_paths: a rule file, or an examples file run against the
    ruleset it names."""
    examples_for, read = _examples_file_target(path)
    if examples_for is None:
        # The document read to tell the kinds apart is the one compiled: read once.
        return _validate_rule_file(path, run_examples_too, None, read)
    return validate_examples_file(path, examples_for, run_examples_too)


def _validate_apart(path: Path, run_examples_too: bool) -> FileResult:
    """validate_path in a worker process: its result without the compiled ruleset, which
    stays in the worker (its expressions are not picklable)."""
    result = validate_path(path, run_examples_too)
    result.ruleset = None
    return result


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _examples_file_target(path: Path) -> tuple[str | None, Document | None]:
    """The `ruleset:` an examples file names ("" for none), or None for a rule file; with
    the document read (None when it could not be read)."""
    try:
        doc = read_document(path)
    except RulesetError:
        return None, None  # reported when validated as a rule file
    data = doc.data
    if not isinstance(data, dict) or "examples" not in data or \
            any(k in data for k in ("language", "family", "extends")):
        return None, doc
    target = data.get("ruleset")
    return (target if isinstance(target, str) else ""), doc


def validate_examples_file(path: Path, ruleset_ref: str,
                           run_examples_too: bool = True) -> FileResult:
    """An examples file checked, and run, against the ruleset it names (resolved as
    `extends:` is, next to the file)."""
    result = FileResult(str(path), kind="examples")
    if not ruleset_ref:
        result.problems = code_problems([Problem(
            str(path), 1, 1, "ruleset", "an examples file names no ruleset",
            expected="ruleset: a bundled id or a rule file next to this one (or run "
                     "`rulesdsl check RULESET --examples FILE`)")], "structure")
        return result
    try:
        ruleset = compile_file(resolve_confined(ruleset_ref, path.parent))
    except (KeyError, PermissionError):
        result.problems = code_problems([Problem(
            str(path), 1, 1, "ruleset", f"no ruleset named {ruleset_ref!r}",
            expected="a bundled id or a rule file next to this one",
            suggestion=did_you_mean(ruleset_ref, bundled_rulesets()))], "read")
        return result
    except RulesetError as exc:
        result.problems = code_problems(exc.problems, "compile")
        return result
    try:
        items, doc = load_examples_file(ruleset, str(path))
    except RulesetError as exc:
        result.problems = code_problems(exc.problems, "compile")
        return result
    if run_examples_too:
        report = run_examples(ruleset, items, doc)
        result.examples = report
        result.problems = code_problems(report.failed, "examples")
    return result
