"""Environment steps per second (issue 22): the PettingZoo environment on Dou Dizhu and
Guan Pai, before and after its observations were written from the engine's arrays, and
RLCard's Dou Dizhu environment, all in one run.

    python benchmarks/env_steps.py [--steps 3000] [--repeats 5] [--quick]

Rows, each timed for the same number of steps in every repeat (the figure is the median
over the repeats, with the min and max):
  before  the former environment, which parsed `state.observation(seat)` text and checked
          every mask entry with `is_legal` (`TextEnv`, kept in tests/test_env_arrays.py as
          the reference the new arrays are compared with)
  after   `rulesdsl.env(...)`
  RLCard  `rlcard.make("doudizhu")`, `env.step` (its step builds the next observation)

A step is one `env.step(action)` of a live agent: in our environment adding one card to
the play being built is a step, and so is committing it (the decisions column counts the
steps that changed the game: commits, passes, bids); in RLCard's a step is a whole play.
Every row picks uniformly among the allowed actions (our action mask, RLCard's
`legal_actions`) with the same numpy generator call. Before and after play the very same
games (same seeds, same masks). Within a repeat the rows run one after the other, so
each ratio (taken per repeat, then the median) pairs figures from the same machine load.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulesdsl  # noqa: E402

GAMES = ("dou-dizhu", "guan-pai")


def text_env_class() -> type:
    """The former environment, from the test that compares the arrays with it."""
    spec = importlib.util.spec_from_file_location(
        "env_arrays_reference", ROOT / "tests" / "test_env_arrays.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TextEnv


class OurLoop:
    """Random play through one of our environments: `run(n)` takes n live steps."""

    def __init__(self, env: Any, seed: int):
        self.env = env
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        env.reset(seed=seed)

    def run(self, steps: int) -> tuple[int, int]:
        """(steps, decisions) taken: n steps, and how many of them changed the game."""
        env, rng = self.env, self.rng
        taken = decisions = 0
        while taken < steps:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:  # every agent stepped out: the next game
                    self.seed += 1
                    env.reset(seed=self.seed)
                continue
            allowed = np.flatnonzero(obs["action_mask"])
            index = int(allowed[rng.integers(len(allowed))])
            env.step(index)
            taken += 1
            decisions += index >= 54 or env.family == "tiles"
        return taken, decisions


class RLCardLoop:
    """Random play through RLCard's Dou Dizhu environment."""

    def __init__(self, seed: int):
        import rlcard

        self.env = rlcard.make("doudizhu", config={"seed": seed})
        self.rng = np.random.default_rng(seed)
        self.state, _ = self.env.reset()

    def run(self, steps: int) -> tuple[int, int]:
        env, rng = self.env, self.rng
        state = self.state
        for _ in range(steps):
            if env.is_over():
                state, _ = env.reset()
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.integers(len(legal))])
        self.state = state
        return steps, steps


def timed(loop: Any, steps: int) -> tuple[float, float]:
    """(steps/s, decisions/s) of one timed run."""
    start = time.perf_counter()
    taken, decisions = loop.run(steps)
    elapsed = time.perf_counter() - start
    return taken / elapsed, decisions / elapsed


def machine() -> str:
    """benchmarks/run.py's machine line, with the load average (this table runs alone)."""
    from run import machine as described

    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return described() + load


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def spread(values: list[float], digits: int = 0) -> str:
    fmt = f"{{:,.{digits}f}}"
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–" \
           f"{fmt.format(max(values))})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps per row per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 200 steps, 2 repeats")
    args = parser.parse_args(argv)
    steps, repeats = (200, 2) if args.quick else (args.steps, args.repeats)

    text_env = text_env_class()
    rows: dict[str, Callable[[int], Any]] = {}
    for game in GAMES:
        ruleset = rulesdsl.load(game)
        rows[f"{game}, before"] = lambda seed, rs=ruleset: OurLoop(text_env(rs), seed)
        rows[f"{game}, after"] = lambda seed, rs=ruleset: OurLoop(rulesdsl.env(rs), seed)
    rows["RLCard doudizhu env"] = RLCardLoop

    per_row: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    for make in rows.values():  # warm-up: per-ruleset caches, imports
        make(99).run(min(steps, 300))
    for repeat in range(repeats):
        for name, make in rows.items():
            # before and after play the same games: the same seeds in the same repeat
            per_row[name].append(timed(make(1000 * (repeat + 1)), steps))

    def ratio(top: str, bottom: str) -> list[float]:
        return [a[0] / b[0] for a, b in zip(per_row[top], per_row[bottom])]

    print(f"_env steps/s: medians of {repeats} repeats of {steps:,} steps per row (min–max); "
          f"{machine()}; commit {commit()}; {datetime.date.today()}_\n")
    print("| row | steps/s | µs/step | decisions/s |")
    print("|---|---|---|---|")
    for name, figures in per_row.items():
        rates = [f[0] for f in figures]
        print(f"| {name} | {spread(rates)} | {1e6 / statistics.median(rates):.1f} | "
              f"{spread([f[1] for f in figures])} |")
    print("\n| ratio (per repeat, then the median) | steps/s ratio |")
    print("|---|---|")
    for game in GAMES:
        print(f"| {game}: after ÷ before | {spread(ratio(f'{game}, after', f'{game}, before'), 2)}"
              " |")
    for game in GAMES:
        print(f"| {game} after ÷ RLCard doudizhu env | "
              f"{spread(ratio(f'{game}, after', 'RLCard doudizhu env'), 2)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
