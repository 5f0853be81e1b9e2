"""The benchmark suite of issue 7: one command, one table, every figure from the same run.

    python benchmarks/run.py [--repeats 5] [--quick] [--only SECTION ...] [--markdown]

Sections (see benchmarks/README.md for what each row measures):
  selfplay   random self-play of every bundled ruleset: hands/s, decisions/s, µs/decision
  legality   is_legal and sample_action µs on positions from random games, every ruleset
  follow     the same on follows to 6-, 8-, 10- and 12-card leads in the 3-deck trick games
  enumerate  list(legal_actions()) µs in the shedding games, with the median action count
  mahjong    win-shape check µs with 0-4 wilds; score_hand µs per winning hand
  validate   `rulesdsl validate rulesets/`, wall time of a cold process
  peers      Dou Dizhu against RLCard's loop (with and without observations), a
             hand-written plain-Python Dou Dizhu and OpenSpiel's; RLCard's mahjong loop;
             the mahjong package's is_agari
The last rows compare us with the peers and check every target of the issue.

Every figure is the median over the repeats with the min and max; a repeat runs the whole
workload (the same positions or hands each time). Only the public API is used, so the
engines' internals may change freely. One core: run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulesdsl
from rulesdsl.engine import kernels

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_win_shape import random_counts  # noqa: E402  (the same random hands)
from peers.handwritten_doudizhu import play_hand  # noqa: E402  (the calibration peer)

ROOT = Path(__file__).resolve().parent.parent

# The seed games, then the games beyond the seeds (tractor: standard 升级; big-two and
# guandan: climbing games reading suits; sichuan-mahjong), each with its own rows.
TRICK = ["taicang-zhongxin-wu", "huzhou-hong-wu", "wenling-hong-wu", "tractor"]
THREE_DECK = ["taicang-zhongxin-wu", "huzhou-hong-wu"]
SHEDDING = ["wenling-duijia-tong", "wenling-liujia-tong", "wenling-biao-tong", "guan-pai",
            "dou-dizhu", "big-two", "guandan"]
TILES = ["wenling-mahjong", "sichuan-mahjong"]
RULESETS = TRICK + SHEDDING + TILES
LEAD_SIZES = (6, 8, 10, 12)
SECTIONS = ("selfplay", "legality", "follow", "enumerate", "mahjong", "validate", "peers")

# The targets, checked in the last rows.
FOLLOW_IS_LEGAL_US = 50.0
FOLLOW_SAMPLE_US = 200.0
VALIDATE_S = 1.0
DOUDIZHU_VS_RLCARD = 4.0
DOUDIZHU_VS_RLCARD_BARE = 2.0  # RLCard's loop without building observations
DOUDIZHU_VS_HANDWRITTEN = 1.3  # ours ÷ the hand-written plain-Python peer, at most
DOUDIZHU_VS_OPENSPIEL = 3.0  # ours ÷ OpenSpiel's C++ game driven from Python (moonshot)
MAHJONG_VS_RLCARD = 1 / 3
AGARI_SPEEDUP = 2.0
FOUR_WILDS_COST = 3.0


@dataclass
class Sizes:
    """How much work each section does; --quick shrinks everything to a smoke run."""

    hands: int = 5  # self-play hands per repeat and ruleset
    positions: int = 80  # positions per ruleset for is_legal / sample_action / enumeration
    follows: int = 60  # follow positions per (3-deck game, lead size)
    follow_seconds: float = 60.0  # time spent searching deals for long leads, per game
    shape_hands: int = 2000  # hands per win-shape row
    score_hands: int = 40  # winning hands per scoring row
    validate_runs: int | None = None  # cold processes; None: one per repeat
    rlcard_games: int = 100  # games a side per repeat in the paired peer loops

    @classmethod
    def quick(cls) -> Sizes:
        return cls(hands=1, positions=4, follows=2, follow_seconds=2.0, shape_hands=100,
                   score_hands=2, validate_runs=1, rlcard_games=1)


@dataclass
class Row:
    section: str
    name: str
    unit: str = ""
    values: list[float] = field(default_factory=list)  # one per repeat
    detail: str = ""
    target: str = ""
    met: bool | None = None  # None: no target on this row, or not measurable

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None


# ---------------------------------------------------------------- measuring helpers


def quantile(xs: Sequence[float], q: float) -> float:
    """Nearest-rank quantile (q=0.99: p99)."""
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))]


def per_call_us(fn: Callable[[Any], Any], items: Sequence[Any]) -> float:
    """Mean µs of fn over items, timed as one batch (for calls of a few µs)."""
    start = time.perf_counter()
    for item in items:
        fn(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def timed_us(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e6


def play_out(state: Any, rng: random.Random) -> int:
    """Random self-play to the end; the number of decisions taken."""
    n = 0
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        n += 1
    return n


# ---------------------------------------------------------------- our engines


def selfplay(name: str, sz: Sizes, repeats: int) -> list[Row]:
    game = rulesdsl.load(name)
    play_out(game.new_game(seed=10**6, hands=1), random.Random(0))  # warm per-ruleset caches
    hps, dps, usd = [], [], []
    for rep in range(repeats):
        start, decisions = time.perf_counter(), 0
        for h in range(sz.hands):
            decisions += play_out(game.new_game(seed=1000 * rep + h, hands=1), random.Random(h))
        elapsed = time.perf_counter() - start
        hps.append(sz.hands / elapsed)
        dps.append(decisions / elapsed)
        usd.append(elapsed / decisions * 1e6)
    detail = f"{plural(sz.hands, 'hand')}/repeat after a warm-up hand"
    return [Row("selfplay", f"{name}: hands/s", "hands/s", hps, detail),
            Row("selfplay", f"{name}: decisions/s", "dec/s", dps, detail),
            Row("selfplay", f"{name}: µs/decision", "µs", usd, detail)]


_positions: dict[str, list[Any]] = {}


def random_positions(name: str, count: int) -> list[Any]:
    """`count` decision points of random games (every 5th decision on average), cloned."""
    if name in _positions:
        return _positions[name]
    game = rulesdsl.load(name)
    rng = random.Random(7)
    found: list[Any] = []
    for seed in range(max(count, 40)):
        state = game.new_game(seed=seed, hands=1)
        while not state.is_terminal() and len(found) < count:
            if rng.random() < 0.2:
                found.append(state.clone())
            state.apply(state.sample_action(rng))
        if len(found) >= count:
            break
    _positions[name] = found
    return found


def legality_rows(section: str, label: str, positions: list[Any], repeats: int,
                  targets: tuple[float, float] | None = None) -> list[Row]:
    """is_legal (of an action sample_action drew there) and sample_action, each on a fresh
    clone of every position, so no per-position cache of an earlier call is reused."""
    actions = [p.clone().sample_action(random.Random(i)) for i, p in enumerate(positions)]
    legal_med, legal_p99, sample_med, sample_p99 = [], [], [], []
    for rep in range(repeats):
        rng = random.Random(rep)
        legal, sample = [], []
        for pos, action in zip(positions, actions):
            st = pos.clone()
            legal.append(timed_us(lambda st=st, a=action: st.is_legal(a)))
            st = pos.clone()
            sample.append(timed_us(lambda st=st, r=rng: st.sample_action(r)))
        legal_med.append(statistics.median(legal))
        legal_p99.append(quantile(legal, 0.99))
        sample_med.append(statistics.median(sample))
        sample_p99.append(quantile(sample, 0.99))
    n = f"{len(positions)} positions"
    rows = [Row(section, f"{label}: is_legal", "µs", legal_med,
                f"{n}, p99 {fmt(statistics.median(legal_p99))} µs"),
            Row(section, f"{label}: sample_action", "µs", sample_med,
                f"{n}, p99 {fmt(statistics.median(sample_p99))} µs")]
    if targets:
        for row, limit in zip(rows, targets):
            row.target = f"median ≤ {limit:g} µs"
            row.met = statistics.median(row.values) <= limit
    return rows


def legality(name: str, sz: Sizes, repeats: int) -> list[Row]:
    return legality_rows("legality", name, random_positions(name, sz.positions), repeats)


_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def lead_candidates(obs: dict[str, Any], n: int) -> Iterator[str]:
    """n-card leads of one plain suit from the hand, the likeliest to stand first: runs of
    pairs or triples (tractors; the level rank left out of the order), throws of the
    highest pairs and triples only (a single is easily beaten, which fails a throw), the
    suit's top n cards. Only the engine decides what is legal; these are guesses."""
    level, trump = str(obs.get("level")), str(obs.get("trump"))
    order = [r for r in _RANKS if r != level]
    suits: dict[str, Counter[str]] = {}
    for card in str(obs["hand"]).split():
        suit, rank = card[0], card[1:]
        if rank in order and suit != trump:
            suits.setdefault(suit, Counter())[rank] += 1
    for suit, held in suits.items():
        if sum(held.values()) < n:
            continue
        for unit in (2, 3):
            length = n // unit
            for i in range(len(order) - length + 1):
                window = order[i:i + length]
                if n % unit == 0 and all(held[r] >= unit for r in window):
                    yield " ".join(f"{suit}{r}" for r in window for _ in range(unit))
        top = [r for r in reversed(order) for _ in range(held[r])]
        groups, left = [], n
        for r in reversed(order):
            take = min(held[r], left, 3)
            if take >= 2 and left - take != 1:
                groups += [r] * take
                left -= take
        if not left:
            yield " ".join(f"{suit}{r}" for r in groups)
        yield " ".join(f"{suit}{r}" for r in top[:n])


