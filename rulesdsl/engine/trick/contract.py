"""The trick family's contract: the `play:` section its engine plays, declared once."""

from __future__ import annotations

from typing import Any

from ...language import schema as sc
from ..contract import (
    MISSING,
    Cards,
    Contract,
    Custom,
    Expr,
    Hook,
    PlayReader,
    Section,
    Value,
    option_choice,
)
from .play import TrickPlay, trick_result_names

_ = Cards  # (no card lists in this family's play section)


def _enum(*names: Any) -> dict[str, Any]:
    return {"enum": list(names)}


def _int(lo: int, hi: int, *examples: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi, "examples": list(examples)}


BOOL: dict[str, Any] = {"type": "boolean"}

DECLARE = Section(
    "declare", "Declaring trump during the deal by showing cards (叫主, 反主).",
    "Declaring trumps (叫主) during the deal",
    keys=(
        Expr("select", "Cards that may be shown (usually level cards).", "cards that may be shown",
             attr="declare_select", examples=("level_card",)),
        Value("max", "Most identical cards shown at once.", "most identical cards shown at once",
              attr="declare_max", fragment=_int(1, 8, 2, 3), default=3),
        Value("overcall_min", "Fewest cards that overcall.", "fewest cards that overcall",
              fragment=_int(1, 8, 2), default=2),
        Value("overcall", "more: more cards overcall; more_or_higher_suit: also as many cards "
              "of a higher suit.", "an overcall needs",
              fragment=_enum("more", "more_or_higher_suit"), default="more"),
        Value("suit_order", "Suits low to high, for ties.", "suit order for ties, low to high",
              fragment={"type": "array", "items": {**_enum("S", "H", "D", "C"),
                                                   "description": "A suit letter."},
                        "minItems": 4, "maxItems": 4, "uniqueItems": True,
                        "examples": [["D", "C", "H", "S"]]},
              default=["D", "C", "H", "S"]),
        Value("reinforce", "A declarer may add cards (加固).",
              "a declarer may add cards to their own declaration", fragment=BOOL, default=True),
        Value("jokers", "none: jokers never declare; pairs: two or more copies of one "
              "joker declare no trump (无主: only jokers and level cards are trumps); at an "
              "equal count the big joker's beat the little joker's, which beat any suit's.",
              "jokers declare", attr="declare_jokers", fragment=_enum("none", "pairs"),
              default="none"),
        Value("reinforce_overcall", "With reinforce: the player whose overcall stands may "
              "add cards to it too (false: only a declaration nobody overcalled is "
              "reinforced).", "an overcall standing may be reinforced", fragment=BOOL,
              default=False),
        Value("self_overcall", "A declarer may overcall themselves in another suit.",
              "a declarer may overcall themselves", fragment=BOOL, default=True),
        Value("fallback", "When nobody declares: turn_up_kitty, the kitty is shown and "
              "its first card that could be declared names the trump suit, else its "
              "highest card; first_kitty_card, the kitty's first card names it (a joker: "
              "no trump); random_suit.", "when nobody declares",
              fragment=_enum("turn_up_kitty", "first_kitty_card", "random_suit"),
              default="random_suit"),
        Value("later_fallback", "When nobody declares in a hand after the first (default: "
              "as fallback).", "when nobody declares in a later hand",
              fragment=_enum("turn_up_kitty", "first_kitty_card", "random_suit"),
              default=None),
    ),
    required=("select",),
)

# last_largest: cards in the largest unit of the last trick's lead (a pair 2, a tractor of
# two pairs 4; a throw's largest component)
KITTY_NAMES = ("kitty_points", "last_size", "last_units", "last_group", "last_largest")


def _result_names(model: TrickPlay) -> list[str]:
    return trick_result_names([n for n, _ in model.captures])


def _read_captures(reader: PlayReader, value: Any, path: tuple, model: TrickPlay) -> None:
    model.captures, model.kitty_captures = [], []
    for i, cap in enumerate([] if value is MISSING else value):
        c = reader.expr(path + (i, "select"), cap["select"], reader.card_scope, "bool")
        if c:
            model.captures.append((cap["name"], c[1]))
        kitty = cap.get("kitty", False)
        if isinstance(kitty, dict):  # left to an option
            kitty = option_choice(reader, path + (i, "kitty", "option"), kitty.get("option"),
                                  False, lambda c: isinstance(c, bool), "is not true or false",
                                  "choices: [true, false]")
        if kitty is True:
            model.kitty_captures.append(cap["name"])


