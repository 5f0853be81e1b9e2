"""Two or more engines side by side: random self-play in alternating batches.

    python benchmarks/ab.py .venv/bin/python /tmp/compiled/bin/python
    python benchmarks/ab.py /tmp/before /tmp/after --ruleset guan-pai --rounds 31

Each side is a Python interpreter (a venv's, running the rulesdsl installed there: pure,
or compiled with RULESDSL_COMPILE=1) or a folder holding a `rulesdsl` package (a git
worktree, an unpacked wheel), run by this interpreter with that folder first on sys.path.
Every side is a worker process that warms up (20 games), then plays a batch of one-hand
games whenever asked; the batches alternate side by side, so the machine's load drifts
over all sides alike. Prints each side's median µs a decision and, for every side, the
median and quartiles over rounds of the first side's time ÷ its own (its speed-up).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time


def worker(name: str, warmup: int) -> None:
    """Say which engine this is, warm up, then play a batch per line read."""
    import rulesdsl
    from rulesdsl.engine import kernels

    compiled = kernels.compiled()
    print(f"compiled {len(compiled)}" if compiled else "pure Python", flush=True)
    rs = rulesdsl.api.load(name)
    rng = random.Random(1)
    seed = 1000

    def batch(games: int) -> float:
        nonlocal seed
        n, start = 0, time.perf_counter()
        for _ in range(games):
            state = rs.new_game(seed=seed, hands=1)
            seed += 1
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
                n += 1
        return (time.perf_counter() - start) / max(n, 1) * 1e6

    batch(warmup)
    for line in sys.stdin:
        print(batch(int(line)), flush=True)


def start(side: str, ruleset: str, warmup: int) -> subprocess.Popen:
    here = os.path.abspath(__file__)
    python, env = side, dict(os.environ)
    if os.path.isdir(side):  # its folder before the installed package on sys.path
        python, env["PYTHONPATH"] = sys.executable, os.path.abspath(side)
    return subprocess.Popen([python, here, "--worker", ruleset, "--warmup", str(warmup)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sides", nargs="*", help="interpreters or folders holding rulesdsl")
    parser.add_argument("--ruleset", default="dou-dizhu")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--games", type=int, default=40, help="games a batch")
    parser.add_argument("--warmup", type=int, default=20, help="games before the first batch")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.warmup)
        return 0
    if len(args.sides) < 2:
        parser.error("give two sides or more")
    procs = [start(side, args.ruleset, args.warmup) for side in args.sides]
    kinds = []
    for proc in procs:
        assert proc.stdout is not None
        kinds.append(proc.stdout.readline().strip())
    times: list[list[float]] = [[] for _ in procs]
    for _ in range(args.rounds):
        for proc, out in zip(procs, times):
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(f"{args.games}\n")
            proc.stdin.flush()
            out.append(float(proc.stdout.readline()))
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(f"{args.ruleset}: {args.rounds} rounds of {args.games} games a side")
    for side, kind, out in zip(args.sides, kinds, times):
        ratios = [a / b for a, b in zip(times[0], out)]
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios * 3)
        print(f"{side} ({kind}): {statistics.median(out):.2f} µs/decision; speed-up "
              f"{statistics.median(ratios):.3f}× (quartiles {q1:.3f}–{q3:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
