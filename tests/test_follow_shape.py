"""`play.follow.shape: pairs` — a variant that must follow pairs (升级's rule)."""

from __future__ import annotations

import random
import textwrap
from collections import Counter

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import IllegalAction

from .test_trick_rules import counts, sub_multisets


@pytest.fixture(scope="module")
def strict_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("variant") / "strict.yaml"
    path.write_text(textwrap.dedent("""\
        extends: wenling-hong-wu
        id: wenling-hong-wu-strict
        play:
          follow: {shape: pairs}
        """), encoding="utf-8")
    return rulesdsl.load(path)


def follow_position(game, lead: str, follower: str):
    st = game.new_game(seed=0, hands=1)
    st.phase, st.trump, st.level, st.dealer = "play", "S", 2, 0
    st.hands = [counts("D3"), counts(follower), counts("D4"), counts("D5")]
    st.trick = [[0, sorted(nt.parse_cards(lead))]]
    st.leader, st.to_act = 0, 1
    st.declaration, st.final_queue = None, None
    st.captures = {}
    return st


def legal(st) -> set[tuple[int, ...]]:
    return {tuple(sorted(a.cards)) for a in st.legal_actions()}


def test_a_led_pair_must_be_followed_with_a_pair_when_held(strict_game):
    st = follow_position(strict_game, "H9 H9", "H4 H4 H7 HK D8")
    truth = {c for c in sub_multisets("H4 H4 H7 HK", 2) if len(set(c)) == 1}
    assert legal(st) == truth and st.legal_actions().count() == len(truth)
    before = st.to_json()
    with pytest.raises(IllegalAction, match="pair"):
        st.apply("H7 HK")
    assert st.to_json() == before
    st.apply("H4 H4")


