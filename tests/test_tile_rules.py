"""The tile engine, rule by rule, on 温岭麻将 (wenling-mahjong).

Positions come from `new_game()` and, where a test needs a particular hand, are
overwritten by `position()` below: test scaffolding that sets the state's public
fields directly (hands as 42-count vectors, melds, flowers, discards, the turned tile,
the wall and its two ends, whose turn it is) so one rule can be checked in isolation.

Seats 0..3; play goes 0 → 1 → 2 → 3 → 0 (counter-clockwise: each seat's next player is
on its right). Unless a test says otherwise the dealer is seat 0 and the turned tile is
9s, so the other 9s are wild, the white dragon 5z is the special tile and the hands
below hold no 9s and no 5z.
"""

from __future__ import annotations

from functools import cache

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.base import Action, IllegalAction, restore_state

from .helpers import assert_illegal

# ---------------------------------------------------------------- scaffolding


@cache
def ruleset():
    return rulesdsl.load("wenling-mahjong")


def t(text: str) -> int:
    return nt.tile_kind(text)


def counts(text: str) -> list[int]:
    """A hand as a 42-kind count vector."""
    out = [0] * nt.TILE_KINDS
    for kind in nt.parse_tiles(text):
        out[kind] += 1
    return out


FILLER = "4z"  # what the wall holds beyond the scripted tiles


def position(hands, *, turned="9s", to_act=0, dealer=0, melds=None, flowers=None,
             discards=None, draws="", ends="", tiles_left=60, seen="", hands_to_play=1,
             seed=0):
    """Test scaffolding: a fresh state overwritten into a turn position.

    `hands` are four tile strings (the seat to act holds one tile more than a waiting
    hand: 17 − 3 per meld); `melds` per seat are (kind, "tile", concealed) triples;
    `draws` are the next tiles at the wall's front, `ends` the next ones at its end
    (replacements for kongs and bonus tiles), the rest of the wall is FILLER;
    `tiles_left` is back − front; `seen` the tiles already discarded or claimed.
    Claims, locks, live-tile records, the log and the results start empty.
    """
    st = ruleset().new_game(seed=seed, hands=hands_to_play)
    st.turned = t(turned)
    st.dealer = dealer
    st.hands = [counts(h) for h in hands]
    st.melds = [[[kind, t(tile), concealed] for kind, tile, concealed in ms]
                for ms in (melds or [[], [], [], []])]
    st.flowers = [nt.parse_tiles(f) for f in (flowers or ["", "", "", ""])]
    st.discards = [nt.parse_tiles(d) for d in (discards or ["", "", "", ""])]
    front_draws, end_draws = nt.parse_tiles(draws), nt.parse_tiles(ends)
    assert len(front_draws) + len(end_draws) <= tiles_left
    wall = [t(FILLER)] * 144
    front = 70
    back = front + tiles_left
    wall[front:front + len(front_draws)] = front_draws
    for i, kind in enumerate(end_draws):
        wall[back - 1 - i] = kind
    st.wall, st.front, st.back = wall, front, back
    st.phase, st.to_act = "turn", to_act
    st.drawn, st.source = None, "wall"
    st.last_discard, st.claim_queue, st.claims, st.kong_tile = None, [], [], None
    st.pung_locks = [[] for _ in range(4)]
    st.wild_discarded = [False] * 4
    st.live_discards = []
    st.seen = nt.parse_tiles(seen)
    st.log, st.results = [], []
    return st


def hand_text(st, seat: int) -> str:
    return nt.format_tiles([k for k, c in enumerate(st.hands[seat]) for _ in range(c)])


def names(st) -> set[str]:
    acts = list(st.legal_actions())
    assert st.legal_actions().count() == len(acts) == len(set(acts))
    return {str(a) for a in acts}


def claims(st) -> set[str]:
    return {a for a in names(st) if a.split()[0] in ("chow", "pung", "kong", "win")}


# Hands that claim nothing on the honours the others discard and win on nothing.
QUIET = [
    "1m 4m 7m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 6s 1z",     # 17: seat 0 to act
    "2m 5m 8m 3p 6p 1s 4s 7s 2m 5m 8m 3p 6p 1s 4s 2z",
    "3m 6m 1p 4p 7p 2s 5s 8s 3m 6m 1p 4p 7p 2s 5s 3z",
    "1m 4m 7m 2p 5p 8p 3s 6s 9m 9p 2s 8s 8m 8p 7z 6z",
]

# Waits on 7p alone (single wait): 123m 456m 789m 123p 456p + 7p.
WAIT_7P = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p"
# Seat 0 to act, holding the fourth 7p and no 1m-9m, 1p-6p.
DISCARD_7P = "8p 8p 9p 9p 1s 1s 2s 2s 4s 4s 5s 6s 7s 8s 1z 2z 7p"


# Waits on 4p or 7p without holding a 7p: 123m 456m 789m 123p 11z + 56p.
WAIT_47P = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5p 6p 1z 1z"


def three_waiting(discarder=0, **kw):
    """Every seat but `discarder` waits on 7p; `discarder` holds one and is to act."""
    hands = [WAIT_7P] * 4
    hands[discarder] = DISCARD_7P
    return position(hands, to_act=discarder, dealer=discarder, **kw)


# ---------------------------------------------------------------- the deal and turns


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5, 6, 7])
def test_the_dealer_starts_with_17_tiles_and_acts_first(seed):
    st = ruleset().new_game(seed=seed)
    assert st.phase == "turn" and st.to_act == st.dealer == st.current_player
    for seat in range(4):
        assert sum(st.hands[seat]) == (17 if seat == st.dealer else 16)
        # bonus tiles never stay in a hand after the deal
        assert not any(c and st.bonus[k] for k, c in enumerate(st.hands[seat]))
    # 4 × 16 + 1 from the front, then the turned tile
    assert st.front == 4 * 16 + 1 + 1
    assert st.turned == st.wall[st.front - 1]
    # every exposed bonus tile was replaced from the wall's end
    assert 144 - st.back == sum(len(f) for f in st.flowers)
    # the dealer's first move is a discard (or a kong or a win), never a claim or a pass
    kinds = {a.kind for a in st.legal_actions()}
    assert "discard" in kinds and kinds <= {"discard", "concealed_kong", "win"}


