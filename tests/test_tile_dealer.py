"""Who deals after a tile hand is a rule choice (play.next_dealer), not engine code.

The seed's own rule (坐庄 / 下庄) is the bundled default; the other two choices are checked
on the same positions by swapping in a child ruleset's engine (extends: wenling-mahjong).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl

from .test_tile_rules import DISCARD_7P, WAIT_7P, position


def with_next_dealer(tmp_path: Path, choice: str):
    child = tmp_path / f"next-dealer-{choice}.yaml"
    child.write_text(f"language: 1\nid: next-dealer-{choice.replace('_', '-')}\n"
                     f"extends: wenling-mahjong\nplay:\n  next_dealer: {choice}\n",
                     encoding="utf-8")
    return rulesdsl.load(str(child)).game()


def win_by(winner: int, dealer: int, game=None):
    """Seat `winner` wins on the 7p that the seat before it discards."""
    discarder = (winner - 1) % 4
    hands = [WAIT_7P if s == winner else DISCARD_7P for s in range(4)]
    st = position(hands, to_act=discarder, dealer=dealer, hands_to_play=2)
    if game is not None:
        st.game = game  # same deal and tables; only the play section differs
    st.apply("discard 7p")
    while st.to_act != winner:
        st.apply("pass")
    st.apply("win 7p")
    assert st.results[-1]["winner"] == winner
    return st


# (winner, dealer) -> who deals next, by the rule's own words
CASES = {
    "unless_dealer_wins": {(0, 0): 0, (2, 0): 1, (3, 1): 2},
    "next_player": {(0, 0): 1, (2, 0): 1, (3, 1): 2},
    "winner": {(0, 0): 0, (2, 0): 2, (3, 1): 3},
}


@pytest.mark.parametrize("choice", sorted(CASES))
def test_the_next_dealer_follows_the_rule_chosen(tmp_path: Path, choice: str) -> None:
    game = None if choice == "unless_dealer_wins" else with_next_dealer(tmp_path, choice)
    for (winner, dealer), expected in CASES[choice].items():
        st = win_by(winner, dealer, game)
        assert st.dealer == expected, (choice, winner, dealer)


def test_the_bundled_rule_is_the_seeds() -> None:
    assert rulesdsl.load("wenling-mahjong").play.next_dealer == "unless_dealer_wins"


def test_an_unknown_choice_is_refused(tmp_path: Path) -> None:
    child = tmp_path / "bad.yaml"
    child.write_text("language: 1\nid: bad\nextends: wenling-mahjong\n"
                     "play:\n  next_dealer: loser\n", encoding="utf-8")
    result = rulesdsl.validate_file(child)
    assert not result.ok
    assert any("next_dealer" in p.format() and ":5:" in p.format() for p in result.problems)
