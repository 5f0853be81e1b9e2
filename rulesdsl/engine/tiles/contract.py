"""The tile family's contract: the `play:` section its engine plays, declared once."""

from __future__ import annotations

from typing import Any

from ...runtime.expressions import BOOL as BOOL_TYPE
from ...runtime.expressions import INT
from ..contract import Contract, Expr, Hook, Section, Value
from .play import TilePlay
from .sections import read_sections


def _enum(*names: Any) -> dict[str, Any]:
    return {"enum": list(names)}


BOOL: dict[str, Any] = {"type": "boolean"}

def _kong_rate(what: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": ["from", "amount"],
            "description": f"What {what} pays, when it is made.",
            "properties": {
                "from": {"enum": ["discarder", "others"], "description":
                         "discarder: the player whose discard was claimed; others: every "
                         "other player."},
                "amount": {"type": "integer", "minimum": 0, "maximum": 1000,
                           "description": "Stakes each payer pays.", "examples": [1, 2]}},
            "examples": [{"from": "others", "amount": 2}]}


KONG_PAYMENTS = Section(
    "kong_payments", "Tiles: kongs paid when they are made (刮风下雨), in stakes: a kong "
    "claimed on a discard (exposed), a pung promoted (added), a concealed kong.",
    "Kong payments (刮风下雨)", keys=(
        Value("exposed", "A kong claimed on a discard (直杠).", "an exposed kong pays",
              attr="kong_exposed", fragment=_kong_rate("a kong claimed on a discard"),
              default=None),
        Value("added", "A pung promoted to a kong (补杠, 弯杠).", "an added kong pays",
              attr="kong_added", fragment=_kong_rate("a promoted pung"), default=None),
        Value("concealed", "A concealed kong (暗杠).", "a concealed kong pays",
              attr="kong_concealed", fragment=_kong_rate("a concealed kong"), default=None),
        Value("transfer", "to_winner: when the discard a player makes right after their "
              "kong's replacement draw is won on, that kong's payment passes from them to "
              "the winner, shared equally among several winners (呼叫转移); none: it stays.",
              "a kong's payment when its maker's next discard is won on",
              attr="kong_transfer", fragment=_enum("none", "to_winner"), default="none"),
    ),
)

EXHAUSTIVE_DRAW = Section(
    "exhaustive_draw", "Tiles: what players still in play settle when the wall runs out "
    "(查花猪, 查大叫, 退税), in this order.", "At an exhaustive draw", keys=(
        Hook("void_held_pays", "A formula (stake): what a player still holding their void "
             "suit pays each other player in play not holding theirs (查花猪).",
             "the void_held_pays formula", gives=("stake",),
             examples=("flower_pig_payment",)),
        Value("not_ready_pays", "best_hand: each player in play who is not ready (and not "
              "holding their void suit) pays each ready player in play what the ready "
              "player's best hand, won on a discard, is paid by its discarder (查大叫); "
              "nothing: no payment.", "a player who is not ready pays",
              fragment=_enum("nothing", "best_hand"), default="nothing"),
        Value("refund_kongs", "not_ready: a player in play who is not ready returns every "
              "kong payment they received this hand (退税); none: kong payments stand.",
              "kong payments are refunded by", fragment=_enum("none", "not_ready"),
              default="none"),
    ),
)

PAYMENTS = Section(
    "payments", "Tiles: settlement formulas.", "Payments", keys=(
        Hook("to_winner", "A formula (total, stake, self_drawn: 1 for a self-drawn win, "
             "else 0): what each player pays the winner.",
             "the to_winner formula", gives=("total", "stake", "self_drawn"),
             examples=("payment_to_winner",)),
        Hook("between_others", "A formula (receiver_total, payer_total, stake): what a "
             "non-winner pays another.", "the between_others formula",
             gives=("receiver_total", "payer_total", "stake"),
             examples=("payment_between_others",)),
        Value("discard_win_paid_by", "everyone: every other player in play pays the "
              "winner, as for a self-drawn win; discarder: a win on a discard (or a robbed "
              "kong) is paid by the discarder alone (点炮).", "a win on a discard is paid by",
              fragment=_enum("everyone", "discarder"), default="everyone"),
        Value("stake", "The stake (底银).", "stake",
              fragment={"type": "integer", "minimum": 0, "maximum": 1000000, "examples": [1]},
              default=1),
    ),
)

