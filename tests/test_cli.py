"""The command line: exit codes, output formats, compile, schema, check."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from jsonschema import Draft202012Validator

from rulesdsl.cli import main
from rulesdsl.compiler.schema import ruleset_schema

from .conftest import ROOT


def rulesdsl(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True,
                          text=True, cwd=cwd)


BAD = textwrap.dedent("""\
    language: 1
    id: bad-game
    family: shedding
    players: {count: 2}
    deck: {decks: 1, jokers: false}
    deal: {hand_size: 26}
    ranks: {single: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2]}
    order:
      - {name: ranks, select: "rnak == 3", by: single}
    patterns:
      list: [{name: single, group: 1}]
    """)


def test_exit_codes(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD, encoding="utf-8")
    assert main(["validate", str(ROOT / "rulesets" / "guan-pai.yaml")]) == 0
    assert main(["validate", str(bad)]) == 1
    proc = rulesdsl("validate")
    assert proc.returncode == 2 and "usage" in proc.stderr
    proc = rulesdsl("validate", str(tmp_path / "missing.yaml"))
    assert proc.returncode == 2 and "file not found" in proc.stderr


def test_text_json_and_github_formats(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD, encoding="utf-8")
    text = rulesdsl("validate", str(bad))
    assert text.returncode == 1
    assert f"{bad}:9:28: order[0].select: expression 'rnak == 3': unknown name 'rnak' " \
           "(did you mean 'rank'?)" in text.stdout
    js = json.loads(rulesdsl("validate", str(bad), "--format", "json").stdout)
    problem = js["files"][0]["problems"][0]
    assert (problem["line"], problem["column"], problem["path"]) == (9, 28, "order[0].select")
    gh = rulesdsl("validate", str(bad), "--format", "github").stdout
    assert gh.startswith(f"::error file={bad},line=9,col=28,endLine=9,endColumn=32,"
                         "title=RD303::")  # the name 'rnak' underlined
    assert "Traceback" not in text.stdout + text.stderr


def test_schema_is_valid_draft_2020_12_and_printed():
    Draft202012Validator.check_schema(ruleset_schema())
    proc = rulesdsl("schema")
    printed = json.loads(proc.stdout)
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "order" in printed["properties"] and printed["properties"]["order"]["description"]


def test_compile_writes_a_loadable_resolved_ruleset(tmp_path):
    out = tmp_path / "tz.json"
    proc = rulesdsl("compile", "taicang-zhongxin-wu", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["format"] == 1 and payload["language"] == 1 and len(payload["hash"]) == 64
    # Expressions are normalised in the compiled form.
    selects = [t["select"] for t in payload["ruleset"]["order"]]
    assert "suit == trump and level_card" in selects
    again = rulesdsl("validate", str(out))
    assert again.returncode == 0, again.stdout + again.stderr


def test_check_runs_an_examples_file(tmp_path):
    good = tmp_path / "more.yaml"
    good.write_text(textwrap.dedent("""\
        examples:
          - pattern: "C5 C5 C6 C6 C7 C7"
            context: {trump: H, level: 2}
            expect: tractor
          - order: "BJ > LJ > SA"
            context: {trump: D, level: 9}
        """), encoding="utf-8")
    proc = rulesdsl("check", "taicang-zhongxin-wu", "--examples", str(good))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed, 0 failed" in proc.stdout
    failing = tmp_path / "wrong.yaml"
    failing.write_text(textwrap.dedent("""\
        examples:
          - pattern: "C5 C5 C7 C7"
            context: {trump: H, level: 6}
            expect: tractor
        """), encoding="utf-8")
    proc = rulesdsl("check", "taicang-zhongxin-wu", "--examples", str(failing))
    assert proc.returncode == 1
    assert f"{failing}:2:14: examples[0].pattern: example fails: C5 C5 C7 C7 reads as " \
           "none; expected tractor" in proc.stdout


def test_unknown_ruleset_name_is_a_clear_error():
    proc = rulesdsl("compile", "taicang-zhongxin-wo")
    assert proc.returncode == 1
    assert "no ruleset named 'taicang-zhongxin-wo'" in proc.stderr
    assert "did you mean 'taicang-zhongxin-wu'?" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_module_and_console_script_agree():
    proc = rulesdsl("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("rulesdsl ")


def test_compiled_form_normalises_expressions(tmp_path):
    src = tmp_path / "messy.yaml"
    src.write_text(BAD.replace('"rnak == 3"', '"((rank==3))or  is_joker"}\n'
                               '  - {name: rest, select: "true"').replace(
        "list: [{name: single, group: 1}]", "list: [{name: single, group: 1}]\n"
        "define: {low: \"rank<=5\"}"), encoding="utf-8")
    out = tmp_path / "messy.json"
    assert main(["compile", str(src), "-o", str(out)]) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["ruleset"]["order"][0]["select"] == "rank == 3 or is_joker"
    assert payload["ruleset"]["define"]["low"] == "rank <= 5"


@pytest.mark.parametrize("family", ["trick", "shedding", "tiles"])
def test_new_writes_a_ruleset_that_validates_and_plays(family, tmp_path):
    import random

    import rulesdsl

    out = tmp_path / "mine.yaml"
    proc = rulesdsl_cli("new", f"my-{family}", "--family", family, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert main(["validate", str(out)]) == 0
    ruleset = rulesdsl.load(out)
    assert ruleset.id == f"my-{family}" and ruleset.family == family
    state = ruleset.new_game(seed=1, hands=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    again = rulesdsl_cli("new", f"my-{family}", "--family", family, "-o", str(out))
    assert again.returncode == 2 and "exists" in again.stderr


def rulesdsl_cli(*args: str) -> subprocess.CompletedProcess:
    return rulesdsl(*args)