def long_lead_follows(name: str, sz: Sizes) -> dict[int, list[Any]]:
    """Follow positions to leads of each size in LEAD_SIZES. Random players rarely lead
    long, so deals are screened: a random deal and auction up to the first lead, where a
    candidate lead of a still-wanted size is played if it is legal and stays that long (a
    failed throw shrinks); without one the deal is dropped. While 6- and 8-card follows
    are still wanted, a deal that got one is played on randomly, forcing such leads at
    later leads too (smaller hands); else it ends with its first trick. The followers
    play randomly."""
    game = rulesdsl.load(name)
    rng = random.Random(11)
    found: dict[int, list[Any]] = {n: [] for n in LEAD_SIZES}
    deadline = time.perf_counter() + sz.follow_seconds
    for seed in range(100_000):
        if time.perf_counter() > deadline or all(len(v) >= sz.follows
                                                 for v in found.values()):
            break
        state = game.new_game(seed=seed, hands=1)
        while not state.is_terminal() and (state.phase != "play" or state.trick):
            state.apply(state.sample_action(rng))
        forced = forced_lead(state, found, sz.follows)
        if forced is state:
            continue
        # Play on (later leads are shorter) only while short leads are still wanted.
        play_on = any(len(found[n]) < sz.follows for n in LEAD_SIZES[:2])
        state = forced
        while not state.is_terminal() and (play_on or state.trick):
            if state.phase == "play" and not state.trick:
                state = forced_lead(state, found, sz.follows)
            if state.phase == "play" and state.trick:
                size = len(state.trick[0][1])
                if size in found and len(found[size]) < sz.follows:
                    found[size].append(state.clone())
            state.apply(state.sample_action(rng))
    return found


