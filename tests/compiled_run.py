"""Build the compiled-kernels wheel and run the engine's tests against it, in a process
of its own (tests/test_compiled_kernels.py reads the outcome).

    python tests/compiled_run.py OUT

writes OUT/dist/rulesdsl-*.whl, unpacks it in OUT/site and runs AGAIN there with
RULESDSL_EXPECT_COMPILED=1; OUT/outcome.json holds both steps' exit codes and output tails.
The test session starts it as soon as the tests are collected (tests/conftest.py), so the
C compiler and the second run use the core the main run leaves idle.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECT = "RULESDSL_EXPECT_COMPILED"
# The tests run again against the compiled wheel: the shedding engine's tests, the pattern
# readings, every bundled ruleset's examples and golden games (the shuffle, the base state
# and the readings serve every family), and the check that this run imports every kernel
# compiled.
AGAIN = [
    "test_compiled_kernels.py::test_this_run_imports_the_kernels_it_expects",
    "test_golden.py",
    "test_shuffle.py",
    "test_shed_fast_paths.py",
    "test_shed_rules.py",
    "test_shed_invariants.py",
    "test_shed_levels.py",
    "test_lazy_plays.py",
    "test_play_entries.py",
    "test_suited_plays.py",
    "test_guandan.py",
    "test_tribute.py",
    "test_doudizhu_rlcard.py",
    "test_lead_rules.py",
    "test_partial_wilds.py",
    "test_patterns.py",
    "test_rulesets.py",
]


def _tail(proc: subprocess.CompletedProcess) -> str:
    return (proc.stdout or "")[-3000:] + (proc.stderr or "")[-2000:]


def build_and_test(out: Path) -> dict:
    dist, site = out / "dist", out / "site"
    env = {**os.environ, "RULESDSL_COMPILE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(dist), str(ROOT)], capture_output=True, text=True, env=env)
    outcome: dict = {"build_rc": proc.returncode, "build_tail": _tail(proc)}
    wheels = sorted(dist.glob("rulesdsl-*.whl"))
    outcome["wheels"] = [str(w) for w in wheels]
    if proc.returncode or len(wheels) != 1:
        return outcome
    zipfile.ZipFile(wheels[0]).extractall(site)
    # `python -m pytest` puts the working directory first on sys.path, so the unpacked
    # wheel is imported, not the checkout; --import-mode=append keeps the tests' own
    # folder behind it.
    env = {**os.environ, EXPECT: "1", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("RULESDSL_COMPILE", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--import-mode=append", "--rootdir", str(ROOT),
         *[str(ROOT / "tests" / t) for t in AGAIN]],
        capture_output=True, text=True, cwd=site, env=env)
    outcome.update(test_rc=proc.returncode, test_tail=_tail(proc))
    return outcome


def start(out: Path) -> subprocess.Popen:
    """Run build_and_test in the background (its outcome: wait, then outcome(out))."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "job.log", "w") as log:
        return subprocess.Popen([sys.executable, __file__, str(out)], stdout=log,
                                stderr=subprocess.STDOUT)


def outcome(out: Path) -> dict:
    path = out / "outcome.json"
    if path.is_file():
        return json.loads(path.read_text())
    log = out / "job.log"
    return {"build_rc": None, "build_tail": log.read_text()[-3000:] if log.is_file() else ""}


if __name__ == "__main__":
    target = Path(sys.argv[1])
    result = build_and_test(target)
    (target / "outcome.json").write_text(json.dumps(result))
