"""The ISMCTS agent against random and greedy tables, for every bundled ruleset.

    python benchmarks/ismcts.py                       # the README's table (~17 min here)
    python benchmarks/ismcts.py --games 4 --only guan-pai --only tractor
    python benchmarks/ismcts.py --iterations 100      # one budget for every family

For each ruleset (rulesets/*.yaml and rulesets/extra/*.yaml) and each opponent (random,
greedy): N one-hand games, seeds 1000.., the ISMCTS side moving round the table (seat
g mod players and, in a ruleset with fixed partnerships, its partners: each seat its own
agent, searching what it sees) and every other seat the opponent agent. A game is
won when the ISMCTS seat's return is above 0: its side climbed more levels (trick), its
settlement was positive (shedding, tiles); where returns stay 0 until a match is won
(levels in a shedding game), when its side climbed. The same games with a random agent in that
seat give the rate to beat ("random there"). Wilson 95% intervals; ms per decision is
the search's mean wall time over the seat's decisions with more than one legal action.
One process, one core.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulesdsl  # noqa: E402
from rulesdsl.headless.agents import GreedyAgent, RandomAgent  # noqa: E402
from rulesdsl.headless.ismcts import ISMCTSAgent  # noqa: E402
from rulesdsl.headless.logs import play_game  # noqa: E402
from rulesdsl.resources import bundled_rulesets  # noqa: E402

# Iterations a move per family: a trick rollout plays out ~100 moves of a long hand.
BUDGETS = {"trick": 20, "shedding": 40, "tiles": 200}
# Six seats and 216 cards: a rollout is ~270 moves (0.9 s a decision at 40); a
# wenling-mahjong rollout scores every win (its wild readings): 13 ms, against 4 ms.
SLOW = {"wenling-liujia-tong": 20, "wenling-mahjong": 100}
OPPONENTS = {"random": RandomAgent, "greedy": GreedyAgent}


class Timed:
    """An agent whose searched decisions (more than one legal action) are timed."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.name = agent, agent.name
        self.seconds = 0.0
        self.decisions = 0

    def act(self, state: Any, rng: random.Random) -> Any:
        searched = state.legal_actions().count() > 1
        start = time.perf_counter()
        action = self.agent.act(state, rng)
        if searched:
            self.seconds += time.perf_counter() - start
            self.decisions += 1
        return action


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins / n:.0%} ({lo:.0%}–{hi:.0%})"


def side_of(ruleset: Any, seat: int) -> list[int]:
    """The seats that play as one: the seat's fixed partnership, else the seat alone."""
    for team in ruleset.teams or ():
        if seat in team:
            return [s for s in team if s < ruleset.players]
    return [seat]


def play(ruleset: Any, seat_agent: Any, opponent: type, games: int) -> int:
    """Games won by `seat_agent` in seat g mod players and its partners, the others
    `opponent`."""
    n = ruleset.players
    won = 0
    for g in range(games):
        seat = g % n
        agents = [opponent() for _ in range(n)]
        for s in side_of(ruleset, seat):
            agents[s] = seat_agent
        state = play_game(ruleset, 1000 + g, agents, 1)
        won += is_won(ruleset, state, seat)
    return won


def is_won(ruleset: Any, state: Any, seat: int) -> bool:
    """The seat's return is above 0; in a match that settles only at its end (returns
    all 0 after one hand, levels climbed), its side is the one that climbed."""
    returns = state.returns()
    if any(returns) or not state.results or "climb" not in state.results[-1]:
        return returns[seat] > 0
    climb = state.results[-1]["climb"]
    return climb["levels"] > 0 and seat in ruleset.teams[climb["side"]]


def row(name: str, games: int, iterations: int | None) -> dict:
    ruleset = rulesdsl.load(name)
    budget = iterations or SLOW.get(name) or BUDGETS[ruleset.family]
    out = {"ruleset": name, "family": ruleset.family, "budget": budget, "games": games}
    timed = Timed(ISMCTSAgent(iterations=budget))
    start = time.perf_counter()
    for label, opponent in OPPONENTS.items():
        out[label] = play(ruleset, timed, opponent, games)
        out[f"{label} base"] = play(ruleset, RandomAgent(), opponent, games)
    out["ms"] = 1000 * timed.seconds / max(timed.decisions, 1)
    out["wall"] = time.perf_counter() - start
    return out


def _row(job: tuple[str, int, int | None]) -> dict:
    return row(*job)


def table(rows: list[dict]) -> str:
    lines = ["| ruleset | family | budget (iterations) | games | win vs random (95% CI) | "
             "random there | win vs greedy (95% CI) | random there | ms/decision |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        n = r["games"]
        lines.append(f"| {r['ruleset']} | {r['family']} | {r['budget']} | {n} | "
                     f"{rate(r['random'], n)} | {r['random base'] / n:.0%} | "
                     f"{rate(r['greedy'], n)} | {r['greedy base'] / n:.0%} | "
                     f"{r['ms']:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per opponent")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations a move for every ruleset (default: per family, "
                        + ", ".join(f"{k} {v}" for k, v in BUDGETS.items())
                        + "; " + ", ".join(f"{k} {v}" for k, v in SLOW.items()) + ")")
    parser.add_argument("--only", action="append", default=[], help="a ruleset id")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes, one ruleset each at a time (timings then share "
                        "the machine)")
    args = parser.parse_args(argv)
    names = args.only or sorted(bundled_rulesets())
    rows = []
    start = time.perf_counter()
    jobs = [(name, args.games, args.iterations) for name in names]
    with multiprocessing.Pool(max(1, args.workers)) as pool:
        for done in pool.imap(_row, jobs):
            rows.append(done)
            print(f"{done['ruleset']}: {done['wall']:.0f} s", file=sys.stderr, flush=True)
    print(table(rows))
    print(f"\n_{len(rows)} rulesets, {time.perf_counter() - start:.0f} s wall_")
    return 0


if __name__ == "__main__":
    sys.exit(main())
