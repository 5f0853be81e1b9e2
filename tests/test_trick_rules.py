"""The trick-taking engine, rule by rule, on the three bundled 升级 rulesets.

Positions come from `new_game()` and, where a test needs a particular hand, are
overwritten by `position()` / `deal_position()` below: test scaffolding that sets
the state's public fields directly (hands as count vectors, trump, level, dealer,
trick, kitty, declaration) so one rule can be checked in isolation. Seats 0 and 2
are one side, 1 and 3 the other; play goes 0 → 1 → 2 → 3 (counter-clockwise).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from functools import cache

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import TERMINAL, Action, IllegalAction

from .helpers import assert_illegal

TAICANG = "taicang-zhongxin-wu"
HUZHOU = "huzhou-hong-wu"
WENLING = "wenling-hong-wu"
ALL = [TAICANG, HUZHOU, WENLING]


# ---------------------------------------------------------------- scaffolding


@cache
def ruleset(name: str):
    return rulesdsl.load(name)


def counts(text: str) -> list[int]:
    """A hand as a 54-kind count vector."""
    out = [0] * nt.CARD_KINDS
    for kind in nt.parse_cards(text):
        out[kind] += 1
    return out


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(nt.parse_cards(text)))


def level_index(name: str, rank: str) -> int:
    return ruleset(name).levels["ladder"].index(nt.rank_value(rank))


def position(name, hands, *, trump, level, dealer=0, to_act=None, trick=(), kitty="",
             defender_points=0, declaration=None, team_levels=None, hands_to_play=1,
             seed=0):
    """Test scaffolding: a fresh state overwritten into a play-phase position.

    `hands` are four card strings; `trick` is [(seat, "cards"), ...] already played;
    the next to act is `to_act`, else the seat after the last trick play, else the
    dealer. Points, captures and the last-trick record start from zero.
    """
    st = ruleset(name).new_game(seed=seed, hands=hands_to_play)
    st.phase = "play"
    st.trump = trump
    st.level = nt.rank_value(str(level))
    st.dealer = dealer
    st.hands = [counts(h) for h in hands]
    st.kitty = list(cards(kitty))
    st.trick = [[seat, list(cards(c))] for seat, c in trick]
    st.leader = trick[0][0] if trick else (dealer if to_act is None else to_act)
    if to_act is None:
        to_act = (trick[-1][0] + 1) % 4 if trick else dealer
    st.to_act = to_act
    st.declaration = declaration
    st.final_queue = None
    st.defender_points = defender_points
    st.captures = {cap: [0, 0] for cap, _ in st.game.rules.captures}
    st.tricks_played = 0
    st.last_trick = None
    if team_levels is not None:
        st.team_levels = [level_index(name, r) for r in team_levels]
    return st


def declaration(seat: int, text: str, overcalled=False, overcall_cards=0) -> dict:
    shown = nt.parse_cards(text)
    return {"seat": seat, "kind": shown[0], "count": len(shown), "overcalled": overcalled,
            "overcall_cards": overcall_cards}


def deal_position(name, seat, hand, current=None, seed=0):
    """Test scaffolding: a state in the deal with `seat` to act, holding `hand`,
    the standing declaration being `current` (see `declaration()`)."""
    st = ruleset(name).new_game(seed=seed, hands=1)
    assert st.phase == "deal"
    st.to_act = seat
    st.hands[seat] = counts(hand)
    st.declaration = current
    return st


def declarations(st) -> set[str]:
    return {str(a) for a in st.legal_actions() if a.kind == "declare"}


def play(st, *plays):
    for p in plays:
        st.apply(p)


def last_winner(st) -> int:
    return [e for e in st.log if e["type"] == "trick"][-1]["winner"]


def sub_multisets(text: str, size: int | None = None) -> set[tuple[int, ...]]:
    """Brute force: every distinct multiset of the given cards (of one size)."""
    pool = sorted(nt.parse_cards(text))
    sizes = range(1, len(pool) + 1) if size is None else [size]
    return {combo for n in sizes for combo in itertools.combinations(pool, n)}


def legal_plays(st) -> set[tuple[int, ...]]:
    plays = [a.cards for a in st.legal_actions()]
    assert len(plays) == len(set(plays)), "an action is listed twice"
    return set(plays)


def finish_deal_passing(st):
    while st.phase == "deal":
        st.apply("pass")


# ---------------------------------------------------------------- the deal


@pytest.mark.parametrize("name,decks,hand,kitty", [
    (TAICANG, 3, 38, 10), (HUZHOU, 3, 39, 6), (WENLING, 2, 25, 8)])
def test_deal_hands_and_kitty(name, decks, hand, kitty):
    st = ruleset(name).new_game(seed=3, hands=1)
    finish_deal_passing(st)
    assert st.phase == "bury" and st.to_act == st.dealer
    assert len(st.kitty) == kitty
    sizes = [sum(h) for h in st.hands]
    assert sizes == [hand + kitty if s == st.dealer else hand for s in range(4)]
    held = Counter()
    for s in range(4):
        held.update({k: c for k, c in enumerate(st.hands[s]) if c})
    assert all(held[k] == decks for k in range(54)), "dealer's hand + others = the decks"
    assert sum(held.values()) == 54 * decks


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_first_declaration_offered_on_receiving_a_level_card(name, seed):
    st = ruleset(name).new_game(seed=seed, hands=1)
    assert st.phase == "deal" and st.declaration is None
    seat = st.current_player
    just_dealt = st.deal_order[st.dealt - 1]
    assert nt.card_rank(just_dealt) == 2 and st.hands[seat][just_dealt] >= 1
    cap = ruleset(name).play.declare_max
    expected = {"declare " + " ".join([nt.format_card(k)] * n)
                for k in range(52) if nt.card_rank(k) == 2
                for n in range(1, min(st.hands[seat][k], cap) + 1)}
    assert declarations(st) == expected
    assert "pass" in st.legal_actions()
    assert st.legal_actions().count() == 1 + len(expected)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_last_declaration_fixes_trump_and_first_dealer(name, seed):
    """Greedy declaring (largest legal declaration, else pass) through a real deal."""
    st = ruleset(name).new_game(seed=seed, hands=1)
    while st.phase == "deal":
        options = [a for a in st.legal_actions() if a.kind == "declare"]
        st.apply(max(options, key=lambda a: (len(a.cards), a.cards)) if options else "pass")
    made = [e for e in st.log if e["type"] == "declare"]
    assert made, "every seed here sees a declaration"
    last = made[-1]
    assert st.trump == nt.card_suit(nt.parse_cards(last["cards"])[0])
    assert st.dealer == last["seat"]                  # first_dealer: declarer
    assert st.level == 2


def test_taicang_overcalls_with_more_cards_or_equal_count_in_higher_suit():
    hand = "S2 S2 D2 D2 D2 C2 H3"
    st = deal_position(TAICANG, 1, hand, declaration(0, "H2"))
    # a single never overcalls (overcall_min 2), not even ♠ over ♥
    assert declarations(st) == {"declare S2 S2", "declare D2 D2", "declare D2 D2 D2"}
    st = deal_position(TAICANG, 1, hand, declaration(0, "H2 H2"))
    # ♦ < ♣ < ♥ < ♠: ♠♠ over ♥♥ yes, ♦♦ over ♥♥ no, three over two yes
    assert declarations(st) == {"declare S2 S2", "declare D2 D2 D2"}
    assert_illegal(st, "declare D2 D2", "does not overcall")
    assert_illegal(st, "declare S2", "does not overcall")
    st.apply("declare S2 S2")
    assert st.declaration["seat"] == 1 and st.declaration["count"] == 2
    assert nt.card_suit(st.declaration["kind"]) == "S"
    assert st.declaration["overcall_cards"] == 2


def test_taicang_equal_three_card_overcall_by_suit_order():
    st = deal_position(TAICANG, 2, "H2 H2 H2 C2 C2 C2", declaration(0, "D2 D2 D2"))
    assert declarations(st) == {"declare H2 H2 H2", "declare C2 C2 C2"}
    st = deal_position(TAICANG, 2, "D2 D2 D2 C2 C2 C2", declaration(0, "S2 S2 S2"))
    assert declarations(st) == set()
    assert [str(a) for a in st.legal_actions()] == ["pass"]


@pytest.mark.parametrize("name", [HUZHOU, WENLING])
def test_equal_count_overcall_is_not_enough_in_huzhou_and_wenling(name):
    st = deal_position(name, 1, "S2 S2 D2 D2", declaration(0, "H2 H2"))
    expected = {"declare D2 D2 D2"} if name == HUZHOU else set()
    st.hands[1] = counts("S2 S2 D2 D2 D2" if name == HUZHOU else "S2 S2 D2 D2")
    assert declarations(st) == expected
    assert_illegal(st, "declare S2 S2", "does not overcall")
    st = deal_position(name, 1, "S2 S2", declaration(0, "H2"))
    assert declarations(st) == {"declare S2 S2"}          # two over one


def test_wenling_declares_with_at_most_two_cards():
    st = deal_position(WENLING, 1, "S2 S2 H4")
    assert declarations(st) == {"declare S2", "declare S2 S2"}


@pytest.mark.parametrize("name", ALL)
def test_reinforce_and_self_overcall(name):
    st = deal_position(name, 0, "H2 H2 S2 S2", declaration(0, "H2"))
    # Wenling Hong Wu: 「其它三个玩家可以用二张同花色的2反掉」 — no overcalling oneself
    own = set() if name == WENLING else {"declare S2 S2"}
    assert declarations(st) == {"declare H2 H2"} | own
    st.apply("declare H2 H2")                       # reinforcing is no overcall
    assert st.declaration["seat"] == 0 and st.declaration["count"] == 2
    assert st.declaration["overcall_cards"] == 0 and not st.declaration["overcalled"]


def test_reinforcing_an_overcalled_declaration_is_not_offered():
    # 「并可在未被反主的情况下加固」
    st = deal_position(HUZHOU, 0, "H2 H2", declaration(0, "H2", overcalled=True))
    assert declarations(st) == set()


@pytest.mark.parametrize("name", ALL)
def test_illegal_declarations_leave_state_untouched(name):
    st = deal_position(name, 1, "S2 H3 H3 C9")
    assert_illegal(st, "declare H3", "cannot be shown")
    assert_illegal(st, "declare D2", "do not hold")
    assert_illegal(st, "declare S2 H3", "identical")
    assert_illegal(st, "H3 H3", "declare or pass")
    assert_illegal(st, "bury S2", "declare or pass")


@pytest.mark.parametrize("seed", range(8))
def test_taicang_fallback_turns_up_the_kitty(seed):
    st = ruleset(TAICANG).new_game(seed=seed, hands=1)
    finish_deal_passing(st)
    assert any(e["type"] == "turn_up_kitty" for e in st.log)
    kitty = st.kitty
    levels = [k for k in kitty if k < 52 and nt.card_rank(k) == 2]
    if levels:
        expected = nt.card_suit(levels[0])
    else:
        suited = [k for k in kitty if k < 52]
        top = max(nt.card_rank(k) for k in suited)
        expected = nt.card_suit(next(k for k in suited if nt.card_rank(k) == top))
    assert st.trump == expected


def test_taicang_fallback_seeds_cover_both_branches():
    branches = set()
    for seed in range(8):
        st = ruleset(TAICANG).new_game(seed=seed, hands=1)
        finish_deal_passing(st)
        branches.add(any(k < 52 and nt.card_rank(k) == 2 for k in st.kitty))
    assert branches == {True, False}


def test_huzhou_fallback_is_a_random_suit():
    suits = []
    for seed in range(8):
        st = ruleset(HUZHOU).new_game(seed=seed, hands=1)
        finish_deal_passing(st)
        assert not any(e["type"] == "turn_up_kitty" for e in st.log)
        assert st.trump in nt.SUITS
        again = ruleset(HUZHOU).new_game(seed=seed, hands=1)
        finish_deal_passing(again)
        assert again.trump == st.trump                     # deterministic per seed
        suits.append(st.trump)
    assert len(set(suits)) > 1


# ---------------------------------------------------------------- the kitty


@pytest.mark.parametrize("name", ALL)
def test_dealer_takes_the_kitty_and_buries_as_many(name):
    st = ruleset(name).new_game(seed=1, hands=1)
    finish_deal_passing(st)
    size = ruleset(name).deal["kitty"]
    dealer = st.dealer
    hand = nt.format_cards(st._cards(st.hands[dealer]))
    assert_illegal(st, "bury " + " ".join(hand.split()[:size - 1]), f"exactly {size}")
    assert_illegal(st, " ".join(hand.split()[:size]), "bury")
    bad = "bury " + " ".join(["BJ"] * 3 + hand.split()[:size - 3])
    if st.hands[dealer][nt.BIG_JOKER] < 3:
        assert_illegal(st, bad, "you hold")
    buried = "bury " + " ".join(hand.split()[-size:])
    st.apply(buried)
    assert st.phase == "play" and st.to_act == st.dealer == st.leader
    assert sorted(st.kitty) == sorted(nt.parse_cards(buried[5:]))
    assert sum(st.hands[dealer]) == ruleset(name).deal["hand_size"]
    assert st.observation(dealer)["kitty"] == nt.format_cards(st.kitty)
    assert "kitty" not in st.observation((dealer + 1) % 4)


def test_bury_choices_counted_exactly():
    st = ruleset(HUZHOU).new_game(seed=1, hands=1)
    finish_deal_passing(st)
    small = "C3 C3 C4 H5 H5 BJ S9 S9 DK"
    st.hands[st.dealer] = counts(small)
    truth = sub_multisets(small, 6)
    assert st.legal_actions().count() == len(truth)
    assert {a.cards for a in st.legal_actions()} == truth
    rng = random.Random(5)
    for _ in range(50):
        assert st.legal_actions().sample(rng).cards in truth


# ---------------------------------------------------------------- leading

HZ_LEAD = ["C4 C4 C5 C6 C6 H5 BJ BJ LJ LJ S9", "D3", "D4", "D6"]


def test_lead_count_matches_brute_force():
    """Huzhou, ♠ trump, level 7: plain clubs may be thrown, trumps only as patterns."""
    st = position(HUZHOU, HZ_LEAD, trump="S", level=7)
    clubs = sub_multisets("C4 C4 C5 C6 C6")                 # 3·2·3 − 1 = 17 leads
    trumps = {cards(t) for t in ["H5", "BJ", "LJ", "S9", "BJ BJ", "LJ LJ", "LJ LJ BJ BJ"]}
    assert len(clubs) == 17
    assert legal_plays(st) == clubs | trumps
    assert st.legal_actions().count() == 24
    everything = sub_multisets(HZ_LEAD[0])
    assert {p for p in everything if st.is_legal(Action("play", p))} == clubs | trumps


def test_lead_sampling_is_legal_and_covers_every_lead():
    st = position(HUZHOU, HZ_LEAD, trump="S", level=7)
    rng = random.Random(11)
    seen = set()
    for _ in range(600):
        action = st.legal_actions().sample(rng)
        assert st.is_legal(action)
        seen.add(action.cards)
    assert seen == legal_plays(st)


def test_illegal_leads():
    st = position(HUZHOU, HZ_LEAD, trump="S", level=7)
    assert_illegal(st, "BJ LJ", "throw is not allowed")       # trumps are never thrown
    assert_illegal(st, "H5 BJ BJ", "throw is not allowed")
    assert_illegal(st, "C4 S9", "one suit-system")
    assert_illegal(st, "C5 C5", "you hold 1")
    assert_illegal(st, "pass", "time to play")
    assert_illegal(st, "bury C4", "time to play")


def test_taicang_hollow_trump_pairs_are_not_a_tractor():
    # 「紅桃4466就不是拖拉機（紅桃5是此時的中心5）」
    st = position(TAICANG, ["H4 H4 H6 H6 C4 C4 C5 C5", "D3", "D4", "D6"], trump="H", level=2)
    assert_illegal(st, "H4 H4 H6 H6", "throw is not allowed")
    assert st.is_legal("C4 C4 C5 C5")


def test_wenling_hollow_trump_pairs_are_a_tractor():
    # 「红桃4466也是拖拉机（红桃5是一张特殊牌）」
    st = position(WENLING, ["H4 H4 H6 H6", "D3", "D4", "D6"], trump="H", level=2)
    assert st.is_legal("H4 H4 H6 H6")
    assert cards("H4 H4 H6 H6") in legal_plays(st)


# ---------------------------------------------------------------- following


def test_follow_must_use_the_led_suit_when_holding_enough():
    st = position(HUZHOU, ["C4 C4 D9", "C6 C6 C9 CK D4 D4 S8", "C2 C2", "C3 C3"],
                  trump="S", level=7, trick=[(0, "C4 C4")])
    expected = {cards(t) for t in ["C6 C6", "C6 C9", "C6 CK", "C9 CK"]}
    assert legal_plays(st) == expected
    assert st.legal_actions().count() == 4
    assert_illegal(st, "C9 D4", "follow with 2 of them")
    assert_illegal(st, "S8 S8", "you hold 1")
    assert_illegal(st, "C9", "follow with 2 card(s)")
    assert_illegal(st, "C9 CK C6", "follow with 2 card(s)")
    # the shape need not be followed: two singles though a pair is held
    st.apply("C9 CK")


def test_follow_short_player_must_play_all_of_the_suit():
    st = position(HUZHOU, ["C4 C4 D9", "C9 D4 D4 S8 H5", "C2 C2", "C3 C3"],
                  trump="S", level=7, trick=[(0, "C4 C4")])
    expected = {cards(t) for t in ["C9 D4", "C9 S8", "C9 H5"]}
    assert legal_plays(st) == expected
    assert_illegal(st, "D4 D4", "play all your 1")
    assert_illegal(st, "S8 H5", "play all your 1")


def test_follow_trumps_include_level_cards_counselors_jokers_and_fives():
    # ♠ trump, level 7: ♥5 ♦5 jokers, ♠3 (正参谋), ♣3 (副参谋), ♣7 (副级牌) are trumps
    st = position(HUZHOU, ["S4 S4", "H5 D5 C7 S3 C3 CA CA D3", "S6 S6", "S8 S8"],
                  trump="S", level=7, trick=[(0, "S4 S4")])
    trumps = "H5 D5 C7 S3 C3"
    assert legal_plays(st) == sub_multisets(trumps, 2)
    assert st.legal_actions().count() == 10
    assert_illegal(st, "CA CA", "follow with 2 of them")
    assert_illegal(st, "D3 H5", "follow with 2 of them")  # ♦3 is plain when ♠ is trump


@pytest.mark.parametrize("name,trump,level", [(HUZHOU, "S", 7), (TAICANG, "H", 2),
                                               (WENLING, "H", 2)])
@pytest.mark.parametrize("led,hand", [
    ("C4 C4 C5 C5", "C9 CJ D4 D4 D8 S8 S8 S9 SQ BJ"),
    ("C4 C4 C5 C5", "C6 C6 C9 CJ CJ CQ D4 D8"),
    ("C4 C4 C5 C5", "D4 D4 D8 S8 S8 S9 BJ"),
    ("C4", "D4 D4 D8 S8 BJ"),
])
def test_follow_counts_equal_brute_force(name, trump, level, led, hand):
    st = position(name, ["C3 C3 C3 C3 C3", hand, "DA DA DA DA", "DA DA DA DA"],
                  trump=trump, level=level, trick=[(0, led)])
    n = len(led.split())
    clubs = " ".join(c for c in hand.split() if c.startswith("C"))
    held = len(clubs.split()) if clubs else 0
    everything = sub_multisets(hand, n)
    if held >= n:
        truth = {p for p in everything if all(nt.card_suit(k) == "C" for k in p)}
    else:
        truth = {p for p in everything
                 if sum(1 for k in p if nt.card_suit(k) == "C") == held}
    assert st.legal_actions().count() == len(truth)
    assert legal_plays(st) == truth
    assert {p for p in everything if st.is_legal(Action("play", p))} == truth
    rng = random.Random(2)
    for _ in range(100):
        assert st.legal_actions().sample(rng).cards in truth


# ---------------------------------------------------------------- who wins a trick

def test_ruff_with_the_same_shape_beats_a_plain_lead():
    st = position(HUZHOU, ["CA CA D9", "H9 H9 D9", "C3 C3 D9", "D4 D4 D9"], trump="H", level=7)
    play(st, "CA CA", "H9 H9", "C3 C3", "D4 D4")
    assert last_winner(st) == 1 and st.to_act == 1 and st.leader == 1 and st.trick == []


def test_overruff_beats_the_first_ruff():
    st = position(TAICANG, ["CA CA", "H9 H9", "C3 C3", "HK HK"], trump="H", level=2)
    play(st, "CA CA", "H9 H9", "C3 C3", "HK HK")
    assert last_winner(st) == 3


def test_trump_singles_cannot_beat_a_led_pair():
    st = position(TAICANG, ["C3 C3", "BJ H5", "C4 C4", "D4 D4"], trump="H", level=2)
    play(st, "C3 C3", "BJ H5", "C4 C4", "D4 D4")
    assert last_winner(st) == 2                         # ♣4♣4 beats ♣3♣3; the trumps don't


def test_higher_pair_of_the_led_suit_beats():
    st = position(WENLING, ["C3 C3", "CK CK", "C9 C9", "D4 D4"], trump="H", level=2)
    play(st, "C3 C3", "CK CK", "C9 C9", "D4 D4")
    assert last_winner(st) == 1


def test_another_plain_suit_never_wins():
    st = position(HUZHOU, ["C3 C3", "DA DA", "SA SA", "D4 D4"], trump="H", level=7)
    play(st, "C3 C3", "DA DA", "SA SA", "D4 D4")
    assert last_winner(st) == 0


def test_identical_cards_the_first_played_wins():
    st = position(TAICANG, ["CA", "CA", "CA", "C3"], trump="H", level=2)
    play(st, "CA", "CA", "CA", "C3")
    assert last_winner(st) == 0


def test_taicang_off_level_cards_are_equal_and_below_the_trump_level_card():
    st = position(TAICANG, ["C2", "D2", "S2", "C3"], trump="H", level=2, dealer=0)
    play(st, "C2", "D2", "S2", "C3")
    assert last_winner(st) == 0
    st = position(TAICANG, ["C2", "D2", "H2", "SA"], trump="H", level=2)
    play(st, "C2", "D2", "H2", "SA")
    assert last_winner(st) == 3                         # 參謀 ♠A > 正點數 ♥2 > 副點數


def test_taicang_center_five_is_the_highest_card():
    st = position(TAICANG, ["BJ", "H5", "LJ", "SA"], trump="H", level=2)
    play(st, "BJ", "H5", "LJ", "SA")
    assert last_winner(st) == 1


def test_huzhou_red_five_over_diamond_five_over_big_joker():
    st = position(HUZHOU, ["BJ", "D5", "H5", "S3"], trump="S", level=7)
    play(st, "BJ", "D5", "H5", "S3")
    assert last_winner(st) == 2


def test_tractor_beaten_by_a_higher_tractor_not_by_two_pairs():
    st = position(WENLING, ["C6 C6 C7 C7", "C9 C9 CJ CJ", "C8 C8 C9 C9", "D3 D3 D4 D4"],
                  trump="H", level=2)
    play(st, "C6 C6 C7 C7", "C9 C9 CJ CJ", "C8 C8 C9 C9", "D3 D3 D4 D4")
    assert last_winner(st) == 2


def test_huzhou_tractor_skips_the_level_rank():
    # 「拖拉机中级牌都可以跳过，如打7的时候，可以出6688」
    st = position(HUZHOU, ["C6 C6 C8 C8", "C9 C9 C10 C10", "C2 C2 C4 C4", "D3 D3 D4 D4"],
                  trump="H", level=7)
    play(st, "C6 C6 C8 C8", "C9 C9 C10 C10", "C2 C2 C4 C4", "D3 D3 D4 D4")
    assert not any(e["type"] == "throw" for e in st.log)     # a pattern, not a throw
    assert last_winner(st) == 1


def test_taicang_same_cards_are_a_throw_not_a_tractor():
    # 太仓 has no hollow tractor: ♣7 (a level card) has left clubs, 6688 is two pairs
    st = position(TAICANG, ["C6 C6 C8 C8", "C2", "C3", "C4"], trump="H", level=7)
    st.apply("C6 C6 C8 C8")
    throws = [e for e in st.log if e["type"] == "throw"]
    assert throws and throws[-1]["ok"] is True


def test_trump_tractor_ruffs_a_plain_tractor():
    st = position(TAICANG, ["C6 C6 C7 C7", "H3 H3 H4 H4", "C9 C9 C10 C10", "D3 D3 D4 D4"],
                  trump="H", level=2)
    play(st, "C6 C6 C7 C7", "H3 H3 H4 H4", "C9 C9 C10 C10", "D3 D3 D4 D4")
    assert last_winner(st) == 1


def test_trump_pairs_not_forming_a_tractor_do_not_ruff_a_tractor():
    st = position(TAICANG, ["C6 C6 C7 C7", "H3 H3 H9 H9", "C3 C4 C5 C5", "D3 D3 D4 D4"],
                  trump="H", level=2)
    play(st, "C6 C6 C7 C7", "H3 H3 H9 H9", "C3 C4 C5 C5", "D3 D3 D4 D4")
    assert last_winner(st) == 0


# ---------------------------------------------------------------- throws


def test_successful_throw_stands_and_is_won_by_a_same_structure_ruff():
    hands = ["CA CA CK D9", "S9 S9 S6 D9", "C4 C5 C6 D9", "S10 SJ SQ D9"]
    st = position(HUZHOU, hands, trump="S", level=7)
    st.apply("CA CA CK")
    assert [e for e in st.log if e["type"] == "throw"][-1]["ok"] is True
    assert st.trick[0] == [0, sorted(cards("CA CA CK"))]
    play(st, "S9 S9 S6", "C4 C5 C6", "S10 SJ SQ")            # pair+single vs three singles
    assert last_winner(st) == 1


def test_successful_throw_wins_when_nobody_matches_its_structure():
    hands = ["CA CA CK D9", "S10 SJ SQ D9", "C4 C5 C6 D9", "D6 D6 D7 D9"]
    st = position(HUZHOU, hands, trump="S", level=7)
    play(st, "CA CA CK", "S10 SJ SQ", "C4 C5 C6", "D6 D6 D7")
    assert last_winner(st) == 0


def test_higher_same_structure_ruff_overruffs_a_throw():
    hands = ["CA CA CK D9", "S9 S9 S6 D9", "C4 C5 C6 D9", "SK SK S2 D9"]
    st = position(HUZHOU, hands, trump="S", level=7)
    play(st, "CA CA CK", "S9 S9 S6", "C4 C5 C6", "SK SK S2")
    assert last_winner(st) == 3


@pytest.mark.parametrize("thrower,start,after", [(0, 40, 50), (1, 40, 30)])
def test_huzhou_failed_throw_plays_the_smallest_card_and_moves_10_points(thrower, start,
                                                                         after):
    # 「失败时系统强制将所甩牌中最小的一张牌扔出，并同时扣除甩错方10分」
    hands = ["D9 D9", "D8 D8", "D7 D7", "D6 D6"]
    hands[thrower] = "CK CQ D9"
    hands[(thrower + 2) % 4] = "CA D9 D9"          # the partner can beat ♣K: still a failure
    st = position(HUZHOU, hands, trump="S", level=7, dealer=0, to_act=thrower,
                  defender_points=start)
    st.apply("CK CQ")
    event = [e for e in st.log if e["type"] == "throw"][-1]
    assert event["ok"] is False and event["forced"] == "CQ" and event["penalty"] == 10
    assert st.trick == [[thrower, [nt.parse_card("CQ")]]]
    assert st.hands[thrower][nt.parse_card("CK")] == 1
    assert st.defender_points == after
    # followers now follow one card
    assert_illegal(st, "D8 D8" if thrower == 0 else "D7 D7", "follow with 1 card(s)")


def test_taicang_failed_throw_plays_the_smallest_beatable_unit_without_penalty():
    hands = ["CA CA C3 D9", "C5 D9", "D7 D7", "D6 D6"]
    st = position(TAICANG, hands, trump="H", level=2, defender_points=20)
    st.apply("CA CA C3")
    event = [e for e in st.log if e["type"] == "throw"][-1]
    assert event["ok"] is False and event["forced"] == "C3"
    assert st.trick == [[0, [nt.parse_card("C3")]]]
    assert st.defender_points == 20


def test_throw_fails_only_on_a_same_suit_beater():
    # a trump in another hand does not make a throw fail
    hands = ["CA CA CK D9", "BJ BJ H5 D9", "C3 C4 C5", "D2 D3 D4"]
    st = position(WENLING, hands, trump="H", level=2)
    st.apply("CA CA CK")
    assert [e for e in st.log if e["type"] == "throw"][-1]["ok"] is True


# ---------------------------------------------------------------- 下放 (Taicang)


def test_demoted_trump_tractor_and_a_same_shape_tractor_cannot_beat_each_other():
    # 「下放拖拉機不能壓比其小的且牌型相同的拖拉機…此二者不能相互壓」 (level 8, ♥ trump:
    # ♥8 is the trump level card, demoted into the trump suit to join ♥9)
    st = position(TAICANG, ["H3 H3 H4 H4", "H8 H8 H9 H9", "D3 D3 D4 D4", "D6 D6 D7 D7"],
                  trump="H", level=8)
    play(st, "H3 H3 H4 H4", "H8 H8 H9 H9", "D3 D3 D4 D4", "D6 D6 D7 D7")
    assert last_winner(st) == 0
    st = position(TAICANG, ["H3 H3 H4 H4", "H9 H9 H10 H10", "D3 D3 D4 D4", "D6 D6 D7 D7"],
                  trump="H", level=8)
    play(st, "H3 H3 H4 H4", "H9 H9 H10 H10", "D3 D3 D4 D4", "D6 D6 D7 D7")
    assert last_winner(st) == 1


def test_taicang_level_demotion_tractor_with_plain_cards_can_be_led():
    # 「主牌中本輪次所打點數的牌也可以與其本花色中相連的牌組成拖拉機，并失去主牌的身份」
    hand = "C8 C8 C9 C9 D3"
    st = position(TAICANG, [hand, "C3 C3 C4 C4 D3", "D4 D4 D4 D4", "D6 D6 D6 D6"],
                  trump="H", level=8)
    assert st.why_illegal("C8 C8 C9 C9") is None
    truth = {p for p in sub_multisets(hand) if st.is_legal(Action("play", p))}
    assert cards("C8 C8 C9 C9") in truth
    assert legal_plays(st) == truth and st.legal_actions().count() == len(truth)
    st.apply("C8 C8 C9 C9")
    # it is a club tractor: the follower plays its clubs (♣3♣3♣4♣4), not its ♦3
    assert legal_plays(st) == {cards("C3 C3 C4 C4")}
    play(st, "C3 C3 C4 C4", "D4 D4 D4 D4", "D6 D6 D6 D6")
    assert last_winner(st) == 0          # 「此二者不能相互壓」


def test_taicang_smaller_tractor_led_is_not_beaten_by_the_demoted_one():
    # 「如：打紅桃8，草花8899不能壓草花3344」
    st = position(TAICANG, ["C3 C3 C4 C4 D3", "C8 C8 C9 C9 D3", "D4 D4 D4 D4", "D6 D6 D6 D6"],
                  trump="H", level=8)
    play(st, "C3 C3 C4 C4", "C8 C8 C9 C9", "D4 D4 D4 D4", "D6 D6 D6 D6")
    assert last_winner(st) == 0


def test_taicang_demoted_tractor_is_ruffed_by_a_trump_tractor():
    st = position(TAICANG, ["C8 C8 C9 C9 D3", "H3 H3 H4 H4 D3", "D4 D4 D4 D4", "D6 D6 D6 D6"],
                  trump="H", level=8)
    play(st, "C8 C8 C9 C9", "H3 H3 H4 H4", "D4 D4 D4 D4", "D6 D6 D6 D6")
    assert last_winner(st) == 1


def test_taicang_counselor_demotion_tractor_can_be_led():
    # 「黑桃A也可以與黑桃2組成拖拉機，但這種組合法使其成為黑桃中最小的聯對」
    st = position(TAICANG, ["SA SA S2 S2 D3", "S3 S3 S4 S4", "D4 D4 D4 D4", "D6 D6 D6 D6"],
                  trump="H", level=3)
    assert st.why_illegal("SA SA S2 S2") is None
    assert cards("SA SA S2 S2") in legal_plays(st)


def test_taicang_demoted_lead_of_two_trumps_is_enumerated_and_followed_in_spades():
    # level 2: ♠A (參謀) and ♠2 (副點數) are both trumps; together they are a spade tractor
    hand = "SA SA S2 S2 D3"
    st = position(TAICANG, [hand, "S6 S7 S8 S9 H3", "D4 D4 D4 D4", "D6 D6 D6 D6"],
                  trump="H", level=2)
    truth = {p for p in sub_multisets(hand) if st.is_legal(Action("play", p))}
    assert cards("SA SA S2 S2") in truth
    assert legal_plays(st) == truth and st.legal_actions().count() == len(truth)
    st.apply("SA SA S2 S2")
    assert legal_plays(st) == {cards("S6 S7 S8 S9")}
    assert_illegal(st, "S6 S7 S8 H3", "follow with 4 of them")


def test_taicang_smallest_demoted_tractor_is_beaten_by_a_higher_spade_tractor():
    # 「成為黑桃中最小的聯對」: the demoted tractor is the smallest; a higher one beats it.
    st = position(TAICANG, ["SA SA S2 S2 D3", "S5 S5 S6 S6 D3", "D4 D4 D4 D4", "D6 D6 D6 D6"],
                  trump="H", level=3)
    play(st, "SA SA S2 S2", "S5 S5 S6 S6", "D4 D4 D4 D4", "D6 D6 D6 D6")
    assert last_winner(st) == 1


def test_taicang_throw_may_contain_a_demoted_tractor():
    # 「在甩牌的時候，在可以組成拖拉機的情況下，才允許下放」
    st = position(TAICANG, ["C8 C8 C9 C9 CA D3", "D4 D4 D4 D4 D4", "D6 D6 D6 D6 D6",
                            "D7 D7 D7 D7 D7"], trump="H", level=8)
    assert st.why_illegal("C8 C8 C9 C9 CA") is None


# ---------------------------------------------------------------- points and captures


def test_points_go_to_the_defenders_only_when_they_win_the_trick():
    st = position(TAICANG, ["C5 C3", "CK C3", "C10 C3", "CA C3"], trump="H", level=2,
                  defender_points=30)
    play(st, "C5", "CK", "C10", "CA")                  # seat 3 (defender) wins 25
    assert last_winner(st) == 3 and st.defender_points == 55
    play(st, "C3", "C3", "C3", "C3")
    st = position(TAICANG, ["CA C3", "CK C3", "C10 C3", "C5 C3"], trump="H", level=2,
                  defender_points=30)
    play(st, "CA", "CK", "C10", "C5")                  # the dealer wins: nothing moves
    assert last_winner(st) == 0 and st.defender_points == 30


def test_huzhou_five_captures_are_counted_for_the_capturing_side():
    st = position(HUZHOU, ["C4 C4 C9", "CA CA C9", "H5 D4 D9", "C6 C6 C9"], trump="S",
                  level=7, dealer=0, to_act=1)
    play(st, "CA CA", "H5 D4", "C6 C6", "C4 C4")       # ♥5 discarded by the dealer side
    assert last_winner(st) == 1
    assert st.captures == {"red": [0, 1], "diamond": [0, 0]}
    assert st.defender_points == 5


# ---------------------------------------------------------------- end of the hand


def last_trick_position(name, *, defenders_win, defender_points, kitty="", lead="C4",
                        **kw):
    """Test scaffolding: one trick left, dealer seat 0 leading `lead`; seat 1 (a defender)
    wins it with the same shape when `defenders_win`, else everyone plays under."""
    n = len(lead.split())
    low = " ".join(["D4", "D6", "D8", "D9"][:n])               # plain in every test
    if defenders_win:
        win = " ".join(["CA"] * n) if n <= 2 else "CA CA CK CK"
        hands = [lead, win, low, low]
    else:
        hands = [lead, low, low, low]
    st = position(name, hands, kitty=kitty, defender_points=defender_points,
                  trump=kw.pop("trump", "H"), level=kw.pop("level", 2), **kw)
    return st, hands


def finish(st, hands):
    play(st, *hands)
    return st.results[-1]


@pytest.mark.parametrize("defenders_win,capture", [(True, 50), (False, 0)])
def test_taicang_kitty_capture_doubles_the_kitty(defenders_win, capture):
    st, hands = last_trick_position(TAICANG, defenders_win=defenders_win,
                                    defender_points=60, kitty="C5 C10 DK D3 D4")
    result = finish(st, hands)
    assert result["kitty_points"] == 25 and result["kitty_capture"] == capture
    assert result["defender_points"] == 60 + capture


@pytest.mark.parametrize("lead,multiplier", [("C4", 2), ("C4 C4", 4), ("C4 C4 C5 C5", 4)])
def test_wenling_kitty_capture_doubles_again_for_a_pair_or_tractor(lead, multiplier):
    st, hands = last_trick_position(WENLING, defenders_win=True, defender_points=0,
                                    kitty="C10 DK D4", lead=lead)
    result = finish(st, hands)
    assert result["kitty_capture"] == 20 * multiplier


@pytest.mark.parametrize("points,side,levels,next_dealer,team_levels", [
    (120, "none", 0, 1, ["2", "2"]),          # 「120-125分算平局…但是要換莊」
    (125, "none", 0, 1, ["2", "2"]),
    (130, "defenders", 1, 1, ["2", "3"]),     # 「130才能加1分」
    (145, "defenders", 2, 1, ["2", "4"]),
    (115, "dealer", 1, 2, ["3", "2"]),        # 「115分以下（含），莊家將做莊權轉置他的對家」
    (100, "dealer", 2, 2, ["4", "2"]),
    (0, "dealer", 12, 2, ["A", "2"]),
])
def test_taicang_result_table(points, side, levels, next_dealer, team_levels):
    st, hands = last_trick_position(TAICANG, defenders_win=False, defender_points=points)
    result = finish(st, hands)
    assert (result["side"], result["levels"], result["next_dealer"]) == \
        (side, levels, next_dealer)
    assert result["team_levels"] == team_levels
    assert st.team_levels == [level_index(TAICANG, r) for r in team_levels]


@pytest.mark.parametrize("overcall_cards,points,side,levels", [
    (2, 120, "defenders", 2), (3, 125, "defenders", 3), (2, 145, "defenders", 4)])
def test_taicang_overcall_bonus(overcall_cards, points, side, levels):
    # 「反牌可跳級。兩張反加2分，三張反加3分」;
    # 「閑家得120-125分，若有玩家反主，反主所得積分加于閑家」
    shown = " ".join(["S2"] * overcall_cards)
    st, hands = last_trick_position(
        TAICANG, defenders_win=False, defender_points=points,
        declaration=declaration(0, shown, overcalled=True, overcall_cards=overcall_cards))
    result = finish(st, hands)
    assert result["overcall_bonus"] == overcall_cards
    assert (result["side"], result["levels"]) == (side, levels)


@pytest.mark.parametrize("points,signed,team_levels", [
    (120, 0, ["2", "2"]), (175, 0, ["2", "2"]), (180, 1, ["2", "4"]),
    (240, 2, ["2", "6"]), (500, 5, ["2", "9"]),               # at most 5
    (115, -1, ["4", "2"]), (60, -1, ["4", "2"]), (55, -2, ["6", "2"]), (0, -2, ["6", "2"])])
def test_huzhou_result_steps_of_60(points, signed, team_levels):
    st, hands = last_trick_position(HUZHOU, defenders_win=False, defender_points=points,
                                    trump="S", level=2)
    result = finish(st, hands)
    assert result["signed_levels"] == signed
    assert result["team_levels"] == team_levels


def test_huzhou_red_five_capture_swings_the_levels():
    # the dealer side keeps the deal on points (-1) but the defenders caught a red five (+2)
    st = position(HUZHOU, ["C4 C4", "CA CA", "H5 D4", "C6 C6"], trump="S", level=2,
                  dealer=0, to_act=1, defender_points=95)
    play(st, "CA CA", "H5 D4", "C6 C6", "C4 C4")
    result = st.results[-1]
    assert result["defender_points"] == 100 and result["side"] == "dealer"
    assert result["signed_levels"] == 1
    assert result["team_levels"] == ["2", "4"]


def test_huzhou_diamond_five_captured_by_the_dealer_side():
    # points 130 (deal passes, no levels), the dealer side caught a diamond five: -1
    st = position(HUZHOU, ["CA CA", "D5 D4", "C3 C3", "C4 C4"], trump="S", level=2,
                  dealer=0, defender_points=130)
    play(st, "CA CA", "D5 D4", "C3 C3", "C4 C4")
    result = st.results[-1]
    assert result["captures"] == {"red": [0, 0], "diamond": [1, 0]}
    assert result["signed_levels"] == -1 and result["team_levels"] == ["4", "2"]


@pytest.mark.parametrize("points,side,levels,next_dealer", [
    (80, "none", 0, 1), (115, "none", 0, 1), (120, "defenders", 1, 1),
    (75, "dealer", 1, 2), (35, "dealer", 2, 2)])
def test_wenling_result_around_80(points, side, levels, next_dealer):
    st, hands = last_trick_position(WENLING, defenders_win=False, defender_points=points)
    result = finish(st, hands)
    assert (result["side"], result["levels"], result["next_dealer"]) == \
        (side, levels, next_dealer)


# ---------------------------------------------------------------- the ladder


def test_huzhou_ladder_skips_3_and_5():
    assert ruleset(HUZHOU).levels["ladder"] == [2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    st, hands = last_trick_position(HUZHOU, defenders_win=False, defender_points=240,
                                    trump="S", level=2, team_levels=["2", "2"])
    assert finish(st, hands)["team_levels"] == ["2", "6"]


@pytest.mark.parametrize("start,points,end", [
    ("9", 500, "10"), ("8", 240, "10"), ("J", 500, "K"), ("K", 500, "A"),
    ("Q", 180, "K"), ("6", 240, "8")])
def test_huzhou_climb_stops_on_10_k_a(start, points, end):
    # 「10、K、A，为必打」
    st, hands = last_trick_position(HUZHOU, defenders_win=False, defender_points=points,
                                    trump="S", level=2, team_levels=["2", start])
    result = finish(st, hands)
    assert result["team_levels"] == ["2", end]
    assert st.match_winner is None


def test_taicang_climbs_without_stops():
    st, hands = last_trick_position(TAICANG, defenders_win=False, defender_points=160,
                                    team_levels=["2", "8"])
    assert finish(st, hands)["team_levels"] == ["2", "Q"]


@pytest.mark.parametrize("name,points", [(TAICANG, 130), (HUZHOU, 180), (WENLING, 120)])
def test_climbing_past_a_ends_the_match(name, points):
    st, hands = last_trick_position(name, defenders_win=False, defender_points=points,
                                    team_levels=["K", "A"], hands_to_play=None)
    finish(st, hands)
    assert st.match_winner == 1 and st.is_terminal()
    assert st.current_player == TERMINAL
    assert st.returns() == [-1.0, 1.0, -1.0, 1.0]
    assert st.legal_actions().count() == 0 and list(st.legal_actions()) == []
    assert_illegal(st, "pass", "over")
    assert any(e["type"] == "match_end" and e["winner_team"] == 1 for e in st.log)


def test_next_hand_is_dealt_by_the_next_dealer_at_its_level():
    st, hands = last_trick_position(TAICANG, defenders_win=False, defender_points=140,
                                    team_levels=["5", "7"], hands_to_play=None)
    finish(st, hands)
    assert st.hand_no == 1 and st.dealer == 1 and st.phase in ("deal", "bury")
    assert st.team_levels == [level_index(TAICANG, "5"), level_index(TAICANG, "9")]
    assert st.level == 9 and st.deal_start == 1


def test_returns_of_a_match_cut_short_are_level_differences():
    st, hands = last_trick_position(TAICANG, defenders_win=False, defender_points=145)
    finish(st, hands)
    assert st.is_terminal() and st.match_winner is None
    assert st.returns() == [-2.0, 2.0, -2.0, 2.0]


@pytest.mark.parametrize("name", [WENLING, HUZHOU])
def test_a_random_match_ends_with_a_winner(name):
    st = ruleset(name).new_game(seed=4)
    rng = random.Random(4)
    for _ in range(20000):
        if st.is_terminal():
            break
        action = st.legal_actions().sample(rng)
        st.apply(action)
    assert st.is_terminal() and st.match_winner in (0, 1)
    top = len(ruleset(name).levels["ladder"]) - 1
    assert st.team_levels[st.match_winner] == top
    expected = [1.0 if s % 2 == st.match_winner else -1.0 for s in range(4)]
    assert st.returns() == expected


# ---------------------------------------------------------------- API behaviour


@pytest.mark.parametrize("name", ALL)
def test_sampled_play_is_always_legal_and_counted(name):
    st = ruleset(name).new_game(seed=9, hands=1)
    rng = random.Random(9)
    steps = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        action = legal.sample(rng)
        assert action in legal and st.is_legal(str(action))
        assert st.is_legal(action.to_json())
        if st.phase == "play" and legal.count() <= 300:
            assert legal.count() == len(legal_plays(st))
        if st.phase == "play" and sum(st.hands[st.to_act]) <= 7:
            hand = nt.format_cards(st._cards(st.hands[st.to_act]))
            truth = {p for p in sub_multisets(hand) if st.is_legal(Action("play", p))}
            assert legal_plays(st) == truth
        st.apply(action)
        steps += 1
    assert steps > 20 and len(st.results) == 1
    tricks = [e for e in st.log if e["type"] == "trick"]
    total = sum(e["points"] for e in tricks) + sum(
        ruleset(name).card_points(k) for k in nt.parse_cards(
            [e for e in st.log if e["type"] == "bury"][-1]["cards"]))
    assert total == ruleset(name).points_total


@pytest.mark.parametrize("name", ALL)
def test_serialization_round_trip_and_clone(name):
    st = ruleset(name).new_game(seed=6, hands=1)
    rng = random.Random(6)
    for _ in range(60):
        st.apply(st.legal_actions().sample(rng))
    text = st.to_json()
    again = ruleset(name).state_from_json(text)
    assert again == st and again.to_json() == text
    twin = st.clone()
    action = st.legal_actions().sample(random.Random(1))
    st.apply(action)
    assert twin.to_json() == text                        # the clone is independent
    again.apply(action)
    assert again == st
    with pytest.raises(rulesdsl.RulesdslError):
        ruleset(HUZHOU if name != HUZHOU else TAICANG).state_from_json(text)
    with pytest.raises(rulesdsl.RulesdslError):
        ruleset(name).state_from_json("{}")


def test_action_text_and_json_forms():
    assert str(Action.parse("H6 H6 H7 H7")) == "H6 H6 H7 H7"
    assert Action.parse("♥7 ♥6") == Action.of("play", cards("H6 H7"))
    assert Action.parse({"type": "declare", "cards": "H2 H2"}) == Action.parse("declare H2 H2")
    assert Action.parse("pass").to_json() == {"type": "pass", "cards": ""}
    assert Action.parse("bury C3 C4").to_json() == {"type": "bury", "cards": "C3 C4"}
    for bad in ["", "X9", {"type": "jump"}, 7]:
        with pytest.raises(IllegalAction):
            Action.parse(bad)


def test_observation_hides_other_hands_and_buried_cards():
    st = ruleset(HUZHOU).new_game(seed=2, hands=1)
    finish_deal_passing(st)
    dealer = st.dealer
    hand = st._cards(st.hands[dealer])
    st.apply(Action.of("bury", hand[:6]))
    other = (dealer + 1) % 4
    obs = st.observation(other)
    assert obs["hand"] == nt.format_cards(st._cards(st.hands[other]))
    assert "kitty" not in obs
    bury = [e for e in obs["log"] if e["type"] == "bury"][-1]
    assert bury == {"type": "bury", "seat": dealer, "count": 6}
    take = [e for e in obs["log"] if e["type"] == "take_kitty"][-1]
    assert "cards" not in take
    text = json.dumps(obs)
    for seat in range(4):
        if seat != other:
            assert nt.format_cards(st._cards(st.hands[seat])) not in text
    assert obs["hand_sizes"] == [sum(h) for h in st.hands]
    with pytest.raises(rulesdsl.RulesdslError):
        st.observation(4)
