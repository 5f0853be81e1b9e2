"""Engine soak: random games of every bundled ruleset, every invariant checked after every
action (issue 9). tests/test_soak.py runs a small CI sample; the long run is

    .venv/bin/python -m tests.soak --games 10000 --workers 2 [--rulesets a,b] [--json F]

(docs/soak.md records its last result). Each game is played through
rulesdsl.headless.logs.play_game by a checking agent: before every decision (so after
every action) and once more on the final state, `check_position` asserts

- conservation: every card or tile of the deck is in exactly one zone (hands, kitty or
  wall, unused cards, cards played this hand, melds, discards, flowers, the turned tile);
- points: the ruleset's card points are all somewhere (trick and shedding families);
- returns: zero-sum where the settlement is (see ZERO_SUM_EXCEPTIONS for the one that is
  not, and the property asserted instead); every tile hand's payments sum to zero;
- legality: a sampled action is legal, in legal_actions() and has no why_illegal; when
  the action set is small, listing it gives count() distinct legal actions, and among the
  listed actions and perturbations of them is_legal accepts exactly the listed ones (up to
  the suits of a shedding play) and why_illegal agrees with is_legal;
- serialization: at random points state_from_json(to_json()) equals the state, and play
  continued from the restored state with a copy of the rng ends in the same final state;
- replay: the referee (logs.replay) replays the written log to the same final state.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import TILE_ACTIONS, Action
from rulesdsl.headless.logs import play_game, replay
from rulesdsl.resources import bundled_rulesets
from tests.test_shed_invariants import cards_in_play
from tests.test_trick_invariants import all_cards

# Listing and perturbing every legal action is done when there are at most this many.
LIST_LIMIT = 120
# Per listed position: listed actions whose is_legal, why_illegal and `in` are compared,
# and perturbed near-miss actions checked the same way.
AGREE_LISTED = 4
NEAR_MISSES = 12
# Rulesets whose returns are not zero-sum by design, with the property checked instead.
# wenling-duijia-tong: each side's result comes from its own score against a fixed
# threshold (「通过得分来定胜负」, win above 100 of 200), so both sides can lose when the
# scores do not add up to 200 (option early_end_in_hand: discarded); asserted instead:
# partners have equal returns, each in {-1, 0, +1} per hand.
ZERO_SUM_EXCEPTIONS = {"wenling-duijia-tong"}

_rulesets: dict[str, Any] = {}


def ruleset(name: str):
    if name not in _rulesets:
        _rulesets[name] = rulesdsl.load(name)
    return _rulesets[name]


# ---------------------------------------------------------------- conservation


def tile_zones(state) -> Counter:
    """Every tile of a tile hand by zone: wall (front..back), concealed tiles, melds,
    discards, flowers and the turned tile."""
    out: Counter = Counter(state.wall[state.front:state.back])
    for hand in state.hands:
        for k, c in enumerate(hand):
            if c:
                out[k] += c
    for melds in state.melds:
        for kind, tile, _concealed in melds:
            if kind == "chow":
                out.update((tile, tile + 1, tile + 2))
            else:
                out[tile] += 4 if kind == "kong" else 3
    for zone in (*state.discards, *state.flowers):
        out.update(zone)
    if state.turned is not None:
        out[state.turned] += 1
    return out


def shed_points_in_play(state) -> int:
    """Captured points, the round's points, and the points still held, unused or waiting
    in the kitty: while a hand runs this is the ruleset's total."""
    points = state.game.hc.points  # the ruleset's card_points, per card kind
    held = sum(p * c for hand in state.hands for p, c in zip(points, hand) if c)
    rest = sum(points[k] for k in state.unused)
    if state.phase == "auction":
        rest += sum(points[k] for k in state.kitty)
    return sum(state.captured) + state.round_points + held + rest


def trick_points_in_play(state) -> int:
    """In the play phase: points in hands, the buried kitty, the open trick and the tricks
    won so far this hand."""
    rs = state.game.ruleset
    held = sum(rs.card_points(k) * c for hand in state.hands for k, c in enumerate(hand) if c)
    kitty = sum(rs.card_points(k) for k in state.kitty)
    table = sum(rs.card_points(k) for _, cards in state.trick for k in cards)
    won = sum(e["points"] for e in state.log
              if e["type"] == "trick" and e["hand"] == state.hand_no)
    return held + kitty + table + won


