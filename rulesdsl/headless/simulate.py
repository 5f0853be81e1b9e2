"""Simulating many games: statistics a variant designer wants, the same for any worker count.

Game i uses the seed derived from (seed, i); workers only change who plays which game,
and results are gathered in game order, so the numbers do not depend on `workers`.

Each game is boiled down where it is played (`_one`) to what the statistics need: the
returns, the agents' decisions per hand, and per hand what the engine's event log and
result say (rounds or tricks, patterns played and whether they took their round, the
dealer, the result's own fields, a tile win's scoring items). Nothing here names a game:
the names come from the log, the results and the ruleset. `summarise` turns the games into
the JSON summary with 95% confidence intervals; report.py shows it as tables.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter, OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..api import load
from ..errors import RulesdslError
from .agents import make_agents
from .logs import play_game
from .report import mean_summary, proportion


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7919) % (2**31)


# Per process (the parent, and each pool worker, which warms it once in its initializer):
# a ruleset is compiled once, not per game. Least recently used entries go past CACHE_SIZE.
CACHE_SIZE = 8
_LOADED: OrderedDict[tuple, Any] = OrderedDict()


def _ruleset(ref: str, players: int | None, options: tuple[tuple[str, Any], ...]) -> Any:
    key = (ref, players, options)
    ruleset = _LOADED.get(key)
    if ruleset is not None:
        _LOADED.move_to_end(key)
        return ruleset
    ruleset = load(ref)
    if players is not None or options:
        ruleset = ruleset.variant(ruleset, players=players, options=dict(options))
    _LOADED[key] = ruleset
    while len(_LOADED) > CACHE_SIZE:
        _LOADED.popitem(last=False)
    return ruleset


def _warm(ref: str, players: int | None, options: tuple[tuple[str, Any], ...]) -> None:
    """A pool worker's initializer: compile the ruleset before the first game arrives."""
    _ruleset(ref, players, options)


class _Tally:
    """A seat's agent, counting its decisions per hand (hand i: while i results exist) and
    noting the sides the state plays with (where the engine keeps them per hand)."""

    def __init__(self, agent: Any, decisions: Counter, sides: dict[int, list[list[int]]]):
        self.agent, self.name = agent, agent.name
        self.decisions, self.sides = decisions, sides

    def act(self, state: Any, rng: Any) -> Any:
        hand = len(state.results)
        self.decisions[hand] += 1
        sides = getattr(state, "sides", None)
        if sides:
            self.sides[hand] = [list(side) for side in sides]
        return self.agent.act(state, rng)

    def __getattr__(self, name: str) -> Any:
        if name == "agent":  # not set yet (a copy made without __init__)
            raise AttributeError(name)
        return getattr(self.agent, name)


# Events that count a hand's length, by the name of their unit.
UNITS = {"round": "rounds", "trick": "tricks", "discard": "discards"}
# A tile win's scoring as the engine explains it: one line per item, then the limit hands.
_ITEM_LINE = re.compile(r"^\s+(\S+)\s+(?:base|fan)\s+-?\d+ × -?\d+ = -?\d+\s*$")
_LIMIT_LINE = re.compile(r"^limit hand: (.+?) → total")


def _one(args: tuple) -> dict[str, Any]:
    ruleset_ref, agent_spec, seed, index, hands, players, options = args
    ruleset = _ruleset(ruleset_ref, players, options)
    decisions: Counter = Counter()
    sides: dict[int, list[list[int]]] = {}
    agents = [_Tally(a, decisions, sides) for a in make_agents(agent_spec, ruleset.players)]
    state = play_game(ruleset, game_seed(seed, index), agents, hands)
    records, basis = _hand_records(ruleset, state, decisions, sides)
    return {"returns": state.returns(), "decisions": sum(decisions.values()),
            "hands": records, "basis": basis}


