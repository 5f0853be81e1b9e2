"""The shedding (climbing) engine, rule by rule, on the four bundled shedding rulesets.

Positions come from `new_game()` and are overwritten by `position()` below: test
scaffolding that sets the state's public fields directly (hands as count vectors,
`to_act`, the play to beat `last`, `out`, `captured`, `sides`, `auction`, `dealer`)
so one rule can be checked in isolation. Everything after that goes through the API
(`legal_actions`, `apply`, `why_illegal`, `returns`).

Seats: 对家统 (4) and 六家统 (6) pair the even seats against the odd ones and turn
counter-clockwise (seat s → s + 1); 标统 turns clockwise (s → s − 1) with the dealer
alone against three; 关牌 is two players, counter-clockwise.
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
from rulesdsl.engine.base import TERMINAL, Action, IllegalAction, restore_state
from rulesdsl.model.patterns import Reading, beats, readings

from .helpers import assert_illegal

DUIJIA = "wenling-duijia-tong"
LIUJIA = "wenling-liujia-tong"
BIAO = "wenling-biao-tong"
GUAN = "guan-pai"
ALL = [DUIJIA, LIUJIA, BIAO, GUAN]


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


def lead_reading(st, text: str, pattern: str | None = None) -> Reading:
    """The reading the engine records for `text` played on a lead: the highest-keyed
    reading (of `pattern` if given)."""
    rs = readings(st.game.hc, list(cards(text)))
    if pattern is not None:
        rs = [r for r in rs if r.pattern == pattern]
    assert rs, f"{text} is no {pattern or 'pattern'}"
    return max(rs, key=lambda r: r.key)


def position(name, hands, *, to_act, last=None, out=(), captured=None, round_points=0,
             passes=0, sides=None, dealer=None, bid=None, seed=0, hands_to_play=1):
    """Test scaffolding: a fresh state overwritten into a play-phase position.

    `hands` are card strings, one per seat ("" for a seat that is out); `last` is the
    play to beat as (seat, "cards") or (seat, "cards", "pattern"), recorded with the
    highest reading as the engine records a lead; `out` the seats already out, in
    order; `captured` the points each seat has taken; `sides` the sides (default the
    ruleset's teams); `dealer` / `bid` set 标统's dealer (default seat 3, alone
    against 0, 1, 2) and the auction's bid (default 5); the kitty is taken to be in
    the dealer's hand already.
    """
    st = ruleset(name).new_game(seed=seed, hands=hands_to_play)
    n = st.game.players
    assert len(hands) == n
    st.phase = "play"
    st.hands = [counts(h) for h in hands]
    st.to_act = to_act
    st.out = list(out)
    st.captured = list(captured) if captured is not None else [0] * n
    st.round_points = round_points
    st.passes = passes
    st.last = None
    if last is not None:
        seat, text, *pattern = last
        r = lead_reading(st, text, pattern[0] if pattern else None)
        st.last = {"seat": seat, "cards": nt.format_cards(cards(text)), "pattern": r.pattern,
                   "size": r.size, "key": r.key, "bomb": r.bomb, "bomb_size": r.bomb_size,
                   "exclusive": r.exclusive}
    if dealer is None and st.game.rules.auction is not None:
        dealer = n - 1
    if dealer is not None:
        st.dealer = dealer
        st.first_leader = dealer
        st.sides = [[dealer], [s for s in range(n) if s != dealer]]
        st.auction = {"bid": bid or 5, "high": dealer, "opener": dealer, "turns": n,
                      "passes": n - 1}
    if sides is not None:
        st.sides = [list(s) for s in sides]
    return st


def auction_position(seat, hand, *, bid=0, high=None, turns=0, passes=0, seed=0):
    """Test scaffolding: 标统 in the auction, `seat` to act holding `hand`; the bid so
    far is `bid` by `high` after `turns` turns (`passes` of them passes since the bid)."""
    st = ruleset(BIAO).new_game(seed=seed)
    assert st.phase == "auction"
    st.to_act = seat
    st.hands[seat] = counts(hand)
    st.auction.update({"bid": bid, "high": high, "turns": turns, "passes": passes,
                       "opener": (seat + turns) % 4})      # clockwise from the opener
    return st


def clean_hands(st, hand: str = "S3 H4"):
    """Give every seat a hand with no jokers and no eight of a kind (no forced bid)."""
    for s in range(st.game.players):
        st.hands[s] = counts(hand)


def play(st, *actions):
    for a in actions:
        st.apply(a)


def acts(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def rank_multiset(kinds) -> tuple[int, ...]:
    return tuple(sorted(nt.card_rank(k) for k in kinds))


def brute_force_legal(st) -> set[tuple]:
    """Independently of the move generator: every sub-multiset of the hand to act, read
    with `readings`, kept when it beats the play on the table (`beats`), as
    (rank multiset, pattern); plus ("pass",) when following."""
    hc = st.game.hc
    seat = st.to_act
    pool = [k for k, c in enumerate(st.hands[seat]) for _ in range(c)]
    following = st.last is not None and st.last["seat"] != seat
    out: set[tuple] = {("pass",)} if following else set()
    prev = None
    if following:
        last = st.last
        prev = Reading(last["pattern"], last["size"], last["key"], None, last["bomb"],
                       last["bomb_size"], False, last["exclusive"])
    for n in range(1, len(pool) + 1):
        for combo in set(itertools.combinations(pool, n)):
            rs = readings(hc, list(combo))
            if prev is not None:
                rs = [r for r in rs if beats(hc, r, prev)]
            out |= {(rank_multiset(combo), r.pattern) for r in rs}
    return out


def engine_legal(st) -> list[tuple]:
    """The engine's legal actions as (rank multiset, pattern); an action without `as`
    must have exactly one pattern among its readings."""
    hc = st.game.hc
    out = []
    for a in st.legal_actions():
        if a.kind == "pass":
            out.append(("pass",))
            continue
        assert a.kind == "play"
        pattern = a.pattern
        names = {r.pattern for r in readings(hc, list(a.cards))}
        if pattern is None:
            assert len(names) == 1, f"{a} reads as {names} but names no pattern"
            pattern = names.pop()
        else:
            assert len(names) > 1 and pattern in names, str(a)
        out.append((rank_multiset(a.cards), pattern))
    return out


def check_legal_set(st):
    listed = list(st.legal_actions())
    assert len(listed) == len(set(listed)), "an action is listed twice"
    assert st.legal_actions().count() == len(listed) == len(st.legal_actions())
    got = engine_legal(st)
    assert len(got) == len(set(got)), "two actions are the same play"
    expected = brute_force_legal(st)
    assert set(got) == expected, (f"engine only: {set(got) - expected}; "
                                  f"brute force only: {expected - set(got)}")
    for a in listed:
        assert st.is_legal(a), (str(a), st.why_illegal(a))
        assert a in st.legal_actions()


def events(st, kind: str) -> list[dict]:
    return [e for e in st.log if e["type"] == kind]


def blank(n: int) -> list[str]:
    return [""] * n


# ---------------------------------------------------------------- legal actions by brute force

BRUTE_CASES = [
    # 对家统: wilds in runs and triples, AA22, straights, bombs, a full house to beat
    (DUIJIA, "S3 S3 S4 S4 BJ LJ S5", None),
    (DUIJIA, "SA HA S2 H2 S3 H3 BJ S7", (1, "SA HA S2 H2")),
    (DUIJIA, "S8 H8 D8 LJ BJ S9 S9 S4", (1, "S7 H7 D7 S4 S4")),
    (DUIJIA, "S4 H5 D6 C7 S8 BJ SA S2", (1, "S3 H4 D5 C6 S7")),
    (DUIJIA, "S9 H9 D9 C9 LJ S3 S3 BJ", (1, "S5 H5 D5 C5 S5")),
    (DUIJIA, "S4 H4 D4 S5 H5 D5 SQ HQ", (1, "S3 H3 D3 S4 H4 D4")),
    (DUIJIA, "BJ LJ LJ S2 H2 SA", (1, "LJ LJ")),
    # 六家统: 888 + two little jokers, joker bombs
    (LIUJIA, "S8 H8 D8 LJ LJ S3", None),
    (LIUJIA, "S8 H8 D8 LJ LJ S3 S6", (1, "S4 H4 D4 S6 S6")),
    (LIUJIA, "LJ LJ LJ LJ BJ S2 S3", (1, "S2 S2 H2 H2 D2 D2 C2 C2")),
    (LIUJIA, "BJ BJ BJ BJ S3 S3 LJ", (1, "LJ LJ LJ LJ", "four_little_jokers")),
    (LIUJIA, "S3 S3 S3 S3 S3 H3 H3 BJ", (1, "BJ BJ BJ BJ", "four_big_jokers")),
    # 标统: jokers are plain cards, KKAA, 10JQKA, the king bomb
    (BIAO, "SK HK SA HA S2 H2 BJ LJ", None),
    (BIAO, "S10 HJ DQ CK SA S9 S8 BJ", (1, "S9 H10 DJ CQ SK")),
    (BIAO, "BJ BJ LJ LJ S4 H4 D4 C4", (1, "S2 S2 H2 H2 D2 D2 C2 C2")),
    (BIAO, "S7 H7 D7 S8 H8 D8 S3 H3", (1, "S5 H5 D5 S6 H6 D6 SQ HQ SK HK")),
    # 关牌: long straights, 3带2, 4+1 and ace bombs
    (GUAN, "S3 H4 D5 C6 S7 H8 D9 C10", None),
    (GUAN, "S3 H4 D5 C6 S7 H8 D9 C10", (1, "S2 H3 D4 C5 S6 H7")),
    (GUAN, "HA CA DA S4 SK HK DK CK", (1, "S5 H5 D5 C5 S3")),
    (GUAN, "S9 D9 H9 S4 H4 S5 S2", (1, "S8 D8 H8 S3 H7")),
    (GUAN, "HA CA DA S3 S2 H3", None),
]


@pytest.mark.parametrize("name,hand,last", BRUTE_CASES)
def test_legal_actions_equal_brute_force(name, hand, last):
    n = ruleset(name).players
    hands = blank(n)
    hands[0] = hand
    hands[1] = "S3 H3"
    st = position(name, hands, to_act=0, last=last)
    check_legal_set(st)


@pytest.mark.parametrize("name", ALL)
def test_legal_actions_equal_brute_force_random_positions(name):
    """Seeded random small hands from a few adjacent ranks plus jokers (so runs, bombs
    and wilds are common), against a random play of the same cards to beat."""
    rng = random.Random(f"brute/{name}")
    rs = ruleset(name)
    full = [k for k, c in enumerate(rs.deck) for _ in range(c)]
    n = rs.players
    probe = position(name, blank(n), to_act=0)
    for _ in range(12 if name == GUAN else 20):
        low = rng.choice([1, 2, 3, 6, 10, 11])
        near = set(range(low, low + 4)) | {15, 16} | ({14} if low == 1 else set())
        deck = [k for k in full if nt.card_rank(k) in near]
        rng.shuffle(deck)
        size = rng.randint(3, 8)
        hand, rest = deck[:size], deck[size:]
        last = None
        if rng.random() < 0.8:
            for _ in range(30):
                shown = rng.sample(rest, rng.randint(1, min(6, len(rest))))
                names = sorted({r.pattern for r in readings(probe.game.hc, shown)})
                if names:
                    last = (1, nt.format_cards(shown), rng.choice(names))
                    break
        hands = blank(n)
        hands[0] = nt.format_cards(hand)
        hands[1] = "S3"
        check_legal_set(position(name, hands, to_act=0, last=last))


def test_duijia_four_jokers_are_no_top_bomb_by_default():
    st = position(DUIJIA, ["BJ BJ LJ LJ S7", "S3", "", ""], to_act=0,
                  last=(1, "S5 H5 D5 C5 S5"))
    # Four wild jokers are a four-card bomb only; they do not beat five 5s.
    assert not st.is_legal("BJ BJ LJ LJ")
    assert Action.parse("BJ BJ LJ LJ") not in list(st.legal_actions())
    check_legal_set(st)


# ---------------------------------------------------------------- patterns and what beats what


def beats_on_table(name, play_text, over, *, pattern=None, over_pattern=None) -> bool:
    """Seat 0 holds exactly `play_text` and faces `over` played by seat 1."""
    n = ruleset(name).players
    hands = blank(n)
    hands[0] = play_text
    hands[1] = "S3"
    last = (1, over) if over_pattern is None else (1, over, over_pattern)
    st = position(name, hands, to_act=0, last=last)
    action = play_text if pattern is None else f"{play_text} as {pattern}"
    return st.is_legal(action)


def leads(name, play_text) -> list[str]:
    """The patterns `play_text` may be led as (its distinct readings)."""
    n = ruleset(name).players
    hands = blank(n)
    hands[0] = play_text
    hands[1] = "S3"
    st = position(name, hands, to_act=0)
    whole = Action.parse(play_text)
    found = [a for a in st.legal_actions() if a.cards == whole.cards]
    return sorted(a.pattern or readings(st.game.hc, list(a.cards))[0].pattern for a in found)


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA])
def test_aa22_is_the_lowest_consecutive_pair(name):
    assert leads(name, "SA HA S2 H2") == ["consecutive_pairs"]
    assert beats_on_table(name, "S2 H2 S3 H3", "SA HA S2 H2")
    assert not beats_on_table(name, "SA HA S2 H2", "S2 H2 S3 H3")
    assert not beats_on_table(name, "SA HA S2 H2", "S3 H3 S4 H4")
    # the same ranks but more pairs never beat (「牌的数量不同时，不能出牌」)
    assert not beats_on_table(name, "S5 H5 S6 H6 S7 H7", "S4 H4 S5 H5")


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA])
def test_ace_is_one_or_ace_by_where_the_run_ends(name):
    low = "SA HA S2 H2 S3 H3 S4 H4 S5 H5 S6 H6 S7 H7 S8 H8 S9 H9 S10 H10 SJ HJ SQ HQ"
    mid = "S2 H2 S3 H3 S4 H4 S5 H5 S6 H6 S7 H7 S8 H8 S9 H9 S10 H10 SJ HJ SQ HQ SK HK"
    high = "S3 H3 S4 H4 S5 H5 S6 H6 S7 H7 S8 H8 S9 H9 S10 H10 SJ HJ SQ HQ SK HK SA HA"
    assert beats_on_table(name, mid, low)       # AA…QQ: the ace is 1
    assert beats_on_table(name, high, mid)      # …KKAA: the ace is A
    assert not beats_on_table(name, low, mid)
    assert not beats_on_table(name, "SA HA DA S2 H2 D2 S3 H3 D3",
                              "S2 H2 D2 S3 H3 D3 S4 H4 D4")
    assert beats_on_table(name, "S2 H2 D2 S3 H3 D3", "SA HA DA S2 H2 D2")
    assert not beats_on_table(name, "SA HA DA S2 H2 D2", "S2 H2 D2 S3 H3 D3")


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA, BIAO])
def test_straights_are_exactly_five(name):
    assert leads(name, "S4 H5 D6 C7 S8") == ["straight"]
    assert leads(name, "SA H2 D3 C4 S5") == ["straight"]
    assert leads(name, "S10 HJ DQ CK SA") == ["straight"]
    assert leads(name, "S4 H5 D6 C7 S8 H9") == []
    assert leads(name, "SJ HQ DK CA S2") == []
    assert beats_on_table(name, "S2 H3 D4 C5 S6", "SA H2 D3 C4 S5")
    assert not beats_on_table(name, "SA H2 D3 C4 S5", "S2 H3 D4 C5 S6")
    assert beats_on_table(name, "S10 HJ DQ CK SA", "S9 H10 DJ CQ SK")
    assert not beats_on_table(name, "S4 H5 D6 C7 S8", "S4 H5 D6 C7 S8")   # equal: no


def test_guan_pai_straights_of_any_length_from_five():
    assert leads(GUAN, "S2 H3 D4 C5 S6") == ["straight"]
    assert leads(GUAN, "S3 H4 D5 C6 S7 H8 D9 C10 SJ HQ DK HA") == ["straight"]
    assert leads(GUAN, "S3 H4 D5 C6") == []
    assert leads(GUAN, "HA S2 D3 C4 S5") == []            # the ace never plays low
    assert beats_on_table(GUAN, "S3 H4 D5 C6 S7 H8", "S2 H3 D4 C5 S6 H7")
    assert not beats_on_table(GUAN, "S3 H4 D5 C6 S7 H8", "S2 H3 D4 C5 S6")
    assert not beats_on_table(GUAN, "S3 H4 D5 C6 S7", "S2 H3 D4 C5 S6 H7")


def test_guan_pai_three_with_two_and_4_plus_1_bombs():
    assert leads(GUAN, "S9 D9 H9 S4 H7") == ["triple_with_two"]
    assert leads(GUAN, "S9 D9 H9 S4 H4") == ["triple_with_two"]
    assert leads(GUAN, "S5 H5 D5 C5 S3") == ["bomb"]             # exclusive: not 3带2
    assert leads(GUAN, "S5 H5 D5 C5") == []                       # option bare_bomb: false
    assert leads(GUAN, "HA CA DA S4") == ["ace_bomb"]
    assert leads(GUAN, "SK HK DK S4") == []
    assert beats_on_table(GUAN, "S10 D10 H10 S3 H4", "S9 D9 H9 SK HK")
    assert not beats_on_table(GUAN, "S10 D10 H10", "S9 D9 H9 SK HK")
    # 「炸弹任何牌形都能出」, bombs by the bomb ladder A K … 3
    assert beats_on_table(GUAN, "S3 H3 D3 C3 S4", "S2")
    assert beats_on_table(GUAN, "S3 H3 D3 C3 S4", "S5 H6 D7 C8 S9 H10 DJ CQ SK HA")
    assert beats_on_table(GUAN, "S6 H6 D6 C6 S3", "S5 H5 D5 C5 S4")
    assert not beats_on_table(GUAN, "S5 H5 D5 C5 S4", "S6 H6 D6 C6 S3")
    assert beats_on_table(GUAN, "HA CA DA S4", "SK HK DK CK S3")
    assert not beats_on_table(GUAN, "SK HK DK CK S3", "HA CA DA S4")
    assert not beats_on_table(GUAN, "S2", "HA CA DA S4")


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA, BIAO])
def test_triple_with_pair_and_butterfly_rank_by_the_triples(name):
    assert leads(name, "S7 H7 D7 C4 S4") == ["full_house"]
    assert beats_on_table(name, "S7 H7 D7 C3 S3", "S5 H5 D5 CA SA")
    assert not beats_on_table(name, "S5 H5 D5 CA SA", "S7 H7 D7 C3 S3")
    assert leads(name, "S4 H4 D4 S5 H5 D5 SJ HJ SQ HQ") == ["butterfly"]
    assert beats_on_table(name, "S5 H5 D5 S6 H6 D6 S3 H3 S4 H4",
                          "S4 H4 D4 S5 H5 D5 SQ HQ SK HK")
    assert not beats_on_table(name, "S4 H4 D4 S5 H5 D5 SQ HQ SK HK",
                              "S5 H5 D5 S6 H6 D6 S3 H3 S4 H4")
    # same pattern, different size: never
    assert not beats_on_table(name, "S8 H8 D8 S9 H9 D9 S10 H10 D10",
                              "S4 H4 D4 S5 H5 D5")


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA, BIAO])
def test_bombs_by_size_then_rank_and_over_everything(name):
    assert beats_on_table(name, "S4 H4 D4 C4", "SA HA DA S2 H2 D2 S3 H3 D3 SJ HJ SQ HQ SK HK")
    assert beats_on_table(name, "S4 H4 D4 C4", "BJ")
    assert not beats_on_table(name, "BJ", "S4 H4 D4 C4")
    assert beats_on_table(name, "S5 H5 D5 C5", "S4 H4 D4 C4")
    assert not beats_on_table(name, "S4 H4 D4 C4", "S5 H5 D5 C5")
    assert beats_on_table(name, "S3 H3 D3 C3 S3", "S2 H2 D2 C2")
    assert not beats_on_table(name, "S2 H2 D2 C2", "S3 H3 D3 C3 S3")
    assert not beats_on_table(name, "S4 H4 D4 C4", "S4 H4 D4 C4")


def test_biao_king_bomb_tops_every_bomb_and_jokers_are_plain():
    assert leads(BIAO, "BJ BJ LJ LJ") == ["king_bomb"]
    assert beats_on_table(BIAO, "BJ BJ LJ LJ", "S2 S2 H2 H2 D2 D2 C2 C2")
    assert not beats_on_table(BIAO, "S2 S2 H2 H2 D2 D2 C2 C2", "BJ BJ LJ LJ")
    assert leads(BIAO, "BJ S2 H2 D2") == []          # option jokers_wild: false
    assert leads(BIAO, "BJ LJ") == []
    assert leads(BIAO, "BJ BJ") == ["pair"]
    assert beats_on_table(BIAO, "SK HK SA HA", "SQ HQ SK HK")   # KKAA: the top pair run
    assert leads(BIAO, "SK HK SA HA S2 H2") == []


def test_liujia_joker_bombs():
    eight_twos = "S2 S2 H2 H2 D2 D2 C2 C2"
    nine_threes = "S3 S3 S3 S3 H3 H3 H3 H3 D3"
    little, big = "LJ LJ LJ LJ", "BJ BJ BJ BJ"
    assert beats_on_table(LIUJIA, little, eight_twos, pattern="four_little_jokers")
    assert beats_on_table(LIUJIA, little, "SA SA HA HA DA DA CA CA",
                          pattern="four_little_jokers")
    assert beats_on_table(LIUJIA, big, little, pattern="four_big_jokers",
                          over_pattern="four_little_jokers")
    assert not beats_on_table(LIUJIA, little, big, pattern="four_little_jokers",
                              over_pattern="four_big_jokers")
    assert beats_on_table(LIUJIA, nine_threes, big, over_pattern="four_big_jokers")
    assert not beats_on_table(LIUJIA, big, nine_threes, pattern="four_big_jokers")
    assert not beats_on_table(LIUJIA, eight_twos, little, over_pattern="four_little_jokers")
    # four little jokers as wilds are only a four-card bomb: that does not beat eight 2s
    assert not beats_on_table(LIUJIA, little, eight_twos, pattern="bomb")
    assert leads(LIUJIA, little) == ["bomb", "four_little_jokers"]


def test_liujia_888_and_two_little_jokers_is_a_five_8_bomb():
    assert leads(LIUJIA, "S8 H8 D8 LJ LJ") == ["bomb"]
    assert beats_on_table(LIUJIA, "S8 H8 D8 LJ LJ", "S7 H7 D7 C7 S7")
    assert not beats_on_table(LIUJIA, "S8 H8 D8 LJ LJ", "S3 H3 D3 C3 S3 H3")
    assert beats_on_table(LIUJIA, "S8 H8 D8 LJ LJ", "S4 H4 D4 S6 S6")     # bomb, any play
    st = position(LIUJIA, ["S8 H8 D8 LJ LJ S3", "S3", "", "", "", ""], to_act=0)
    assert "S8 H8 D8 LJ LJ" in acts(st)
    assert not any(a.startswith("S8 H8 D8 LJ LJ as") for a in acts(st))
    assert_illegal(st, "S8 H8 D8 LJ LJ as full_house", "cannot be read as full_house")


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA])
def test_wild_jokers(name):
    # 「大王+222就等于2222」
    assert leads(name, "BJ S2 H2 D2") == ["bomb"]
    assert beats_on_table(name, "BJ S2 H2 D2", "SA HA DA CA")
    assert not beats_on_table(name, "BJ S2 H2 D2", "S2 H2 D2 C2")
    assert not beats_on_table(name, "S2 H2 D2 C2", "BJ S2 H2 D2")
    # 「333+大王=333+小王」: the wild takes the rank it stands for
    assert not beats_on_table(name, "S3 H3 D3 BJ", "S3 H3 D3 LJ")
    assert not beats_on_table(name, "S3 H3 D3 LJ", "S3 H3 D3 BJ")
    # jokers also play as themselves: BJ > LJ > 2
    assert beats_on_table(name, "BJ", "LJ") and beats_on_table(name, "LJ", "S2")
    assert not beats_on_table(name, "LJ", "BJ")
    assert beats_on_table(name, "BJ BJ", "LJ LJ")
    # 「大、小王不能互相替牌」: BJ + LJ is no pair of jokers, so it cannot beat LJ LJ
    assert not beats_on_table(name, "BJ LJ", "LJ LJ")
    assert beats_on_table(name, "BJ LJ", "SA HA")                  # a pair of 2s
    assert beats_on_table(name, "S5 H5 D5 S6 BJ", "S4 H4 D4 SK HK")   # 555 + 66


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA])
def test_several_readings_are_distinct_actions(name):
    n = ruleset(name).players
    hands = ["S9"] * n
    hands[0] = "S3 S3 S4 S4 BJ LJ S9"
    st = position(name, hands, to_act=0)
    six = [a for a in acts(st) if len(a.split(" as ")[0].split()) == 6]
    assert sorted(six) == ["S3 S3 S4 S4 LJ BJ as consecutive_pairs",
                           "S3 S3 S4 S4 LJ BJ as consecutive_triples"]
    assert_illegal(st, "S3 S3 S4 S4 BJ LJ", "reads as", "name one")
    assert_illegal(st, "S3 S3 S4 S4 BJ LJ as straight", "cannot be read as straight")
    st.apply("S3 S3 S4 S4 BJ LJ as consecutive_triples")
    assert st.last["pattern"] == "consecutive_triples" and st.last["size"] == 6
    # now only consecutive triples of six (or bombs) beat it
    nxt = st.to_act
    st.hands[nxt] = counts("S5 S5 S6 S6 S7 S7 S4 S4 S4")
    assert not st.is_legal("S5 S5 S6 S6 S7 S7")
    assert st.is_legal("S4 S4 S4 S5 S5 S5") is False       # holds only two 5s
    st.hands[nxt] = counts("S5 S5 S5 S6 S6 S6")
    assert st.is_legal("S5 S5 S5 S6 S6 S6")


# ---------------------------------------------------------------- turns, passes, rounds


@pytest.mark.parametrize("name,order", [
    (DUIJIA, [0, 1, 2, 3, 0]), (LIUJIA, [0, 1, 2, 3, 4, 5, 0]), (BIAO, [0, 3, 2, 1, 0]),
    (GUAN, [0, 1, 0])])
def test_turn_direction(name, order):
    n = ruleset(name).players
    st = position(name, ["S3 S4 S5 S6 S7 S8 S9"] * n, to_act=0)
    seen = [st.to_act]
    ladder = ["S3", "S4", "S5", "S6", "S7", "S8", "S9"]
    for i in range(len(order) - 1):
        st.apply(ladder[i])
        seen.append(st.to_act)
    assert seen == order


@pytest.mark.parametrize("name", ALL)
def test_cannot_pass_on_the_lead_and_must_beat_or_pass_when_following(name):
    n = ruleset(name).players
    st = position(name, ["S4 H4 S9 SK"] * n, to_act=0)
    assert "pass" not in acts(st)
    assert_illegal(st, "pass", "you have the lead")
    st.apply("S9")
    nxt = st.to_act
    assert "pass" in acts(st)
    assert set(acts(st)) == {"pass", "SK"}          # only a higher single
    assert_illegal(st, "S4", "does not beat", "S9")
    assert_illegal(st, "S4 H4", "does not beat")
    st.apply("pass")
    assert st.to_act != nxt
    if n > 2:
        assert st.passes == 1 and st.last["seat"] == 0
    else:                                             # the only other player passed
        assert st.passes == 0 and st.last is None and st.to_act == 0


@pytest.mark.parametrize("name", ALL)
def test_round_ends_when_all_others_pass_and_winner_takes_the_points_and_leads(name):
    n = ruleset(name).players
    hands = ["S3 H9 D9 S7 S8"] * n
    hands[0] = "S5 S9 S8 S7"
    st = position(name, hands, to_act=0)
    st.apply("S5")                       # 5 points
    second = st.to_act
    st.hands[second] = counts("S10 S3 S8 S7")
    st.apply("S10")                      # 10 points, beats
    for _ in range(n - 1):
        assert st.last is not None and st.last["seat"] == second
        st.apply("pass")
    points = 0 if name == GUAN else 15               # 关牌 counts no point cards
    assert st.captured[second] == points and sum(st.captured) == points
    assert st.round_points == 0 and st.last is None and st.passes == 0
    assert st.to_act == second
    assert events(st, "round")[-1] == {"type": "round", "winner": second, "points": points,
                                       "hand": 0}
    # the winner leads anything: a pair now, no pass
    options = acts(st)
    assert "pass" not in options and "S7" in options and "S3" in options


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA, BIAO])
def test_passes_reset_when_someone_beats(name):
    n = ruleset(name).players
    st = position(name, ["S3 S4 S6 S8 SQ"] * n, to_act=0)
    st.apply("S4")
    st.apply("pass")
    assert st.passes == 1
    st.apply("S8")
    assert st.passes == 0 and st.last["cards"] == "S8"
    beater = st.last["seat"]
    for _ in range(n - 2):
        st.apply("pass")
    assert st.last is not None                  # the first player has not passed yet
    st.apply("pass")
    assert st.last is None and st.to_act == beater


def test_points_of_every_play_in_the_round_go_to_the_winner():
    st = position(DUIJIA, ["S5 HK S3", "S10 S4 S9", "SK H5 S6", "S2 S7 S8"], to_act=0)
    play(st, "S5", "S10", "SK", "S2", "pass", "pass", "pass")     # 5+10+10
    assert st.captured == [0, 0, 0, 25]
    play(st, "S7", "pass", "pass", "pass")
    assert st.captured == [0, 0, 0, 25] and st.to_act == 3


# ---------------------------------------------------------------- 接风


@pytest.mark.parametrize("name,takes_over", [(DUIJIA, 1), (LIUJIA, 1), (BIAO, 3)])
def test_takeover_after_going_out(name, takes_over):
    """「当某个玩家出完最后一手牌后，如果其他玩家都弃权，则由那个玩家的下家先出牌」"""
    n = ruleset(name).players
    hands = ["S3 S4 S6"] * n
    hands[0] = "SK"
    st = position(name, hands, to_act=0)
    st.apply("SK")
    assert st.out == [0] and events(st, "out")[-1]["seat"] == 0
    for _ in range(n - 1):
        st.apply("pass")
    assert st.to_act == takes_over
    assert st.last is None and st.captured[0] == 10   # the round's points to the one out
    assert "pass" not in acts(st)


def test_takeover_skips_a_next_player_who_is_out():
    st = position(LIUJIA, ["S9", "", "S3 S4", "S3 S4", "S3 S4", "S3 S4"], to_act=0, out=[1])
    st.apply("S9")
    assert st.to_act == 2
    play(st, "pass", "pass", "pass", "pass")
    assert st.to_act == 2 and st.last is None


def test_beating_the_player_who_went_out_keeps_the_round_going():
    st = position(DUIJIA, ["S9", "S10 S3", "S4 S5", "S4 S5"], to_act=0)
    play(st, "S9", "S10")
    assert st.out == [0] and st.to_act == 2
    play(st, "pass", "pass")
    assert st.to_act == 1 and st.last is None          # seat 1 won the round, not 接风


def test_biao_takeover_goes_clockwise():
    st = position(BIAO, ["S3 S4", "S3 S4", "S3 S4", "SK"], to_act=3, dealer=3)
    st.apply("SK")
    # the dealer (alone) went out: his side is out, the hand ends
    assert st.is_terminal()
    st = position(BIAO, ["S3 S4", "SK", "S3 S4", "S3 S4"], to_act=1, dealer=3)
    st.apply("SK")
    play(st, "pass", "pass", "pass")
    assert st.to_act == 0


# ---------------------------------------------------------------- 对家统: end and settlement


def test_duijia_one_left_ends_the_hand_and_finish_score_transfers():
    """【得分计算】 1st: own + the last player's captured; 2nd: own; 3rd: own + the last
    player's points still in hand; 4th: 0. A side above 100 wins."""
    st = position(DUIJIA, ["S3", "S4", "S6", "S5 S10 SK H9"], to_act=0,
                  captured=[30, 40, 20, 50])
    play(st, "S3", "S4")
    assert not st.is_terminal() and st.out == [0, 1]
    st.apply("S6")
    assert st.is_terminal() and st.current_player == TERMINAL
    result = st.results[-1]
    assert result["order"] == [0, 1, 2, 3] and result["places"] == [1, 2, 3, 4]
    assert result["in_hand"] == [0, 0, 0, 25]
    assert result["scores"] == [30 + 50, 40, 20 + 25, 0]
    assert result["team_points"] == [125, 40]
    assert result["outcomes"] == ["win", "lose"]
    assert st.returns() == [1.0, -1.0, 1.0, -1.0]


def test_duijia_partners_out_first_and_second_end_the_hand_early():
    """「当一方玩家出完所有牌时，游戏结束」; the two unfinished players' captured and
    in-hand points go to the first out (option early_end_in_hand = to_first_out)."""
    st = position(DUIJIA, ["S3", "S5 S7", "S6", "SK S9"], to_act=0, captured=[30, 40, 20, 50])
    play(st, "S3", "pass", "S6")
    assert st.is_terminal()
    result = st.results[-1]
    assert result["order"][:2] == [0, 2] and sorted(result["order"][2:]) == [1, 3]
    assert result["places"] == [1, 4, 2, 4]
    assert result["scores"] == [30 + (40 + 50) + (5 + 10), 0, 20, 0]
    assert result["team_points"] == [155, 0]
    assert st.returns() == [1.0, -1.0, 1.0, -1.0]


def test_duijia_hundred_all_is_a_draw():
    st = position(DUIJIA, ["S3", "S4", "S6", "S10 S9"], to_act=0, captured=[30, 100, 20, 40])
    play(st, "S3", "S4", "S6")
    result = st.results[-1]
    assert result["team_points"] == [30 + 40 + 20 + 10, 100]
    assert result["outcomes"] == ["draw", "draw"]
    assert st.returns() == [0.0, 0.0, 0.0, 0.0]


def test_duijia_side_with_fewer_points_loses_even_with_the_first_out():
    st = position(DUIJIA, ["S3", "S4", "S6", "S9 S8"], to_act=0, captured=[10, 120, 20, 50])
    play(st, "S3", "S4", "S6")
    result = st.results[-1]
    assert result["team_points"] == [10 + 50 + 20, 120]
    assert st.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_duijia_last_round_points_go_to_the_player_whose_play_ends_the_hand():
    st = position(DUIJIA, ["S3", "SK", "S2", "S9 S8"], to_act=0)
    play(st, "S3", "SK")
    assert st.captured == [0, 0, 0, 0] and st.round_points == 10
    st.apply("S2")                       # seat 2 goes out: its side is out, the hand ends
    assert st.is_terminal()
    assert st.results[-1]["captured"] == [0, 0, 10, 0]
    assert st.results[-1]["scores"] == [0, 0, 10, 0]     # place 1 seat 0: own 0 + last 0


@pytest.mark.parametrize("name", [DUIJIA, LIUJIA])
def test_first_lead_random_then_previous_first_out(name):
    n = ruleset(name).players
    leaders = set()
    for seed in range(10):
        st = ruleset(name).new_game(seed=seed, hands=2)
        assert events(st, "lead")[0]["rule"] == "random"
        leaders.add(st.to_act)
    assert len(leaders) > 1, "the first leader does not depend on the seed"
    st = ruleset(name).new_game(seed=4, hands=2)
    lead = st.to_act
    # scaffold the first hand: the leader's next player goes out first, then the rest of
    # that player's side (each beats with one card); the other side passes
    side = [(lead + 1 + k) % n for k in range(0, n, 2)]
    single = dict(zip(side, ["S5", "S7", "S9"]))
    for s in range(n):
        st.hands[s] = counts(single.get(s, "S3 S4"))
    st.apply("S3")
    for s in range(lead + 1, lead + n):
        assert st.to_act == s % n
        st.apply(single.get(s % n, "pass"))
    assert st.hand_no == 1 and st.results[0]["order"][0] == (lead + 1) % n
    assert st.to_act == (lead + 1) % n
    assert events(st, "lead")[-1] == {"type": "lead", "seat": (lead + 1) % n,
                                      "rule": "first_out", "hand": 1}
    assert [sum(h) for h in st.hands] == [ruleset(name).deal["hand_size"]] * n


# ---------------------------------------------------------------- 六家统: ends and stakes
# Sides: A = seats 0, 2, 4; B = seats 1, 3, 5.

A_SIDE, B_SIDE = [0, 2, 4], [1, 3, 5]


def side_returns(st, a: float, b: float):
    want = [a if s in A_SIDE else b for s in range(6)]
    assert st.returns() == want


def test_liujia_all_400_ends_at_once_with_double_stakes():
    """【结果】1: a side secures all 400 (its captured points count once it has the first
    out) — the hand ends whoever went out, double stakes."""
    st = position(LIUJIA, ["S3", "S4 S6", "S4 S6", "S4 S6", "S4 S6", "S4 S6"], to_act=0,
                  captured=[300, 0, 100, 0, 0, 0])
    st.apply("S3")
    assert st.is_terminal()
    result = st.results[-1]
    assert result["order"][0] == 0 and result["team_points"] == [400, 0]
    assert result["outcomes"] == ["win", "lose"]
    side_returns(st, 2.0, -2.0)


def test_liujia_captured_points_are_not_secured_without_the_first_out():
    """The same 400 captured, but side B had the first out: A's unfinished player's
    points are not secured, so the hand goes on."""
    st = position(LIUJIA, ["S3", "", "S4 S6", "S4 S6", "S4 S6", "S4 S6"], to_act=0,
                  out=[1], captured=[300, 0, 100, 0, 0, 0])
    st.apply("S3")
    assert not st.is_terminal() and st.out == [1, 0]


def test_liujia_majority_ends_when_the_other_side_has_someone_out_with_points():
    """【结果】2: 200 or more secured, and the other side has a player out and points
    above zero; checked when a round ends (here after the 接风 passes)."""
    st = position(LIUJIA, ["S3 S4", "", "", "S3 S4", "S5", "S3 S4"], to_act=4, out=[1, 2],
                  captured=[0, 30, 195, 0, 0, 0])
    st.apply("S5")
    assert not st.is_terminal() and st.out == [1, 2, 4]
    play(st, "pass", "pass", "pass")             # seats 5, 0, 3
    assert st.is_terminal()
    result = st.results[-1]
    assert result["captured"] == [0, 30, 195, 0, 5, 0]
    assert result["team_points"] == [200, 30]
    side_returns(st, 1.0, -1.0)


def test_liujia_majority_needs_the_other_sides_points_above_zero():
    st = position(LIUJIA, ["S3 S4", "", "", "S3 S4", "S5", "S3 S4"], to_act=4, out=[1, 2],
                  captured=[0, 0, 195, 0, 0, 0])
    play(st, "S5", "pass", "pass", "pass")
    assert not st.is_terminal() and st.to_act == 5          # 接风: seat 4's next player


def test_liujia_side_all_out_while_the_other_has_none_out_wins_double():
    """【结果】3A: a side's three players are out and none of the other side: double."""
    st = position(LIUJIA, ["", "S3 SK", "", "S3 S10", "S9", "S3 S4"], to_act=4, out=[0, 2],
                  captured=[20, 100, 30, 80, 10, 0])
    st.apply("S9")
    assert st.is_terminal()
    result = st.results[-1]
    # unfinished players' captured points go to the first out's side, their in-hand
    # points to the other side: both to A here
    assert result["team_points"] == [(20 + 30 + 10) + (100 + 80) + (10 + 10), 0]
    side_returns(st, 2.0, -2.0)


def test_liujia_side_all_out_after_the_other_had_one_out_single_stakes():
    """【结果】3B: the other side has a player out: 200 or more wins, single stakes."""
    st = position(LIUJIA, ["", "", "", "S3 SK", "S9", "S3 S4"], to_act=4, out=[1, 0, 2],
                  captured=[100, 50, 60, 20, 30, 0])
    st.apply("S9")
    assert st.is_terminal()
    result = st.results[-1]
    # A: 100 + 60 + 30 + seat 3's K in hand; B (first out): 50 + seat 3's captured 20
    assert result["team_points"] == [200, 70]
    side_returns(st, 1.0, -1.0)


def test_liujia_side_all_out_can_still_lose_on_points():
    st = position(LIUJIA, ["", "", "", "S3 SK", "S9", "S3 S4"], to_act=4, out=[1, 0, 2],
                  captured=[0, 150, 0, 190, 0, 0])
    st.apply("S9")
    result = st.results[-1]
    assert result["team_points"] == [10, 340]
    side_returns(st, -1.0, 1.0)


def test_liujia_two_hundred_all_is_a_draw():
    st = position(LIUJIA, ["", "", "", "S3 S4", "S9", "S3 S4"], to_act=4, out=[1, 0, 2],
                  captured=[100, 100, 60, 100, 40, 0])
    st.apply("S9")
    assert st.results[-1]["team_points"] == [200, 200]
    assert st.results[-1]["outcomes"] == ["draw", "draw"]
    side_returns(st, 0.0, 0.0)


# ---------------------------------------------------------------- 标统: the auction


def test_biao_auction_opens_clockwise_from_a_random_opener():
    openers = set()
    for seed in range(8):
        st = ruleset(BIAO).new_game(seed=seed)
        assert st.phase == "auction" and st.to_act == st.auction["opener"]
        assert [sum(h) for h in st.hands] == [25] * 4 and len(st.kitty) == 8
        openers.add(st.to_act)
    assert len(openers) > 1
    st = auction_position(2, "S3 H4")
    assert acts(st) == ["pass", "bid 5", "bid 10", "bid 15", "bid 20"]
    clean_hands(st)
    st.apply("bid 5")
    assert st.to_act == 1 and st.auction["bid"] == 5 and st.auction["high"] == 2


def test_biao_bids_must_rise():
    st = auction_position(1, "S3 H4", bid=10, high=2, turns=1)
    assert acts(st) == ["pass", "bid 15", "bid 20"]
    assert_illegal(st, "bid 10", "bid one of 15, 20")
    assert_illegal(st, "bid 5", "bid one of 15, 20")
    assert_illegal(st, "bid 7", "bid one of 15, 20")
    assert_illegal(st, "bid 25", "bid one of 15, 20")
    assert_illegal(st, "S3", "during the auction")


@pytest.mark.parametrize("jokers", ["BJ LJ", "LJ LJ", "BJ BJ LJ"])
def test_biao_two_jokers_must_raise_one_step_in_round_one_below_ten(jokers):
    """「摸到两个王的玩家第一轮叫牌时，如果前面的叫牌点数没有达到10或者10以上，则该玩家
    必须叫一个比前一叫牌者大一级的牌」"""
    hand = jokers + " S3 H4"
    st = auction_position(3, hand)                      # nothing bid yet: must bid 5
    assert acts(st) == ["bid 5"]
    assert_illegal(st, "bid 10", "you must bid 5")
    st = auction_position(3, hand, bid=5, high=0, turns=1)
    assert acts(st) == ["bid 10"]
    assert_illegal(st, "bid 15", "you must bid 10")
    assert not st.is_legal("pass")
    st = auction_position(3, hand, bid=10, high=0, turns=1)    # already 10: free
    assert acts(st) == ["pass", "bid 15", "bid 20"]
    st = auction_position(3, hand, bid=5, high=0, turns=4)     # round two: free
    assert acts(st) == ["pass", "bid 10", "bid 15", "bid 20"]
    st = auction_position(3, "BJ S3 H4", bid=5, high=0, turns=1)   # one joker: free
    assert acts(st) == ["pass", "bid 10", "bid 15", "bid 20"]


def test_biao_refused_pass_under_must_raise_says_why():
    st = auction_position(3, "BJ LJ S3", bid=5, high=0, turns=1)
    assert_illegal(st, "pass", "must bid 10")


def test_biao_nobody_bids_the_opener_deals_at_five():
    st = ruleset(BIAO).new_game(seed=5)
    clean_hands(st)
    opener = st.to_act
    kitty = list(st.kitty)
    play(st, "pass", "pass", "pass")
    assert st.phase == "auction"
    st.apply("pass")
    assert st.phase == "play"
    assert st.dealer == opener and st.auction["bid"] == 5
    assert st.to_act == opener and st.first_leader == opener
    assert st.sides == [[opener], [s for s in range(4) if s != opener]]
    assert sum(st.hands[opener]) == 2 + 8
    assert all(st.hands[opener][k] >= c for k, c in Counter(kitty).items())
    assert events(st, "dealer")[-1]["bid"] == 5
    assert "pass" not in acts(st)                       # the dealer leads


def test_biao_highest_bid_deals_after_three_passes():
    st = ruleset(BIAO).new_game(seed=6)
    clean_hands(st)
    opener = st.to_act
    second = (opener - 1) % 4
    play(st, "pass", "bid 10", "pass", "pass")
    assert st.phase == "auction"                        # the opener still has a turn
    st.apply("pass")
    assert st.phase == "play" and st.dealer == second and st.auction["bid"] == 10
    assert st.to_act == second and sum(st.hands[second]) == 10


def test_biao_bid_twenty_ends_the_auction():
    st = ruleset(BIAO).new_game(seed=7)
    clean_hands(st)
    opener = st.to_act
    st.apply("bid 20")
    assert st.phase == "play" and st.dealer == opener and st.auction["bid"] == 20
    assert st.to_act == opener and sum(st.hands[opener]) == 10


def test_biao_overbidding_changes_the_dealer():
    st = ruleset(BIAO).new_game(seed=8)
    clean_hands(st)
    o = st.to_act
    play(st, "bid 5", "bid 10", "pass", "bid 15", "pass", "pass")
    assert st.phase == "auction"
    st.apply("pass")
    assert st.dealer == (o - 3) % 4 and st.auction["bid"] == 15


@pytest.mark.parametrize("hand", ["S3 S3 H3 H3 D3 D3 C3 C3 S9", "BJ BJ LJ LJ S9"])
def test_biao_claim_with_eight_of_a_kind_or_four_jokers_after_a_ten(hand):
    st = auction_position(1, hand, bid=10, high=2, turns=1)
    assert "claim" in acts(st)
    st.apply("claim")
    assert st.is_terminal()
    assert st.dealer == 1 and st.results[-1]["order"][0] == 1
    # the claimant deals and wins at the bid standing (dealer-side payout at 10)
    assert st.returns() == [-5.0, 15.0, -5.0, -5.0]
    # the kitty was never handed over: its points are in the result, not lost
    kitty = sum(st.game.hc.points[k] for k in st.kitty)
    end = st.results[-1]
    assert end["kitty_points"] == kitty > 0


def test_biao_claim_without_a_bid_pays_at_five():
    st = auction_position(0, "S3 S3 H3 H3 D3 D3 C3 C3 S9")
    assert acts(st)[-1] == "claim"
    st.apply("claim")
    assert st.returns() == [9.0, -3.0, -3.0, -3.0]


def test_biao_claim_needs_the_hand_and_the_first_round():
    st = auction_position(1, "S3 S3 H3 H3 D3 D3 C3 S9")       # seven of a kind
    assert "claim" not in acts(st)
    assert_illegal(st, "claim", "instant-win")
    st = auction_position(1, "S3 S3 H3 H3 D3 D3 C3 C3 S9", bid=10, high=2, turns=4)
    assert "claim" not in acts(st)
    assert_illegal(st, "claim", "first round")


def test_biao_four_jokers_may_claim_before_any_ten():
    st = auction_position(0, "BJ BJ LJ LJ S9")
    assert "claim" in acts(st)


# ---------------------------------------------------------------- 标统: play and payouts

PAYOUT = {5: (9, 3), 10: (15, 5), 15: (24, 8), 20: (30, 10)}


@pytest.mark.parametrize("bid", [5, 10, 15, 20])
def test_biao_dealer_out_first_wins_the_dealer_payout(bid):
    st = position(BIAO, ["S3 S4", "S3 S4", "S3 S4", "SK"], to_act=3, dealer=3, bid=bid)
    st.apply("SK")
    assert st.is_terminal()
    win, _ = PAYOUT[bid]
    assert st.returns() == [-win / 3, -win / 3, -win / 3, float(win)]
    assert sum(st.returns()) == 0


@pytest.mark.parametrize("bid", [5, 10, 15, 20])
def test_biao_defender_out_first_wins_for_every_defender_even_if_the_dealer_follows(bid):
    """「首先得到上游的一方，则为本局的胜利方」: a defender is first out; the dealer then
    goes out too, which ends the hand, but the defenders have won."""
    st = position(BIAO, ["S10", "S3 S4", "S3 S4", "S9"], to_act=3, dealer=0, bid=bid)
    st.apply("S9")                       # defender 3 out
    assert not st.is_terminal() and st.to_act == 2
    play(st, "pass", "pass")             # seats 2, 1
    st.apply("S10")                      # the dealer beats and goes out
    assert st.is_terminal() and st.results[-1]["order"][:2] == [3, 0]
    _, each = PAYOUT[bid]
    assert st.returns() == [-3.0 * each, float(each), float(each), float(each)]
    assert sum(st.returns()) == 0


def test_biao_all_defenders_out_ends_the_hand():
    st = position(BIAO, ["S3 S4", "", "", "S9"], to_act=3, dealer=0, bid=15, out=[1, 2])
    st.apply("S9")
    assert st.is_terminal()
    assert st.returns() == [-24.0, 8.0, 8.0, 8.0]


def test_biao_dealer_leads_after_the_auction_and_play_goes_clockwise():
    st = ruleset(BIAO).new_game(seed=9)
    clean_hands(st, "S3 S5 S7")
    dealer = st.to_act
    st.apply("bid 20")
    assert st.to_act == dealer and events(st, "lead")[-1]["rule"] == "dealer"
    st.hands[dealer] = counts("S4 S6")
    st.apply("S4")
    assert st.to_act == (dealer - 1) % 4


# ---------------------------------------------------------------- 关牌


def test_guan_pai_deals_three_hands_and_leaves_one_unused():
    for seed in range(4):
        st = ruleset(GUAN).new_game(seed=seed)
        assert [sum(h) for h in st.hands] == [16, 16] and len(st.unused) == 16
        total = Counter(st.unused)
        for h in st.hands:
            total.update({k: c for k, c in enumerate(h) if c})
        assert total == Counter({k: c for k, c in enumerate(ruleset(GUAN).deck) if c})
        assert sum(total.values()) == 48
        for gone in ("BJ", "LJ", "H2", "C2", "D2", "SA"):
            assert total[nt.parse_cards(gone)[0]] == 0


def test_guan_pai_first_lead_is_the_lowest_spade_dealt():
    """「第一次为黑桃3先出，如果两人游戏时双方都摸不到黑桃3，那么黑桃4先出，以下依此类推」"""
    spades = [nt.parse_cards(f"S{r}")[0] for r in ["3", "4", "5", "6", "7", "8", "9", "10"]]
    fallback = 0
    for seed in range(24):
        st = ruleset(GUAN).new_game(seed=seed)
        lowest = next(k for k in spades if any(h[k] for h in st.hands))
        assert st.hands[st.to_act][lowest] == 1, seed
        assert events(st, "lead")[0]["rule"] == "holder"
        if lowest != spades[0]:
            fallback += 1
            assert spades[0] in st.unused
    assert fallback > 0, "no seed left ♠3 in the unused hand"


def test_guan_pai_later_hands_are_led_by_the_holder_again():
    st = ruleset(GUAN).new_game(seed=2, hands=2)
    seat = st.to_act
    st.hands = [counts("S9"), counts("S3 S4")] if seat == 0 else [counts("S3 S4"), counts("S9")]
    st.apply("S9")
    assert st.hand_no == 1
    spades = [nt.parse_cards(f"S{r}")[0] for r in ["3", "4", "5", "6", "7", "8", "9", "10"]]
    lowest = next(k for k in spades if any(h[k] for h in st.hands))
    assert st.hands[st.to_act][lowest] == 1


@pytest.mark.parametrize("left,pays", [(1, 1), (5, 5), (15, 15), (16, 32)])
def test_guan_pai_loser_pays_cards_left_doubled_when_shut_out(left, pays):
    """「关对手的积分为对手手中的牌数乘以每张牌的底数，关对方16张，可获双倍积分」"""
    pool = "S3 H3 D3 C3 S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6".split()
    st = position(GUAN, ["S2", " ".join(pool[:left])], to_act=0)
    st.apply("S2")
    assert st.is_terminal()
    assert st.results[-1]["order"] == [0, 1]
    assert st.returns() == [float(pays), -float(pays)]


def test_guan_pai_out_second_player_pays_the_first_out():
    st = position(GUAN, ["S9 S3", "SK H4 D4"], to_act=0)
    play(st, "S9", "SK", "pass", "H4 D4")
    assert st.is_terminal() and st.results[-1]["order"] == [1, 0]
    assert st.returns() == [-1.0, 1.0]


def test_guan_pai_ace_triple_alone_is_a_plain_triple():
    st = position(GUAN, ["HA CA DA S5", "S3"], to_act=0)
    aces = [a for a in acts(st) if a.startswith("HA DA CA") and "S5" not in a]
    # AAA alone is one action: a triple (the ace bomb needs its extra card)
    assert aces == ["HA DA CA"]
    assert "S5 HA DA CA" in acts(st)                     # the ace bomb


# ---------------------------------------------------------------- illegal actions


@pytest.mark.parametrize("name", ALL)
def test_illegal_plays_raise_and_leave_the_state_untouched(name):
    n = ruleset(name).players
    hands = ["S3 H4"] * n
    hands[0] = "S4 H4 S7 H9 SQ"
    st = position(name, hands, to_act=0)
    assert_illegal(st, "pass", "you have the lead")
    assert_illegal(st, "S5", "you hold 0", "S5")
    assert_illegal(st, "S4 S4", "you hold 1", "S4")
    assert_illegal(st, "S4 S7", "is not a pattern")
    assert_illegal(st, "S7 as pair", "cannot be read as pair")
    assert_illegal(st, "bid 10", "play cards or pass")
    assert_illegal(st, "claim", "play cards or pass")
    assert_illegal(st, "bury S4", "play cards or pass")
    assert_illegal(st, "", "empty action")
    assert_illegal(st, "X9", "")
    st.apply("S7")
    nxt = st.to_act
    st.hands[nxt] = counts("S3 H3 S8 S9 S10 SJ SQ")
    assert_illegal(st, "S3", "does not beat", "S7")
    assert_illegal(st, "S3 H3", "does not beat")
    assert_illegal(st, "S8 S9 S10 SJ SQ", "does not beat")
    st.apply("pass")


@pytest.mark.parametrize("name", ALL)
def test_suits_may_differ_from_the_listed_action(name):
    n = ruleset(name).players
    hands = ["S3 H4"] * n
    hands[0] = "S9 H9 D9 S3"
    st = position(name, hands, to_act=0)
    assert "S9 H9" in acts(st) and "H9 D9" not in acts(st)
    assert st.is_legal("H9 D9")
    st.apply("D9 H9")
    assert st.hands[0][nt.parse_cards("S9")[0]] == 1
    assert st.last["cards"] == "H9 D9"


def test_actions_after_the_game_is_over():
    st = position(GUAN, ["S2", "S3"], to_act=0)
    st.apply("S2")
    assert st.is_terminal() and list(st.legal_actions()) == []
    assert st.legal_actions().count() == 0
    assert_illegal(st, "S3", "the game is over")
    assert_illegal(st, "pass", "the game is over")


def test_illegal_auction_actions_leave_the_state_untouched():
    st = auction_position(2, "S3 H4", bid=15, high=3, turns=1)
    before = st.to_json()
    for action in ["bid 15", "bid 10", "claim", "S3", "bid x", "bury S3"]:
        with pytest.raises(IllegalAction) as info:
            st.apply(action)
        assert info.value.reason
        assert st.to_json() == before
    assert_illegal(st, "bid 15", "bid one of 20")
    assert_illegal(st, "claim", "instant-win")


@pytest.mark.parametrize("name", ALL)
def test_a_saved_position_reloads_and_plays_identically(name):
    n = ruleset(name).players
    hands = ["S3 S5 S8 SK"] * n
    st = position(name, hands, to_act=0, captured=list(range(n)))
    st.apply("S5")
    text = st.to_json()
    # a position built by hand (4 × S3 in one pack, points with no round behind them) is
    # no state of real play: the saved-state check refuses it, so it is skipped here
    again = restore_state(type(st), st.game, text, check=False)
    assert again.to_json() == text
    assert acts(again) == acts(st)
    for state in (st, again):
        state.apply("SK")
    assert again.to_json() == st.to_json()
    assert json.loads(text)["captured"] == list(range(n))