def test_the_first_dealer_is_random_but_seeded():
    dealers = {ruleset().new_game(seed=s).dealer for s in range(20)}
    assert len(dealers) > 1
    assert ruleset().new_game(seed=11).dealer == ruleset().new_game(seed=11).dealer


def test_turns_go_counter_clockwise_draw_then_discard():
    st = position(QUIET, draws="7s 1p 9m 2m")
    front = st.front
    order = []
    for discard in ("1z", "2z", "3z", "7z"):
        seat = st.to_act
        order.append(seat)
        assert st.phase == "turn" and sum(st.hands[seat]) == 17
        st.apply(f"discard {discard}")
        assert st.discards[seat][-1] == t(discard)
        assert sum(st.hands[seat]) == 16
    order.append(st.to_act)
    assert order == [0, 1, 2, 3, 0]
    # each next player drew the next tile from the wall's front
    assert st.front == front + 4
    assert st.hands[1][t("7s")] == 2 and st.hands[2][t("1p")] == 3
    assert st.hands[3][t("9m")] == 2 and st.hands[0][t("2m")] == 1
    assert st.drawn == t("2m") and st.source == "wall"


def test_a_turn_is_a_discard_no_claims_or_pass():
    st = position(QUIET)
    acts = names(st)
    held = {nt.format_tile(k) for k, c in enumerate(st.hands[0]) if c}
    assert acts == {f"discard {k}" for k in held}
    assert_illegal(st, "pass", "on your turn")
    assert_illegal(st, "pung 1m 1m", "on your turn")


def test_after_a_claim_play_continues_from_the_claimer():
    # 「如在打牌过程中有玩家碰、杠的话，就由碰、杠后的玩家开始出牌。」
    hands = list(QUIET)
    hands[0] = "1m 4m 7m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 6s 6z"
    hands[3] = "1m 4m 7m 2p 5p 8p 3s 6s 9m 9p 2s 8s 8m 8p 6z 6z"
    st = position(hands, draws="1s")
    st.apply("discard 6z")
    assert st.phase == "claims" and st.to_act == 3 and st.claim_queue == [3]
    st.apply("pung 6z 6z")
    assert st.phase == "turn" and st.to_act == 3 and sum(st.hands[3]) == 14
    st.apply("discard 9m")
    # seat 2 and seat 1 are skipped: the next player after the claimer (seat 0) draws
    assert st.to_act == 0 and st.hands[0][t("1s")] == 1


# ---------------------------------------------------------------- bonus tiles


def test_a_drawn_flower_and_white_are_exposed_and_replaced_from_the_end():
    st = position(QUIET, draws="3f", ends="5z 8m")
    back = st.back
    st.apply("discard 1z")
    assert st.to_act == 1 and st.phase == "turn"
    assert st.flowers[1] == [t("3f"), t("5z")]
    assert st.hands[1][t("3f")] == 0 and st.hands[1][t("5z")] == 0
    assert st.hands[1][t("8m")] == 3 and sum(st.hands[1]) == 17
    assert st.back == back - 2
    assert st.drawn == t("8m") and st.source == "bonus"
    assert_illegal(st, "discard 3f", "you hold no 3f")


def test_when_white_is_wild_it_stays_in_hand_and_red_green_are_exposed():
    st = position(QUIET, turned="5z", draws="5z", ends="7z 6z 8m")
    st.apply("discard 1z")
    assert st.hands[1][t("5z")] == 1  # a wild, kept
    assert st.flowers[1] == []
    st.apply("discard 2z")
    st2 = position(QUIET, turned="5z", draws="7z", ends="6z 8m")
    st2.apply("discard 1z")
    assert st2.flowers[1] == [t("7z"), t("6z")] and st2.hands[1][t("8m")] == 3


def test_a_bonus_tile_in_the_deal_is_exposed_before_the_dealer_plays():
    for seed in range(40):
        st = ruleset().new_game(seed=seed)
        deal = st.log[0]
        dealt = [nt.parse_tiles(h) for h in deal["hands"]]
        for seat in range(4):
            bonus_dealt = sorted(k for k in dealt[seat] if st.bonus[k])
            if bonus_dealt:
                assert set(bonus_dealt) <= set(st.flowers[seat])
        if any(st.flowers):
            return
    pytest.fail("no seed dealt a bonus tile")


# ---------------------------------------------------------------- the wild tile


def kinds_where(table) -> set[str]:
    return {nt.format_tile(k) for k, v in enumerate(table) if v}


FLOWERS = {f"{n}f" for n in range(1, 9)}


@pytest.mark.parametrize("turned,wild,special", [
    # a plain tile: its other copies are wild, the white is special
    ("5m", {"5m"}, {"5z"}),
    ("9s", {"9s"}, {"5z"}),
    ("1z", {"1z"}, {"5z"}),
    # 「如白板是得的话，就用红中与发财替代白板做特殊牌」
    ("5z", {"5z"}, {"6z", "7z"}),
    # 「如红中是得的话，发财就与白板一样做特殊牌」
    ("7z", {"7z"}, {"5z", "6z"}),
    # 「如发财是得的话，红中就与白板一样做特殊牌」
    ("6z", {"6z"}, {"5z", "7z"}),
])
def test_wild_and_special_tiles_from_the_turned_tile(turned, wild, special):
    st = position(QUIET, turned=turned)
    assert kinds_where(st.wild) == wild
    assert kinds_where(st.bonus) == special | FLOWERS


