"""Random self-play speed of every bundled ruleset, and follow legality in the trick games.

    python benchmarks/selfplay.py [--repeats 5] [--hands 3]

Prints medians (with min and max) over the repeats; one core, this machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import rulesdsl

GAMES = ["taicang-zhongxin-wu", "huzhou-hong-wu", "wenling-hong-wu", "wenling-duijia-tong",
         "wenling-liujia-tong", "wenling-biao-tong", "guan-pai", "dou-dizhu", "wenling-mahjong"]


def selfplay(name: str, repeats: int, hands: int) -> None:
    game = rulesdsl.load(name)
    rates = []
    for rep in range(repeats):
        start, decisions = time.perf_counter(), 0
        for h in range(hands):
            state = game.new_game(seed=1000 * rep + h, hands=1)
            rng = random.Random(h)
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
                decisions += 1
        elapsed = time.perf_counter() - start
        rates.append((hands / elapsed, decisions / elapsed))
    hps = [r[0] for r in rates]
    dps = [r[1] for r in rates]
    print(f"{name:22s} {statistics.median(hps):7.2f} hands/s (min {min(hps):.2f}, max "
          f"{max(hps):.2f})  {statistics.median(dps):7.0f} decisions/s  "
          f"{1e6 / statistics.median(dps):7.0f} µs/decision")


def follows(name: str) -> None:
    game = rulesdsl.load(name)
    rng = random.Random(5)
    positions = []
    for seed in range(40):
        state = game.new_game(seed=seed, hands=1)
        while not state.is_terminal():
            if state.phase == "play" and state.trick and len(state.trick[0][1]) >= 4:
                positions.append(state.clone())
            state.apply(state.sample_action(rng))
    legal, sample = [], []
    for st in positions[:300]:
        action = st.sample_action(rng)
        t = time.perf_counter()
        st.is_legal(action)
        legal.append(time.perf_counter() - t)
        t = time.perf_counter()
        st.sample_action(rng)
        sample.append(time.perf_counter() - t)

    def show(xs: list[float]) -> str:
        xs = sorted(xs)
        return f"median {statistics.median(xs) * 1e6:6.0f} µs, p99 " \
               f"{xs[int(len(xs) * 0.99) - 1] * 1e6:6.0f} µs"

    print(f"{name:22s} follows to leads of 4+ cards ({len(positions[:300])} positions): "
          f"is_legal {show(legal)}; sample_action {show(sample)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    for name in GAMES:
        selfplay(name, args.repeats, args.hands)
    for name in GAMES[:3]:
        follows(name)


if __name__ == "__main__":
    main()
