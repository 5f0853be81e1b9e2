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
from rulesdsl.headless.agents import GreedyAgent

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


def _load(tmp_path_factory, text: str):
    path = Path(tmp_path_factory.mktemp("tiles")) / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return rulesdsl.load(path)


@pytest.fixture(scope="module")
def three_suits(tmp_path_factory):
    return _load(tmp_path_factory, THREE_SUITS)


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


SEVEN_PAIRS = THREE_SUITS.replace("id: three-suits", "id: three-suits-pairs").replace(
    "win: {sets: 4, pairs: 1, set_kinds: [pung, kong]}",
    "win: {sets: 4, pairs: 1, set_kinds: [pung, kong], seven_pairs: true}").replace(
    '''    - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}''',
    '''    - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}
    - {name: seven_pairs, kind: fan, for: [winner], when: "seven_pairs", fan: 2}
    - {name: root, kind: fan, for: [winner], when: "groups(tiles, 4) >= 1", fan: 1}''')
assert "seven_pairs: true" in SEVEN_PAIRS and "groups(tiles" in SEVEN_PAIRS


@pytest.fixture(scope="module")
def seven_pairs(tmp_path_factory):
    return _load(tmp_path_factory, SEVEN_PAIRS)


def _is_seven_pairs(counts: list[int], melds: int) -> bool:
    """Written from the rule: no melds, fourteen tiles, every kind an even count."""
    return melds == 0 and sum(counts) == 14 and all(c % 2 == 0 for c in counts)


@pytest.mark.parametrize("hand,win,wins,fan", [
    ("11m 33m 55m 77m 99m 22p 4p", "4p", True, 2),            # 七对, 单吊
    ("11m 11m 55m 77m 99m 22p 4p", "4p", True, 3),            # 龙七对: four 1m are two pairs
    ("11m 33m 55m 77m 99m 22p 4p", "5p", False, 0),
    ("111m 555m 999m 111p 4p", "4p", True, 0),                # the standard shape still wins
])
def test_seven_pairs_win_and_score(seven_pairs, hand, win, wins, fan):
    from rulesdsl.engine.tiles.hand import ScoringHand
    from rulesdsl.engine.tiles.scoring import score_hand

    tiles = rulesdsl.notation.parse_tiles(hand.replace(" ", ""))
    w = rulesdsl.notation.tile_kind(win)
    counts = [0] * 34
    for t in tiles + [w]:
        counts[t] += 1
    assert wins == (_is_seven_pairs(counts, 0) or hand.startswith("111m"))
    score = score_hand(seven_pairs, ScoringHand(concealed=tiles, winner=True, win_tile=w,
                                                self_drawn=False), {})
    assert score.wins == wins
    if wins:
        assert score.fan == fan, score.explain()


def test_the_engine_offers_a_seven_pairs_win(seven_pairs):
    from rulesdsl.engine.base import Position

    hand = rulesdsl.notation.parse_tiles("11m33m55m77m99m22p4p")
    st = seven_pairs.game().position(Position(
        hands={0: rulesdsl.notation.parse_tiles("9s"), 1: hand}, context={}, dealer=0,
        turn=0, wall=rulesdsl.notation.parse_tiles("4p")))
    st.apply("discard 9s")
    assert "win" in [str(a) for a in st.legal_actions()]  # drew 4p: seven pairs
    st.apply("win")
    assert st.results[-1]["winner"] == 1
    # a pung on the table: pairs only no longer wins
    st = seven_pairs.game().position(Position(
        hands={0: rulesdsl.notation.parse_tiles("9s"),
               1: rulesdsl.notation.parse_tiles("33m55m77m99m22p4p")},
        melds={1: [("pung", rulesdsl.notation.tile_kind("1m"), False)]}, context={},
        dealer=0, turn=0, wall=rulesdsl.notation.parse_tiles("4p")))
    st.apply("discard 9s")
    assert "win" not in [str(a) for a in st.legal_actions()]


