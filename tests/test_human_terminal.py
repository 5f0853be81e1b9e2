"""A person at the table, driven through a pseudo-terminal as a shell runs it (issue 20):
a whole game of a trick, a shedding and a tile ruleset played to its end by typing
choices, the table shown before each move, the others' plays told as they happen."""

from __future__ import annotations

import re

import pytest

from rulesdsl.headless.human import HumanAgent, typed_action

from .helpers import on_terminal

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


@pytest.mark.parametrize("name, seats", [("huzhou-hong-wu", 4), ("dou-dizhu", 3),
                                         ("wenling-mahjong", 4)])
def test_a_person_plays_a_whole_hand_on_a_terminal(name: str, seats: int) -> None:
    agents = ",".join(["human"] + ["random"] * (seats - 1))
    # help first, a word that is no move, then always the first choice (of the first group)
    code, raw, prompts = on_terminal(["play", name, "--seed", "5", "--hands", "1",
                                      "--agents", agents], ["help", "nonsense", "1"])
    text = ANSI.sub("", raw)
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
