"""`rulesdsl simulate` as a designer's report: the statistics against hand-computed values,
the report of a small seeded run per family against the games replayed here, terminal and
plain rendering, JSON, and `--compare` (issue 20)."""

from __future__ import annotations

import json
import math
import re
import statistics
from collections import Counter, OrderedDict
from io import StringIO

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.headless import simulate as sim
from rulesdsl.headless.agents import make_agents
from rulesdsl.headless.logs import play_game
from rulesdsl.headless.report import (
    compare_stats,
    mean_summary,
    print_report,
    proportion,
    quantile,
    render_plain,
    t_critical,
    t_two_sided_p,
    two_proportion_test,
    welch_test,
    wilson,
)

Z = 1.959963984540054  # the 97.5% normal quantile


# ------------------------------------------------------------------ the statistics

def test_wilson_interval_of_7_of_10():
    # The score interval solved by hand: (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)
    n, p = 10, 0.7
    a = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / a
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / a
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(centre - half, abs=1e-12)
    assert hi == pytest.approx(centre + half, abs=1e-12)
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)  # the published 95% interval


def test_wilson_at_the_edges():
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(Z * Z / (10 + Z * Z))  # k = 0: [0, z²/(n + z²)]
    lo, hi = wilson(10, 10)
    assert hi == 1 and lo == pytest.approx(10 / (10 + Z * Z))
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_holds_the_rate_inside_0_1(kn):
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


def test_student_t_against_closed_forms_and_tables():
    # df 1 is the Cauchy distribution, df 2 has a closed form too.
    for t in (0.3, 1.0, 4.0):
        assert t_two_sided_p(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(t), abs=1e-10)
        assert t_two_sided_p(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), abs=1e-10)
    # Printed tables: t(0.975) for 4, 10 and 29 degrees of freedom.
    assert t_critical(4) == pytest.approx(2.776445, abs=1e-5)
    assert t_critical(10) == pytest.approx(2.228139, abs=1e-5)
    assert t_critical(29) == pytest.approx(2.045230, abs=1e-5)
    assert t_critical(10**9) == pytest.approx(Z, abs=1e-6)


def test_mean_interval_and_quantiles():
    s = mean_summary([1, 2, 3, 4, 5], quantiles=True)
    sd = math.sqrt(2.5)  # sum of squared deviations 10, over n - 1 = 4
    half = 2.776445 * sd / math.sqrt(5)
    assert s["n"] == 5 and s["mean"] == 3 and s["sd"] == pytest.approx(sd, abs=1e-4)
    assert s["ci"] == pytest.approx([3 - half, 3 + half], abs=1e-4)
    assert s["quantiles"] == {"min": 1, "p10": 1.4, "p25": 2, "p50": 3, "p75": 4,
                              "p90": 4.6, "max": 5}
    assert quantile([1, 2, 3, 4], 0.25) == 1.75 and quantile([1, 2, 3, 4], 0.9) == 3.7
    assert mean_summary([7])["ci"] == [7, 7]


def test_two_proportion_z_test_by_hand():
    # 30/100 against 45/100: pooled 0.375, se = sqrt(0.375 · 0.625 · 2/100)
    z = 0.15 / math.sqrt(0.375 * 0.625 * 0.02)
    assert two_proportion_test(30, 100, 45, 100) == pytest.approx(math.erfc(z / math.sqrt(2)))
    assert two_proportion_test(30, 100, 45, 100) == pytest.approx(0.02846, abs=1e-4)
    assert two_proportion_test(5, 10, 5, 10) == 1.0
    assert two_proportion_test(0, 10, 0, 10) == 1.0  # nothing varies, nothing differs


def test_welch_test_by_hand():
    # n 6 and 6, sd 1 and 1: se² = 1/6 + 1/6, df = (1/3)² / (2 · (1/6)² / 5) = 10, so a
    # difference of t(0.975, 10) · se sits exactly at p = 0.05.
    diff = 2.228139 * math.sqrt(1 / 3)
    assert welch_test(0, 1, 6, diff, 1, 6) == pytest.approx(0.05, abs=1e-5)
    # Large samples: the normal approximation.
    m1, s1, n1, m2, s2, n2 = 10.0, 2.0, 400, 10.4, 3.0, 500
    z = 0.4 / math.sqrt(s1 ** 2 / n1 + s2 ** 2 / n2)
    assert welch_test(m1, s1, n1, m2, s2, n2) == pytest.approx(math.erfc(z / math.sqrt(2)),
                                                               abs=2e-3)
    assert welch_test(1, 0, 5, 1, 0, 5) == 1.0
    assert welch_test(1, 0, 1, 2, 0, 1) is None