def _hand_records(ruleset: Any, state: Any, decisions: Counter,
                  sides: dict[int, list[list[int]]]) -> tuple[list[dict[str, Any]], str | None]:
    """Per hand: decisions, length in rounds/tricks/discards, the dealer, the patterns
    played (or led) and how often they took their round (or trick), and the result."""
    results = state.results
    records: list[dict[str, Any]] = [
        {"decisions": decisions.get(i, 0), "units": {}, "plays": {}, "dealer": None,
         "sides": sides.get(i)} for i in range(len(results))]
    basis = None
    group: list[dict[str, Any]] = []  # the plays of the round or trick under way
    for e in state.log:
        i = e.get("hand", 0)
        if not 0 <= i < len(records):
            continue
        rec, kind = records[i], e["type"]
        if kind in UNITS:
            rec["units"][UNITS[kind]] = rec["units"].get(UNITS[kind], 0) + 1
        dealer = e.get("dealer")
        if type(dealer) is int:
            rec["dealer"] = dealer
        if kind == "play":
            group.append(e)
            if e.get("pattern"):  # each play read as a pattern: every play counts
                basis = "plays"
                rec["plays"].setdefault(e["pattern"], [0, 0])[0] += 1
        elif kind in ("round", "trick"):
            plays = rec["plays"]
            if e.get("pattern") and group:
                # The event names its lead's pattern: a lead counts, and wins when the
                # leader takes it.
                basis = "leads"
                tally = plays.setdefault(e["pattern"], [0, 0])
                tally[0] += 1
                tally[1] += group[0]["seat"] == e["winner"]
            elif group and group[-1].get("pattern") and group[-1]["seat"] == e["winner"]:
                plays[group[-1]["pattern"]][1] += 1  # the play that took the round
            group = []
    item_names = {i.name for i in ruleset.scoring_items}
    limit_names = {lh.name for lh in ruleset.limit_hands}
    for rec, res in zip(records, results):
        hand_returns = res.get("returns", res.get("payments"))
        rec["returns"] = list(hand_returns) if hand_returns is not None else None
        rec["result"] = {k: v for k, v in res.items() if k not in ("type", "scores", "wins")}
        wins = res.get("wins") or ([res] if res.get("winner") is not None else [])
        rec["wins"] = [_win(w, item_names, limit_names) for w in wins]
    return records, basis


def _win(win: dict[str, Any], item_names: set[str], limit_names: set[str]) -> dict[str, Any]:
    """One tile win: the winner, self-drawn or not, its total, the items and limit hands
    its scoring names (read from the engine's explanation, kept only if the ruleset has
    an item or limit hand of that name)."""
    seat = win["winner"]
    text = (win.get("scores") or [None] * (seat + 1))[seat] or ""
    items, limits = [], []
    for line in text.splitlines():
        m = _ITEM_LINE.match(line)
        if m and m.group(1) in item_names and m.group(1) not in items:
            items.append(m.group(1))
        m = _LIMIT_LINE.match(line)
        if m:
            limits += [n.strip() for n in m.group(1).split(",") if n.strip() in limit_names]
    totals = win.get("totals")
    return {"seat": seat, "self_drawn": bool(win.get("self_drawn")),
            "total": totals[seat] if totals else None, "items": items, "limits": limits}


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
    remote = ray.remote(_batch)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    futures = [remote.remote(batch) for batch in batches(jobs, cpus)]
    # In submission order, batch by batch: the numbers match the local backends.
    done = (result for future in futures for result in ray.get(future))
    return list(_with_progress(done, len(jobs), show))


BATCHES_PER_CPU = 4  # a few per CPU: balanced, yet a task's overhead spread over many games


def batches(jobs: list[tuple], cpus: int) -> list[list[tuple]]:
    """The jobs in order, cut into at most BATCHES_PER_CPU × cpus contiguous batches of
    near-equal size (one task a game cost more in scheduling than the games took)."""
    count = max(1, min(len(jobs), BATCHES_PER_CPU * max(cpus, 1)))
    size, extra = divmod(len(jobs), count)
    out, start = [], 0
    for i in range(count):
        end = start + size + (i < extra)
        out.append(jobs[start:end])
        start = end
    return [b for b in out if b]


def _batch(jobs: list[tuple]) -> list[dict[str, Any]]:
    return [_one(job) for job in jobs]


def simulate(ruleset_ref: str, games: int, seed: int = 0, workers: int = 1,
             agents: str | None = None, hands: int | None = 1,
             progress: bool | None = None, backend: str = "local",
             players: int | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    chosen = tuple(sorted((options or {}).items()))
    ruleset = _ruleset(ruleset_ref, players, chosen)
    jobs = [(ruleset_ref, agents, seed, i, hands, players, chosen) for i in range(games)]
    show = sys.stderr.isatty() if progress is None else progress
    meta = {"seed": seed, "agents": agents or "random", "options": dict(chosen)}
    if backend == "ray":
        return summarise(ruleset, _ray_results(jobs, show), **meta)
    if workers <= 1:
        results = list(_with_progress(map(_one, jobs), games, show))
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_warm,
                                 initargs=(ruleset_ref, players, chosen)) as pool:
            results = list(_with_progress(pool.map(_one, jobs, chunksize=max(1, games // (
                workers * 8))), games, show))
    return summarise(ruleset, results, **meta)


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


# ------------------------------------------------------------------ the summary

def _side_won(returns: list[float], side: list[int]) -> bool:
    """A side wins when its members' summed return beats the other seats' summed return."""
    mine = sum(returns[s] for s in side)
    return mine > sum(x for s, x in enumerate(returns) if s not in side)


def _teams(ruleset: Any) -> list[list[int]]:
    return [[s for s in team if s < ruleset.players] for team in ruleset.teams]