@pytest.mark.parametrize("turned,wild", [
    # 「同类的另外三张花牌做得（如翻出春，则夏秋冬为得）」
    ("1f", {"2f", "3f", "4f"}),
    ("3f", {"1f", "2f", "4f"}),
    ("5f", {"6f", "7f", "8f"}),
    ("8f", {"5f", "6f", "7f"}),
])
def test_a_turned_flower_makes_the_other_three_of_its_class_wild(turned, wild):
    st = position(QUIET, turned=turned)
    assert kinds_where(st.wild) == wild
    bonus = kinds_where(st.bonus)
    # 「如花牌是得的话，就用红中与发财替代花牌做特殊牌」
    assert {"6z", "7z"} <= bonus
    assert not bonus & wild
    assert FLOWERS - wild - {turned} <= bonus
    # the white is never playable unless wild (the ruleset keeps it special)
    assert "5z" in bonus


def test_a_wild_flower_drawn_stays_in_the_hand():
    st = position(QUIET, turned="1f", draws="2f", ends="8m")
    st.apply("discard 1z")
    assert st.hands[1][t("2f")] == 1 and st.flowers[1] == []
    assert "discard 2f" in names(st)


# ---------------------------------------------------------------- claims

# Seat 0 discards 3s: seat 1 (next) can chow three ways, seat 2 can pung (and holds
# 4s 5s, but is not the next player), seat 3 holds 4s 5s and can claim nothing.
CLAIMS_3S = [
    "1m 4m 7m 2p 5p 8p 1m 4m 7m 2p 5p 8p 1z 2z 6z 7z 3s",
    "1s 2s 4s 5s 2m 5m 8m 3p 6p 2m 5m 8m 3p 6p 1z 2z",
    "3s 3s 4s 5s 3m 6m 1p 4p 7p 3m 6m 1p 4p 7p 3z 3z",
    "4s 5s 7s 7s 1m 4m 2p 8p 3m 6m 1p 8p 9p 6z 7z 4z",
]


def test_chow_only_for_the_next_player_and_the_exact_claims_offered():
    st = position(CLAIMS_3S)
    st.apply("discard 3s")
    assert st.phase == "claims" and st.claim_queue == [1, 2] and st.to_act == 1
    assert names(st) == {"pass", "chow 1s 2s", "chow 2s 4s", "chow 4s 5s"}
    assert_illegal(st, "pung 3s 3s", "cannot pung 3s")
    st.apply("pass")
    assert st.to_act == 2
    assert names(st) == {"pass", "pung 3s 3s"}
    assert_illegal(st, "chow 4s 5s", "cannot chow 3s")


def test_chow_is_taken_when_nobody_outranks_it():
    st = position(CLAIMS_3S, draws="1p")
    st.apply("discard 3s")
    st.apply("chow 4s 5s")
    st.apply("pass")
    assert st.phase == "turn" and st.to_act == 1
    assert st.melds[1] == [["chow", t("3s"), False]]
    assert hand_text(st, 1) == "2m 2m 5m 5m 8m 8m 3p 3p 6p 6p 1s 2s 1z 2z"
    assert st.discards[0] == []  # the claimed tile leaves the discards
    assert st.drawn is None and st.source == "claim"
    assert {a.kind for a in st.legal_actions()} == {"discard"}
    st.apply("discard 1z")
    assert st.to_act == 2 and st.hands[2][t("1p")] == 3


def test_pung_outranks_a_chow_claimed_first():
    # 「优先级：“和牌”大于“明杠”大于“碰”大于“吃”」
    st = position(CLAIMS_3S)
    st.apply("discard 3s")
    st.apply("chow 4s 5s")
    st.apply("pung 3s 3s")
    assert st.phase == "turn" and st.to_act == 2
    assert st.melds[1] == [] and st.hands[1][t("4s")] == 1
    assert st.melds[2] == [["pung", t("3s"), False]] and st.hands[2][t("3s")] == 0


def test_kong_claim_outranks_a_chow_and_replaces_from_the_wall_end():
    hands = list(CLAIMS_3S)
    hands[2] = "4s 5s 3m 6m 1p 4p 7p 3m 6m 1p 4p 7p 3z 3z 2p 8m"
    hands[3] = "3s 3s 3s 7s 1m 4m 2p 8p 3m 6m 1p 8p 9p 6z 7z 4z"
    st = position(hands, ends="8s")
    back, front = st.back, st.front
    st.apply("discard 3s")
    assert st.claim_queue == [1, 3]
    st.apply("chow 1s 2s")
    assert st.to_act == 3 and names(st) == {"pass", "kong 3s 3s 3s", "pung 3s 3s"}
    st.apply("kong 3s 3s 3s")
    assert st.phase == "turn" and st.to_act == 3
    assert st.melds[3] == [["kong", t("3s"), False]] and st.melds[1] == []
    # 「杠牌：玩家的明杠或暗杠均在最后一张牌中补回。」
    assert st.back == back - 1 and st.front == front
    assert st.hands[3][t("8s")] == 1 and st.drawn == t("8s") and st.source == "kong"
    assert sum(st.hands[3]) == 16 - 3 + 1


def test_concealed_kong_replaces_from_the_wall_end():
    hands = list(QUIET)
    hands[0] = "5m 5m 5m 5m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 1z"
    st = position(hands, ends="8s")
    back = st.back
    assert "concealed_kong 5m 5m 5m 5m" in names(st)
    assert_illegal(st, "concealed_kong 2p 2p 2p 2p", "cannot declare that kong")
    st.apply("concealed_kong 5m 5m 5m 5m")
    assert st.phase == "turn" and st.to_act == 0
    assert st.melds[0] == [["kong", t("5m"), True]]
    assert st.back == back - 1 and st.hands[0][t("8s")] == 1
    assert st.source == "kong" and sum(st.hands[0]) == 14