CAPTURES = Custom(
    "captures", "Opponents' cards counted when captured in a trick (红五, 方五).",
    "Cards counted when captured",
    fragment={"type": "array",
              "items": sc.obj_schema("A captured card kind.",
                                     {"name": sc.name_schema("The kind's name (result inputs "
                                                             "are named after it).", "red",
                                                             "diamond"),
                                      "select": sc.expr_schema("Which cards count.",
                                                               "red_five"),
                                      "kitty": {"description": "Cards of this kind in the "
                                                "kitty count as the defenders' captures "
                                                "when they win the last trick (扣底): true, "
                                                "false (default), or {option: NAME}.",
                                                "anyOf": [{"type": "boolean"},
                                                          sc.obj_schema(
                                                              "An option choosing it.",
                                                              {"option": sc.name_schema(
                                                                  "An option's name.",
                                                                  "kitty_fives")},
                                                              ["option"])],
                                                "examples": [True, {"option": "kitty_fives"}]},
                                      "doc": sc.doc_schema()},
                                     ["name", "select"])},
    reading=_read_captures,
)

RESULT = Section(
    "result", "Turning the hand into level changes.", "The hand's result",
    keys=(
        Hook("table", "A table with input points and outputs side, levels, next_dealer.",
             "the result table", attr="result_table", kinds=("table",), gives=_result_names,
             reads=(("side", ("dealer", "defenders", "none")), ("levels", "int"),
                    ("next_dealer", ("partner", "next_player", "same"))),
             examples=("result",)),
        Hook("swing", "A formula giving the final signed level change (+ defenders, "
             "- dealer side).", "the swing formula", gives=_result_names,
             examples=("level_swing",)),
        Hook("overcall_bonus", "A table: overcall_cards to bonus levels.",
             "the overcall bonus table", kinds=("table",), gives=("overcall_cards",),
             reads=(("levels", "int"),), examples=("overcall_bonus",)),
        Value("overcall_bonus_to", "Who the overcall bonus levels go to: winning_side, the "
              "side the result table names (it climbs or stays down further); defenders: "
              "always the defenders.", "the overcall bonus goes to",
              fragment=_enum("winning_side", "defenders"), default="winning_side"),
        Value("overcall_bonus_draw", "When the result table names no side and there is an "
              "overcall bonus: defenders: the defenders take it (「閑家得120-125分，"
              "若有玩家反主，反主所得積分加于閑家」); none: nobody does.",
              "on a drawn hand the overcall bonus goes to",
              fragment=_enum("defenders", "none"), default="defenders"),
        Value("pass_must_stop", "A side standing at a must_stop level passes it: any, with "
              "any winning hand; as_dealer, only with a hand it wins as the dealer's side "
              "(it must defend the level first).", "a side passes a must_stop level",
              fragment=_enum("any", "as_dealer"), default="any"),
        Value("max_levels", "The most levels one hand moves a side, the overcall bonus "
              "included (the result table caps its own levels; this caps the total).",
              "a hand moves a side at most this many levels",
              fragment={"type": "integer", "minimum": 1, "maximum": 64,
                        "examples": [13, 3]}, default=None),
        Value("next_dealer", "Who deals next: table: the result table's next_dealer; "
              "climbing_side: the side that climbs deals (defenders: the next player; the "
              "dealer side: the partner), the table deciding when nobody climbs (default: "
              "climbing_side with a swing formula, else table).", "who deals next",
              fragment=_enum("table", "climbing_side"), default=None),
    ),
    required=("table",),
)


def _finish(reader: PlayReader, section: dict[str, Any], model: TrickPlay) -> None:
    if model.later_fallback is None:
        model.later_fallback = model.fallback
    if model.pass_must_stop != "any" and not (reader.data.get("levels") or {}).get("must_stop"):
        reader.error(("play", "result", "pass_must_stop"), "no level is a must_stop level "
                     "to pass", key=True, expected="levels.must_stop: [...], or no "
                     "pass_must_stop")
    if model.follow_shape == "format":
        _check_format_patterns(reader)
    if model.next_dealer is None:
        # 「以后每局的胜方为庄家」 is what the swing rulesets play; the table decides otherwise.
        model.next_dealer = "climbing_side" if model.swing is not None else "table"


def _check_format_patterns(reader: PlayReader) -> None:
    """The format ladder reads pairs, larger groups and runs of groups from two up: a
    pattern it cannot read would be a format nobody is held to."""
    listed = (reader.data.get("patterns") or {}).get("list") or []
    for i, entry in enumerate(listed):
        if not isinstance(entry, dict):
            continue
        run = entry.get("run")
        if isinstance(run, dict):
            length = run.get("length")
            low = length.get("min", 1) if isinstance(length, dict) else length
            if run.get("over") is not None or not isinstance(run.get("group"), int) \
                    or run.get("group", 0) < 2 or low != 2:
                reader.error(("patterns", "list", i, "run"), "follow.shape: format reads "
                             "runs of one group size from 2 up, over the hand's order, "
                             "from length 2", expected="run: {group: 2, length: {min: 2}}, "
                             "or another follow.shape")
        elif "group" not in entry:
            reader.error(("patterns", "list", i), "follow.shape: format reads only group "
                         "and run patterns", expected="group or run patterns, or another "
                         "follow.shape")


