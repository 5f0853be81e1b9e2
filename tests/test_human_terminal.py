"""A person at the table, driven through a pseudo-terminal as a shell runs it (issue 20):
a whole game of a trick, a shedding and a tile ruleset played to its end by typing
choices, the table shown before each move, the others' plays told as they happen."""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time

import pytest

from rulesdsl.headless.human import HumanAgent, typed_action

PROMPT = b"your move> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def drive(args: list[str], answers: list[str], seconds: float = 240) -> tuple[int, str, int]:
    """Run `rulesdsl ARGS` on a terminal; at each prompt type the next answer (the last
    one again when they run out). Returns the exit code, the text and the prompts seen."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI on the terminal
        os.execv(sys.executable, [sys.executable, "-m", "rulesdsl", *args])
    out = b""
    prompts = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        if out.endswith(PROMPT) or out.rstrip().endswith(PROMPT.rstrip()):
            answer = answers[min(prompts, len(answers) - 1)]
            prompts += 1
            os.write(fd, answer.encode() + b"\n")
    else:
        os.kill(pid, 9)
        pytest.fail(f"the game did not end in {seconds} s")
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), ANSI.sub("", out.decode("utf-8", "replace")), \
        prompts


@pytest.mark.parametrize("name, seats", [("huzhou-hong-wu", 4), ("dou-dizhu", 3),
                                         ("wenling-mahjong", 4)])
def test_a_person_plays_a_whole_hand_on_a_terminal(name: str, seats: int) -> None:
    agents = ",".join(["human"] + ["random"] * (seats - 1))
    # help first, a word that is no move, then always the first choice (of the first group)
    code, text, prompts = drive(["play", name, "--seed", "5", "--hands", "1",
                                 "--agents", agents], ["help", "nonsense", "1"])
    assert code == 0, text[-2000:]
    assert prompts > 3
    text = " ".join(text.split())  # the terminal wraps long lines
    assert "Type a choice's number" in text  # help was understood
    assert "try again" in text  # the nonsense was refused, with a second chance
    assert "you are seat 0" in text and "cards left:" in text
    assert "Result:" in text and "hand(s) played" in text
    if name == "wenling-mahjong":
        assert "wild tile turned up" in text and "seat 1 discards" in text
        return
    # the others' plays are told as they happen; only this seat's hand is shown at the deal
    unit = "trick" if name == "huzhou-hong-wu" else "round"
    assert re.search(rf"{unit} 1: .*?seat 1 ", text)
    # choices are shown in the terminal's notation, as the hand is
    assert not re.search(r" 1\. [SHDC](?:10|[2-9JQKA])\b", text)
    assert "seat 1 holds" not in text and "seat 2 holds" not in text
    if name == "huzhou-hong-wu":
        assert "(partner: seat 2)" in text and "trump:" in text


def test_typed_cards_in_either_notation_are_one_action() -> None:
    assert typed_action("s8 h8", False) == "S8 H8"
    assert typed_action("♠8 ♥8", False) == "♠8 ♥8"
    assert typed_action("s8 h8 d8 lj lj as bomb", False) == "S8 H8 D8 LJ LJ as bomb"
    assert typed_action("PASS", False) == "pass"


def test_many_choices_come_in_groups() -> None:
    import random
    from io import StringIO

    from rich.console import Console

    import rulesdsl

    state = rulesdsl.load("dou-dizhu").new_game(seed=2, hands=1)
    rng = random.Random(2)
    while state.legal_actions().count() <= 40:
        state.apply(state.sample_action(rng))
    answers = iter(["1", "1"])  # the first group, then its first action
    buffer = StringIO()
    human = HumanAgent(ask=lambda prompt: next(answers),
                       console=Console(file=buffer, width=120, force_terminal=False))
    action = human.act(state, rng)
    shown = buffer.getvalue()
    assert "choices, in groups:" in shown
    groups = re.findall(r"^\s+\d+\. (.+) \((\d+)\)$", shown, re.M)
    assert sum(int(n) for _, n in groups) == state.legal_actions().count()
    assert state.is_legal(action)
