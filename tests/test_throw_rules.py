"""How answers to a throw compare (`throw.ranked_by`), shown as scenarios under each
choice: a thrown pair and single of clubs, ruffed by two void players; the second's pair
is higher, its single lower."""

from __future__ import annotations

import pytest

from rulesdsl.api import validate_file

from .test_no_trump import TEXT

SCENARIO = """\
  - scenario: "two ruffs of a thrown pair and single: who wins by RULE"
    context: {trump: S, level: 7}
    hands: {0: "CA CA CK D2", 1: "S3 S3 S9 D3", 2: "C4 C5 C6 D4", 3: "S10 S10 S4 D5"}
    dealer: 0
    turn: 0
    actions: ["CA CA CK", "S3 S3 S9", "C4 C5 C6", "S10 S10 S4"]
    expect: {winner: WHO}
"""


@pytest.mark.parametrize("rule,who", [
    ("largest_unit", 3),   # S10 S10 over S3 S3
    ("every_unit", 1),     # S4 does not beat S9: seat 3 beats not every unit
    ("highest_card", 3),   # S10 over S9
])
def test_answers_to_a_throw_compare_as_ranked_by_says(tmp_path, rule, who) -> None:
    check(tmp_path, f"ranked_by: {rule}", SCENARIO.replace("RULE", rule), who, 4 - who)


def check(tmp_path, setting: str, scenario: str, who: int, other: int) -> None:
    """The scenario passes with `who` winning under the setting, and fails with `other`."""
    text = TEXT.replace("JOKERS", "none").replace(
        "  result: {table: result}\n",
        f"  throw: {{allowed: plain, {setting}}}\n  result: {{table: result}}\n")
    i = text.index("examples:\n") + len("examples:\n")
    text = text[:i] + scenario.replace("WHO", str(who))
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    assert [p.format() for p in validate_file(path).problems] == []
    # the other answer fails: the choice decides
    path.write_text(text.replace(f"winner: {who}", f"winner: {other}"), encoding="utf-8")
    assert validate_file(path).problems


RUFF = """\
  - scenario: "a trump pair answers two thrown singles: it counts by RULE"
    context: {trump: S, level: 7}
    hands: {0: "CA CK D2", 1: "S3 S3 D3", 2: "C4 C5 D4", 3: "S4 D5 D6"}
    dealer: 0
    turn: 0
    actions: ["CA CK", "S3 S3", "C4 C5", "S4 D5"]
    expect: {winner: WHO}
"""


@pytest.mark.parametrize("rule,who", [("arrangement", 1), ("components", 0)])
def test_how_a_ruff_matches_a_throw(tmp_path, rule, who) -> None:
    check(tmp_path, f"ruff_match: {rule}", RUFF.replace("RULE", rule), who, 1 - who)
