"""`rulesdsl validate` reports every problem at once, each with its code and range: three
mistakes of three kinds in one run, past a missing path, with --exclude, examples files,
carets, JSON end positions, GitHub annotations, and values in the language's spelling."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.api import validate_file, validate_paths
from rulesdsl.cli import main
from rulesdsl.diagnostics import CODES, code_of
from rulesdsl.errors import spell

from .conftest import ROOT

BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))


def rulesdsl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True,
                          text=True, cwd=ROOT)


def template(tmp_path: Path) -> str:
    out = tmp_path / "start.yaml"
    assert main(["new", "demo", "--family", "shedding", "-o", str(out), "--force"]) == 0
    return out.read_text(encoding="utf-8")


# Three mistakes of three kinds: a value of the wrong kind (structure), an expression
# that does not parse, and an example naming a pattern that does not exist.
PLANTS = (("deal: {hand_size: 13}", "deal: {hand_size: thirteen}", "thirteen", "RD203"),
          ('select: "true"', 'select: "true and (rank"', None, "RD301"),
          ("expect: straight", "expect: stright", "stright", "RD501"))


def three_mistakes(tmp_path: Path) -> tuple[Path, list[tuple[int, int, int, str]]]:
    """The file, and each mistake's (line, first column, end column, code), found by
    searching the text (not by asking the validator)."""
    text = template(tmp_path)
    where = []
    for old, new, _token, _code in PLANTS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    lines = text.splitlines()
    for _, new, token, code in PLANTS:
        line = next(i for i, s in enumerate(lines, 1) if new in s)
        if token is None:  # an expression error points inside the quoted expression
            start = lines[line - 1].index('"') + 2
            where.append((line, start, start + len("true and (rank"), code))
        else:
            start = lines[line - 1].index(token) + 1
            where.append((line, start, start + len(token), code))
    path = tmp_path / "three.yaml"
    path.write_text(text, encoding="utf-8")
    return path, where


def test_three_mistakes_of_three_kinds_in_one_run(tmp_path):
    path, where = three_mistakes(tmp_path)
    problems = validate_file(path).problems
    assert [p.code for p in problems] == [code for *_, code in where]
    for p, (line, start, end, _) in zip(problems, where):
        assert p.line == line
        assert start <= p.column <= end
        if p.code != "RD301":  # a value's or a key's whole token
            assert (p.column, p.end_line, p.end_column) == (start, line, end)
    # Nothing the set-aside hand size could cause (13 × 4 cards against the deck…).
    assert not [p for p in problems if p.code == "RD402"]
    assert "did you mean 'straight'?" in problems[2].format()


def test_text_output_shows_the_line_and_a_caret(tmp_path):
    path, where = three_mistakes(tmp_path)
    proc = rulesdsl("validate", str(path), "--no-examples")
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    source = path.read_text(encoding="utf-8").splitlines()
    line, start, end, code = where[0]
    head = next(i for i, s in enumerate(lines) if s.endswith(f"[{code}]"))
    assert lines[head].startswith(f"{path}:{line}:{start}: deal.hand_size: ")
    shown, caret = lines[head + 1], lines[head + 2]
    assert shown.split(" | ", 1)[1] == source[line - 1]
    bar = shown.index(" | ") + 3
    assert caret[bar:] == " " * (start - 1) + "^" * (end - start)
    assert lines[-1] == f"INVALID: {path}, 3 problem(s)"


def test_json_gives_codes_and_end_positions(tmp_path):
    path, where = three_mistakes(tmp_path)
    proc = rulesdsl("validate", str(path), "--format", "json")
    data = json.loads(proc.stdout)
    problems = data["files"][0]["problems"]
    assert [p["code"] for p in problems] == [c for *_, c in where]
    first = problems[0]
    line, start, end, _ = where[0]
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == \
        (line, start, line, end)


def test_github_annotations_carry_the_range_and_the_code(tmp_path):
    path, where = three_mistakes(tmp_path)
    out = rulesdsl("validate", str(path), "--format", "github").stdout.splitlines()
    line, start, end, code = where[2]
    assert f"::error file={path},line={line},col={start},endLine={line}," \
           f"endColumn={end},title={code}::examples[0].expect: no pattern named " \
           "'stright'" in "\n".join(out)
    assert len(out) == 3


def test_a_missing_path_does_not_stop_the_run(tmp_path):
    path, _ = three_mistakes(tmp_path)
    good = ROOT / "rulesets" / "guan-pai.yaml"
    proc = rulesdsl("validate", str(tmp_path / "gone.yaml"), str(good), str(path),
                    "--no-examples")
    assert proc.returncode == 1
    assert f"{tmp_path / 'gone.yaml'}:1:1: <root>: file not found" in proc.stdout
    assert f"ok: {good}" in proc.stdout.splitlines()
    assert f"INVALID: {path}, 3 problem(s)" in proc.stdout.splitlines()
    only_missing = rulesdsl("validate", str(tmp_path / "gone.yaml"))
    assert only_missing.returncode == 2 and "file not found" in only_missing.stderr


def test_exclude_leaves_out_matching_files(tmp_path):
    folder = tmp_path / "rules"
    (folder / "drafts").mkdir(parents=True)
    (folder / "good.yaml").write_text((ROOT / "rulesets" / "guan-pai.yaml")
                                      .read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "drafts" / "bad.yaml").write_text("language: 1\nid: [\n", encoding="utf-8")
    (folder / "old.bak.yaml").write_text("nonsense: true\n", encoding="utf-8")
    every = [Path(r.path).name for r in validate_paths([str(folder)], False)]
    assert sorted(every) == ["bad.yaml", "good.yaml", "old.bak.yaml"]
    kept = validate_paths([str(folder)], False, ["drafts/*", "*.bak.yaml"])
    assert [Path(r.path).name for r in kept] == ["good.yaml"] and kept[0].ok
    proc = rulesdsl("validate", str(folder), "--exclude", "drafts/*", "--exclude",
                    "*.bak.yaml", "--no-examples")
    assert proc.returncode == 0, proc.stdout


def test_an_examples_file_in_a_folder_runs_against_its_ruleset(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "pairs.yaml").write_text(
        "ruleset: guan-pai\nexamples:\n"
        "  - {pattern: \"S3 H3\", expect: pair}\n"
        "  - {beats: \"S4 H4\", over: \"S5 H5\", expect: true}\n", encoding="utf-8")
    (folder / "loose.yaml").write_text("examples:\n  - {pattern: \"S3 H3\", expect: pair}\n",
                                       encoding="utf-8")
    results = {Path(r.path).name: r for r in validate_paths([str(folder)])}
    pairs, loose = results["pairs.yaml"], results["loose.yaml"]
    assert pairs.kind == "examples" and pairs.examples is not None
    assert pairs.examples.passed == 1
    [failed] = pairs.problems
    assert failed.code == "RD502"
    # The language's spelling, not Python's: `true`, never `True`.
    assert failed.message.endswith("S4 H4 does not beat S5 H5; expected true")
    [unnamed] = loose.problems
    assert unnamed.message == "an examples file names no ruleset"


def test_check_spells_values_as_the_language_does(tmp_path):
    examples = tmp_path / "ex.yaml"
    examples.write_text("examples:\n  - {beats: \"S4 H4\", over: \"S5 H5\", expect: true}\n",
                        encoding="utf-8")
    proc = rulesdsl("check", "guan-pai", "--examples", str(examples))
    assert proc.returncode == 1
    assert "expected true" in proc.stdout and "True" not in proc.stdout


@pytest.mark.parametrize("value, written", [(True, "true"), (None, "null"), ([1, "a"], "[1, a]"),
                                            ({"fan": 3}, "{fan: 3}"), ("H5", "'H5'"),
                                            (["S3", True], "[S3, true]")])
def test_spell(value, written):
    assert spell(value) == written


def test_every_broken_file_gets_a_documented_code():
    # The broken files hold one mistake each, of every kind the compiler knows.
    seen: dict[str, int] = {}
    for path in BROKEN:
        for p in validate_file(path, run_examples_too=True).problems:
            assert p.code in CODES, (path.name, p.code)
            seen[p.code] = seen.get(p.code, 0) + 1
    # The stages each have their codes in use (reading, structure, expressions, names,
    # rules, examples, bounds).
    for code in ("RD102", "RD201", "RD203", "RD301", "RD303", "RD401", "RD402", "RD501",
                 "RD601"):
        assert code in seen, code


def test_codes_are_documented_and_listed():
    doc = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    listed = rulesdsl("doc", "--codes").stdout
    for code, (title, _) in CODES.items():
        assert f"| `{code}` | {title} |" in doc
        assert re.search(rf"^{code}\s+{re.escape(title)}\s", listed, re.M)


def test_code_of_reads_the_stage():
    from rulesdsl.errors import Problem

    def p(message: str, path: str = "x") -> Problem:
        return Problem("f", 1, 1, path, message)

    assert code_of(p("duplicate key 'a'"), "read") == "RD103"
    assert code_of(p("no ruleset named 'x'", "extends"), "read") == "RD110"
    assert code_of(p("missing key 'id'"), "structure") == "RD202"
    assert code_of(p("expression 'x +': unexpected end"), "compile") == "RD301"
    assert code_of(p("expression 'rnak': unknown name 'rnak'"), "compile") == "RD303"
    assert code_of(p("expression 'rank' gives a number"), "compile") == "RD302"
    assert code_of(p("example fails: …", "examples[2]"), "examples") == "RD502"
    assert code_of(p("scenario fails: …", "scenarios[0]"), "examples") == "RD503"


def test_doc_language_prints_a_section():
    proc = rulesdsl("doc", "--language", "patterns")
    assert proc.returncode == 0 and proc.stdout.startswith("### `patterns`")
    assert "### `points`" not in proc.stdout  # only that section
    assert rulesdsl("doc", "--language", "nothing-like-this").returncode == 2


def _report(results) -> list[dict]:
    return [{"path": r.path, "kind": r.kind, "ok": r.ok, "id": r.ruleset_id,
             "problems": [p.to_dict() for p in r.problems],
             "examples": None if r.examples is None else
             (r.examples.passed, [p.to_dict() for p in r.examples.failed],
              r.examples.deferred)} for r in results]


def test_worker_processes_give_the_same_results_in_the_same_order(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    for name in ("guan-pai.yaml", "wenling-hong-wu.yaml"):
        (folder / name).write_text((ROOT / "rulesets" / name).read_text(encoding="utf-8"),
                                   encoding="utf-8")
    (folder / "pairs.yaml").write_text(
        "ruleset: guan-pai.yaml\nexamples:\n  - {pattern: \"S3 H3\", expect: triple}\n",
        encoding="utf-8")
    (folder / "bad.yaml").write_text("language: 1\nid: [\n", encoding="utf-8")
    paths = [str(folder), str(tmp_path / "gone.yaml"), *map(str, BROKEN[:12])]
    alone = validate_paths(paths)
    apart = validate_paths(paths, jobs=2)
    assert _report(apart) == _report(alone)
    # the mix is what it claims: compiled rulesets, failures of every stage, an examples file
    assert {r.ruleset_id for r in alone} >= {"guan-pai", "wenling-hong-wu"}
    assert sum(r.ok for r in alone) == 2 and any(r.kind == "examples" for r in alone)
    assert all(r.ruleset is None for r in apart)


def test_cli_jobs_print_the_same_report():
    args = ["validate", "rulesets/", *(str(p.relative_to(ROOT)) for p in BROKEN[::9])]
    for fmt in ("text", "json"):
        one = rulesdsl(*args, "--format", fmt, "-j", "1")
        two = rulesdsl(*args, "--format", fmt, "--jobs", "2")
        assert (two.returncode, two.stdout) == (one.returncode, one.stdout)
        assert one.returncode == 1 and one.stdout.count("rulesets/") >= 13
    bad = rulesdsl("validate", "rulesets/guan-pai.yaml", "-j", "0")
    assert bad.returncode == 2 and "not a number of processes: '0'" in bad.stderr
