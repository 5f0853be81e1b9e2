"""Headless runs: play, logs, the referee replay, simulate."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.headless.agents import make_agents
from rulesdsl.headless.logs import play_game, replay
from rulesdsl.headless.simulate import BATCHES_PER_CPU, batches, simulate

from .conftest import ROOT

ALL = ["taicang-zhongxin-wu", "huzhou-hong-wu", "wenling-hong-wu", "wenling-duijia-tong",
       "wenling-liujia-tong", "wenling-biao-tong", "guan-pai", "dou-dizhu", "wenling-mahjong"]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True,
                          text=True, cwd=ROOT)


@pytest.mark.parametrize("name", ALL)
def test_logged_game_replays_and_a_changed_action_is_caught(name, tmp_path):
    ruleset = rulesdsl.load(name)
    log = tmp_path / "g.jsonl"
    state = play_game(ruleset, 1, make_agents("random", ruleset.players), 1, str(log))
    ok = replay(str(log))
    assert ok.ok, ok.message
    assert ok.returns == state.returns()
    lines = log.read_text(encoding="utf-8").splitlines()
    # Change the last action to another legal-looking one: pass <-> a card or tile.
    index = max(i for i, line in enumerate(lines) if json.loads(line)["type"] == "action")
    record = json.loads(lines[index])
    record["action"] = {"type": "pass", "cards": ""} if record["action"]["type"] != "pass" \
        else {"type": "play", "cards": "S3"}
    lines[index] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = replay(str(bad))
    assert not result.ok and result.line == index + 1, result.message


def test_replay_with_a_compiled_ruleset_checks_its_hash(tmp_path):
    ruleset = rulesdsl.load("guan-pai")
    log = tmp_path / "g.jsonl"
    state = play_game(ruleset, 2, make_agents("random", ruleset.players), 1, str(log))
    ok = replay(str(log), ruleset)
    assert ok.ok and ok.returns == state.returns(), ok.message
    other = replay(str(log), rulesdsl.load("dou-dizhu"))
    assert not other.ok and other.line == 1 and "hash differs" in other.message


@pytest.mark.parametrize("name", ALL)
def test_same_seed_same_json_output(name):
    args = ("play", name, "--seed", "1", "--json") + (("--hands", "1") if "wu" in name else ())
    a, b = cli(*args), cli(*args)
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout, a.stderr


def test_cli_play_log_then_replay(tmp_path):
    log = tmp_path / "g.jsonl"
    assert cli("play", "guan-pai", "--seed", "1", "--log", str(log)).returncode == 0
    proc = cli("replay", str(log))
    assert proc.returncode == 0 and "every action is legal" in proc.stdout


def test_simulate_is_the_same_for_any_worker_count():
    one = simulate("wenling-hong-wu", 6, seed=3, workers=1, progress=False)
    two = simulate("wenling-hong-wu", 6, seed=3, workers=2, progress=False)
    assert one == two
    assert one["games"] == 6 and len(one["seats"]) == 4


@pytest.mark.parametrize("content, fragment", [
    ("", "no header"),
    ("not json\n", "not JSON"),
    ('{"type": "header", "format": 9}\n', "format 9"),
    ('{"type": "header", "format": 1, "ruleset": "nope-nope", "hash": "x", "seed": 1}\n',
     "cannot load the ruleset"),
    ('{"type": "header", "format": 1, "ruleset": "guan-pai", "hash": "x", "seed": 1}\n',
     "ruleset hash differs"),
])
def test_bad_logs_get_clear_messages(content, fragment, tmp_path):
    log = tmp_path / "x.jsonl"
    log.write_text(content, encoding="utf-8")
    proc = cli("replay", str(log))
    assert proc.returncode == 1
    assert fragment in proc.stderr and "Traceback" not in proc.stderr


def test_truncated_log_is_rejected(tmp_path):
    ruleset = rulesdsl.load("guan-pai")
    log = tmp_path / "g.jsonl"
    play_game(ruleset, 2, make_agents("random", 2), 1, str(log))
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[: len(lines) // 2]) + "\n", encoding="utf-8")
    result = replay(str(cut))
    assert not result.ok and "ends before the game does" in result.message


def test_unknown_ruleset_and_agent_are_clear_errors():
    proc = cli("play", "no-such-game")
    assert proc.returncode == 1 and "no ruleset named" in proc.stderr
    proc = cli("play", "guan-pai", "--agents", "genius")
    assert proc.returncode == 1 and "unknown agent" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_logs_follow_their_documented_schema(tmp_path):
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "docs" / "game-log.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    for name in ("wenling-hong-wu", "wenling-biao-tong", "wenling-mahjong"):
        ruleset = rulesdsl.load(name)
        log = tmp_path / f"{name}.jsonl"
        play_game(ruleset, 4, make_agents("random", ruleset.players), 1, str(log))
        for line in log.read_text(encoding="utf-8").splitlines():
            errors = list(validator.iter_errors(json.loads(line)))
            assert not errors, (name, line[:200], errors[0].message)


@pytest.mark.parametrize("name", ["taicang-zhongxin-wu", "wenling-biao-tong", "wenling-mahjong"])
def test_a_seat_view_log_shows_only_that_seat(name, tmp_path):
    ruleset = rulesdsl.load(name)
    full, view = tmp_path / "full.jsonl", tmp_path / "view.jsonl"
    play_game(ruleset, 6, make_agents("random", ruleset.players), 1, str(full))
    play_game(ruleset, 6, make_agents("random", ruleset.players), 1, str(view), view=1)
    records = [json.loads(line) for line in view.read_text(encoding="utf-8").splitlines()]
    assert records[0]["view"] == 1
    text = view.read_text(encoding="utf-8").split("\n", 1)[1]  # after the header
    for secret in ('"hands"', '"deal_order"', '"wall"', '"unused"'):
        assert secret not in text
    for r in records:
        if r["type"] == "action" and r["seat"] != 1:
            assert r["action"]["type"] != "bury" or set(r["action"]) == {"type"}
        if r["type"] == "observation":
            assert r["observation"]["seat"] == 1
    # The full log of the same game holds the deal; the view never repeats another seat's.
    assert '"type": "event"' in full.read_text(encoding="utf-8")
    assert '"type": "event"' not in text
    assert not replay(str(view)).ok


def test_simulate_compare_runs_both_on_the_same_deals(tmp_path):
    variant = tmp_path / "loose.yaml"
    variant.write_text("extends: wenling-hong-wu\nid: wenling-hong-wu-loose\noptions:\n"
                       "  deal_threshold: {default: 85, choices: [80, 85]}\n", encoding="utf-8")
    proc = cli("simulate", "wenling-hong-wu", "--games", "6", "--compare", str(variant),
               "--json")
    assert proc.returncode == 0, proc.stderr
    both = json.loads(proc.stdout)
    assert both["a"]["ruleset"] == "wenling-hong-wu"
    assert both["b"]["ruleset"] == "wenling-hong-wu-loose"
    # Same seeds, same deck: the same deals, so the same defender points.
    assert both["a"]["defender_points"] == both["b"]["defender_points"]


def test_a_human_gets_a_second_chance_on_bad_input():
    import random as _r
    from io import StringIO

    from rich.console import Console

    from rulesdsl.headless.human import HumanAgent

    ruleset = rulesdsl.load("guan-pai")
    state = ruleset.new_game(seed=3, hands=1)
    rng = _r.Random(3)
    bad = iter(["hello", "X9", "999", "S3 S3 S3 S3 S3"])

    def ask(prompt: str) -> str:
        answer = next(bad, None)
        return answer if answer is not None else str(state.sample_action(rng))

    buffer = StringIO()
    human = HumanAgent(ask=ask, console=Console(file=buffer, width=120, force_terminal=False))
    while not state.is_terminal():
        if state.current_player == 0:
            state.apply(human.act(state, rng))
        else:
            state.apply(state.sample_action(rng))
    shown = buffer.getvalue()
    assert "your hand:" in shown
    assert shown.count("try again") + shown.count("choose 1 to") >= 3


def test_the_human_sees_coloured_sorted_cards():
    from io import StringIO

    from rich.console import Console

    from rulesdsl.headless.human import HumanAgent

    ruleset = rulesdsl.load("taicang-zhongxin-wu")
    state = ruleset.new_game(seed=1, hands=1)
    import random as _r

    rng = _r.Random(1)
    while state.phase != "play":
        state.apply(state.sample_action(rng))
    buffer = StringIO()
    HumanAgent(ask=lambda p: "", console=Console(file=buffer, force_terminal=True,
                                                 color_system="standard", width=200)).show(
        state, state.current_player)
    text = buffer.getvalue()
    assert "\x1b[31m" in text  # red suits are red
    hand = [k for k in HumanAgent(ask=lambda p: "")._sorted_cards(state, state.current_player)]
    trumps = [state.hc.is_trump[k] for k in hand]
    assert trumps == sorted(trumps, reverse=True)  # trumps first


def test_simulate_on_a_local_ray_instance_matches_local_processes():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        # 12 games on 2 CPUs: 8 batches, some of two games.
        on_ray = simulate("wenling-hong-wu", 12, seed=9, backend="ray", progress=False)
    finally:
        ray.shutdown()
    local = simulate("wenling-hong-wu", 12, seed=9, workers=1, progress=False)
    assert on_ray == local


@given(st.integers(0, 700), st.integers(1, 64))
def test_ray_batches_cover_the_games_in_order(games, cpus):
    jobs = [(i,) for i in range(games)]
    out = batches(jobs, cpus)
    assert [job for batch in out for job in batch] == jobs
    assert len(out) <= max(1, BATCHES_PER_CPU * cpus)
    sizes = {len(b) for b in out}
    assert all(sizes) and (not sizes or max(sizes) - min(sizes) <= 1)
