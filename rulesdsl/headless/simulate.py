"""Simulating many games: statistics a variant designer wants, the same for any worker count.

Game i uses the seed derived from (seed, i); workers only change who plays which game,
and results are gathered in game order, so the numbers do not depend on `workers`.
"""

from __future__ import annotations

import os
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..api import load
from ..errors import RulesdslError
from .agents import make_agents
from .logs import play_game


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7919) % (2**31)


_LOADED: dict[tuple, Any] = {}  # per process: a ruleset is compiled once, not per game


def _ruleset(ref: str, players: int | None, options: tuple[tuple[str, Any], ...]) -> Any:
    key = (ref, players, options)
    ruleset = _LOADED.get(key)
    if ruleset is None:
        ruleset = load(ref)
        if players is not None or options:
            ruleset = ruleset.variant(ruleset, players=players, options=dict(options))
        if len(_LOADED) > 16:
            _LOADED.clear()
        _LOADED[key] = ruleset
    return ruleset


def _one(args: tuple) -> dict[str, Any]:
    ruleset_ref, agent_spec, seed, index, hands, players, options = args
    ruleset = _ruleset(ruleset_ref, players, options)
    agents = make_agents(agent_spec, ruleset.players)
    s = game_seed(seed, index)
    state = play_game(ruleset, s, agents, hands)
    out: dict[str, Any] = {"returns": state.returns(),
                           "decisions": sum(1 for e in state.log if e["type"] in
                                            ("play", "pass", "discard", "bid", "declare",
                                             "claim", "bury")),
                           "results": state.results}
    # Patterns played: every play in the shedding family, every lead in the trick family.
    patterns: Counter = Counter(e.get("pattern") for e in state.log
                                if e["type"] in ("play", "trick") and e.get("pattern"))
    out["tricks"] = sum(1 for e in state.log if e["type"] == "trick")
    out["patterns"] = dict(patterns)
    return out


def _ray_results(jobs: list[tuple], show: bool) -> list[dict[str, Any]]:
    """The same jobs on a Ray cluster (RAY_ADDRESS, or a local instance)."""
    try:
        import ray
    except ImportError:
        raise RulesdslError("the ray backend needs Ray: pip install 'rulesdsl[ray]'") \
            from None
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS") or None, log_to_driver=False,
                 include_dashboard=False)
    remote = ray.remote(_one)
    futures = [remote.remote(job) for job in jobs]
    # ray.get keeps the submission order: the numbers match the local backends.
    return list(_with_progress(iter(ray.get(futures)), len(jobs), show))


def simulate(ruleset_ref: str, games: int, seed: int = 0, workers: int = 1,
             agents: str | None = None, hands: int | None = 1,
             progress: bool | None = None, backend: str = "local",
             players: int | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    chosen = tuple(sorted((options or {}).items()))
    ruleset = _ruleset(ruleset_ref, players, chosen)
    jobs = [(ruleset_ref, agents, seed, i, hands, players, chosen) for i in range(games)]
    show = sys.stderr.isatty() if progress is None else progress
    results: list[dict[str, Any]] = []
    if backend == "ray":
        return summarise(ruleset, _ray_results(jobs, show))
    if workers <= 1:
        iterator = map(_one, jobs)
        results = list(_with_progress(iterator, games, show))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(_with_progress(pool.map(_one, jobs, chunksize=max(1, games // (
                workers * 8))), games, show))
    return summarise(ruleset, results)


def _with_progress(iterator, total: int, show: bool):
    if not show:
        yield from iterator
        return
    try:
        from rich.progress import Progress
    except ImportError:  # rich is optional; plain output without a bar
        yield from iterator
        return
    with Progress(transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        for item in iterator:
            bar.advance(task)
            yield item


def _mean_sd(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"mean": 0.0, "sd": 0.0}
    return {"mean": round(statistics.fmean(xs), 4),
            "sd": round(statistics.pstdev(xs), 4) if len(xs) > 1 else 0.0}


def summarise(ruleset, results: list[dict[str, Any]]) -> dict[str, Any]:
    players = ruleset.players
    n = len(results)
    seats = []
    for s in range(players):
        rets = [r["returns"][s] for r in results]
        seats.append({"seat": s, "win_rate": round(sum(1 for x in rets if x > 0) / max(n, 1), 4),
                      "returns": _mean_sd(rets)})
    sides = []
    for t, team in enumerate(ruleset.teams):
        if len(team) < 2:
            continue
        rets = [r["returns"][team[0]] for r in results]
        sides.append({"side": t, "seats": team,
                      "win_rate": round(sum(1 for x in rets if x > 0) / max(n, 1), 4)})
    patterns: Counter = Counter()
    for r in results:
        patterns.update(r["patterns"])
    hand_results = [h for r in results for h in r["results"]]
    out: dict[str, Any] = {
        "ruleset": ruleset.id, "games": n, "hands": len(hand_results),
        "seats": seats, "sides": sides,
        "decisions_per_game": _mean_sd([r["decisions"] for r in results]),
        "patterns": dict(patterns.most_common()),
    }
    if ruleset.family == "trick":
        out["defender_points"] = _mean_sd([h["defender_points"] for h in hand_results])
        out["dealer_side_held"] = round(sum(1 for h in hand_results if h["signed_levels"] <= 0)
                                        / max(len(hand_results), 1), 4)
        out["level_changes"] = _mean_sd([h["signed_levels"] for h in hand_results])
        out["kitty_captures"] = sum(1 for h in hand_results if h.get("kitty_capture"))
        out["tricks_per_hand"] = round(sum(r["tricks"] for r in results)
                                       / max(len(hand_results), 1), 2)
    elif ruleset.family == "shedding":
        firsts = Counter(h["order"][0] for h in hand_results if h.get("order"))
        out["first_out_by_seat"] = {str(k): v for k, v in sorted(firsts.items())}
        bombs = {p.name for p in ruleset.patterns if p.bomb}
        out["bombs"] = sum(n for name, n in patterns.items() if name in bombs)
        out["payouts"] = _mean_sd([abs(x) for r in results for x in r["returns"]])
        dealt = [h for h in hand_results if h.get("dealer") is not None]
        if dealt:
            # The bid winner's success: their side came out ahead in the hand.
            out["dealer_side_success"] = round(sum(1 for h in dealt if h["returns"][
                h["dealer"]] > 0) / len(dealt), 4)
    else:
        won = [h for h in hand_results if h.get("winner") is not None]
        out["win_rate"] = round(len(won) / max(len(hand_results), 1), 4)
        out["exhausted"] = sum(1 for h in hand_results if h.get("exhausted"))
        out["winner_total"] = _mean_sd([h["totals"][h["winner"]] for h in won])
    return out