def test_compare_stats_marks_only_real_differences():
    same = compare_stats(proportion(30, 100), proportion(30, 100))
    assert same["diff"] == 0 and not same["significant"]
    apart = compare_stats(proportion(30, 100), proportion(45, 100))
    assert apart["diff"] == pytest.approx(0.15) and apart["significant"]
    near = compare_stats(proportion(30, 100), proportion(35, 100))
    assert not near["significant"]
    assert compare_stats(proportion(0, 0), proportion(3, 10)) == {}


# ------------------------------------------------------------------ the compiled ruleset

def test_the_compiled_ruleset_is_reused_and_the_cache_bounded(monkeypatch):
    monkeypatch.setattr(sim, "_LOADED", OrderedDict())
    calls: list[str] = []
    real = sim.load
    monkeypatch.setattr(sim, "load", lambda ref: calls.append(ref) or real(ref))
    sim.simulate("guan-pai", 5, progress=False)
    sim.simulate("guan-pai", 5, seed=1, progress=False)
    assert calls == ["guan-pai"]  # once for both runs and all their games
    monkeypatch.setattr(sim, "load", lambda ref: object())
    for i in range(sim.CACHE_SIZE + 5):
        sim._ruleset(f"r{i}", None, ())
    keys = [k[0] for k in sim._LOADED]
    assert len(keys) == sim.CACHE_SIZE and keys[-1] == f"r{sim.CACHE_SIZE + 4}"
    assert "r0" not in keys and ("guan-pai", None, ()) not in sim._LOADED


# ------------------------------------------------------------------ one family each

def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def games(name: str, n: int, seed: int, agents: str = "random", logs=None):
    """The same games simulate plays, played again here (logged into `logs`, a folder)."""
    ruleset = rulesdsl.load(name)
    for i in range(n):
        yield play_game(ruleset, sim.game_seed(seed, i), make_agents(agents, ruleset.players),
                        1, None if logs is None else str(logs / f"{i}.jsonl"))


def line_of(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


def pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}% ({k}/{n})"


def test_shedding_report_matches_the_games(capsys, tmp_path):
    n, seed = 30, 4
    code, text, _ = run(capsys, "dou-dizhu", "--games", str(n), "--seed", str(seed))
    assert code == 0
    code, raw, _ = run(capsys, "dou-dizhu", "--games", str(n), "--seed", str(seed), "--json")
    stats = json.loads(raw)
    wins, decisions, rounds = Counter(), [], []
    plays, took = Counter(), Counter()
    for i, state in enumerate(games("dou-dizhu", n, seed, logs=tmp_path)):
        wins.update(s for s, r in enumerate(state.returns()) if r > 0)
        last_line = (tmp_path / f"{i}.jsonl").read_text(encoding="utf-8").splitlines()[-1]
        decisions.append(json.loads(last_line)["actions"])  # the log's action count
        rounds.append(sum(1 for e in state.log if e["type"] == "round"))
        last = None
        for e in state.log:
            if e["type"] == "play":
                plays[e["pattern"]] += 1
                last = e
            elif e["type"] == "round" and last is not None:
                took[last["pattern"]] += last["seat"] == e["winner"]
                last = None
    for heading in ("Seats", "Sides", "Hand length", "Patterns", "Points and stakes"):
        assert f"\n{heading}\n" in text
    for seat in range(3):
        assert stats["seats"][seat]["wins"]["k"] == wins[seat]
        assert pct(wins[seat], n) in line_of(text, f"{seat} ")
    assert stats["hand_length"]["decisions"]["mean"] == pytest.approx(
        statistics.fmean(decisions), abs=1e-4)
    assert stats["hand_length"]["rounds"]["mean"] == pytest.approx(statistics.fmean(rounds),
                                                                   abs=1e-4)
    assert f"{statistics.fmean(rounds):.2f}" in line_of(text, "rounds ")
    rows = {r["pattern"]: r for r in stats["pattern_plays"]["rows"]}
    total = sum(plays.values())
    for pattern, count in plays.items():
        assert rows[pattern]["share"]["k"] == count and rows[pattern]["wins"]["k"] == \
            took[pattern]
        assert pct(count, total) in line_of(text, pattern + " ")
    # a pattern of the ruleset nobody played is listed with no win rate
    unplayed = [p.name for p in rulesdsl.load("dou-dizhu").patterns if p.name not in plays]
    assert all(rows[p]["share"]["k"] == 0 and rows[p]["wins"]["n"] == 0 for p in unplayed)


