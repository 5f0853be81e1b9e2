"""Tribute between hands (进贡 / 还贡 / 抗贡) on the small 掼蛋-like file of test_shed_levels.

After each hand the last out pays the first out a highest card (never the wild heart of
the level); when one side took the last two places both its players pay, the higher card
to the first out; each receiver gives back a card of rank 10 or lower to whoever paid
them; both big jokers among the payers' cards cancel the tribute. Checked over whole
seeded matches against the previous hand's finishing order, with conservation of cards.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rulesdsl import notation as nt
from rulesdsl.api import load, validate_file
from rulesdsl.errors import RulesdslError

from .test_shed_levels import TEXT

TRIBUTE = """\
  tribute:
    both_last: true
    card: "not (suit == H and rank == level)"
    back: "rank <= 10 and not is_joker"
    resist: "count(hand, card == BJ) >= 2"
    leads: payer
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("tr")) / "tribute.yaml"
    path.write_text(TEXT.replace("  win_at_top: 2\n", "  win_at_top: 2\n" + TRIBUTE),
                    encoding="utf-8")
    assert validate_file(path).ok, [p.format() for p in validate_file(path).problems]
    return load(path)


def finish_phase(state, rng, phase):
    while state.phase == phase:
        state.apply(state.sample_action(rng))


@pytest.mark.parametrize("seed", range(4))
def test_every_tribute_follows_the_last_hands_order(ruleset, seed) -> None:
    rng = random.Random(seed)
    state = ruleset.new_game(seed=seed, hands=6)
    tributes = resisted = 0
    while not state.is_terminal():
        hand = state.hand_no
        if state.phase == "tribute":
            order = state.results[-1]["order"]
            double = order[-1] % 2 == order[-2] % 2 != order[0] % 2
            payers = [order[-2], order[-1]] if double else [order[-1]]
            receivers = [order[0], order[1]] if double else [order[0]]
            assert state.tribute["payers"] == payers
            hc = state.hc
            level_heart = next(k for k in hc.wild_of)
            # a payer may give only a highest card that is not the wild heart
            for payer in payers:
                assert state.current_player == payer
                held = [k for k, c in enumerate(state.hands[payer]) if c and k != level_heart]
                top = max(hc.strength[k] for k in held)
                listed = [a.cards[0] for a in state.legal_actions()]
                assert listed and all(hc.strength[k] == top for k in listed)
                assert level_heart not in listed
                state.apply(state.sample_action(rng))
            assert state.phase == "return"
            paid = state.tribute["paid"]
            assert [p[0] for p in paid] and hc.strength[paid[0][1]] >= hc.strength[paid[-1][1]]
            for receiver in receivers:
                assert state.current_player == receiver
                for a in state.legal_actions():
                    k = a.cards[0]
                    assert nt.card_suit(k) is not None and nt.card_rank(k) <= 10
                state.apply(state.sample_action(rng))
            assert state.phase == "play"
            assert state.current_player == paid[0][0]  # the payer of the higher card leads
            assert all(sum(h) == 27 for h in state.hands)
            tributes += 1
            saved = state.to_json()
            assert ruleset.state_from_json(saved).to_json() == saved
        elif hand > 0 and state.log[-1]["type"] == "lead" and \
                any(e["type"] == "tribute_resisted" and e["hand"] == hand for e in state.log):
            resisted += 1
        while not state.is_terminal() and state.hand_no == hand:
            state.apply(state.sample_action(rng))
    assert tributes >= 3


def test_a_saved_tribute_is_checked(ruleset) -> None:
    rng = random.Random(1)
    state = ruleset.new_game(seed=1, hands=3)
    while state.phase != "tribute":
        state.apply(state.sample_action(rng))
    data = json.loads(state.to_json())
    data["tribute"]["payers"] = data["tribute"]["receivers"]
    with pytest.raises(RulesdslError, match="payers and receivers"):
        ruleset.state_from_json(json.dumps(data))
    state.apply(state.sample_action(rng))
    if state.phase == "tribute":
        state.apply(state.sample_action(rng))
    data = json.loads(state.to_json())
    moved = next(e for e in data["log"] if e["type"] == "give")
    moved["to"] = (moved["to"] + 1) % 4
    with pytest.raises(RulesdslError):
        ruleset.state_from_json(json.dumps(data))


def test_both_big_jokers_with_the_payers_cancel_the_tribute(ruleset) -> None:
    from rulesdsl.engine.base import Action

    state = ruleset.new_game(seed=2, hands=2)
    state.results = [{"order": [0, 2, 1, 3], "returns": [0.0] * 4}]
    bj = nt.parse_card("BJ")
    for s in range(4):  # seat 3 (the last out) holds both big jokers
        state.hands[s][bj] = 2 if s == 3 else 0
    state.log.clear()
    assert state._begin_tribute() is False
    assert state.log[-1]["type"] == "tribute_resisted"
    assert Action  # the game then leads by then_lead (the first out)


def _position(ruleset, **kw):
    from rulesdsl.engine.base import Position

    hands = {0: nt.parse_cards("S3 S9 SK"), 1: nt.parse_cards("S4 S5"),
             2: nt.parse_cards("S6 S7"), 3: nt.parse_cards("H2 SA SA S5")}
    return ruleset.game().position(Position(hands=hands, context={"level": 2}, **kw))


def test_a_position_after_a_hand_starts_with_its_tribute(ruleset) -> None:
    st = _position(ruleset, last_order=[0, 1, 2, 3])
    # the last out (3) pays one of its highest cards; the wild ♥2 is not payable
    assert (st.phase, st.current_player) == ("tribute", 3)
    assert [str(a) for a in st.legal_actions()] == ["tribute SA"]
    # the previous hand is its first out's: then_lead and the level follow it
    assert st.results[-1]["order"] == [0, 1, 2, 3] and st.hand_no == 1


@pytest.mark.parametrize("kw,message", [
    ({"last_order": [0, 1, 2]}, "names every seat"),
    ({"last_order": [1, 0, 2, 3], "side_levels": {0: 2, 1: 5}}, "played at the level of side 1"),
    ({"side_levels": {2: 5}}, "no side 2"),
    ({"side_levels": {0: 5, 1: 6}}, "is no side's level"),
    ({"top_failed": {0: 1}}, "sends no side back"),
    ({"last_order": [0, 1, 2, 3], "turn": 0}, "starts with its tribute"),
])
def test_a_position_between_hands_is_refused_when_inconsistent(ruleset, kw, message) -> None:
    with pytest.raises(RulesdslError, match=message):
        _position(ruleset, **kw)