def test_added_kong_replaces_from_the_wall_end():
    hands = list(QUIET)
    hands[0] = "5m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 1z"
    st = position(hands, ends="8s", melds=[[("pung", "5m", False)], [], [], []])
    back = st.back
    assert "added_kong 5m" in names(st)
    st.apply("added_kong 5m")
    assert st.phase == "turn" and st.to_act == 0
    assert st.melds[0] == [["kong", t("5m"), False]]
    assert st.back == back - 1 and st.hands[0][t("8s")] == 1 and st.hands[0][t("5m")] == 0


def test_kong_claim_takes_the_fourth_copy_only_with_three_in_hand():
    st = position(CLAIMS_3S)
    st.apply("discard 3s")
    st.apply("pass")
    assert "kong 3s 3s 3s" not in names(st)


# ---------------------------------------------------------------- wilds and claims


def test_wilds_cannot_make_a_chow_or_a_pung():
    # 「“得”不能“吃”」「“得”不能“碰”」
    hands = list(QUIET)
    hands[0] = "1m 4m 7m 2p 5p 8p 5s 6s 1m 4m 7m 2p 5p 8p 3m 6m 1z"
    hands[1] = "3s 4s 2m 5m 8m 3p 6p 1s 1s 2m 5m 8m 3p 6p 7z 2z"
    hands[2] = "5s 3m 6m 1p 4p 7p 2s 2s 3m 6m 1p 4p 7p 8s 8s 3z"
    # control: 3s is a plain tile (turned 9s), so seat 1 may chow 3s 4s on 5s
    st = position(hands, turned="9s")
    st.apply("discard 5s")
    assert st.claim_queue == [1] and claims(st) == {"chow 3s 4s"}
    # turned 3s: the 3s seat 1 holds is wild and may not be used for the chow
    st = position(hands, turned="3s")
    st.apply("discard 5s")
    assert st.claim_queue == [] and st.phase == "turn" and st.to_act == 1
    # a wild may not stand in for the second tile of a pung either: seat 2 holds one 5s
    # and seat 1 a wild, and neither is offered anything on 5s
    assert not any(e["type"] == "claim" for e in st.log)


def test_two_wilds_and_one_natural_tile_cannot_pung():
    # turned 7z: seat 2 holds two wild 7z and one 3z; seat 0 discards 3z: no pung.
    hands = list(QUIET)
    hands[0] = QUIET[0].replace("1z", "3z")
    hands[2] = "3m 6m 1p 4p 7p 2s 5s 8s 3m 6m 1p 4p 7p 7z 7z 3z"
    st = position(hands, turned="7z")
    st.apply("discard 3z")
    assert st.claim_queue == [] and st.phase == "turn" and st.to_act == 1
    # control: with two natural 3z the pung is offered
    hands[2] = "3m 6m 1p 4p 7p 2s 5s 8s 3m 6m 1p 4p 7p 2s 3z 3z"
    st = position(hands, turned="7z")
    st.apply("discard 3z")
    assert st.claim_queue == [2] and claims(st) == {"pung 3z 3z"}


def test_a_discarded_wild_cannot_be_claimed_or_won_on():
    # 「其它玩家也不能用打出来的“得”使自己的牌和倒」, and the wild is not claimed.
    hands = [
        "2p 5p 8p 3s 7s 1m 4m 7m 2p 5p 8p 3s 1z 2z 6z 7z 5s",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 1z 1z 4s 6s",     # waits on 5s (嵌档)
        "5s 5s 3m 6m 1p 4p 7p 3m 6m 1p 4p 7p 3z 3z 2s 8s",     # could pung 5s
        QUIET[3],
    ]
    # control: 5s is a plain tile (turned 9s)
    st = position(hands, turned="9s")
    st.apply("discard 5s")
    assert st.claim_queue == [1, 2]
    assert claims(st) == {"win 5s", "chow 4s 6s"}
    st.apply("pass")
    assert claims(st) == {"pung 5s 5s"}
    # turned 5s: the discarded 5s is a wild
    st = position(hands, turned="5s", draws="8s")
    assert st.wild[t("5s")]
    st.apply("discard 5s")
    assert st.wild_discarded == [True, False, False, False]
    assert st.phase == "turn" and st.to_act == 1 and st.claim_queue == []
    assert not any(e["type"] in ("claim", "pung", "win") for e in st.log)


def test_a_wild_discarder_cannot_win_later():
    # 「如果玩家不小心把“得”打出，则其不能和牌并且算分时牌点清零」
    hands = list(QUIET)
    # seat 0: 123m 456m 789m 111z 222z + pair wait 7p after discarding the wild 3s
    hands[0] = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1z 1z 1z 2z 2z 2z 7p 3s"
    hands[1] = "1p 4p 7s 3p 6p 1s 4s 7s 2m 5m 8m 3p 6p 1s 4s 3z"
    hands[2] = "3p 6p 1p 4p 8p 2s 5s 8s 3m 6m 1p 4p 8p 2s 5s 3z"
    hands[3] = "2p 5p 8p 2p 5p 8p 3z 6s 9m 9p 2s 8s 8m 8p 7z 6z"
    st = position(hands, turned="3s", draws="6s 2s 5s 7p")
    st.apply("discard 3s")
    assert st.wild_discarded[0]
    st.apply("discard 3z")   # seat 1 (no claims on 3z: seat 2 holds 3z, seat 3 holds 3z)
    while st.phase == "claims":
        st.apply("pass")
    st.apply("discard 2s")
    while st.phase == "claims":
        st.apply("pass")
    st.apply("discard 5s")
    while st.phase == "claims":
        st.apply("pass")
    # seat 0 draws the 7p that completes its hand, but may not win
    assert st.to_act == 0 and st.hands[0][t("7p")] == 2
    assert st.game.shape.can_win(*st._split(st.hands[0]), len(st.melds[0]))
    assert "win" not in names(st)
    assert_illegal(st, "win", "discarded a wild")