def test_a_dealer_alone_is_a_side_of_its_own(capsys):
    # This ruleset seats partners but plays the dealer alone against the other three: the
    # side rows follow the sides the engine played, not the seating.
    n, seed = 20, 5
    stats = sim.simulate("wenling-biao-tong", n, seed=seed, progress=False)
    won = 0
    for state in games("wenling-biao-tong", n, seed):
        for h in state.results:
            dealer, returns = h["dealer"], h["returns"]
            won += returns[dealer] > sum(returns) - returns[dealer]
    assert [s["label"] for s in stats["sides"]] == ["the dealer's side"]
    assert stats["sides"][0]["wins"]["k"] == won and stats["sides"][0]["wins"]["n"] == n
    labels = [p["label"] for p in stats["points"]]
    assert labels[:2] == ["points taken, the dealer's side",
                          "points taken, the dealer's opponents"]


def test_trick_report_counts_leads_and_points(capsys):
    n, seed = 20, 3
    code, raw, _ = run(capsys, "huzhou-hong-wu", "--games", str(n), "--seed", str(seed),
                       "--json")
    stats = json.loads(raw)
    _, text, _ = run(capsys, "huzhou-hong-wu", "--games", str(n), "--seed", str(seed))
    leads, leader_won, defender = Counter(), Counter(), []
    for state in games("huzhou-hong-wu", n, seed):
        first = None
        for e in state.log:
            if e["type"] == "play" and first is None:
                first = e["seat"]
            elif e["type"] == "trick":
                leads[e["pattern"]] += 1
                leader_won[e["pattern"]] += e["winner"] == first
                first = None
        defender += [h["defender_points"] for h in state.results]
    rows = {r["pattern"]: r for r in stats["pattern_plays"]["rows"]}
    assert {p: r["share"]["k"] for p, r in rows.items() if r["share"]["k"]} == dict(leads)
    assert {p: r["wins"]["k"] for p, r in rows.items() if r["share"]["k"]} == \
        dict(leader_won)
    q = stats["defender_points"]["quantiles"]
    quartiles = statistics.quantiles(defender, n=4, method="inclusive")
    assert q["p25"] == pytest.approx(quartiles[0]) and q["p50"] == statistics.median(defender)
    assert q["max"] == max(defender)
    assert "leader took the trick" in text and "\nPatterns\n" in text
    assert f"{statistics.fmean(defender):.2f}" in line_of(text, "defender points")
    assert [s["label"] for s in stats["sides"]] == ["team 0 (seats 0, 2)",
                                                    "team 1 (seats 1, 3)"]


def test_tile_report_counts_items_among_wins(capsys):
    n, seed = 30, 2
    code, raw, _ = run(capsys, "wenling-mahjong", "--games", str(n), "--seed", str(seed),
                       "--agents", "greedy", "--json")
    stats = json.loads(raw)
    _, text, _ = run(capsys, "wenling-mahjong", "--games", str(n), "--seed", str(seed),
                     "--agents", "greedy")
    ruleset = rulesdsl.load("wenling-mahjong")
    names = {i.name for i in ruleset.scoring_items}
    drawn, won, items = 0, 0, Counter()
    for state in games("wenling-mahjong", n, seed, "greedy"):
        for h in state.results:
            if h["winner"] is None:
                drawn += 1
                continue
            won += 1
            text_of_win = h["scores"][h["winner"]]
            items.update({line.split()[0] for line in text_of_win.splitlines()
                          if " × " in line and line.split()[0] in names})
    rates = {r["label"]: r["value"] for r in stats["rates"]}
    assert rates["drawn (no winner)"]["k"] == drawn and rates["someone won"]["k"] == won
    found = {r["name"]: r["wins"]["k"] for r in stats["scoring_items"]}
    assert {k: v for k, v in found.items() if v} == dict(items)
    assert all(r["wins"]["n"] == won for r in stats["scoring_items"])
    for heading in ("Scoring items among wins", "Limit hands among wins", "Outcomes"):
        assert f"\n{heading}\n" in text
    top = max(items, key=lambda k: (items[k], k))
    assert pct(items[top], won) in line_of(text, top + " ")
    assert pct(drawn, n) in line_of(text, "drawn (no winner)")


def test_json_intervals_hold_their_estimates(capsys):
    code, raw, _ = run(capsys, "wenling-hong-wu", "--games", "20", "--json")
    stats = json.loads(raw)
    seen = Counter()

    def walk(node):
        if isinstance(node, dict):
            if {"k", "n", "rate", "ci"} <= set(node):
                lo, hi = node["ci"]
                assert 0 <= lo <= node["rate"] <= hi <= 1
                seen["rate"] += 1
            elif {"n", "mean", "sd", "ci"} <= set(node):
                assert node["ci"][0] <= node["mean"] <= node["ci"][1]
                seen["mean"] += 1
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(stats)
    assert seen["rate"] > 10 and seen["mean"] > 5
    assert stats["games"] == 20 and stats["seats"][0]["win_rate"] == stats["seats"][0][
        "wins"]["rate"]


