"""benchmarks/run.py --quick: a smoke run of the whole suite, every section in one table."""

from __future__ import annotations

import subprocess
import sys
import time

from .conftest import ROOT

SECTIONS = ("selfplay", "legality", "follow", "enumerate", "mahjong", "validate", "peers",
            "targets")


def test_quick_run_prints_every_section_and_exits_0():
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick",
                           "--markdown"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    elapsed = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    shown = {row.split("|")[1].strip() for row in rows[1:]}  # the section column
    for section in SECTIONS:
        assert section in shown, f"no {section} rows:\n{done.stdout}"
    assert "ERROR" not in done.stdout
    assert elapsed < 60, f"--quick took {elapsed:.0f} s"