def forced_lead(state: Any, found: dict[int, list[Any]], want: int) -> Any:
    """The state after a wanted-size lead, or the state unchanged when none works."""
    obs = state.observation(state.current_player)
    for n in sorted((n for n in found if len(found[n]) < want), key=lambda n: len(found[n])):
        for text in lead_candidates(obs, n):
            if not state.is_legal(text):
                continue
            after = state.clone()
            after.apply(text)
            if after.trick and len(after.trick[0][1]) == n:
                return after
    return state


def follow(name: str, sz: Sizes, repeats: int) -> list[Row]:
    rows: list[Row] = []
    for n, positions in long_lead_follows(name, sz).items():
        label = f"{name}: follow {n}-card lead"
        if not positions:
            rows.append(Row("follow", label, "µs", [], "no position found",
                            f"median ≤ {FOLLOW_IS_LEGAL_US:g} µs"))
            continue
        rows += legality_rows("follow", label, positions, repeats,
                              (FOLLOW_IS_LEGAL_US, FOLLOW_SAMPLE_US))
    return rows


def enumerate_actions(name: str, sz: Sizes, repeats: int) -> list[Row]:
    positions = random_positions(name, sz.positions)
    counts = [len(list(p.clone().legal_actions())) for p in positions]
    medians, p99s = [], []
    for _ in range(repeats):
        times = []
        for pos in positions:
            st = pos.clone()
            times.append(timed_us(lambda st=st: list(st.legal_actions())))
        medians.append(statistics.median(times))
        p99s.append(quantile(times, 0.99))
    return [Row("enumerate", f"{name}: list(legal_actions())", "µs", medians,
                f"{len(positions)} positions, p99 {fmt(statistics.median(p99s))} µs, "
                f"median {statistics.median(counts):g} actions (max {max(counts)})")]


