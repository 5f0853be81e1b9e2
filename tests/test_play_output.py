"""What `rulesdsl play` shows a person (issue 20): the game told trick by trick, round by
round or turn by turn, in one notation per output (letters when piped, suit pictures on a
terminal), a result in words, JSON unchanged on request; `rulesdsl list`; help text."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulesdsl.cli import build_parser, main
from rulesdsl.resources import bundled_rulesets

from .helpers import on_terminal

ANSI = re.compile(r"\x1b\[")
LETTER_CARD = re.compile(r"(?<![\w])(?:[SHDC](?:10|[2-9JQKA])|LJ|BJ)(?![\w])")
SUITED_LETTERS = re.compile(r"(?<![\w])[SHDC](?:10|[2-9JQKA])(?![\w])")
PICTURE = re.compile("[♠♥♦♣]")
GAMES = {"trick": "huzhou-hong-wu", "shedding": "dou-dizhu", "tiles": "wenling-mahjong"}


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "rulesdsl", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def log_events(path: Path) -> list[dict]:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    return [x["event"] for x in lines if x["type"] == "event"]


@pytest.mark.parametrize("family", sorted(GAMES))
def test_piped_play_tells_the_game_in_letters(tmp_path: Path, family: str) -> None:
    name = GAMES[family]
    log = tmp_path / "game.jsonl"
    text = run("play", name, "--seed", "7", "--hands", "1", "--log", str(log))
    assert not ANSI.search(text) and not PICTURE.search(text)
    events = log_events(log)
    results = [e for e in events if e["type"] == "hand_end"] or [None]
    assert text.count("Result:") == len(results)
    if family == "tiles":
        # every discard is told, in turn order, a go-around per line
        discards = [f"seat {e['seat']} {e['tile']}" for e in events if e["type"] == "discard"]
        told = re.findall(r"seat \d \d[mpsz]", text)
        assert told == discards
        return
    assert LETTER_CARD.search(text)
    # each trick or round is one line naming its winner, as the log's events do
    unit = "trick" if family == "trick" else "round"
    winners = [e["winner"] for e in events if e["type"] == unit]
    told = [int(w) for w in re.findall(rf"^  {unit} \d+: .* → seat (\d) wins", text, re.M)]
    assert told == winners and winners
    # every card a seat played is on the lines, in the log's play order
    plays = [e["cards"] for e in events if e["type"] == "play"]
    lines = "\n".join(line for line in text.splitlines() if line.startswith(f"  {unit} "))
    for cards in plays:
        assert all(card in lines for card in cards.split()), cards


@pytest.mark.parametrize("family", sorted(GAMES))
def test_a_terminal_gets_suit_pictures_and_colour(family: str) -> None:
    # driven through a pseudo-terminal, as a person's shell runs it
    code, text, _ = on_terminal(["play", GAMES[family], "--seed", "7", "--hands", "1"])
    assert code == 0
    assert ANSI.search(text)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "Result:" in plain
    if family == "tiles":
        assert re.search(r"seat \d \d[mpsz] · seat \d \d[mpsz]", plain)
        return
    assert PICTURE.search(text)
    assert ("round 1:" if family == "shedding" else "trick 1:") in plain
    # one notation: no suited card in letters on the terminal (jokers read BJ, LJ in both)
    assert not SUITED_LETTERS.search(plain.split("Hand 1", 1)[1])


def test_json_is_the_summary_and_quiet_is_the_results() -> None:
    as_json = json.loads(run("play", "huzhou-hong-wu", "--seed", "7", "--json"))
    assert as_json == json.loads(run("play", "huzhou-hong-wu", "--seed", "7",
                                     "--format", "json"))
    quiet = run("play", "huzhou-hong-wu", "--seed", "7", "-q").splitlines()
    results = [line for line in quiet if line.startswith("  Result: ")]
    assert len(results) == as_json["hands"] == len(as_json["results"])
    assert not any("trick" in line for line in quiet)
    # the levels told are the levels the results hold
    for line, result in zip(results, as_json["results"]):
        after = result["team_levels"]
        assert ("levels stay " + " / ".join(after)) in line or all(
            f"→ {level}" in line for level in after if f"→ {level}" in line)
    final = quiet[-1]
    assert all(f"seat {s} {v:+g}" in final for s, v in enumerate(as_json["returns"]))


def test_a_seat_at_the_table_is_told_only_what_it_sees() -> None:
    import random

    import rulesdsl
    from rulesdsl.headless.narrate import Narrator

    ruleset = rulesdsl.load("dou-dizhu")
    lines: list[str] = []
    narrator = Narrator(ruleset, lines.append, pictures=False, viewer=0)
    state = ruleset.new_game(seed=7, hands=1)
    narrator.events(state, state.log)
    rng = random.Random(1)
    seen = len(state.log)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        narrator.events(state, state.log[seen:])
        seen = len(state.log)
    told = "\n".join(lines)
    deal = next(e for e in state.log if e["type"] == "deal")
    assert f"seat 0 holds {' '.join(sorted(deal['hands'][0].split()))}" not in told  # sorted
    assert "seat 0 holds" in told
    assert "seat 1 holds" not in told and "seat 2 holds" not in told
    assert "kitty:" not in told


def test_list_names_every_bundled_ruleset() -> None:
    rows = json.loads(run("list", "--format", "json"))
    files = bundled_rulesets()
    assert sorted(r["id"] for r in rows) == sorted(files)
    for row in rows:
        head = yaml.safe_load(files[row["id"]].read_text(encoding="utf-8"))
        assert row["family"] == head["family"]
    text = run("list")
    for rid in files:
        assert re.search(rf"^{re.escape(rid)}\s+\w+\s+", text, re.M), rid


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_option_and_argument_has_help() -> None:
    missing = [f"{name} {a.option_strings or a.dest}"
               for name, sp in _subcommands().items() for a in sp._actions
               if not isinstance(a, argparse._HelpAction) and not a.help]
    assert missing == []


def test_the_examples_in_help_run(capsys: pytest.CaptureFixture[str]) -> None:
    # an example names RULESET (the package names no game): a bundled ruleset of the
    # command's family stands in, here the tile ruleset that turns up a wild tile
    examples = [line.strip().split()[1:] for sp in _subcommands().values()
                for line in (sp.epilog or "").splitlines()
                if line.strip().startswith("rulesdsl ")]
    assert examples, "some command's help shows an example"
    for argv in examples:
        argv = ["wenling-mahjong" if a == "RULESET" else a for a in argv]
        assert main(argv) == 0, argv
    capsys.readouterr()


def test_one_output_format_flag_across_commands() -> None:
    # every command that reports takes --format with text and json (doc: md or html)
    commands = _subcommands()
    for name in ("validate", "check", "score", "play", "replay", "simulate", "explain",
                 "list"):
        fmt = [a for a in commands[name]._actions if "--format" in a.option_strings]
        assert fmt and {"text", "json"} <= set(fmt[0].choices or []), name
    # --json, where it is still taken, means --format json
    for name in ("score", "play", "simulate"):
        flag = [a for a in commands[name]._actions if "--json" in a.option_strings]
        assert not flag or "--format json" in (flag[0].help or ""), name


def test_every_command_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse formats help text with %: a stray % (95% …) breaks `--help` only
    for name in _subcommands():
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0, name
        assert "usage: rulesdsl" in capsys.readouterr().out


@pytest.mark.parametrize("family", sorted(GAMES))
def test_json_holds_the_game_the_log_holds(tmp_path: Path, family: str) -> None:
    log = tmp_path / "game.jsonl"
    summary = json.loads(run("play", GAMES[family], "--seed", "3", "--hands", "1",
                             "--format", "json", "--log", str(log)))
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert summary["returns"] == lines[-1]["returns"]
    assert summary["hands"] == len(summary["results"]) == 1
    assert summary["ruleset"] == GAMES[family] and summary["seed"] == 3