def check_conservation(state) -> None:
    rs = state.game.ruleset
    family = rs.family
    if family == "trick":
        if state.phase != "over" and state.hands:
            assert all_cards(state) == list(rs.deck), "a card was lost or duplicated"
        if state.phase == "play":
            assert trick_points_in_play(state) == rs.total_points(), "points not conserved"
    elif family == "shedding":
        if state.phase != "over":
            assert cards_in_play(state) == list(rs.deck), "a card was lost or duplicated"
            assert shed_points_in_play(state) == rs.total_points(), "points not conserved"
    elif state.phase != "over":
        assert tile_zones(state) == Counter(state.game.tiles), "a tile was lost or duplicated"


def check_results(name: str, state) -> None:
    """Per finished hand and for the returns so far."""
    rs = state.game.ruleset
    returns = state.returns()
    assert len(returns) == rs.players, f"returns for {len(returns)} seats"
    family = rs.family
    for result in state.results:
        if family == "tiles":
            assert abs(sum(result["payments"])) < 1e-9, result
        elif family == "shedding":
            assert sorted(result["order"]) == list(range(rs.players)), \
                f"finishing order {result['order']}"
            unused = 0  # unused cards belong to the current hand only: checked at the end
            if result is state.results[-1] and state.phase == "over":
                unused = sum(rs.card_points(k) for k in state.unused)
                assert sum(result["captured"]) + sum(result["in_hand"]) + unused \
                    + result["kitty_points"] == rs.total_points(), \
                    f"shedding points do not add up: {result}"
        else:
            in_tricks = sum(e["points"] for e in state.log
                            if e["type"] == "trick" and e["hand"] == state.results.index(result))
            assert in_tricks + result["kitty_points"] == rs.total_points(), \
                f"trick points {in_tricks} + kitty {result['kitty_points']}"
    if name in ZERO_SUM_EXCEPTIONS:
        team_of = rs.team_of()
        for result in state.results:
            for s, value in enumerate(result["returns"]):
                assert value in (-1.0, 0.0, 1.0), f"a hand return of {value}"
                partners = [t for t in range(rs.players) if team_of[t] == team_of[s]]
                assert all(result["returns"][t] == value for t in partners), \
                    f"partners return differently: {result['returns']}"
    else:
        assert abs(sum(returns)) < 1e-9, f"returns are not zero-sum: {returns}"


# ---------------------------------------------------------------- legality


def _ranks(act: Action) -> tuple:
    return (act.kind, tuple(sorted(nt.card_rank(k) for k in act.cards)), act.amount)


def _held(state, act: Action) -> bool:
    hand = state.hands[state.to_act]
    need = Counter(act.cards)
    return all(hand[k] >= c for k, c in need.items())


def perturbations(state, listed: list[Action], rng: random.Random, n: int) -> list[Action]:
    """Candidates near the legal ones: a card added, removed or swapped, another kind,
    pattern or bid amount."""
    rs = state.game.ruleset
    tiles = rs.family == "tiles"
    kinds = list(range(nt.TILE_KINDS)) if tiles else rs.kinds()
    act_kinds = sorted(TILE_ACTIONS | {"pass"}) if tiles else \
        ["play", "pass", "declare", "bury", "bid", "claim"]
    patterns = [p.name for p in rs.patterns] if rs.family == "shedding" else []
    out: list[Action] = []
    for _ in range(n):
        base = rng.choice(listed)
        cards = list(base.cards)
        roll = rng.randrange(6)
        if roll == 0 and cards:
            cards.pop(rng.randrange(len(cards)))
        elif roll == 1:
            cards.append(rng.choice(kinds))
        elif roll == 2 and cards:
            cards[rng.randrange(len(cards))] = rng.choice(kinds)
        elif roll == 3:
            out.append(Action(rng.choice(act_kinds), tuple(sorted(cards)), base.pattern,
                              base.amount))
            continue
        elif roll == 4 and patterns:
            out.append(Action(base.kind, base.cards, rng.choice([None, *patterns])))
            continue
        elif roll == 5 and base.kind == "bid":
            out.append(Action("bid", amount=(base.amount or 0) + rng.choice([-5, -1, 1, 5])))
            continue
        out.append(Action(base.kind, tuple(sorted(cards)), base.pattern, base.amount))
    return out