def test_terminal_gets_rich_tables_and_a_pipe_plain_text():
    stats = sim.simulate("guan-pai", 20, seed=1, progress=False)
    buffer = StringIO()
    console = Console(file=buffer, force_terminal=True, width=120, color_system="standard")
    print_report(stats, console=console)
    shown = buffer.getvalue()
    assert "\x1b[" in shown and "┃" in shown and "Seats" in shown and "95% CI" in shown
    bare = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    assert max(len(line) for line in bare.splitlines()) <= 120
    piped = StringIO()
    print_report(stats, file=piped)
    plain = piped.getvalue()
    assert plain == render_plain(stats)
    assert "\x1b" not in plain and not set("┃│━─┏") & set(plain)
    assert "Seats" in plain and "took the round" in plain


# ------------------------------------------------------------------ --compare

def table_rows(text: str) -> list[str]:
    """The rows of the plain compare tables (under a dashed rule, up to a blank line)."""
    rows, inside = [], False
    for line in text.splitlines():
        if set(line) <= {"-", " "} and line:
            inside = True
        elif not line:
            inside = False
        elif inside:
            rows.append(line)
    return rows


def test_a_ruleset_against_itself_differs_nowhere(capsys):
    code, raw, _ = run(capsys, "guan-pai", "--games", "40", "--compare", "guan-pai", "--json")
    both = json.loads(raw)
    assert code == 0 and both["a"] == both["b"]
    tested = [r for r in both["comparison"] if "p" in r]
    assert len(tested) > 10 and all(not r["significant"] and r["diff"] == 0 for r in tested)
    code, text, _ = run(capsys, "guan-pai", "--games", "40", "--compare", "guan-pai")
    rows = table_rows(text)
    assert rows and not any(r.endswith("*") for r in rows)
    assert "significant at the 95% level" in text


def test_two_different_rulesets_show_significant_differences(capsys):
    # Two and three packs: the hands last a different number of tricks, whatever the deal.
    code, text, _ = run(capsys, "wenling-hong-wu", "--games", "30", "--compare",
                        "huzhou-hong-wu")
    assert code == 0
    assert text.startswith("A = wenling-hong-wu\nB = huzhou-hong-wu\n")
    tricks = next(r for r in table_rows(text) if r.startswith("tricks "))
    assert tricks.endswith("*")
    code, raw, _ = run(capsys, "wenling-hong-wu", "--games", "30", "--compare",
                       "huzhou-hong-wu", "--json")
    row = next(r for r in json.loads(raw)["comparison"] if r["row"] == "tricks")
    assert row["significant"] and row["p"] < 0.001 and row["diff"] > 5


def test_one_option_changed_moves_the_stakes_not_the_play(capsys):
    args = ["dou-dizhu", "--games", "60", "--compare", "dou-dizhu", "--compare-option",
            "bombs_double=false"]
    code, raw, _ = run(capsys, *args, "--json")
    both = json.loads(raw)
    assert code == 0 and both["b"]["options"] == {"bombs_double": False}
    rows = {(r["table"], r["row"]): r for r in both["comparison"]}
    # The same deals and the same random choices: every play is the same, only the payout
    # of a hand with a bomb shrinks.
    assert all(rows[("Seats: wins", f"seat {s}")]["diff"] == 0 for s in range(3))
    assert rows[("Hand length", "decisions")]["p"] == 1.0
    stake = rows[("Points and stakes", "stake: mean |return| per seat, per game")]
    assert stake["significant"] and stake["diff"] < 0
    _, text, _ = run(capsys, *args)
    assert "B = dou-dizhu (bombs_double=False)" in text
    assert next(r for r in table_rows(text) if r.startswith("stake")).endswith("*")


def test_compare_needs_the_same_player_count(capsys):
    code, _, err = run(capsys, "dou-dizhu", "--games", "5", "--compare", "guan-pai")
    assert code == 2 and "same player count" in err and "3 players" in err
    code, _, err = run(capsys, "guan-pai", "--games", "5", "--compare-option", "x=1")
    assert code == 2 and "--compare-option needs --compare" in err
    code, _, err = run(capsys, "guan-pai", "--games", "5", "--compare", "guan-pai",
                       "--compare-option", "bare_bomb=maybe")
    assert code == 2 and "bare_bomb" in err
    # --players picks a count both offer
    code, raw, _ = run(capsys, "guan-pai", "--games", "5", "--players", "3", "--compare",
                       "guan-pai", "--json")
    assert code == 0 and json.loads(raw)["b"]["players"] == 3
