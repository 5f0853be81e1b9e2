"""Random self-play per decision, for comparing two trees of the engine on one machine.

    PYTHONPATH=<tree> python benchmarks/self_play.py dou-dizhu,guan-pai,big-two

For each ruleset: one warm-up game, then 30 one-hand games (6 for the six-seat Duijia and
Liujia) with a seeded random agent, three times; prints the median µs per decision. Run it
alternately on the two trees (medians and ratios: the machine is noisy). The figures and
ratios against peers for the README are `benchmarks/run.py`'s.
"""

from __future__ import annotations

import random
import sys
import time

import rulesdsl

SLOW = {"wenling-liujia-tong", "wenling-duijia-tong"}


def per_decision(name: str) -> float:
    rs = rulesdsl.api.load(name)
    rng = random.Random(1)
    state = rs.new_game(seed=0, hands=1)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    times = []
    for _ in range(3):
        n, start = 0, time.perf_counter()
        for game in range(6 if name in SLOW else 30):
            state = rs.new_game(seed=100 + game, hands=1)
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
                n += 1
        times.append((time.perf_counter() - start) / n * 1e6)
    return sorted(times)[1]


if __name__ == "__main__":
    for name in sys.argv[1].split(","):
        print(f"{name}: {per_decision(name):.1f} µs/decision")