# ---------------------------------------------------------------- tiles


_shape_hands: dict[int, list[list[int]]] = {}


def shape_hands(wilds: int, count: int) -> list[list[int]]:
    """The same random hands for our check and for is_agari (14 tiles, wilds included)."""
    if wilds not in _shape_hands:
        rng = random.Random(2024 + wilds)
        drawn = (random_counts(rng, 14 - wilds) for _ in range(3 * count))
        _shape_hands[wilds] = [h for h in drawn if max(h) <= 4][:count]  # as in play
    return _shape_hands[wilds]


def win_shape(sz: Sizes, repeats: int) -> list[Row]:
    from rulesdsl.engine.tiles.shapes import WinShape, suit_keys

    shape = WinShape(4, 1, {"chow", "pung", "kong"})
    rows = []
    for wilds in range(5):
        hands = shape_hands(wilds, sz.shape_hands)
        wins = sum(shape.can_win(h, wilds, 0) for h in hands)  # also warms the tables
        values = [per_call_us(lambda h, w=wilds: shape.can_win(h, w, 0), hands)
                  for _ in range(repeats)]
        rows.append(Row("mahjong", f"WinShape.can_win, {plural(wilds, 'wild')}", "µs", values,
                        f"{len(hands)} hands of 14 tiles, {wins} win"))
        keys = [suit_keys(h) for h in hands]  # the group keys a state keeps per hand
        for k in keys:  # warm the int-keyed tables too
            shape.can_win_keys(k, wilds)
        values = [per_call_us(lambda k, w=wilds: shape.can_win_keys(k, w), keys)
                  for _ in range(repeats)]
        rows.append(Row("mahjong", f"WinShape.can_win_keys, {plural(wilds, 'wild')}", "µs",
                        values, "the same hands as group keys (the in-play check)"))
    return rows


def winning_hands(rng: random.Random, wilds: int, count: int) -> list[tuple[Any, int]]:
    """Constructed complete Wenling hands (5 sets and a pair from the suits and winds,
    ≤ 4 copies a kind), `wilds` of their tiles replaced by copies of the turned tile,
    which are wild; the last tile is the winning one. Returns (ScoringHand, turned)."""
    from rulesdsl.engine.tiles.hand import ScoringHand

    out = []
    while len(out) < count:
        turned = rng.randrange(27)
        left = [0 if k == turned else 4 for k in range(31)]
        tiles: list[int] = []
        pair = rng.choice([k for k in range(31) if left[k] >= 2])
        left[pair] -= 2
        tiles += [pair, pair]
        for _ in range(5):
            chows = [k for k in range(27) if k % 9 < 7 and min(left[k:k + 3]) > 0]
            if chows and rng.random() < 0.6:
                k = rng.choice(chows)
                set_tiles = [k, k + 1, k + 2]
            else:
                k = rng.choice([k for k in range(31) if left[k] >= 3])
                set_tiles = [k] * 3
            for t in set_tiles:
                left[t] -= 1
            tiles += set_tiles
        for i in rng.sample(range(len(tiles)), wilds):
            tiles[i] = turned  # at most 3: the fourth copy is the turned-up tile
        rng.shuffle(tiles)
        hand = ScoringHand(concealed=tiles[:-1], winner=True, win_tile=tiles[-1],
                           self_drawn=rng.random() < 0.5, seat_wind=27 + rng.randrange(4))
        out.append((hand, turned))
    return out


def scoring(sz: Sizes, repeats: int) -> list[Row]:
    from rulesdsl.engine.tiles.scoring import score_hand

    ruleset = rulesdsl.load("wenling-mahjong")
    rows = []
    rng = random.Random(3)
    for wilds in range(4):
        hands = winning_hands(rng, wilds, sz.score_hands)
        scores = [score_hand(ruleset, h, {"turned": t}) for h, t in hands]  # warm
        values = [per_call_us(lambda ht: score_hand(ruleset, ht[0], {"turned": ht[1]}),
                              hands) for _ in range(repeats)]
        wins = sum(s.wins for s in scores)
        readings = statistics.median(s.readings for s in scores)
        rows.append(Row("mahjong", f"wenling-mahjong: score_hand, {plural(wilds, 'wild')}", "µs",
                        values, f"{len(hands)} constructed winners ({wins} scored as won), "
                        f"median {readings:g} readings"))
    return rows


