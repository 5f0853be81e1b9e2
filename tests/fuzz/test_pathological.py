"""Pathological but valid-looking rule files: each validates and plays a seeded game in
bounded time, or is refused with the bound named (tests/fuzz/pathological.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rulesdsl

from .check import bad_problems, time_limit
from .pathological import cases

ROOT = Path(__file__).resolve().parent.parent.parent
LONG = os.environ.get("RULESDSL_FUZZ") == "long"
# Plays that take more than a few seconds on a loaded machine run in the long profile.
SLOW_PLAYS = {"eight_single_parts", "table_5000_rows"}
CASES = cases()


@pytest.mark.parametrize("name, text, want, words", CASES, ids=[c[0] for c in CASES])
def test_pathological_file(tmp_path: Path, name: str, text: str, want: str,
                           words: str | None) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    with time_limit(30):
        result = rulesdsl.validate_file(path)
    assert time.perf_counter() - started < 30
    assert not bad_problems(result.problems)
    shown = [p.format() for p in result.problems if p.severity == "error"]
    if want == "rejected":
        assert not result.ok
        assert any(words in s for s in shown), shown[:5]
        return
    assert result.ok, shown[:5]
    if name in SLOW_PLAYS and not LONG:
        return
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "play", str(path), "--seed", "1",
                           "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300 if LONG else 120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    assert summary["hands"] >= 1 and len(summary["returns"]) >= 2


def test_bounds_are_documented() -> None:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for words in ("max repeating parts", "max repeat steps", "max wild cards"):
        assert words in text, words


def test_reading_a_play_against_many_parts_is_immediate(tmp_path: Path, monkeypatch) -> None:
    # Eight 1-card parts: the reading walk once went through all 13**8 part products for
    # a 3-card play, though none fits in 3 cards (the cap counted only fitting ones).
    # Validation now refuses the file (max part combinations); with the bound lifted, the
    # walk must still skip what cannot fit.
    from rulesdsl import notation as nt
    from rulesdsl.model import patterns
    from rulesdsl.model.hand import HandContext
    from rulesdsl.model.patterns import readings

    monkeypatch.setattr(patterns, "MAX_PART_COMBINATIONS", 10**12)

    name, text, _, _ = next(c for c in CASES if c[0] == "eight_single_parts")
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    ruleset = rulesdsl.load(path)
    hc = HandContext(ruleset, {})
    started = time.perf_counter()
    with time_limit(20):
        found = readings(hc, nt.parse_cards("S3 H4 D5"))
    assert time.perf_counter() - started < 20
    assert "eight_parts" not in {r.pattern for r in found}
