"""The per-user cache of parsed expression trees: same answers warm, cold and corrupted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE = str(ROOT / "rulesets" / "wenling-biao-tong.yaml")


def validate(cache: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RULESDSL_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-m", "rulesdsl", "validate", "--format", "json",
                           FILE], capture_output=True, text=True, env=env, timeout=120)


def test_warm_cold_corrupt_and_disabled_caches_agree(tmp_path):
    cold = validate(str(tmp_path))
    assert cold.returncode == 0, cold.stderr
    trees = list(tmp_path.glob("expr-trees-*.json"))
    assert len(trees) == 1
    stored = json.loads(trees[0].read_text(encoding="utf-8"))
    assert stored and all(isinstance(v, list) for v in stored.values())
    warm = validate(str(tmp_path))
    assert warm.stdout == cold.stdout
    # A damaged cache is ignored (parsed afresh), never trusted into a wrong answer.
    damaged = {text: ["Name", 0, "not-a-field", 1, 2] for text in stored}
    trees[0].write_text(json.dumps(damaged), encoding="utf-8")
    assert validate(str(tmp_path)).stdout == cold.stdout
    trees[0].write_text("{not json", encoding="utf-8")
    assert validate(str(tmp_path)).stdout == cold.stdout
    off = validate("off")
    assert off.stdout == cold.stdout