def _dealer_side(ruleset: Any, hand: dict[str, Any]) -> list[int]:
    """The side holding the hand's dealer: from the sides the engine played with, else the
    ruleset's team, else the dealer alone."""
    dealer = hand["dealer"]
    for side in hand["sides"] or _teams(ruleset):
        if dealer in side:
            return side
    return [dealer]


def _sides(ruleset: Any, results: list[dict[str, Any]],
           hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    teams = _teams(ruleset)
    # The ruleset's teams, unless the engine played other sides (the dealer alone …).
    played = {tuple(map(tuple, sorted(h["sides"]))) for h in hands if h["sides"]}
    if any(len(t) > 1 for t in teams) and played <= {tuple(map(tuple, sorted(teams)))}:
        for t, team in enumerate(teams):
            won = sum(1 for r in results if _side_won(r["returns"], team))
            rows.append({"label": f"team {t} (seats {', '.join(map(str, team))})",
                         "seats": team, "per": "game", "wins": proportion(won, len(results))})
    dealt = [h for h in hands if h["dealer"] is not None and h["returns"] is not None]
    if dealt:
        won = sum(1 for h in dealt if _side_won(h["returns"], _dealer_side(ruleset, h)))
        rows.append({"label": "the dealer's side", "seats": None, "per": "hand",
                     "wins": proportion(won, len(dealt))})
    for row in rows:
        row["win_rate"] = row["wins"]["rate"]
    return rows


def _pattern_plays(ruleset: Any, results: list[dict[str, Any]],
                   hands: list[dict[str, Any]]) -> dict[str, Any] | None:
    basis = next((r["basis"] for r in results if r.get("basis")), None)
    if basis is None:
        return None
    tally: dict[str, list[int]] = {}
    for h in hands:
        for name, (played, won) in h["plays"].items():
            t = tally.setdefault(name, [0, 0])
            t[0] += played
            t[1] += won
    for pattern in ruleset.patterns:  # a pattern never played is worth seeing too
        tally.setdefault(pattern.name, [0, 0])
    total = sum(p for p, _ in tally.values())
    bombs = {p.name for p in ruleset.patterns if p.bomb}
    rows = [{"pattern": name, "plays": played, "bomb": name in bombs,
             "share": proportion(played, total), "wins": proportion(won, played)}
            for name, (played, won) in sorted(tally.items(), key=lambda kv: (-kv[1][0],
                                                                             kv[0]))]
    if basis == "plays":
        return {"counted": "plays", "won": "took the round", "rows": rows,
                "note": "every play counts; a play takes its round when all others pass "
                        "after it"}
    return {"counted": "leads", "won": "leader took the trick", "rows": rows,
            "note": "each trick's lead counts, as the pattern it was read as; it wins when "
                    "the leader takes the trick"}


def _all(hands: list[dict[str, Any]], key: str) -> list[Any] | None:
    """The result field `key` of every hand, or None when some hand lacks it."""
    values = [h["result"].get(key) for h in hands]
    return values if hands and all(v is not None for v in values) else None


def summarise(ruleset: Any, results: list[dict[str, Any]], seed: int = 0,
              agents: str | None = None,
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The games as JSON: every rate a `proportion` (k, n, rate, 95% Wilson interval),
    every sample a `mean_summary` (n, mean, sd, 95% t interval)."""
    players = ruleset.players
    n = len(results)
    hands = [h for r in results for h in r["hands"]]
    out: dict[str, Any] = {
        "ruleset": ruleset.id, "family": ruleset.family, "players": players,
        "options": dict(options or {}), "seed": seed, "agents": agents or "random",
        "games": n, "hands": len(hands)}
    orders = [h["result"]["order"] for h in hands if h["result"].get("order")]
    firsts = Counter(order[0] for order in orders)
    seats = []
    for s in range(players):
        rets = [r["returns"][s] for r in results]
        wins = proportion(sum(1 for x in rets if x > 0), n)
        seat: dict[str, Any] = {"seat": s, "win_rate": wins["rate"], "wins": wins,
                                "returns": mean_summary(rets)}
        if orders:
            seat["first_out"] = proportion(firsts[s], len(orders))
        seats.append(seat)
    out["seats"] = seats
    if orders:
        out["first_out_by_seat"] = {str(k): v for k, v in sorted(firsts.items())}
    out["sides"] = _sides(ruleset, results, hands)
    out["decisions_per_game"] = mean_summary([r["decisions"] for r in results])
    units = sorted({u for h in hands for u in h["units"]})
    out["hand_length"] = {"decisions": mean_summary([h["decisions"] for h in hands]),
                          **{u: mean_summary([h["units"].get(u, 0) for h in hands])
                             for u in units}}
    plays = _pattern_plays(ruleset, results, hands)
    out["patterns"] = {row["pattern"]: row["plays"] for row in plays["rows"]} if plays else {}
    if plays:
        out["pattern_plays"] = plays
    points: list[dict[str, Any]] = []
    rates: list[dict[str, Any]] = []
    _points_and_rates(ruleset, out, hands, points, rates)
    # What changes hands: a seat's |return| per game, averaged over the seats.
    points.append({"label": "stake: mean |return| per seat, per game",
                   "values": mean_summary([sum(abs(x) for x in r["returns"]) / players
                                           for r in results], quantiles=True)})
    out["points"], out["rates"] = points, rates
    return out


def _side_label(t: int, hands: list[dict[str, Any]], ruleset: Any) -> str:
    sides = [h["sides"] or _teams(ruleset) for h in hands]
    if all(s == sides[0] for s in sides) and t < len(sides[0]):
        return f"team {t} (seats {', '.join(map(str, sides[0][t]))})"
    dealt = [(h["dealer"], s) for h, s in zip(hands, sides) if t < len(s)]
    if len(dealt) == len(hands) and all(d is not None for d, _ in dealt):
        if all(d in s[t] for d, s in dealt):
            return "the dealer's side"
        if all(len(s) == 2 and d not in s[t] for d, s in dealt):
            return "the dealer's opponents"
    return f"side {t}"


def _points_and_rates(ruleset: Any, out: dict[str, Any], hands: list[dict[str, Any]],
                      points: list[dict[str, Any]], rates: list[dict[str, Any]]) -> None:
    """What the hands' results hold: points captured, level changes, tile wins."""
    nh = len(hands)
    defender = _all(hands, "defender_points")
    if defender is not None:
        out["defender_points"] = mean_summary(defender, quantiles=True)
        points.append({"label": "defender points", "values": out["defender_points"]})
    signed = _all(hands, "signed_levels")
    if signed is not None:
        out["level_changes"] = mean_summary(signed, quantiles=True)
        points.append({"label": "levels climbed (+ defenders, − dealer's side)",
                       "values": out["level_changes"]})
        out["dealer_side_held"] = proportion(sum(1 for x in signed if x <= 0), nh)
        rates.append({"label": "the defenders did not climb", "value":
                      out["dealer_side_held"]})
    kitty = _all(hands, "kitty_capture")
    if kitty is not None:
        out["kitty_captures"] = proportion(sum(1 for x in kitty if x), nh)
        rates.append({"label": "the kitty was captured", "value": out["kitty_captures"]})
    team_points = _all(hands, "team_points")
    if team_points is not None and ruleset.points:
        for t in range(min(len(tp) for tp in team_points)):
            points.append({"label": f"points taken, {_side_label(t, hands, ruleset)}",
                           "values": mean_summary([tp[t] for tp in team_points],
                                                  quantiles=True)})
    bombs = {row["pattern"] for row in (out.get("pattern_plays") or {}).get("rows", [])
             if row["bomb"]}
    if bombs:
        out["bombs"] = sum(out["patterns"][b] for b in bombs)
        rates.append({"label": "a bomb was played", "value": proportion(
            sum(1 for h in hands if bombs & set(h["plays"])), nh)})
    if any("winner" in h["result"] for h in hands):
        _tile_wins(ruleset, out, hands, points, rates)


def _tile_wins(ruleset: Any, out: dict[str, Any], hands: list[dict[str, Any]],
               points: list[dict[str, Any]], rates: list[dict[str, Any]]) -> None:
    nh = len(hands)
    wins = [w for h in hands for w in h["wins"]]
    won = sum(1 for h in hands if h["wins"])
    rates.append({"label": "someone won", "value": proportion(won, nh)})
    rates.append({"label": "drawn (no winner)", "value": proportion(nh - won, nh)})
    if any("exhausted" in h["result"] for h in hands):  # a hand won before says nothing
        rates.append({"label": "the wall ran out", "value": proportion(
            sum(1 for h in hands if h["result"].get("exhausted")), nh)})
    rates.append({"label": "self-drawn, of wins", "value": proportion(
        sum(1 for w in wins if w["self_drawn"]), len(wins))})
    totals = [w["total"] for w in wins if w["total"] is not None]
    out["winner_total"] = mean_summary(totals, quantiles=True)
    points.append({"label": "the winner's total", "values": out["winner_total"]})
    for key, defined, field in (
            ("scoring_items", [i.name for i in ruleset.scoring_items
                               if "winner" in i.for_], "items"),
            ("limit_hands", [lh.name for lh in ruleset.limit_hands
                             if "winner" in lh.for_], "limits")):
        seen = Counter(name for w in wins for name in w[field])
        names = list(dict.fromkeys([*defined, *seen]))
        out[key] = [{"name": name, "wins": proportion(seen[name], len(wins))}
                    for name in sorted(names, key=lambda nm: (-seen[nm], nm))]
