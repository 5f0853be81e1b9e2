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


def test_longrun_reports_the_run_the_replay_and_the_peak_rss():
    """benchmarks/longrun.py on a few hands: one row per ruleset, its replayed first block
    (the same hands) present, the targets column filled for the rulesets that have one."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "longrun.py"), "--only",
                           "wenling-duijia-tong", "dou-dizhu", "--hands", "4", "--block", "2",
                           "--quiet"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| ruleset")]
    by_name = {cells[0].strip(): [c.strip() for c in cells] for cells in rows}
    assert set(by_name) == {"wenling-duijia-tong", "dou-dizhu"}
    for cells in by_name.values():
        mean, first, replay, ratio, rss = (float(cells[i]) for i in (1, 3, 4, 5, 6))
        assert mean > 0 and first > 0 and replay > 0 and rss > 10
        assert abs(ratio - replay / first) < 0.02
    assert by_name["wenling-duijia-tong"][2].startswith("≤ 60")
    assert by_name["dou-dizhu"][2] == ""


def test_ab_alternates_batches_and_reports_each_side():
    """benchmarks/ab.py with a folder side (the checkout) and an interpreter side (this
    one): each side says which engine it runs; the first side's speed-up over itself is 1."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ab.py"), str(ROOT),
                           sys.executable, "--ruleset", "guan-pai", "--rounds", "2",
                           "--games", "1", "--warmup", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    head, first, second = done.stdout.strip().splitlines()
    assert head == "guan-pai: 2 rounds of 1 games a side"
    assert first.startswith(f"{ROOT} (pure Python): ") and "speed-up 1.000×" in first
    assert second.startswith(f"{sys.executable} (pure Python): ")