def _game(ruleset: Any) -> Any:
    from .state import TrickGame

    return TrickGame(ruleset)


TRICK = Contract(
    family="trick",
    engine="the trick engine",
    description="declare, first_dealer, kitty, follow, throw, captures, result",
    keys=(
        DECLARE,
        Value("first_dealer", "Who deals the first hand.", "the first hand's dealer",
              fragment=_enum("declarer", "random"), default="declarer"),
        Section("kitty", "The kitty at the end of the hand.", "The kitty (底牌)", keys=(
            Hook("capture", "A formula: the points the defenders add when they win the last "
                 "trick; inputs from kitty_points, last_size, last_units, last_group, "
                 "last_largest.",
                 "the kitty formula", attr="kitty_capture", gives=KITTY_NAMES,
                 examples=("kitty_capture",)),
        )),
        Section("follow", "Following the led suit-system.", "Following the lead", keys=(
            Value("shape", "ignore: any cards of the led suit-system (「对牌型无要求」); pairs: "
                  "as many pairs as the lead holds, when you have them; format: the lead's "
                  "format, walked down a ladder from the lead's own shape (a tractor by a "
                  "tractor when held, then shorter tractors and pairs, then pairs, then "
                  "singles): the first rung your hand holds, you play.", "shape",
                  attr="follow_shape", fragment=_enum("ignore", "pairs", "format"),
                  default="ignore"),
            Value("only_tractors_draw_tractors", "With shape format: a rung never asks for "
                  "adjacent tuples that a unit of the lead did not have (a led four of a "
                  "kind does not draw a tractor of two pairs).",
                  "only tractors draw tractors", fragment=BOOL, default=False),
        )),
        Section("throw", "Throws (甩牌): several combinations of one suit-system at once.",
                "Throws (甩牌)", keys=(
                    Value("allowed", "Where throws are allowed: plain: in plain suits only; "
                          "any: trumps too; none: never.", "allowed", attr="throw_allowed",
                          fragment=_enum("plain", "any", "none"), default="plain"),
                    Value("test", "When a throw stands: units, when no other hand could "
                          "beat any of its units in that unit's own shape; "
                          "smallest_card, when no other hand holds a card of its suit "
                          "stronger than its smallest card (「以其它玩家手中没有比所甩的牌中最小"
                          "的牌大为甩牌成功」).", "a throw stands when", attr="throw_test",
                          fragment=_enum("units", "smallest_card"), default="units"),
                    Value("ranked_by", "What ranks a play answering a throw against the "
                          "winning one: largest_unit, their largest (then strongest) units "
                          "(the trick engine's default); every_unit, each unit beats its "
                          "counterpart, largest first; "
                          "highest_card, their highest cards.", "a throw's answers compare by",
                          attr="throw_ranked_by",
                          fragment=_enum("largest_unit", "every_unit", "highest_card"),
                          default="largest_unit"),
                    Value("ruff_match", "How a play must match a throw's units to rank "
                          "against it: arrangement, any arrangement of its cards into the "
                          "throw's units (a trump pair answers two thrown singles); "
                          "components, its own decomposition has the same units (a pair "
                          "is a pair, never two singles).", "a throw's answer matches it by",
                          attr="throw_ruff_match",
                          fragment=_enum("arrangement", "components"),
                          default="arrangement"),
                    Value("failure", "What is played when a throw fails: smallest_card, "
                          "its smallest card; smallest_unit, the smallest of its units "
                          "that some other hand could beat; first_blocker_unit, the "
                          "smallest unit that the first player in turn order able to beat "
                          "one could beat.", "a failed throw plays", attr="throw_failure",
                          fragment=_enum("smallest_card", "smallest_unit",
                                         "first_blocker_unit"),
                          default="smallest_card"),
                    Value("penalty", "Points a failed throw moves to or from the defenders.",
                          "points moved for a failed throw", attr="throw_penalty",
                          fragment=_int(0, 1000, 10), default=0),
                )),
        CAPTURES,
        RESULT,
    ),
    model=TrickPlay,
    game=_game,
    contexts=(("trump", "suit"), ("level", "rank")),
    phase_sets=(("deal", ("trump",)),),  # the declaring decides the trump
    sections=("trump", "levels"),
    features=(
        ("suited_plays", "plays and orders that tell cards of one rank apart by suit"),
        ("suit_systems", "trumps and each plain suit are suit-systems: a play beats one of "
                         "its own shape in its system, and a trump play beats a plain one"),
        ("runs_over_the_hand_order", "runs (tractors) over the per-hand order, without a "
                                     "ladder"),
    ),
    finish=_finish,
    sameness="card",
)