def check_legality(state, rng: random.Random) -> None:
    legal = state.legal_actions()
    count = legal.count()
    assert count >= 1, "a decision with no legal action"
    assert len(legal) == count, f"len {len(legal)} != count {count}"
    for _ in range(2):
        a = state.sample_action(rng)
        assert state.is_legal(a) and a in legal and state.why_illegal(a) is None, str(a)
    if count > LIST_LIMIT:
        return
    listed = list(legal)
    assert len(listed) == count == len(set(listed)), "listing disagrees with count()"
    shedding = state.game.ruleset.family == "shedding"
    # Cards of one rank are interchangeable, unless patterns read suits or this play must
    # hold a given card (the first play's ♠3).
    interchangeable = shedding and not state.game.moves.suited and (
        state.last is not None or state._must_play() is None)
    exact = set(listed)
    by_ranks = {(_ranks(a), a.pattern) for a in listed}
    rank_only = {_ranks(a) for a in listed}
    wins = [a for a in listed if a.kind == "win"]
    for cand in listed:
        assert state.is_legal(cand), f"listed but illegal: {cand}"
    # The three ways of asking agree, on some listed actions and on near misses.
    sample = rng.sample(listed, min(AGREE_LISTED, count))
    for cand in sample + perturbations(state, listed, rng, min(NEAR_MISSES, 2 * count)):
        ok = state.is_legal(cand)
        assert ok == (state.why_illegal(cand) is None), str(cand)
        assert ok == (cand in legal), str(cand)
        if cand in exact:
            assert ok, f"listed but illegal: {cand}"
            continue
        if shedding and cand.kind == "play":
            if ok:
                assert _ranks(cand) in rank_only, f"legal but not listed: {cand}"
            elif interchangeable and _held(state, cand) and \
                    (_ranks(cand), cand.pattern) in by_ranks:
                raise AssertionError(f"a listed play with other held suits is illegal: {cand}")
            continue
        if cand.kind == "win" and not cand.cards and len(wins) == 1:
            assert ok, "a bare win names the one win on offer"
            continue
        assert not ok, f"legal but not listed: {cand}"


# ---------------------------------------------------------------- one game


@dataclass
class GameReport:
    name: str
    seed: int
    actions: int = 0
    checked: int = 0
    listed: int = 0
    roundtrips: int = 0
    failure: str | None = None


@dataclass
class CheckingAgent:
    """Plays like the random agent (the game rng draws only sample_action) and checks the
    position first with its own rng."""

    name_: str
    seed: int
    report: GameReport
    fork_at: int
    forks: list = field(default_factory=list)
    name: str = "random"

    def __post_init__(self) -> None:
        self.rng = random.Random(f"soak/{self.name_}/{self.seed}")

    def act(self, state, rng: random.Random) -> Action:
        check_position(self.name_, state, self.rng, self.report)
        if self.report.checked == self.fork_at or self.rng.random() < 0.05:
            text = state.to_json()
            again = state.game.state_from_json(text)
            assert again == state and again.to_json() == text, "round trip changed the state"
            assert state.clone() == state, "clone differs from the state"
            self.report.roundtrips += 1
            if not self.forks:  # continue one copy to the end with a copy of the rng
                twin = random.Random()
                twin.setstate(rng.getstate())
                while not again.is_terminal():
                    again.apply(again.sample_action(twin))
                self.forks.append(again)
        return state.sample_action(rng)


def check_position(name: str, state, rng: random.Random, report: GameReport) -> None:
    report.checked += 1
    check_conservation(state)
    check_results(name, state)
    if not state.is_terminal():
        if state.legal_actions().count() <= LIST_LIMIT:
            report.listed += 1
        check_legality(state, rng)


