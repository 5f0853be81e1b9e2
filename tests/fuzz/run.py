"""The long fuzzing profile: many hostile inputs, in worker processes.

    .venv/bin/python -m tests.fuzz.run --inputs 100000 --workers 2
    .venv/bin/python -m tests.fuzz.run --target logs|compiled|states|all --inputs 5000

`--target rules` (the default) fuzzes rule files (mutate.py, check.py); `logs`, `compiled`
and `states` fuzz tampered game logs, compiled rulesets and saved states (artifacts.py,
check_artifacts.py); `all` runs the four one after the other, `--inputs` each.

Each worker caps its address space (RLIMIT_AS, --memory-mb) so runaway memory is a
MemoryError reported as a failure, not a dead machine; each input has a SIGALRM time
limit (--seconds). Failing inputs are written to --out (default /tmp/rulesdsl-fuzz) with
the label and message (summary.json; summary-TARGET.json for the artifacts), so any
finding can be replayed: `rulesdsl validate FILE`, `rulesdsl replay FILE.jsonl`,
`rulesdsl.load(FILE.json)`, `rulesdsl.load(RULESET).state_from_json(text)` (the label
starts with the seed artifact's name: ruleset@seed or ruleset@actions).
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

TARGETS = ("rules", "logs", "compiled", "states")
SUFFIX = {"rules": ".yaml", "logs": ".jsonl", "compiled": ".json", "states": ".json"}


def _init(memory_mb: int, target: str) -> None:
    from . import artifacts

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    seeds()  # compile the seed files once per worker, play the seed games
    {"rules": lambda: None, "logs": artifacts.log_seeds, "compiled": artifacts.compiled_seeds,
     "states": artifacts.state_seeds}[target]()


def _one(target: str, seed: int, n: int, folder: Path,
         seconds: float) -> tuple[str, bytes, str | None]:
    """One input of a target: its label, its bytes and what went wrong (or None)."""
    # Memory is bounded by RLIMIT_AS here; tracemalloc would double the cost or more.
    if target == "rules":
        rng = random.Random(f"{seed}:{n}")
        label, data = any_mutation(rng)
        path = folder / "input.yaml"
        path.write_bytes(data)
        # Examples (pattern readings) run for one input in four: they cost the most, and
        # rulesdsl.load is compile_file, which validate_file runs on every input.
        return label, data, failure(path, load_too=False, examples=n % 4 == 0,
                                    trace_memory=False, seconds=seconds)
    from .artifacts import MUTATORS
    from .check_artifacts import compiled_failure, log_failure, state_failure

    rng = random.Random(f"{target}:{seed}:{n}")
    origin, mutant = MUTATORS[target](rng)
    label = f"{origin.name} {mutant.label}"
    if target == "logs":
        problem = log_failure(folder, origin, mutant, trace_memory=False, seconds=seconds)
    elif target == "compiled":
        problem = compiled_failure(folder, origin, mutant, trace_memory=False,
                                   seconds=seconds)
    else:  # a restored state plays on to its end
        problem = state_failure(origin, mutant, trace_memory=False, seconds=seconds,
                                steps=None)
    return label, mutant.data, problem


def _batch(job: tuple[str, int, int, int, float, str]) -> tuple[int, list[dict], list]:
    target, seed, start, count, seconds, out = job
    found: list[dict] = []
    slowest: list = [0.0, -1, ""]
    with tempfile.TemporaryDirectory(prefix="rulesdsl-fuzz-") as tmp:
        for n in range(start, start + count):
            started = time.perf_counter()
            try:
                label, data, problem = _one(target, seed, n, Path(tmp), seconds)
            except Exception as exc:  # the mutator itself: a bug here, not in rulesdsl
                label, data = "(mutator)", b""
                problem = f"the mutator raised {type(exc).__name__}: {exc}"
            took = time.perf_counter() - started
            if took > slowest[0]:
                slowest[:] = [took, n, label[:200]]
            if problem:
                keep = Path(out) / f"fail-{target}-{seed}-{n}{SUFFIX[target]}"
                keep.write_bytes(data)
                found.append({"input": n, "label": label[:2000], "file": str(keep),
                              "problem": problem})
    return count, found, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=[*TARGETS, "all"], default="rules")
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs (per target)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="time limit per input (a hang, not a slow input, on a loaded machine)")
    parser.add_argument("--memory-mb", type=int, default=1024, help="RLIMIT_AS per worker")
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "rulesdsl-fuzz"))
    args = parser.parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    targets = TARGETS if args.target == "all" else (args.target,)
    summaries = {}
    for target in targets:
        summaries[target] = _run(target, args)
    name = "summary.json" if args.target == "rules" else f"summary-{args.target}.json"
    (Path(args.out) / name).write_text(json.dumps(
        summaries if len(targets) > 1 else summaries[targets[0]], indent=2) + "\n")
    return 1 if any(s["failures"] for s in summaries.values()) else 0


def code_version() -> str:
    """The commit, and a digest of rulesdsl/ when the work tree differs from it (a run
    tests the files as they are, committed or not)."""
    import hashlib
    import subprocess

    root = Path(__file__).resolve().parent.parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                              capture_output=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "rulesdsl"], cwd=root,
                               text=True, capture_output=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        head, dirty = "?", "?"
    if not dirty:
        return head
    digest = hashlib.sha256()
    for f in sorted((root / "rulesdsl").rglob("*.py")):
        digest.update(f.read_bytes())
    return f"{head}+work tree {digest.hexdigest()[:12]}"


def _warm_up(target: str) -> None:
    """Build the seeds and check one untouched input in this process, before the workers
    fork: they share what is built and every module the check imports, so files edited
    while a run goes on do not change the code under test halfway."""
    from . import artifacts, check_artifacts

    if target == "rules":
        seeds()
        return
    with tempfile.TemporaryDirectory(prefix="rulesdsl-fuzz-") as tmp:
        if target == "logs":
            seed = artifacts.log_seeds()[0]
            problem = check_artifacts.log_failure(
                Path(tmp), seed, artifacts.Mutant("unmodified", seed.data), trace_memory=False)
        elif target == "compiled":
            seed = artifacts.compiled_seeds()[0]
            problem = check_artifacts.compiled_failure(
                Path(tmp), seed, artifacts.Mutant("unmodified", seed.data), trace_memory=False)
        else:
            seed = artifacts.state_seeds()[0]
            problem = check_artifacts.state_failure(
                seed, artifacts.Mutant("unmodified", seed.text.encode()), trace_memory=False)
    if problem:
        raise SystemExit(f"an untouched {target} input fails: {problem}")


def _run(target: str, args: argparse.Namespace) -> dict:
    jobs = [(target, args.seed, s, min(args.batch, args.inputs - s), args.seconds, args.out)
            for s in range(0, args.inputs, args.batch)]
    _warm_up(target)
    code = code_version()
    started = time.time()
    done = 0
    failures: list[dict] = []
    slowest: list = [0.0, -1, ""]
    with mp.get_context("fork").Pool(args.workers, _init, (args.memory_mb, target)) as pool:
        for count, found, slow in pool.imap_unordered(_batch, jobs):
            done += count
            slowest = max(slowest, slow)
            failures.extend(found)
            for f in found:
                print(f"FAIL {f['file']} ({f['label'][:160]}): "
                      f"{f['problem'].splitlines()[0][:300]}", flush=True)
            if done % (args.batch * 20) == 0 or done == args.inputs:
                rate = done / max(time.time() - started, 1e-9)
                print(f"{target}: {done}/{args.inputs} inputs, {len(failures)} failures, "
                      f"{rate:.0f}/s", flush=True)
    elapsed = time.time() - started
    summary = {"target": target, "code": code, "date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                      time.gmtime(started)),
               "inputs": done, "failures": len(failures),
               "seconds": round(elapsed), "seed": args.seed, "workers": args.workers,
               "slowest_input": {"seconds": round(slowest[0], 2), "input": slowest[1],
                                 "label": slowest[2]}}
    print(json.dumps(summary), flush=True)
    return {**summary, "found": sorted(failures, key=lambda f: f["input"])}


if __name__ == "__main__":
    sys.exit(main())
