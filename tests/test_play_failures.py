"""A rule that fails while a hand is played (issue 19, "Numbers and formulas at play time").

The failing action raises PlayError naming the rule's file:line:column, the seed and the
action, and leaves the state exactly as it was; `play` reports it without a traceback.
Numbers no game can play with are refused when the file is validated.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.api import validate_file
from rulesdsl.engine.base import PlayError

ROOT = Path(__file__).resolve().parent.parent

# Each child divides by zero in a formula its engine evaluates when a hand ends.
BROKEN = {
    "guan-pai": ("loser_pays", "[cards_left, base]", "cards_left // (base - base)"),
    "huzhou-hong-wu": ("level_swing", "[defender_levels, dealer_levels]",
                       "defender_levels // (dealer_levels - dealer_levels)"),
    "wenling-mahjong": ("payment_to_winner", "[total, stake]", "total // (stake - stake)"),
}


def broken_child(tmp_path: Path, parent: str) -> Path:
    name, inputs, expr = BROKEN[parent]
    path = tmp_path / f"{parent}-broken.yaml"
    path.write_text(f"language: 1\nid: broken\nextends: {parent}\nformulas:\n  {name}:\n"
                    f"    input: {inputs}\n    expr: \"{expr}\"\nexamples: []\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("parent", sorted(BROKEN))
def test_a_failing_rule_leaves_the_state_untouched(tmp_path: Path, parent: str) -> None:
    path = broken_child(tmp_path, parent)
    ruleset = rulesdsl.load(path)
    assert ruleset.play_can_fail
    for seed in range(40):
        state = ruleset.new_game(seed=seed, hands=1)
        rng = random.Random(seed)
        while not state.is_terminal():
            action = state.sample_action(rng)
            before = state.to_json()
            try:
                state.apply(action)
            except PlayError as exc:
                message = str(exc)
                assert message.startswith(f"{path}:5:3: formula "), message
                assert "division by zero" in message and f"seed {seed}" in message
                assert f"action {action}" in message
                assert state.to_json() == before  # nothing of the action was applied
                assert state.legal_actions().count() > 0 and state.is_legal(action)
                return
    pytest.fail("no game reached the failing rule")


def test_play_reports_a_failing_rule_without_a_traceback(tmp_path: Path) -> None:
    path = broken_child(tmp_path, "guan-pai")
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "play", str(path), "--seed", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{path}:5:3: formula 'loser_pays': division by zero (seed 1" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_rules_that_cannot_fail_take_no_snapshots() -> None:
    # a known non-zero divisor (a literal, an option whose choices are all non-zero) and
    # tables with catch-all rows: nothing to roll back, nothing to pay for it
    for name in ("guan-pai", "huzhou-hong-wu", "taicang-zhongxin-wu", "big-two"):
        assert not rulesdsl.load(name).play_can_fail, name
    # A power of a value read from the hand (Dou Dizhu's 2 ** bombs) may pass the bound on
    # numbers: that ruleset snapshots before the actions that settle a hand.
    assert rulesdsl.load("dou-dizhu").play_can_fail


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
def test_a_number_no_game_can_play_with_is_refused(tmp_path: Path, value: str) -> None:
    path = tmp_path / "inf.yaml"
    path.write_text("language: 1\nid: inf\nextends: guan-pai\noptions:\n  stake:\n"
                    f"    default: {value}\n", encoding="utf-8")
    found = [p.format() for p in validate_file(path).problems]
    assert any("is not a finite number" in p and ":6:" in p for p in found), found


def test_a_formula_beyond_any_score_is_an_error_not_an_overflow(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("language: 1\nid: huge\nextends: guan-pai\nformulas:\n  loser_pays:\n"
                    "    input: [cards_left, base]\n"
                    "    expr: \"(cards_left + 2) ** 64 * (cards_left + 2) ** 64\"\n"
                    "examples: []\n", encoding="utf-8")
    ruleset = rulesdsl.load(path)
    state = ruleset.new_game(seed=3, hands=1)
    rng = random.Random(3)
    with pytest.raises(PlayError, match="out of range"):
        while not state.is_terminal():
            state.apply(state.sample_action(rng))


@pytest.mark.parametrize("seed", [-1, 2**63, 10**5000, 1.5, True, "7"],
                         ids=["negative", "2^63", "5000 digits", "float", "bool", "text"])
def test_a_seed_out_of_range_is_refused(seed) -> None:
    with pytest.raises(rulesdsl.RulesdslError, match="the seed is a whole number"):
        rulesdsl.load("guan-pai").new_game(seed=seed)


@pytest.mark.parametrize("hands", [0, -3, 10**6, 2.0])
def test_a_hand_count_out_of_range_is_refused(hands) -> None:
    with pytest.raises(rulesdsl.RulesdslError, match="hands is a whole number"):
        rulesdsl.load("guan-pai").new_game(seed=1, hands=hands)


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
def test_a_non_finite_number_where_the_schema_checks_a_step_is_refused(
        tmp_path: Path, value: str) -> None:
    # counts_as_size is a multiple of 0.5: jsonschema's multipleOf raised OverflowError on
    # .inf (found by the long fuzz run, seed 2032 input 1094); now one located problem
    path = tmp_path / "inf.yaml"
    path.write_text("language: 1\nid: inf\nextends: dou-dizhu\npatterns:\n  list:\n"
                    f"    - {{name: rocket, cards: LJ BJ, bomb: true, counts_as_size: {value}}}\n",
                    encoding="utf-8")
    found = [p.format() for p in validate_file(path).problems]
    assert len(found) == 1, found
    assert f"{path}:6:" in found[0] and "counts_as_size" in found[0]
    assert "is not a finite number" in found[0]