def mahjong(sz: Sizes, repeats: int) -> list[Row]:
    return win_shape(sz, repeats) + scoring(sz, repeats)


# ---------------------------------------------------------------- validate


def validate(sz: Sizes, repeats: int) -> list[Row]:
    script = Path(sys.executable).parent / "rulesdsl"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "rulesdsl"]
    command += ["validate", "rulesets/"]
    files = len(list((ROOT / "rulesets").rglob("*.yaml")))
    # A user's second run: bytecode written (even where PYTHONDONTWRITEBYTECODE is set,
    # into a cache of its own, not the tree) and the parsed expressions cached.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "rulesdsl-bench-pycache")
    subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)  # warm-up
    # The default shares the files among one worker per CPU (on Linux); -j 1 is one
    # process, for comparison (no target). The two alternate, run by run.
    runs: dict[str, list[float]] = {"": [], "-j 1": []}
    codes = set()
    for _ in range(sz.validate_runs or repeats):
        for jobs, values in runs.items():
            start = time.perf_counter()
            done = subprocess.run(command + jobs.split(), cwd=ROOT, capture_output=True,
                                  text=True, env=env)
            values.append(time.perf_counter() - start)
            codes.add(done.returncode)
    ok = codes == {0}
    detail = f"{files} files, {len(runs[''])} cold process(es)" + \
        ("" if ok else f", EXIT CODES {sorted(codes)}")
    return [Row("validate", "rulesdsl validate rulesets/ (cold process)", "s", runs[""],
                f"{detail}, a worker per CPU ({os.cpu_count()})", f"< {VALIDATE_S:g} s",
                ok and statistics.median(runs[""]) < VALIDATE_S),
            Row("validate", "rulesdsl validate -j 1 rulesets/ (cold process)", "s",
                runs["-j 1"], f"{detail}, in one process")]


# ---------------------------------------------------------------- peers


def not_installed(name: str, what: str) -> Row:
    return Row("peers", name, "", [], f"{what} not installed")


def rlcard_doudizhu(game: Any, np_rng: Any, rng: random.Random) -> int:
    game.np_random = np_rng
    state, _ = game.init_game()
    n = 0
    while not game.is_over():
        actions = state["actions"]
        state, _ = game.step(actions[rng.randrange(len(actions))])
        n += 1
    return n


def rlcard_no_observation(game_class: type) -> type:
    """RLCard's DoudizhuGame whose get_state lists the legal actions only: the loop
    without building observations (the other seats' hands, the public record)."""

    class NoObservation(game_class):
        def get_state(self, player_id: int) -> dict[str, Any]:
            if self.is_over():
                return {"actions": []}
            player = self.players[player_id]
            return {"actions": list(player.available_actions(self.round.greater_player,
                                                             self.judger))}

    return NoObservation


def openspiel_doudizhu(game: Any, rng: random.Random) -> int:
    """One random self-play game of OpenSpiel's dou_dizhu: its decisions. The deal is 52
    chance nodes with uniform outcomes (as checked when the peer was added), drawn as
    uniformly as the players' actions; only the players' actions count as decisions."""
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        if not state.is_chance_node():
            n += 1
        state.apply_action(actions[rng.randrange(len(actions))])
    return n


def rlcard_mahjong(game: Any, np_rng: Any, rng: random.Random) -> int:
    game.np_random = np_rng
    game.init_game()
    n = 0
    while not game.is_over():
        legal = game.get_legal_actions(game.get_state(game.round.current_player))
        game.step(legal[rng.randrange(len(legal))])
        n += 1
    return n


def our_loop(name: str) -> Callable[[int], int]:
    """One random self-play hand of a bundled ruleset per call (seeded): its decisions."""
    game = rulesdsl.load(name)
    play_out(game.new_game(seed=10**6, hands=1), random.Random(0))  # warm per-ruleset caches
    return lambda seed: play_out(game.new_game(seed=seed, hands=1), random.Random(seed))


