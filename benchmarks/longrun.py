"""A long API loop over one compiled ruleset (issue 22): is the cost per decision flat from
the first hand to the thousandth, and does memory stay bounded?

    python benchmarks/longrun.py [--hands 1000] [--block 100] [--only NAME ...]

Each ruleset runs in its own fresh process (so its RSS is its own): one `rulesdsl.load`,
then `--hands` seeded hands of random self-play through the public API (`new_game(seed=h,
hands=1)`, `sample_action`, `apply`). Per block of `--block` hands it records µs per
decision and the process's resident set (VmRSS). After the last block the first block's
hands are played again (same deals, same choices: each hand's agent is seeded by its
number), so the cost of the very same work is compared from cold and after `--hands`
hands: the replay over the first is the flatness (target: at most 1.10; single hands vary
by orders of magnitude with the wild cards dealt, so blocks of different hands do not
compare). The peak RSS is the target's other half (under 300 MB for every ruleset). One
core: run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]  # this tree's rulesdsl

RULESETS = ["wenling-duijia-tong", "wenling-liujia-tong", "wenling-biao-tong", "guan-pai",
            "dou-dizhu", "big-two", "guandan", "taicang-zhongxin-wu", "huzhou-hong-wu",
            "wenling-hong-wu", "tractor", "wenling-mahjong", "sichuan-mahjong"]
US_PER_DECISION = {"wenling-liujia-tong": 150.0, "wenling-duijia-tong": 60.0}  # over the run
FLAT = 1.10  # the replayed first block's µs/decision over the first, at most
RSS_MB = 300.0


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(name: str, hands: int, block: int) -> None:
    """Run in the worker process: one JSON line per block on stdout. The last block replays
    the first block's hands (same deals, same random choices: each hand's agent is seeded by
    the hand), so first and last compare the same work, cold and after `hands` hands."""
    from run import play_out

    import rulesdsl

    game = rulesdsl.load(name)
    blocks = [range(b * block, (b + 1) * block) for b in range(hands // block)]
    blocks.append(blocks[0])
    done = 0
    for seeds in blocks:
        decisions, start = 0, time.perf_counter()
        for h in seeds:
            decisions += play_out(game.new_game(seed=h, hands=1), random.Random(h))
        done += len(seeds)
        seconds = time.perf_counter() - start
        print(json.dumps({"hands": done, "us": seconds / decisions * 1e6, "rss": rss_mb(),
                          "seconds": seconds, "decisions": decisions}), flush=True)


def measure(name: str, hands: int, block: int, verbose: bool) -> dict:
    proc = subprocess.Popen([sys.executable, __file__, "--child", name, "--hands", str(hands),
                             "--block", str(block)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    blocks = []
    for line in proc.stdout:
        blocks.append(json.loads(line))
        if verbose:
            b = blocks[-1]
            print(f"  {name} hands {b['hands']:5d}: {b['us']:8.1f} µs/decision, "
                  f"RSS {b['rss']:6.0f} MB", file=sys.stderr, flush=True)
    if proc.wait() != 0 or not blocks:
        raise SystemExit(f"{name}: the worker failed")
    us = [b["us"] for b in blocks]
    run = blocks[:-1]  # the replay aside: every hand once
    mean = sum(b["seconds"] for b in run) / sum(b["decisions"] for b in run) * 1e6
    return {"name": name, "first": us[0], "last": us[-1], "replay": us[-1] / us[0], "mean": mean,
            "rss": max(b["rss"] for b in blocks), "blocks": blocks}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--block", type=int, default=100)
    ap.add_argument("--only", nargs="*", default=None, metavar="NAME")
    ap.add_argument("--quiet", action="store_true", help="no per-block progress")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.hands, args.block)
        return 0
    from run import machine

    names = args.only or RULESETS
    rows = [measure(n, args.hands, args.block, not args.quiet) for n in names]
    print(f"_{machine()}; {args.hands} hands per ruleset in blocks of {args.block}_\n")
    print("| ruleset | µs/decision over the run | target | first block | its replay at the end "
          "| replay ÷ first | peak RSS MB | flat (≤ 1.10) | RSS < 300 MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        goal = US_PER_DECISION.get(r["name"])
        met = "" if goal is None else f"≤ {goal:g}: {'met' if r['mean'] <= goal else 'NOT met'}"
        print(f"| {r['name']} | {r['mean']:.1f} | {met} | {r['first']:.1f} | {r['last']:.1f} | "
              f"{r['replay']:.2f} | {r['rss']:.0f} | {'yes' if r['replay'] <= FLAT else 'no'} | "
              f"{'yes' if r['rss'] < RSS_MB else 'no'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
