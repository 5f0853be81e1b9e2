"""Hostile rule files get a clear answer: a ruleset or located problems, never a crash,
a hang or runaway memory (issue 9). The quick profile runs here (a few hundred inputs,
derandomized under the "ci" hypothesis profile); the long one is
`python -m tests.fuzz.run --inputs 100000 --workers 2` (docs/fuzzing.md).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.language import ast
from rulesdsl.language.yamlio import MAX_FILE_BYTES
from tests.test_grammar import expressions

from .check import bad_problems, failure
from .mutate import WHOLE_FILES, mutate_data, mutate_text, seeds

ROOT = Path(__file__).resolve().parent.parent.parent
LONG = os.environ.get("RULESDSL_FUZZ") == "long"
SCALE = 20 if LONG else 1


def quick(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=list(HealthCheck))


def _check(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "input.yaml"
    path.write_bytes(data)
    # tracemalloc makes composing a 1 MB document several times slower; the largest
    # inputs get a longer limit instead of the memory trace (RLIMIT_AS in the long run).
    small = len(data) < 100_000
    problem = failure(path, trace_memory=small, seconds=10 if small else 60)
    assert problem is None, f"{problem}\n--- input (first 600 bytes) ---\n{data[:600]!r}"


@quick(45)
@given(rng=st.randoms(use_true_random=False), expression=expressions)
def test_data_level_mutations(tmp_path_factory, rng: random.Random, expression) -> None:
    seed = rng.choice(seeds())
    _check(tmp_path_factory.mktemp("d"), mutate_data(seed, rng, ast.unparse(expression)))


@quick(60)
@given(rng=st.randoms(use_true_random=False))
def test_text_level_mutations(tmp_path_factory, rng: random.Random) -> None:
    seed = rng.choice(seeds())
    _check(tmp_path_factory.mktemp("t"), mutate_text(seed, rng))


@quick(20)
@given(data=st.data(), expression=expressions)
def test_grammar_expressions_in_every_expression_field(tmp_path_factory, data,
                                                       expression) -> None:
    """An expression from the grammar's own strategy, in a field the compiler parses."""
    import yaml

    from .mutate import _set, dump

    seed = data.draw(st.sampled_from(seeds()))
    where = data.draw(st.sampled_from(seed.expression_paths))
    doc = yaml.safe_load(seed.text)
    _set(doc, where, ast.unparse(expression))
    _check(tmp_path_factory.mktemp("g"), dump(doc).encode())


@pytest.mark.parametrize("index", range(len(WHOLE_FILES)))
def test_whole_hostile_files(tmp_path: Path, index: int) -> None:
    data = WHOLE_FILES[index]
    _check(tmp_path, data)
    path = tmp_path / "input.yaml"
    result = rulesdsl.validate_file(path)
    assert not result.ok  # none of them is a ruleset


def test_every_expression_field_is_found() -> None:
    # The mutators aim at the paths the compiler parsed; an empty list would aim nowhere.
    for seed in seeds():
        assert len(seed.expression_paths) >= 3, seed.name


def test_a_problem_without_a_location_is_caught() -> None:
    # The checker itself: a column of 0 is a failure.
    from rulesdsl.errors import Problem

    assert bad_problems([Problem("f", 1, 0, "", "m")])
    assert bad_problems([Problem("f", 1, 1, "", " ")])
    assert not bad_problems([Problem("f", 1, 1, "", "m")])


def test_explicit_tags_with_wrong_text_are_located(tmp_path: Path) -> None:
    path = tmp_path / "tagged.yaml"
    path.write_text("language: 1\nid: x\nfamily: !!bool maybe\nplayers: {count: !!int two}\n")
    result = rulesdsl.validate_file(path)
    shown = [p.format() for p in result.problems]
    assert f"{path}:3:9: family: 'maybe' is not a valid !!bool value; expected a value of " \
           "the type !!bool names, or no tag" in shown
    assert any(s.startswith(f"{path}:4:18: players.count: 'two' is not a valid !!int")
               for s in shown), shown


def test_pattern_example_expecting_a_mapping_is_a_problem(tmp_path: Path) -> None:
    import yaml

    seed = next(s for s in seeds() if any(
        isinstance(e, dict) and "pattern" in e for e in s.data.get("examples", [])))
    doc = yaml.safe_load(seed.text)
    i = next(i for i, e in enumerate(doc["examples"]) if "pattern" in e)
    doc["examples"][i]["expect"] = [{"pair": 1}]
    path = tmp_path / "ex.yaml"
    from .mutate import dump

    path.write_text(dump(doc))
    result = rulesdsl.validate_file(path)
    assert any(p.path == f"examples[{i}].expect" and "expects a pattern name" in p.message
               for p in result.problems), [p.format() for p in result.problems]


# ---------------------------------------------------------------- the command line

def hostile_set(folder: Path, count: int = 24) -> list[Path]:
    """Whole hostile files and seeded mutations that do not validate."""
    out = []
    for i, data in enumerate(WHOLE_FILES):
        if len(data) > MAX_FILE_BYTES + 10:
            continue  # one oversized file is enough
        p = folder / f"whole_{i:02d}.yaml"
        p.write_bytes(data)
        out.append(p)
    big = folder / "oversized.yaml"
    big.write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    out.append(big)
    rng = random.Random(9)
    while len(out) < len(WHOLE_FILES) + count:
        seed = rng.choice(seeds())
        data = mutate_text(seed, rng) if rng.random() < 0.5 else mutate_data(seed, rng)
        p = folder / f"mutant_{len(out):03d}.yaml"
        p.write_bytes(data)
        if not rulesdsl.validate_file(p).ok:
            out.append(p)
        else:
            p.unlink()
    return out


def test_cli_answers_every_hostile_file_with_a_location(tmp_path: Path) -> None:
    files = hostile_set(tmp_path)
    broken = sorted((ROOT / "tests" / "broken").glob("*.yaml"))
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", str(tmp_path),
                           *map(str, broken)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]  # 3 would be an internal error
    assert "Traceback" not in out and "internal error" not in out
    for f in files + broken:
        assert f"INVALID: {f}" in proc.stdout, f
        assert re.search(rf"^{re.escape(str(f))}:\d+:\d+: ", proc.stdout, re.M), f


@pytest.mark.parametrize("data", [b"", b"\xff\xfe", b"- a\n", b"a: &x [*x]\n",
                                  b"a: !!python/name:os.system\n", b"\ta: 1\n"])
def test_cli_one_hostile_file(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert re.search(rf"^{re.escape(str(path))}:[1-9]\d*:[1-9]\d*: ", proc.stdout, re.M)


def test_whole_floats_count_as_the_ints_they_equal(tmp_path: Path) -> None:
    # JSON Schema lets 0.0 through as an integer; the compiler indexed a list with it.
    import yaml

    from .mutate import dump

    seed = next(s for s in seeds() if any(
        isinstance(p, dict) and "parts" in p for p in s.data["patterns"].get("list", [])))
    doc = yaml.safe_load(seed.text)
    pattern = next(p for p in doc["patterns"]["list"] if "parts" in p)
    pattern["key"] = -0.0
    doc["deal"]["hand_size"] = float(doc["deal"]["hand_size"])
    path = tmp_path / "floats.yaml"
    path.write_text(dump(doc))
    result = rulesdsl.validate_file(path)
    assert result.ok, [p.format() for p in result.problems]
    assert result.ruleset is not None
    assert result.ruleset.deal["hand_size"] == seed.data["deal"]["hand_size"]
    assert isinstance(result.ruleset.deal["hand_size"], int)