def test_a_wild_discarder_scores_zero_at_settlement():
    # seat 0 discarded a wild earlier and holds two concealed wind pungs: its total is 0.
    hands = [WAIT_7P] * 4
    hands[0] = "1z 1z 1z 2z 2z 2z 8p 8p 1s 1s 2s 2s 4s 4s 5s 6s 7p"
    st = position(hands, turned="3s")
    st.wild_discarded[0] = True
    st.apply("discard 7p")
    st.apply("win 7p")
    result = st.results[-1]
    assert result["winner"] == 1
    assert result["totals"][0] == 0.0
    assert "discarded a wild" in result["scores"][0]


# ---------------------------------------------------------------- pung locks


def lock_hands():
    # seat 2 holds 3s 3s, seat 0 and seat 1 one 3s each.
    return [
        "1m 4m 7m 2p 5p 8p 1m 4m 7m 2p 5p 8p 1z 2z 6z 7z 3s",
        "3s 6s 2m 5m 8m 3p 6p 2m 5m 8m 3p 6p 1z 2z 7z 1p",
        "3s 3s 3m 6m 1p 4p 7p 3m 6m 4p 7p 2z 3z 4z 8s 6z",
        "7s 7s 1m 4m 2p 8p 3m 6m 8p 9p 6z 7z 1z 3z 8s 9m",
    ]


def test_a_passed_pung_is_locked_until_that_players_next_turn():
    # 「同一圈内放弃碰的牌不能再碰」
    st = position(lock_hands(), draws="1s 2s")
    st.apply("discard 3s")
    assert st.to_act == 2 and "pung 3s 3s" in names(st)
    st.apply("pass")
    assert st.pung_locks[2] == [t("3s")]
    assert st.phase == "turn" and st.to_act == 1
    st.apply("discard 3s")
    # the same tile again within the go-around: seat 2 is not asked
    assert "pung" not in {e["type"] for e in st.log}
    assert st.phase == "turn" and st.to_act == 2


def test_the_pung_lock_ends_at_that_players_next_turn():
    hands = lock_hands()
    hands[1] = "4s 6s 2m 5m 8m 3p 6p 2m 5m 8m 3p 6p 1z 2z 7z 1p"
    hands[3] = "3s 7s 1m 4m 2p 8p 3m 6m 8p 9p 6z 7z 1z 3z 8s 9m"
    st = position(hands, draws="1s 2s 5s")
    st.apply("discard 3s")
    st.apply("pass")            # seat 2 passes the pung
    st.apply("discard 1p")      # seat 1
    assert st.to_act == 2 and st.pung_locks[2] == [t("3s")]
    st.apply("discard 2s")      # seat 2's own turn: the lock ends
    assert st.pung_locks[2] == []
    assert st.to_act == 3
    st.apply("discard 3s")
    assert st.phase == "claims" and st.to_act == 2
    assert claims(st) == {"pung 3s 3s"}


def test_the_lock_is_per_player_and_per_tile():
    hands = lock_hands()
    st = position(hands, draws="1s 2s")
    st.apply("discard 3s")
    st.apply("pass")
    assert st.pung_locks == [[], [], [t("3s")], []]


# ---------------------------------------------------------------- wins


def test_win_on_a_discard_and_its_settlement():
    st = three_waiting()
    st.apply("discard 7p")
    assert st.claim_queue == [1, 2, 3] and st.to_act == 1
    assert names(st) == {"pass", "win 7p", "chow 5p 6p"}
    st.apply("win 7p")
    assert st.is_terminal() and st.current_player == -2
    result = st.results[-1]
    assert result["winner"] == 1 and result["discarder"] == 0
    assert not result["self_drawn"] and result["liable"] is None
    # 123m 456m 789m 123p 456p 7p7p: 单吊 2 和, 无得 1 番: (2 + 20) × 2 = 44 → 50
    assert result["totals"] == [0.0, 50.0, 0.0, 0.0]
    assert result["payments"] == [-5.0, 15.0, -5.0, -5.0]
    assert st.returns() == [-5.0, 15.0, -5.0, -5.0]
    assert st.legal_actions().count() == 0 and list(st.legal_actions()) == []
    assert_illegal(st, "pass", "game is over")


def test_a_self_drawn_win():
    hands = list(QUIET)
    hands[1] = WAIT_7P
    hands[0] = "1s 4s 7s 2p 8p 8p 3s 6s 1s 4s 7s 8p 2z 3z 3s 6s 1z"
    st = position(hands, draws="7p")
    st.apply("discard 1z")
    assert st.to_act == 1 and "win" in names(st)
    st.apply("win")
    result = st.results[-1]
    assert result["winner"] == 1 and result["self_drawn"] and result["discarder"] is None
    # 单吊 2 + 自摸 2 = 4 和, 无得 1 番: (4 + 20) × 2 = 48 → 50
    assert result["totals"][1] == 50.0
    assert result["payments"][1] == 15.0 and abs(sum(result["payments"])) < 1e-9


def test_no_win_without_a_complete_hand():
    st = position(QUIET)
    assert "win" not in names(st)
    assert_illegal(st, "win", "not a winning hand")