VOID = SEVEN_PAIRS.replace("id: three-suits-pairs", "id: three-suits-void").replace(
    "  chow_from: none", "  chow_from: none\n  void_suit: declare")
assert "void_suit: declare" in VOID


@pytest.fixture(scope="module")
def void_game(tmp_path_factory):
    return _load(tmp_path_factory, VOID)


def _suit_of(kind: int) -> str:
    return rulesdsl.notation.format_tile(kind)[-1]


def test_each_seat_names_a_void_suit_before_play_hidden_until_all_have(void_game):
    st = void_game.new_game(seed=4)
    assert st.phase == "void" and st.current_player == st.dealer
    assert sorted(str(a) for a in st.legal_actions()) == ["void m", "void p", "void s"]
    first = st.current_player
    st.apply("void p")
    other = st.current_player
    assert st.observation(first)["voids"][first] == "p"
    assert st.observation(other)["voids"][first] is None  # not shown yet
    for suit in ("m", "s", "m"):
        st.apply(f"void {suit}")
    assert st.phase == "turn" and st.current_player == st.dealer
    assert st.observation(other)["voids"][first] == "p"
    back = void_game.game().state_from_json(st.to_json())
    assert back.to_json() == st.to_json()


def test_random_games_keep_the_void_rules(void_game):
    """Written from the rule: holding a tile of your void suit, you discard only such
    tiles, you never win, and nobody claims a tile of their own void suit."""
    # The greedy agent (it takes wins) with a random move one time in ten: random play
    # alone ends no hand of these seeds with a win, so the winners' check would not run.
    greedy = GreedyAgent()
    checked = winners = 0
    for seed in range(30):
        st = void_game.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            seat = st.current_player
            if st.phase != "void":
                void = st.observation(seat)["voids"][seat]
                held = [k for k, c in enumerate(st.hands[seat]) if c and _suit_of(k) == void]
                acts = list(st.legal_actions())
                if st.phase == "turn" and held:
                    discards = [a for a in acts if a.kind == "discard"]
                    assert discards and all(_suit_of(a.cards[0]) == void for a in discards)
                    assert not any(a.kind == "win" for a in acts)
                    checked += 1
                if st.phase == "claims" and st.last_discard is not None \
                        and _suit_of(st.last_discard["tile"]) == void:
                    assert [str(a) for a in acts] == ["pass"]
            st.apply(st.sample_action(rng) if rng.random() < 0.1 else greedy.act(st, rng))
        for result in st.results:
            if result.get("winner") is not None:
                w = result["winner"]
                tiles = [k for k, c in enumerate(st.hands[w]) if c] + [m[1] for m in st.melds[w]]
                assert all(_suit_of(k) != st.observation(w)["voids"][w] for k in tiles)
                winners += 1
    assert checked > 100 and winners > 0, (checked, winners)


def test_a_tampered_void_is_refused(void_game):
    st = void_game.new_game(seed=2)
    for suit in ("m", "p", "s", "m"):
        st.apply(f"void {suit}")
    data = json.loads(st.to_json())
    data["voids"][1] = 5
    with pytest.raises(RulesdslError, match="voids"):
        void_game.game().state_from_json(json.dumps(data))
    data["voids"][1] = None
    with pytest.raises(RulesdslError, match="voids"):
        void_game.game().state_from_json(json.dumps(data))


@pytest.mark.parametrize("turned,win_tile,counts", [
    ("9s", "9s", True),    # a copy of the turned tile is wild
    ("9s", "7s", False),
    ("3f", "1f", True),    # a turned season: the other seasons are wild
    ("1f", "7s", False),
])
def test_a_define_applies_to_the_winning_tile(turned, win_tile, counts):
    """`win_tile.wild` reads the ruleset's define `wild` for the winning tile (Wenling's
    自摸得): exactly the tiles the wild rule makes wild."""
    from rulesdsl import notation as nt
    from rulesdsl.engine.tiles.hand import ScoringHand
    from rulesdsl.engine.tiles.scoring import _Wilds, score_hand

    rs = rulesdsl.load("wenling-mahjong")
    t, w = nt.tile_kind(turned), nt.tile_kind(win_tile)
    assert _Wilds.of(rs, {**rs.options, "turned": t}).wild[w] == counts
    hand = nt.parse_tiles("123m456m789p234s56s88p")
    score = score_hand(rs, ScoringHand(concealed=hand, winner=True, win_tile=w,
                                       self_drawn=True, seat_wind=nt.tile_kind("2z")),
                       {"turned": t})
    assert score.wins
    assert ("self_drawn_wild" in score.item_names()) == counts, score.explain()


