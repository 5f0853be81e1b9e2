"""Tile rules Wenling does not use (issue 18): a hand with no tile turned up
(`deal.turn_up: none`, as in Sichuan's 108 tiles), on a small three-suit ruleset."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.errors import RulesdslError

THREE_SUITS = textwrap.dedent("""\
    language: 1
    id: three-suits
    family: tiles
    players: {count: 4, direction: counter-clockwise, teams: none}
    tileset: {suits: [m, p, s], honors: false, flowers: 0, copies: 4}   # 108 tiles
    deal: {hand_size: 13, dealer_extra: 1, turn_up: none}
    win: {sets: 4, pairs: 1, set_kinds: [pung, kong]}
    scoring:
      items:
        - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}
      totals: {winner: winner_total, others: other_total}
    formulas:
      winner_total: {input: [fan], expr: "2 ** fan"}
      other_total: {input: [fan], expr: "0 * fan"}
      payment_to_winner: {input: [total, stake], expr: "total * stake"}
    play:
      chow_from: none
      payments: {to_winner: payment_to_winner, stake: 1}
      next_dealer: winner
    """)


@pytest.fixture(scope="module")
def three_suits(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("tiles")) / "three-suits.yaml"
    path.write_text(THREE_SUITS, encoding="utf-8")
    return rulesdsl.load(path)


def test_no_tile_is_turned_up(three_suits):
    for seed in range(10):
        st = three_suits.new_game(seed=seed)
        assert st.turned is None
        assert st.back - st.front == 108 - 4 * 13 - 1  # the dealer's extra tile only
        assert st.observation(1)["turned"] is None
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply(st.sample_action(rng))
        back = three_suits.game().state_from_json(st.to_json())
        assert back.to_json() == st.to_json()


def test_a_saved_state_claiming_a_turned_tile_is_refused(three_suits):
    st = three_suits.new_game(seed=3)
    data = json.loads(st.to_json())
    data["turned"] = 0
    with pytest.raises(RulesdslError, match="turned"):
        three_suits.game().state_from_json(json.dumps(data))


def test_wenling_still_turns_up_its_wild_tile():
    st = rulesdsl.load("wenling-mahjong").new_game(seed=1)
    assert st.turned is not None
