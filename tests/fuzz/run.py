"""The long fuzzing profile: many hostile rule files, in worker processes.

    .venv/bin/python -m tests.fuzz.run --inputs 100000 --workers 2

Each worker caps its address space (RLIMIT_AS, --memory-mb) so runaway memory is a
MemoryError reported as a failure, not a dead machine; each input has a SIGALRM time
limit (--seconds). Failing inputs are written to --out (default /tmp/rulesdsl-fuzz) with
the label and message, so any finding can be replayed with `rulesdsl validate FILE`.
Exit status 0 when every input got a clear answer, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from .check import failure
from .mutate import any_mutation, seeds


def _init(memory_mb: int) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    seeds()  # compile the seed files once per worker


def _batch(job: tuple[int, int, int, float, str]) -> tuple[int, list[dict], list]:
    seed, start, count, seconds, out = job
    found: list[dict] = []
    slowest: list = [0.0, -1, ""]
    with tempfile.TemporaryDirectory(prefix="rulesdsl-fuzz-") as tmp:
        path = Path(tmp) / "input.yaml"
        for n in range(start, start + count):
            rng = random.Random(f"{seed}:{n}")
            label, data = any_mutation(rng)
            path.write_bytes(data)
            # Memory is bounded by RLIMIT_AS here; tracemalloc would double the cost.
            # Examples (pattern readings) run for one input in four: they cost the most, and
            # rulesdsl.load is compile_file, which validate_file runs on every input.
            started = time.perf_counter()
            problem = failure(path, load_too=False, examples=n % 4 == 0, trace_memory=False,
                              seconds=seconds)
            took = time.perf_counter() - started
            if took > slowest[0]:
                slowest[:] = [took, n, label]
            if problem:
                keep = Path(out) / f"fail-{seed}-{n}.yaml"
                keep.write_bytes(data)
                found.append({"input": n, "label": label, "file": str(keep),
                              "problem": problem})
    return count, found, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="time limit per input (a hang, not a slow input, on a loaded machine)")
    parser.add_argument("--memory-mb", type=int, default=1024, help="RLIMIT_AS per worker")
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "rulesdsl-fuzz"))
    args = parser.parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    jobs = [(args.seed, s, min(args.batch, args.inputs - s), args.seconds, args.out)
            for s in range(0, args.inputs, args.batch)]
    started = time.time()
    done = 0
    failures: list[dict] = []
    slowest: list = [0.0, -1, ""]
    with mp.get_context("fork").Pool(args.workers, _init, (args.memory_mb,)) as pool:
        for count, found, slow in pool.imap_unordered(_batch, jobs):
            done += count
            slowest = max(slowest, slow)
            failures.extend(found)
            for f in found:
                print(f"FAIL {f['file']} ({f['label']}): {f['problem'].splitlines()[0]}",
                      flush=True)
            if done % (args.batch * 20) == 0 or done == args.inputs:
                rate = done / max(time.time() - started, 1e-9)
                print(f"{done}/{args.inputs} inputs, {len(failures)} failures, "
                      f"{rate:.0f}/s", flush=True)
    elapsed = time.time() - started
    summary = {"inputs": done, "failures": len(failures), "seconds": round(elapsed),
               "seed": args.seed, "workers": args.workers,
               "slowest_input": {"seconds": round(slowest[0], 2), "input": slowest[1],
                                 "label": slowest[2]}}
    print(json.dumps(summary))
    (Path(args.out) / "summary.json").write_text(
        json.dumps({**summary, "found": failures}, indent=2) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