def test_a_win_right_after_a_claim_is_not_self_drawn():
    hands = list(QUIET)
    hands[0] = "1s 4s 7s 2p 8p 8p 3s 6s 1s 4s 7s 8p 2z 3z 3s 6s 6p"
    hands[1] = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 7p 7p"   # waits on 3p / 6p
    st = position(hands)
    st.apply("discard 6p")
    assert claims(st) == {"win 6p", "chow 4p 5p", "chow 5p 7p"}
    st.apply("chow 4p 5p")
    assert st.phase == "turn" and st.to_act == 1 and st.source == "claim"
    # The chow completed the hand (123m 456m 789m 123p 77p + 456p), but no tile was drawn:
    # the win on the discard was on offer as "win 6p"; now only a discard is.
    assert st.game.shape.can_win(*st._split(st.hands[1]), len(st.melds[1]))
    assert {a.split()[0] for a in names(st)} == {"discard"}
    assert_illegal(st, "win")


@pytest.mark.parametrize("discarder,order", [(0, [1, 2, 3]), (1, [2, 3, 0]),
                                             (2, [3, 0, 1]), (3, [0, 1, 2])])
def test_several_winners_the_discarders_next_player_first(discarder, order):
    # 「以该打牌玩家的右手家、对家、左手家此顺序进行优先级排列」
    st = three_waiting(discarder)
    st.apply("discard 7p")
    assert st.claim_queue == order
    st.apply("win 7p")
    assert st.results[-1]["winner"] == order[0]


def test_several_winners_opposite_then_the_one_before():
    st = three_waiting(0)
    st.apply("discard 7p")
    st.apply("pass")
    assert st.to_act == 2
    st.apply("win 7p")
    assert st.results[-1]["winner"] == 2

    st = three_waiting(0)
    st.apply("discard 7p")
    st.apply("chow 5p 6p")
    st.apply("pass")
    assert st.to_act == 3
    st.apply("win 7p")
    result = st.results[-1]
    assert result["winner"] == 3 and st.melds[1] == []


def test_win_outranks_kong_and_pung():
    # seat 1 can kong 7p (three in hand), seat 3 wins on it.
    hands = [WAIT_47P] * 4
    hands[0] = "7p 8p 8p 9p 9p 1s 1s 2s 2s 4s 4s 5s 6s 7s 8s 1z 2z"
    hands[1] = "7p 7p 7p 1m 4m 7m 2m 5m 8m 3z 3z 1s 4s 6z 6z 4z"
    hands[2] = "1m 4m 7m 2m 5m 8m 3s 6s 3z 3z 2s 5s 8s 3s 6s 4z"
    st = position(hands)
    st.apply("discard 7p")
    assert st.claim_queue == [1, 3]
    assert claims(st) == {"kong 7p 7p 7p", "pung 7p 7p"}
    st.apply("kong 7p 7p 7p")
    st.apply("win 7p")
    assert st.results[-1]["winner"] == 3 and st.melds[1] == []


def test_win_outranks_a_pung():
    hands = [WAIT_47P] * 4
    hands[0] = "7p 8p 8p 9p 9p 1s 1s 2s 2s 4s 4s 5s 6s 7s 8s 3z 2z"
    hands[1] = "7p 7p 1m 4m 7m 2m 5m 8m 3z 3z 1s 4s 6z 6z 4z 3s"
    hands[2] = "1m 4m 7m 2m 5m 8m 3s 6s 3z 2z 2s 5s 8s 3s 6s 4z"
    st = position(hands)
    st.apply("discard 7p")
    assert st.claim_queue == [1, 3] and claims(st) == {"pung 7p 7p"}
    st.apply("pung 7p 7p")
    assert st.to_act == 3 and claims(st) == {"win 7p"}
    st.apply("win 7p")
    assert st.results[-1]["winner"] == 3


# ---------------------------------------------------------------- robbing a kong

ROB_HANDS = [
    "5m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 1z",                   # pung 5m exposed
    "2m 3m 8m 3p 6p 1s 4s 7s 2m 8m 3p 6p 1s 4s 2z 7z",
    "1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4m 6m 1z 1z",             # waits on 5m
    "1m 4m 7m 2p 5p 8p 3s 6s 9m 9p 2s 8s 8m 8p 7z 6z",
]


def test_an_added_kong_can_be_robbed():
    # 「抢杠和：若某一玩家在明杠时，明杠的牌刚好符合另一玩家和牌条件，和牌家可进行抢杠和牌，
    # 明杠家明杠失败，明杠家的杠牌以刻子计算」
    st = position(ROB_HANDS, melds=[[("pung", "5m", False)], [], [], []], ends="8s")
    back = st.back
    st.apply("added_kong 5m")
    assert st.phase == "rob" and st.to_act == 2
    assert names(st) == {"pass", "win 5m"}
    assert_illegal(st, "discard 1z", "rob the kong")
    st.apply("win")
    result = st.results[-1]
    assert result["winner"] == 2 and result["discarder"] == 0 and result["robbed_kong"]
    assert st.melds[0] == [["pung", t("5m"), False]]
    assert st.back == back
    assert "robbed_kong_win" in result["scores"][2]


def test_a_passed_rob_completes_the_added_kong():
    st = position(ROB_HANDS, melds=[[("pung", "5m", False)], [], [], []], ends="8s")
    st.apply("added_kong 5m")
    st.apply("pass")
    assert st.phase == "turn" and st.to_act == 0
    assert st.melds[0] == [["kong", t("5m"), False]] and st.hands[0][t("8s")] == 1


def test_a_concealed_kong_cannot_be_robbed():
    # 「不能对暗杠牌进行枪杠」
    hands = list(ROB_HANDS)
    hands[0] = "5m 5m 5m 5m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 1z"
    st = position(hands, ends="8s")
    st.apply("concealed_kong 5m 5m 5m 5m")
    assert st.phase == "turn" and st.to_act == 0
    assert st.melds[0] == [["kong", t("5m"), True]]
    assert not st.results