FACTS = THREE_SUITS.replace("id: three-suits", "id: three-suits-facts").replace(
    '''    - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}''',
    '''    - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}
    - {name: last_tile, kind: fan, for: [winner], when: "last_tile", fan: 1}
    - {name: first_turn, kind: fan, for: [winner], when: "first_turn", fan: 1}
    - {name: kong_discard, kind: fan, for: [winner], when: "kong_discard", fan: 1}''')
assert "when: \"first_turn\"" in FACTS

WAITING = "111m 222m 333m 444p 5p"  # waits on 5p (单吊)


@pytest.fixture(scope="module")
def facts(tmp_path_factory):
    return _load(tmp_path_factory, FACTS)


def _items(st, seat):
    return st.results[-1]["scores"][seat]


def _position(facts, **kw):
    from rulesdsl import notation as nt
    from rulesdsl.engine.base import Position

    base = dict(hands={0: nt.parse_tiles("9s"), 1: nt.parse_tiles(WAITING.replace(" ", ""))},
                context={}, dealer=0, turn=0, wall=nt.parse_tiles("5p"))
    base.update(kw)
    return facts.game().position(Position(**base))


@pytest.mark.parametrize("left,last", [(1, True), (6, False)])
def test_last_tile_is_a_win_on_the_wall_s_last_tile(facts, left, last):
    st = _position(facts, tiles_left=left)
    st.apply("discard 9s")
    st.apply("win")
    assert ("last_tile" in _items(st, 1)) == last


def test_first_turn_is_a_win_before_any_discard_of_the_winner_or_any_set(facts):
    from rulesdsl import notation as nt

    st = _position(facts)
    st.apply("discard 9s")   # seat 1 draws 5p: its first turn, nobody has melded
    st.apply("win")
    assert "first_turn" in _items(st, 1)
    st = _position(facts, discards={1: nt.parse_tiles("8s")})
    st.apply("discard 9s")
    st.apply("win")
    assert "first_turn" not in _items(st, 1)


@pytest.mark.parametrize("kong,counts", [(True, True), (False, False)])
def test_kong_discard_is_a_win_on_the_discard_after_a_kong(facts, kong, counts):
    from rulesdsl import notation as nt

    hand = "7s 7s 7s 7s 5p" if kong else "7s 7s 7s 6s 5p"
    st = _position(facts, hands={0: nt.parse_tiles(hand.replace(" ", "")),
                                 1: nt.parse_tiles(WAITING.replace(" ", ""))},
                   wall_end=nt.parse_tiles("9s"))
    if kong:
        st.apply("concealed_kong 7s 7s 7s 7s")
    st.apply("discard 5p")
    st.apply("win 5p")
    assert ("kong_discard" in _items(st, 1)) == counts


KONGS = THREE_SUITS.replace("id: three-suits", "id: three-suits-kongs").replace(
    "  payments: {to_winner: payment_to_winner, stake: 1}",
    """  payments: {to_winner: payment_to_winner, stake: 2}
  kong_payments:
    exposed: {from: discarder, amount: 2}
    added: {from: others, amount: 1}
    concealed: {from: others, amount: 2}""")
assert "kong_payments" in KONGS


@pytest.fixture(scope="module")
def kongs(tmp_path_factory):
    return _load(tmp_path_factory, KONGS)