def interleaved(loops: Sequence[Callable[[int], int]], games: int,
                repeats: int) -> list[list[float]]:
    """µs per decision of every loop, one batch of `games` games of each in turn within
    every repeat, so a change in the machine's load hits every side of each ratio alike."""
    out: list[list[float]] = [[] for _ in loops]
    for rep in range(repeats):
        for loop, values in zip(loops, out):
            start, decisions = time.perf_counter(), 0
            for i in range(games):
                decisions += loop(1000 * rep + i)
            values.append((time.perf_counter() - start) / decisions * 1e6)
    return out


def paired(ours: Callable[[int], int], theirs: Callable[[int], int], games: int,
           repeats: int) -> tuple[list[float], list[float]]:
    """µs per decision of both loops, alternated batch by batch within every repeat."""
    mine, peer = interleaved([ours, theirs], games, repeats)
    return mine, peer


def doudizhu_peers(sz: Sizes, repeats: int) -> list[Row]:
    """Our dou-dizhu self-play and every Dou Dizhu peer installed, one batch of each per
    repeat in turn: RLCard's loop, the same without observations, the hand-written
    plain-Python peer (benchmarks/peers/handwritten_doudizhu.py) and OpenSpiel's C++ game
    driven from Python. Every loop: a fresh seeded game, a uniform pick among the legal
    actions until the end, after a warm-up game."""
    games = f"{plural(sz.rlcard_games, 'game')} a loop per repeat, a batch of each in turn"
    rows: list[Row] = []
    loops: list[tuple[str, Callable[[int], int]]] = [
        ("dou-dizhu (paired): µs/decision", our_loop("dou-dizhu"))]
    try:
        import numpy as np
        from rlcard.games.doudizhu.game import DoudizhuGame
    except ImportError:
        rows += [not_installed("RLCard Dou Dizhu: µs/decision", "rlcard"),
                 not_installed("RLCard Dou Dizhu, no observations: µs/decision", "rlcard")]
    else:
        for label, make in (("RLCard Dou Dizhu: µs/decision", DoudizhuGame),
                            ("RLCard Dou Dizhu, no observations: µs/decision",
                             rlcard_no_observation(DoudizhuGame))):
            game = make()
            rlcard_doudizhu(game, np.random.RandomState(10**6), random.Random(0))  # warm-up

            def rlcard(seed: int, g: Any = game) -> int:
                return rlcard_doudizhu(g, np.random.RandomState(seed), random.Random(seed))

            loops.append((label, rlcard))
    play_hand(10**6)  # warm-up
    loops.append(("hand-written Dou Dizhu (plain Python): µs/decision",
                  lambda seed: play_hand(seed)[0]))
    try:
        import pyspiel
    except ImportError:
        rows.append(not_installed("OpenSpiel Dou Dizhu: µs/decision", "open_spiel"))
    else:
        if "dou_dizhu" not in pyspiel.registered_names():
            rows.append(Row("peers", "OpenSpiel Dou Dizhu: µs/decision", "", [],
                            "this OpenSpiel has no dou_dizhu game"))
        else:
            spiel = pyspiel.load_game("dou_dizhu")
            openspiel_doudizhu(spiel, random.Random(0))  # warm-up
            loops.append(("OpenSpiel Dou Dizhu: µs/decision",
                          lambda seed: openspiel_doudizhu(spiel, random.Random(seed))))
    values = interleaved([loop for _, loop in loops], sz.rlcard_games, repeats)
    measured = [Row("peers", label, "µs", v, games) for (label, _), v in zip(loops, values)]
    return measured + rows


def peers(sz: Sizes, repeats: int) -> list[Row]:
    rows = doudizhu_peers(sz, repeats)
    try:
        import numpy as np
        from rlcard.games.mahjong.game import MahjongGame
    except ImportError:
        rows.append(not_installed("RLCard mahjong: µs/decision", "rlcard"))
    else:
        games = f"{plural(sz.rlcard_games, 'game')} a side per repeat, alternating batches"
        peer_game = MahjongGame()
        rlcard_mahjong(peer_game, np.random.RandomState(10**6), random.Random(0))  # warm-up

        def theirs(seed: int, g: Any = peer_game) -> int:
            return rlcard_mahjong(g, np.random.RandomState(seed), random.Random(seed))

        mine, peer = paired(our_loop("wenling-mahjong"), theirs, sz.rlcard_games, repeats)
        rows += [Row("peers", "wenling-mahjong (paired): µs/decision", "µs", mine, games),
                 Row("peers", "RLCard mahjong: µs/decision", "µs", peer, games)]
    try:
        from mahjong.agari import Agari
    except ImportError:
        rows.append(not_installed("mahjong Agari.is_agari", "mahjong"))
    else:
        agari = Agari()
        hands = shape_hands(0, sz.shape_hands)
        values = [per_call_us(agari.is_agari, hands) for _ in range(repeats)]
        rows.append(Row("peers", "mahjong Agari.is_agari", "µs", values,
                        f"the {len(hands)} 0-wild hands of WinShape.can_win"))
    return rows