LIABILITY = Section(
    "liability", "Tiles: 包三家, when a live tile discarded in the wall table's live_tile "
    "phase lets someone win: the discarder pays for the table.", "The live-tile liability "
    "(包三家)", keys=(
        Expr("live", "Whether a discard in the live_tile phase is live (names: seen, the "
             "copies of the tile discarded or claimed before it).", "a discard is live when",
             attr="live_tile", examples=("seen == 0",), names=(("seen", INT),),
             default="seen == 0"),
        Value("pays", "every_payment: every payment of the hand is made by the liable player "
              "(「在本副牌中所有付出的牌点均由被包方支付」); winner_payments: only what is paid "
              "to the winner.", "the liable player pays", attr="liable_pays",
              fragment=_enum("every_payment", "winner_payments"), default="every_payment"),
        Value("zero_total", "The liable player's own hand counts 0 (「被包方的牌点归零处理」).",
              "the liable player's hand counts nothing", attr="liable_total_zero",
              fragment=BOOL, default=True),
        Expr("exempt", "Nobody is liable when this holds (names: all_live, every tile in the "
             "discarder's hand was live by `live`; ready, one more tile would complete it): "
             "「手里全是生牌，同时还没听牌时…不按包三家处理」 is all_live and not ready; "
             "false: never exempt.", "nobody is liable when", attr="liable_exempt",
             examples=("all_live and not ready", "false"),
             names=(("all_live", BOOL_TYPE), ("ready", BOOL_TYPE)),
             default="all_live and not ready"),
    ),
)


def _game(ruleset: Any) -> Any:
    from .state import TileGame

    return TileGame(ruleset)


TILES = Contract(
    family="tiles",
    engine="the tile engine",
    description="bonus, wall, chow_from, claim_with_wilds, pung_pass_lock, rob_kong, "
                "discarded_wild, next_dealer, dealer_after_draw, after_win, discard_wins, "
                "void_suit, payments, kong_payments, exhaustive_draw, liability",
    keys=(
        Expr("bonus", "Tiles: tiles set aside face up with a replacement from the wall's end "
             "(flowers, special tiles).", "tiles set aside face up with a replacement draw",
             examples=("bonus_tile", "is_flower")),
        Hook("wall", "Tiles: a table over tiles_left giving phase: play, live_tile or "
             "exhausted.", "the wall table", kinds=("table",), gives=("tiles_left",),
             reads=(("phase", ("play", "live_tile", "exhausted")),),
             examples=("wall_phase",)),
        Value("chow_from", "Tiles: who may chow a discard.", "a chow may be claimed from",
              fragment=_enum("previous_player", "anyone", "none"), default="previous_player"),
        Value("claim_with_wilds", "Tiles: wilds may help claim a discard "
              "(「“得”不能“吃”」: false).", "wilds may help claim a discard", fragment=BOOL,
              default=False),
        Value("pung_pass_lock", "Tiles: a pung passed up cannot be claimed again until your "
              "next turn.", "a pung passed up waits for your next turn", fragment=BOOL,
              default=True),
        Value("rob_kong", "Tiles: robbing a kong (抢杠): only a pung promoted to a kong can be "
              "robbed.", "a kong may be robbed", fragment=_enum("added_only", "none"),
              default="added_only"),
        Value("discarded_wild", "Tiles: forfeit: whoever discards a wild cannot win and scores "
              "0, and nobody wins on it.", "a discarded wild",
              fragment=_enum("forfeit", "normal"), default="forfeit"),
        Value("next_dealer", "Tiles: who deals after a hand someone won: "
              "unless_dealer_wins: the next player, unless the dealer won (坐庄); "
              "next_player: the next player every hand; winner: the winner; first_winner: "
              "the hand's first winner, or its discarder when that first win was several "
              "on one discard.", "after a win the deal goes to",
              fragment=_enum("unless_dealer_wins", "next_player", "winner", "first_winner"),
              default="unless_dealer_wins"),
        Value("dealer_after_draw", "Tiles: who deals after a hand nobody won: next_player "
              "(「庄家自动下庄」) or stays (the dealer deals again).",
              "after a hand nobody won the deal", fragment=_enum("next_player", "stays"),
              default="next_player"),
        Value("after_win", "Tiles: end_hand: the first win ends the hand; winner_leaves: "
              "the winner leaves play and the others play on until one is left or the wall "
              "runs out (血战到底). A player who has left neither pays nor collects for "
              "later wins, kongs or draw settlements.", "after a win",
              fragment=_enum("end_hand", "winner_leaves"), default="end_hand"),
        Value("discard_wins", "Tiles: first_in_turn: of several players winning on one "
              "discard, the first in turn order after the discarder wins; every_claim: "
              "every claimed win stands (一炮多响).", "several wins on one discard",
              fragment=_enum("first_in_turn", "every_claim"), default="first_in_turn"),
        Value("void_suit", "Tiles: declare: after the deal each player, from the dealer in "
              "turn order, names one suit to be void of (定缺); while holding a tile of it "
              "they discard only such tiles, they cannot win, and they cannot claim or kong "
              "its tiles. none: no void suit.", "a void suit (定缺)",
              fragment=_enum("none", "declare"), default="none"),
        PAYMENTS,
        KONG_PAYMENTS,
        EXHAUSTIVE_DRAW,
        LIABILITY,
    ),
    model=TilePlay,
    game=_game,
    contexts=(("turned", "tile"),),
    sections=("win", "scoring"),
    features=(("suited_plays", "every tile kind is its own"),),
    element="tile",
    read_sections=read_sections,
)