# ---------------------------------------------------------------- the wall's end


def pass_all(st):
    while st.phase == "claims":
        st.apply("pass")


def test_exhaustive_draw_at_eight_pairs_without_settlement():
    # 「当剩下牌的总数等于 8 对时 … 如果还是没有人“和牌”，称之为黄牌 … 各玩家间不再进行该副牌的
    # 结算，同时庄家自动下庄。」 18 tiles left: seat 1 draws the tile that leaves 17
    # (8 pairs and a single) and still plays; after its discard the hand ends.
    st = position(QUIET, tiles_left=18, draws="7s 1p")
    st.totals = [3.0, -1.0, -1.0, -1.0]
    st.apply("discard 1z")
    assert st.phase == "turn" and st.to_act == 1 and st.back - st.front == 17
    st.apply("discard 2z")
    assert st.is_terminal()
    result = st.results[-1]
    assert result["winner"] is None and result["exhausted"]
    assert result["payments"] == [0.0, 0.0, 0.0, 0.0]
    assert st.returns() == [3.0, -1.0, -1.0, -1.0]
    assert st.dealer == 1  # the deal passes to the dealer's next player (南家)
    assert st.back - st.front == 17


def test_nineteen_left_is_not_yet_exhausted():
    st = position(QUIET, tiles_left=20, draws="7s 1p 9m")
    st.apply("discard 1z")
    st.apply("discard 2z")
    assert not st.is_terminal() and st.to_act == 2 and st.back - st.front == 18


def test_after_an_exhaustive_draw_the_next_hand_is_dealt_by_the_new_dealer():
    st = position(QUIET, tiles_left=17, hands_to_play=2, dealer=3)
    st.to_act = 3
    st.hands[0], st.hands[3] = st.hands[3], st.hands[0]
    st.apply("discard 1z")
    assert not st.is_terminal() and st.hand_no == 1
    assert st.dealer == 0 and st.to_act == 0 and sum(st.hands[0]) == 17


def test_the_dealer_keeps_the_deal_when_winning_and_passes_it_otherwise():
    st = three_waiting(0, hands_to_play=2)
    st.apply("discard 7p")
    st.apply("win 7p")
    assert st.dealer == 1 and st.to_act == 1 and st.hand_no == 1

    hands = [WAIT_7P] * 4
    hands[1] = DISCARD_7P
    st = position(hands, to_act=1, dealer=0, hands_to_play=2)
    st.apply("discard 7p")
    assert st.claim_queue == [2, 3, 0]
    st.apply("pass")
    st.apply("pass")
    st.apply("win 7p")
    assert st.results[-1]["winner"] == 0 and st.dealer == 0 and st.to_act == 0


def test_no_concealed_kong_once_the_wall_is_exhausted():
    hands = list(QUIET)
    hands[0] = "5m 5m 5m 5m 2p 5p 8p 3s 6s 1m 4m 7m 2p 5p 8p 3s 1z"
    assert "concealed_kong 5m 5m 5m 5m" in names(position(hands, tiles_left=18))
    assert "concealed_kong 5m 5m 5m 5m" not in names(position(hands, tiles_left=17))


# ---------------------------------------------------------------- live tiles, 包三家

# Seat 0 discards 7p and seat 1 wins on it; `seen` decides what was live.


@pytest.mark.parametrize("left,live", [(33, False), (32, False), (31, True), (30, True)])
def test_live_tile_phase_starts_at_fifteen_pairs(left, live):
    # 「当剩下牌只有 15 对或 15 加最后没成叠的单张牌 … 则为生牌阶段」: the discarder has drawn
    # and `left` tiles are in the wall when the discard is made.
    st = three_waiting(tiles_left=left, seen="1s")
    st.apply("discard 7p")
    if live:
        assert st.live_discards == [{"seat": 0, "tile": t("7p"), "live": True}]
    else:
        assert st.live_discards == []
    st.apply("win 7p")
    assert st.results[-1]["liable"] == (0 if live else None)


def test_discarding_a_live_tile_that_is_won_on_pays_for_all_three():
    # 「在 “生牌阶段”, 若有玩家打出生牌时被其它玩家 “和牌”, 若打生牌者手里不是全生牌，则称之为
    # 包三家」「被包方的牌点归零处理」「所有付出的牌点均由被包方支付」
    st = three_waiting(tiles_left=31, seen="1s")  # seat 0 holds 1s: not all live
    st.apply("discard 7p")
    st.apply("win 7p")
    result = st.results[-1]
    assert result["liable"] == 0
    assert result["totals"][0] == 0.0
    assert result["payments"] == [-15.0, 15.0, 0.0, 0.0]


def test_no_liability_before_the_live_tile_phase():
    st = three_waiting(tiles_left=32, seen="1s")
    st.apply("discard 7p")
    st.apply("win 7p")
    assert st.results[-1]["liable"] is None
    assert st.results[-1]["payments"] == [-5.0, 15.0, -5.0, -5.0]


def test_no_liability_for_a_tile_already_discarded():
    st = three_waiting(tiles_left=31, seen="1s 7p")
    st.apply("discard 7p")
    st.apply("win 7p")
    assert st.results[-1]["liable"] is None


def test_no_liability_for_a_tile_already_claimed():
    # 「被别的玩家吃、碰的牌，均为非生牌」: a 7p shown in a chow is not live.
    st = three_waiting(tiles_left=31)
    st.seen = nt.parse_tiles("1s 6p 7p 8p")
    st.apply("discard 7p")
    st.apply("win 7p")
    assert st.results[-1]["liable"] is None