# ---------------------------------------------------------------- targets


def ratio_row(rows: list[Row], name: str, top: str, bottom: str, target: str,
              ok: Callable[[float], bool]) -> Row:
    """top ÷ bottom per repeat (the same repeat index measured both), median/min/max."""
    by = {r.name: r for r in rows}
    a, b = by.get(top), by.get(bottom)
    if not a or not b or not a.values or not b.values:
        return Row("targets", name, "×", [], "not measured in this run", target)
    values = [x / y for x, y in zip(a.values, b.values)]
    return Row("targets", name, "×", values, f"{top} ÷ {bottom}", target,
               ok(statistics.median(values)))


def targets(rows: list[Row]) -> list[Row]:
    out = [
        ratio_row(rows, "dou-dizhu decisions/s vs RLCard (RLCard µs ÷ ours)",
                  "RLCard Dou Dizhu: µs/decision", "dou-dizhu (paired): µs/decision",
                  f"≥ {DOUDIZHU_VS_RLCARD:g}×", lambda r: r >= DOUDIZHU_VS_RLCARD),
        ratio_row(rows, "dou-dizhu vs RLCard without observations (RLCard µs ÷ ours)",
                  "RLCard Dou Dizhu, no observations: µs/decision",
                  "dou-dizhu (paired): µs/decision", f"≥ {DOUDIZHU_VS_RLCARD_BARE:g}×",
                  lambda r: r >= DOUDIZHU_VS_RLCARD_BARE),
        ratio_row(rows, "dou-dizhu vs hand-written plain Python (ours µs ÷ its)",
                  "dou-dizhu (paired): µs/decision",
                  "hand-written Dou Dizhu (plain Python): µs/decision",
                  f"≤ {DOUDIZHU_VS_HANDWRITTEN:g}×", lambda r: r <= DOUDIZHU_VS_HANDWRITTEN),
        ratio_row(rows, "dou-dizhu vs OpenSpiel, moonshot (ours µs ÷ its)",
                  "dou-dizhu (paired): µs/decision", "OpenSpiel Dou Dizhu: µs/decision",
                  f"≤ {DOUDIZHU_VS_OPENSPIEL:g}×", lambda r: r <= DOUDIZHU_VS_OPENSPIEL),
        ratio_row(rows, "wenling-mahjong µs/decision vs RLCard mahjong",
                  "wenling-mahjong (paired): µs/decision", "RLCard mahjong: µs/decision",
                  "≤ 0.33×", lambda r: r <= MAHJONG_VS_RLCARD),
        ratio_row(rows, "is_agari µs vs our 0-wild check", "mahjong Agari.is_agari",
                  "WinShape.can_win_keys, 0 wilds", f"≥ {AGARI_SPEEDUP:g}×",
                  lambda r: r >= AGARI_SPEEDUP),
        ratio_row(rows, "our 4-wild vs 0-wild check", "WinShape.can_win, 4 wilds",
                  "WinShape.can_win, 0 wilds", f"≤ {FOUR_WILDS_COST:g}×",
                  lambda r: r <= FOUR_WILDS_COST),
    ]
    checked = [r for r in rows if r.target and r.section != "targets"]
    for section, what in (("follow", "3-deck follows"), ("validate", "validate")):
        mine = [r for r in checked if r.section == section]
        if mine:
            met = all(r.met for r in mine)
            out.append(Row("targets", f"{what}: all rows", "", [],
                           f"{sum(bool(r.met) for r in mine)}/{len(mine)} rows met",
                           "every row's target", met))
    return out


# ---------------------------------------------------------------- output