def _kong_position(kongs, **kw):
    from rulesdsl import notation as nt
    from rulesdsl.engine.base import Position

    base = dict(context={}, dealer=0, turn=0, wall=nt.parse_tiles("1s 2s 3s 4s"),
                wall_end=nt.parse_tiles("9p 8p"))
    base.update(kw)
    return kongs.game().position(Position(**base))


def test_a_concealed_kong_is_paid_by_every_other_player_at_once(kongs):
    from rulesdsl import notation as nt

    st = _kong_position(kongs, hands={0: nt.parse_tiles("7s7s7s7s5p"), 1: nt.parse_tiles("1m")})
    st.apply("concealed_kong 7s 7s 7s 7s")
    # 2 stakes × stake 2 from each of three players
    assert st.returns() == [12.0, -4.0, -4.0, -4.0]
    assert st.kong_paid == [12.0, -4.0, -4.0, -4.0]


def test_an_exposed_kong_is_paid_by_the_discarder_only(kongs):
    from rulesdsl import notation as nt

    st = _kong_position(kongs, hands={0: nt.parse_tiles("7s5p"), 1: nt.parse_tiles("7s7s7s1m")})
    st.apply("discard 7s")
    st.apply("kong 7s 7s 7s")
    assert st.returns() == [-4.0, 4.0, 0.0, 0.0]


def test_an_added_kong_is_paid_by_the_others_and_a_robbed_one_is_not(kongs):
    from rulesdsl import notation as nt

    st = _kong_position(kongs, hands={0: nt.parse_tiles("7s5p"), 1: nt.parse_tiles("1m")},
                        melds={0: [("pung", nt.tile_kind("7s"), False)]})
    st.apply("added_kong 7s")
    assert st.returns() == [6.0, -2.0, -2.0, -2.0]


def test_kong_payments_join_the_hand_result_and_the_totals(kongs):
    rng = random.Random(5)
    seen = 0
    for seed in range(40):
        st = kongs.new_game(seed=seed)
        while not st.is_terminal():
            st.apply(st.sample_action(rng))
        result = st.results[-1]
        paid = [0.0] * 4
        for event in st.log:
            if event["type"] == "kong_payment":
                paid = [a + b for a, b in zip(paid, event["payments"])]
                seen += 1
        assert result["kong_payments"] == paid
        assert sum(result["payments"]) == pytest.approx(0)
        assert st.returns() == pytest.approx(result["payments"])
        back = kongs.game().state_from_json(st.to_json())
        assert back.to_json() == st.to_json()
    assert seen > 0


COMPLETED = THREE_SUITS.replace("id: three-suits", "id: three-suits-completed").replace(
    '''    - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}''',
    '''    - {name: self_drawn, kind: fan, for: [winner], when: "self_drawn", fan: 1}
    - {name: concealed_pung, kind: fan, for: [winner], each: set,
       where: "kind == pung and concealed and not (completed and not self_drawn)", fan: 1}''')
assert "completed and not self_drawn" in COMPLETED


@pytest.mark.parametrize("hand,win,self_drawn,pungs", [
    ("111m 222m 333m 44p 55p", "5p", False, 3),   # 555p, completed by the discard: exposed
    ("111m 222m 333m 44p 55p", "5p", True, 4),    # drawn: all four concealed
    ("111m 222m 333m 444p 5p", "5p", False, 4),   # the discard completes the pair only
])
def test_a_set_knows_it_was_completed_by_the_winning_tile(tmp_path_factory, hand, win,
                                                         self_drawn, pungs):
    from rulesdsl import notation as nt
    from rulesdsl.engine.tiles.hand import ScoringHand
    from rulesdsl.engine.tiles.scoring import score_hand

    rs = _load(tmp_path_factory, COMPLETED)
    score = score_hand(rs, ScoringHand(concealed=nt.parse_tiles(hand.replace(" ", "")),
                                       winner=True, win_tile=nt.tile_kind(win),
                                       self_drawn=self_drawn), {})
    assert score.wins
    got = next((i.count for i in score.items if i.name == "concealed_pung"), 0)
    assert got == pungs, score.explain()