def soak_game(name: str, seed: int, log_dir: str | None = None) -> GameReport:
    """One random game of `name` with every check; the report carries any failure."""
    report = GameReport(name, seed)
    try:
        rs = ruleset(name)
        hands = 1
        fork_at = random.Random(f"fork/{name}/{seed}").randrange(1, 60)
        agent = CheckingAgent(name, seed, report, fork_at)
        with tempfile.TemporaryDirectory(dir=log_dir) as tmp:
            path = os.path.join(tmp, "game.jsonl")
            state = play_game(rs, seed, [agent] * rs.players, hands, path)
            check_position(name, state, agent.rng, report)
            assert state.game.state_from_json(state.to_json()) == state, \
                "final round trip changed the state"
            report.roundtrips += 1
            with open(path, encoding="utf-8") as f:
                report.actions = sum(json.loads(line)["type"] == "action" for line in f)
            for twin in agent.forks:
                assert twin == state, "play continued from a restored state diverged"
            result = replay(path, rs)
            assert result.ok, result.message
            assert result.returns == state.returns()
    except Exception as exc:  # a soak reports every failure with its seed, then goes on
        # Where it broke too: a bare assert (ours or an engine's) says nothing by itself.
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
        report.failure = f"{type(exc).__name__} at {where}: {exc}"[:500]
    return report


# ---------------------------------------------------------------- the long run


# A worker whose resident memory passes this drops its compiled rulesets (and with them
# every engine cache) before its next batch: hours of games must not exhaust the machine.
RSS_LIMIT = 3 * 2**30


def _rss() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _run_batch(name: str, seeds: list[int]) -> dict[str, Any]:
    if _rss() > RSS_LIMIT:
        _rulesets.clear()
        gc.collect()
    out = {"name": name, "games": 0, "actions": 0, "checked": 0, "listed": 0,
           "roundtrips": 0, "failures": []}
    for seed in seeds:
        r = soak_game(name, seed)
        out["games"] += 1
        for key in ("actions", "checked", "listed", "roundtrips"):
            out[key] += getattr(r, key)
        if r.failure:
            out["failures"].append({"seed": seed, "failure": r.failure})
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10_000, help="games per ruleset")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--rulesets", default="", help="comma-separated ids (default: all)")
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=50, help="games per task")
    p.add_argument("--json", default=None, help="write the totals here (also on Ctrl-C)")
    args = p.parse_args(argv)
    names = [n for n in args.rulesets.split(",") if n] or sorted(bundled_rulesets())
    totals = {n: {"games": 0, "actions": 0, "checked": 0, "listed": 0, "roundtrips": 0,
                  "failures": []} for n in names}
    started = time.time()

    def write() -> None:
        data = {"seconds": round(time.time() - started), "first_seed": args.first_seed,
                "games_per_ruleset": args.games, "totals": totals}
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1, sort_keys=True)

    tasks = []
    for start in range(args.first_seed, args.first_seed + args.games, args.batch):
        seeds = list(range(start, min(start + args.batch, args.first_seed + args.games)))
        tasks += [(n, seeds) for n in names]  # round-robin: every ruleset advances together
    try:
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [pool.submit(_run_batch, n, seeds) for n, seeds in tasks]
            for fut in as_completed(futures):
                batch = fut.result()
                t = totals[batch["name"]]
                for key in ("games", "actions", "checked", "listed", "roundtrips"):
                    t[key] += batch[key]
                t["failures"] += batch["failures"]
                for f in batch["failures"]:
                    print(f"FAIL {batch['name']} seed {f['seed']}: {f['failure']}", flush=True)
                write()
    except KeyboardInterrupt:
        write()
    print(f"{'ruleset':24} {'games':>7} {'actions':>10} {'failures':>8}")
    for n, t in totals.items():
        print(f"{n:24} {t['games']:>7} {t['actions']:>10} {len(t['failures']):>8}")
    print(f"{round(time.time() - started)} s")
    return 1 if any(t["failures"] for t in totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