def test_no_liability_when_the_whole_hand_is_live_and_not_ready():
    # 「若打生牌而被别玩家和牌时，打生牌者手里全是生牌，同时还没听牌时…不按包三家处理」
    st = three_waiting(tiles_left=31, seen="3z")   # seat 0 holds no 3z
    st.apply("discard 7p")
    st.apply("win 7p")
    result = st.results[-1]
    assert result["liable"] is None
    assert result["payments"] == [-5.0, 15.0, -5.0, -5.0]


def test_liable_when_the_whole_hand_is_live_but_ready():
    hands = [WAIT_7P] * 4
    # after discarding 7p seat 0 holds 111s 222s 444s 567s 11z 22z: waits on 1z / 2z,
    # every tile of it live
    hands[0] = "1s 1s 1s 2s 2s 2s 4s 4s 4s 5s 6s 7s 1z 1z 2z 2z 7p"
    st = position(hands, tiles_left=31, seen="3z")
    st.apply("discard 7p")
    st.apply("win 7p")
    assert st.results[-1]["liable"] == 0


def test_liable_player_pays_every_payment_including_those_between_others():
    hands = [WAIT_7P] * 4
    hands[0] = DISCARD_7P
    # seat 2: concealed 7z pung (8 和, 1 番 → 20); seat 3: concealed 1z pung (8 → 10)
    hands[2] = "7z 7z 7z 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p"
    hands[3] = "1z 1z 1z 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p"
    hands[0] = "8p 8p 9p 9p 1s 1s 2s 2s 4s 4s 5s 6s 7s 8s 3z 2z 7p"
    st = position(hands, tiles_left=31, seen="1s")
    st.apply("discard 7p")
    st.apply("win 7p")
    result = st.results[-1]
    assert result["liable"] == 0 and result["totals"] == [0.0, 50.0, 20.0, 10.0]
    # normally: seat 0 pays 5 + 2 + 1, seat 2 receives 2 (seat 0) + 1 (seat 3),
    # seat 3 receives 1 (seat 0); all of it is paid by seat 0
    assert result["payments"] == [-19.0, 15.0, 3.0, 1.0]


# ---------------------------------------------------------------- payments


def test_payments_to_the_winner_and_between_the_others():
    # 「1. 其他玩家向和牌方支付：牌点汇总 /10 * 底银」
    # 「2. 未和牌玩家互相支付：（被支付方牌点汇总－支付方牌点汇总） /10 * 底银」
    hands = [WAIT_7P] * 4
    hands[2] = "7z 7z 7z 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p"
    hands[3] = "1z 1z 1z 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p"
    hands[0] = "8p 8p 9p 9p 1s 1s 2s 2s 4s 4s 5s 6s 7s 8s 3z 2z 7p"
    st = position(hands)
    st.apply("discard 7p")
    st.apply("win 7p")
    result = st.results[-1]
    totals = result["totals"]
    assert totals == [0.0, 50.0, 20.0, 10.0]
    assert result["payments"] == [-8.0, 15.0, -2.0, -5.0]
    assert sum(result["payments"]) == 0


def test_payments_follow_the_totals_and_sum_to_zero_in_random_games():
    import random

    checked = 0
    for seed in range(40):
        st = ruleset().new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            acts = list(st.legal_actions())
            wins = [a for a in acts if a.kind == "win"]
            st.apply(wins[0] if wins else acts[rng.randrange(len(acts))])
        result = st.results[-1]
        if result["winner"] is None or result["liable"] is not None:
            continue
        w, totals, pay = result["winner"], result["totals"], result["payments"]
        expect = [0.0] * 4
        for s in range(4):
            if s == w:
                continue
            expect[s] -= min(500, totals[w]) // 10
            expect[w] += min(500, totals[w]) // 10
            for o in range(4):
                if o not in (s, w):
                    expect[s] += (min(500, totals[s]) - min(500, totals[o])) // 10
        assert pay == expect, (seed, totals, pay)
        assert abs(sum(pay)) < 1e-9
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------- illegal actions


def test_illegal_actions_on_a_turn_leave_the_state_untouched():
    st = position(QUIET)
    assert_illegal(st, "discard 9p", "you hold no 9p")
    assert_illegal(st, "discard 1m 4m", "exactly one tile")
    assert_illegal(st, "concealed_kong 1m 1m 1m 1m", "cannot declare that kong")
    assert_illegal(st, "added_kong 1m", "cannot declare that kong")
    assert_illegal(st, "chow 2m 3m", "on your turn")
    assert_illegal(st, "kong 1m 1m 1m", "on your turn")


def test_illegal_actions_in_the_claims_phase_leave_the_state_untouched():
    st = position(CLAIMS_3S)
    st.apply("discard 3s")
    assert_illegal(st, "discard 1s", "claim the discard")
    assert_illegal(st, "chow 5s 6s", "cannot chow 3s")
    assert_illegal(st, "win 3s", "cannot win 3s")
    assert_illegal(st, "kong 3s 3s 3s", "cannot kong 3s")


def test_unreadable_actions_raise_illegal_action():
    st = position(QUIET)
    before = st.to_json()
    for bad in ("discard 0m", "discard", "fly 1m", "", {"type": "discard", "tiles": "xx"}):
        with pytest.raises(IllegalAction):
            st.apply(bad)
        assert st.to_json() == before


def test_json_round_trip_mid_claims():
    st = position(CLAIMS_3S)
    st.apply("discard 3s")
    # a wall of FILLER tiles is no state of real play: the saved-state check refuses it
    again = restore_state(type(st), st.game, st.to_json(), check=False)
    assert again.to_json() == st.to_json()
    assert names(again) == names(st)
    again.apply("chow 4s 5s")
    st.apply("chow 4s 5s")
    assert again == st


def test_action_json_form_is_accepted():
    st = position(CLAIMS_3S)
    st.apply({"type": "discard", "tiles": "3s"})
    assert Action.parse({"type": "chow", "tiles": "5s 4s"}) in st.legal_actions()
