"""Player counts and options chosen at play time, and rules of a hand's first play.

`new_game(players=N, options={...})` and `rulesdsl play/simulate --players N --option
NAME=VALUE` play the rule file compiled for that count and those values; a count or a
value the file does not offer is refused, naming what it offers. Guan Pai (2 or 3
players) settles every opponent of the first player out, and its first play holds ♠3 in
the first hand only, or in every hand under the option opening_play.
"""

from __future__ import annotations

import json
import random

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.cli import main
from rulesdsl.errors import RulesdslError

GUAN_PAI = rulesdsl.api.load("guan-pai")
HOLDER = [nt.parse_card(c) for c in ("S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10")]


def finish_hand(state, rng: random.Random) -> None:
    hand = state.hand_no
    while not state.is_terminal() and state.hand_no == hand:
        state.apply(state.sample_action(rng))


def first_play_card(state) -> int:
    """The holder card that chose this hand's leader (what its first play must hold)."""
    hand = state.hands[state.current_player]
    return next(k for k in HOLDER if hand[k])


@pytest.mark.parametrize("seed", range(6))
def test_three_players_each_pay_the_first_out(seed: int) -> None:
    state = GUAN_PAI.new_game(seed=seed, players=3)
    assert state.game.players == 3
    assert [sum(h) for h in state.hands] == [16, 16, 16]  # no unused hand with three
    rng = random.Random(seed)
    finish_hand(state, rng)
    result = state.results[-1]
    first = result["order"][0]
    assert result["places"][first] == 1
    left = [sum(h) for h in state.hands]
    assert left[first] == 0
    # 「关对手的积分为对手手中的牌数乘以每张牌的底数，关对方16张，可获双倍积分」: both opponents.
    owed = {s: left[s] * (2 if left[s] == 16 else 1) for s in range(3) if s != first}
    assert all(owed[s] > 0 for s in owed)
    assert state.returns() == [float(sum(owed.values())) if s == first else -float(owed[s])
                               for s in range(3)]


@pytest.mark.parametrize("seed", range(4))
def test_the_first_hand_opens_with_the_holder_card_and_later_hands_are_free(seed: int) -> None:
    state = GUAN_PAI.new_game(seed=seed, hands=3)
    card = first_play_card(state)
    assert all(card in a.cards for a in state.legal_actions())
    rng = random.Random(seed)
    finish_hand(state, rng)
    assert state.hand_no == 1
    card = first_play_card(state)
    assert any(card not in a.cards for a in state.legal_actions())


@pytest.mark.parametrize("seed", range(4))
def test_option_every_hand_opens_every_hand_with_the_holder_card(seed: int) -> None:
    state = GUAN_PAI.new_game(seed=seed, hands=3, options={"opening_play": "every_hand"})
    rng = random.Random(seed)
    for hand in range(3):
        assert state.hand_no == hand
        card = first_play_card(state)
        actions = list(state.legal_actions())
        assert actions and all(card in a.cards for a in actions)
        finish_hand(state, rng)


def test_choices_the_file_does_not_offer_are_refused() -> None:
    with pytest.raises(RulesdslError, match="2 or 3 players, not 5"):
        GUAN_PAI.new_game(seed=1, players=5)
    with pytest.raises(RulesdslError, match="no option 'fast'.*bare_bomb, opening_play"):
        GUAN_PAI.new_game(seed=1, options={"fast": True})
    with pytest.raises(RulesdslError, match="first_hand, every_hand, not 'x'"):
        GUAN_PAI.new_game(seed=1, options={"opening_play": "x"})
    with pytest.raises(RulesdslError, match="players is a whole number"):
        GUAN_PAI.new_game(seed=1, players="3")


def test_the_default_count_is_the_same_game() -> None:
    a = GUAN_PAI.new_game(seed=9)
    b = GUAN_PAI.new_game(seed=9, players=2, options={"opening_play": "first_hand"})
    assert a.to_json() == b.to_json()


def test_cli_play_and_simulate_take_players_and_options(capsys) -> None:
    assert main(["play", "guan-pai", "--players", "3", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["returns"]) == 3 and sum(out["returns"]) == 0
    assert main(["play", "guan-pai", "--players", "4"]) == 2
    assert "2 or 3 players, not 4" in capsys.readouterr().err
    assert main(["simulate", "big-two", "--games", "6", "--option", "scoring=hong_kong",
                 "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["games"] == 6
    assert main(["play", "big-two", "--option", "scoring=x"]) == 2
    assert "not one of per_card, hong_kong" in capsys.readouterr().err


def test_a_play_setting_may_be_left_to_an_option(tmp_path) -> None:
    # `must_play_holder: {option: NAME}`: every choice of the option must be a value the
    # engine plays for that setting.
    text = (rulesdsl.resources.bundled_rulesets()["guan-pai"].read_text(encoding="utf-8")
            .replace("    choices: [first_hand, every_hand]",
                     "    choices: [first_hand, sometimes]"))
    path = tmp_path / "gp.yaml"
    path.write_text(text, encoding="utf-8")
    result = rulesdsl.api.validate_file(path, run_examples_too=False)
    assert not result.ok
    words = "option 'opening_play' offers 'sometimes'"
    assert any(words in p.message for p in result.problems), \
        [p.format() for p in result.problems]