def fmt(x: float | None) -> str:
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def verdict(row: Row) -> str:
    if not row.target:
        return ""
    status = {True: "MET", False: "NOT MET", None: "n/a"}[row.met]
    return f"{row.target}: {status}"


HEADER = ("section", "measurement", "median", "min", "max", "unit", "detail", "target")


def cells(row: Row) -> tuple[str, ...]:
    lo = min(row.values) if row.values else None
    hi = max(row.values) if row.values else None
    return (row.section, row.name, fmt(row.median), fmt(lo), fmt(hi), row.unit, row.detail,
            verdict(row))


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} CPU(s), {cpu}, Python {platform.python_version()}, "
            f"{datetime.date.today().isoformat()}, {kernels_in_use()}")


def kernels_in_use() -> str:
    """Whether this run's engine is the pure-Python one or a compiled wheel's
    (RULESDSL_COMPILE=1, rulesdsl/engine/kernels.py)."""
    compiled = kernels.compiled()
    if not compiled:
        return "pure Python"
    return f"compiled kernels ({len(compiled)} of {len(kernels.KERNELS)} modules)"


def print_markdown(rows: list[Row], title: str) -> None:
    print(f"_{title}_\n")
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "|".join("---" for _ in HEADER) + "|")
    for row in rows:
        print("| " + " | ".join(c.replace("|", "\\|") for c in cells(row)) + " |")


def print_table(rows: list[Row], title: str) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(h), *(len(cells(r)[i]) for r in rows)) for i, h in enumerate(HEADER)]
        print(title)
        for line in [HEADER, *(cells(r) for r in rows)]:
            print("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())
        return
    table = Table(title=title, show_lines=False)
    for h in HEADER:
        table.add_column(h, justify="right" if h in ("median", "min", "max") else "left")
    previous = None
    for row in rows:
        if previous is not None and row.section != previous:
            table.add_section()
        previous = row.section
        style = {True: "green", False: "red"}.get(row.met) if row.target else None
        table.add_row(*cells(row), style=style)
    console = Console() if sys.stdout.isatty() else Console(width=220)
    console.print(table)


# ---------------------------------------------------------------- main


def run_sections(chosen: Sequence[str], sz: Sizes, repeats: int) -> tuple[list[Row], bool]:
    jobs: list[tuple[str, Callable[[], list[Row]]]] = []
    if "selfplay" in chosen:
        jobs += [("selfplay", lambda n=n: selfplay(n, sz, repeats)) for n in RULESETS]
    if "legality" in chosen:
        jobs += [("legality", lambda n=n: legality(n, sz, repeats)) for n in RULESETS]
    if "follow" in chosen:
        jobs += [("follow", lambda n=n: follow(n, sz, repeats)) for n in THREE_DECK]
    if "enumerate" in chosen:
        jobs += [("enumerate", lambda n=n: enumerate_actions(n, sz, repeats))
                 for n in SHEDDING]
    if "mahjong" in chosen:
        jobs.append(("mahjong", lambda: mahjong(sz, repeats)))
    if "validate" in chosen:
        jobs.append(("validate", lambda: validate(sz, repeats)))
    if "peers" in chosen:
        jobs.append(("peers", lambda: peers(sz, repeats)))
    rows: list[Row] = []
    failed = False
    for section, job in jobs:
        start = time.perf_counter()
        try:
            got = job()
        except Exception as exc:  # report it in the table and go on with the others
            traceback.print_exc()
            got = [Row(section, "ERROR", "", [], f"{type(exc).__name__}: {exc}"[:120])]
            failed = True
        rows += got
        print(f"[{section}] {got[0].name.split(':')[0]} done in "
              f"{time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return rows, failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=None,
                        help="repeats per figure (default 5; 1 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run, tiny sizes")
    parser.add_argument("--only", action="append", choices=SECTIONS, metavar="SECTION",
                        help=f"run only this section (repeatable): {', '.join(SECTIONS)}")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    if repeats < 1:
        parser.error("--repeats must be at least 1")
    sz = Sizes.quick() if args.quick else Sizes()
    chosen = args.only or list(SECTIONS)
    rows, failed = run_sections(chosen, sz, repeats)
    rows += targets(rows)
    title = (f"rulesdsl benchmarks: medians of {repeats} repeats"
             f"{' (--quick)' if args.quick else ''}; {machine()}")
    (print_markdown if args.markdown else print_table)(rows, title)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