def test_pairs_quota_counts_match_brute_force(strict_game):
    rng = random.Random(5)
    suit = ["H3", "H4", "H6", "H7", "H8", "H9", "HJ", "HQ"]
    for _ in range(25):
        hand = " ".join(rng.choice(suit) for _ in range(9)) + " D8 D9"
        lead = "H10 H10 HK HK"  # two pairs (a hollow-free run of ♥10 ♥K is no tractor: fine)
        st = follow_position(strict_game, lead, hand)
        held = [k for k in nt.parse_cards(hand) if nt.card_suit(k) == "H"]
        pairs = sum(v // 2 for v in Counter(held).values())
        need = min(2, pairs)
        truth = {c for c in sub_multisets(" ".join(nt.format_card(k) for k in held), 4)
                 if sum(v // 2 for v in Counter(c).values()) >= need}
        assert legal(st) == truth
        assert st.legal_actions().count() == len(truth)
        for _ in range(5):
            assert tuple(sorted(st.sample_action(rng).cards)) in truth


def test_the_bundled_rulesets_ignore_the_shape():
    st = follow_position(rulesdsl.load("wenling-hong-wu"), "H9 H9", "H4 H4 H7 HK D8")
    assert st.is_legal("H7 HK")


def _deal_position(**kw):
    from rulesdsl import notation as nt
    from rulesdsl.api import load
    from rulesdsl.engine.base import Position

    rs = load("wenling-hong-wu")
    base = {"hands": {0: nt.parse_cards("H2 S9"), 1: nt.parse_cards("S2")},
            "context": {"level": 2}, "phase": "deal",
            "kitty": nt.parse_cards("D3 D4 D6 D7 D8 D9 C3 C4")}
    base.update(kw)
    return rs.game().position(Position(**base))


def test_a_hand_in_its_deal_declares_as_cards_come() -> None:
    from rulesdsl import notation as nt

    # seat 1 is dealt a second S2 and may overcall the standing H2
    st = _deal_position(to_deal=nt.parse_cards("S3 S2"), declared=(0, nt.parse_cards("H2")))
    assert (st.phase, st.current_player) == ("deal", 1)
    st.apply(list(st.legal_actions())[-1])  # declare S2 S2
    assert st.phase == "bury" and st.trump == "S" and st.dealer == 1


@pytest.mark.parametrize("kw,message", [
    ({"kitty": []}, "names its kitty"),
    ({"declared": (0, [0, 1])}, "standing declaration"),
    ({"phase": "play", "to_deal": [3]}, "phase: deal"),
])
def test_a_hand_in_its_deal_is_refused_when_inconsistent(kw, message) -> None:
    from rulesdsl.errors import RulesdslError

    with pytest.raises(RulesdslError, match=message):
        _deal_position(**kw)


@pytest.mark.parametrize("cap,want", [(13, 13), (None, 15)])
def test_the_overcall_bonus_stays_within_the_level_cap(cap, want) -> None:
    """Taicang: 「可跳1、2、3……13級，反牌可跳級。兩張反加2分」 — 260 points make 13 levels,
    a two-card overcall adds 2, and max_levels 13 holds the total at 13."""
    from rulesdsl import notation as nt
    from rulesdsl.api import load
    from rulesdsl.engine.base import Position

    rs = load("taicang-zhongxin-wu")
    game = rs.game()
    kept = game.rules.max_levels
    assert kept == 13  # as the file says
    game.rules.max_levels = cap
    try:
        st = game.position(Position(hands={}, context={"trump": "S", "level": 2}, dealer=0))
        st.defender_points = 260
        st.declaration = {"seat": 0, "kind": nt.parse_card("S2"), "count": 2,
                          "overcalled": True, "overcall_cards": 2}
        st.last_trick = {"winner": 0, "pattern": "single", "size": 1, "units": 1}
        st._end_hand()
    finally:
        game.rules.max_levels = kept
    result = st.results[-1]
    assert result["overcall_bonus"] == 2 and result["side"] == "defenders"
    assert result["levels"] == want


@pytest.mark.parametrize("later,turned", [("turn_up_kitty", True), ("random_suit", False)])
def test_the_kitty_is_turned_up_when_nobody_declares_as_the_options_say(later, turned) -> None:
    """Taicang's 「第一局無人叫主：翻底牌」 names the first hand; later hands follow the option."""
    from rulesdsl import notation as nt
    from rulesdsl.api import load
    from rulesdsl.compiler.files import compile_with_options
    from rulesdsl.engine.base import Position

    rs = compile_with_options(load("taicang-zhongxin-wu"), {"later_no_declaration": later})
    game = rs.game()
    for hand_no, want in ((0, True), (1, turned)):
        st = game.position(Position(hands={}, context={"trump": "S", "level": 2}, dealer=0))
        st.hand_no = hand_no
        st.kitty = nt.parse_cards("D9 H2 SK C3 C4 C5")
        suit = st._fallback_suit()
        assert any(e["type"] == "turn_up_kitty" for e in st.log) is want
        if want:
            assert suit == "H"  # the first level card turned up: H2


@pytest.mark.parametrize("rule,as_dealer,want", [
    ("any", False, "Q"), ("as_dealer", False, "10"), ("as_dealer", True, "Q")])
def test_a_must_stop_level_is_passed_as_the_option_says(rule, as_dealer, want) -> None:
    """Huzhou 「10、K、A，为必打」: a side at 10 climbing 2 reaches Q (J, then Q; K would stop
    it) — or, with must_play as_dealer, stays at 10 unless it wins as the dealer's side."""
    from rulesdsl import notation as nt
    from rulesdsl.api import load
    from rulesdsl.compiler.files import compile_with_options
    from rulesdsl.engine.base import Position

    rs = compile_with_options(load("huzhou-hong-wu"), {"must_play": rule})
    game = rs.game()
    st = game.position(Position(hands={}, context={"trump": "S", "level": 2}, dealer=0))
    st.team_levels[1] = game.ladder.index(10)
    assert st._climb(1, 2, as_dealer) is None
    assert nt.rank_name(game.ladder[st.team_levels[1]]) == want
