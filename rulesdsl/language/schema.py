"""The JSON Schema (draft 2020-12) of rule files.

Built here as data so every key carries a description and examples; `rulesdsl
schema` prints it for editors (yaml-language-server). The compiler checks the
meaning of what the schema lets through: expressions, references, examples.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

SCHEMA_ID = "https://rulesdsl.dev/schema/ruleset-1.json"

RANK_TOKENS: list[Any] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"]
EXAMPLE_KINDS = ("pattern", "beats", "order", "trump", "points", "table", "formula", "hand")


def _obj(description: str, properties: dict[str, Any], required: list[str] | None = None,
         **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    schema.update(extra)
    return schema


def _s(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def _int(description: str, minimum: int = 0, maximum: int | None = None,
         **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description, "minimum": minimum}
    if maximum is not None:
        schema["maximum"] = maximum
    schema.update(extra)
    return schema


def _ref(name: str, description: str | None = None) -> dict[str, Any]:
    ref: dict[str, Any] = {"$ref": f"#/$defs/{name}"}
    if description:
        ref["description"] = description
    return ref


EXPR = {
    "description": "An expression in the rules language (grammar/expr.lark).",
    "type": ["string", "boolean", "integer"],
    "examples": ["suit == trump and rank == 5", "card == SA", "is_joker"],
}

NAME = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
        "description": "A name: letters, digits and underscores, not starting with a digit."}

RANK = {"description": "A rank: 1 (ace played low), 2-10, J, Q, K, A.",
        "enum": RANK_TOKENS}

COUNT_RANGE = {
    "description": "A number, or a range {min, max}.",
    "oneOf": [
        {"type": "integer", "minimum": 1, "maximum": 64},
        _obj("A range of counts.", {"min": _int("At least this many.", 1, 64),
                                    "max": _int("At most this many.", 1, 64)}),
    ],
}

SHAPE_PROPS: dict[str, Any] = {
    "group": {**COUNT_RANGE, "description": "N cards with the same sameness key (n of a kind)."},
    "run": _obj(
        "Consecutive steps of equal groups: a tractor, consecutive pairs, a straight.",
        {
            "group": _int("Cards per step (1 straight, 2 pairs, 3 triples).", 1, 16),
            "length": {**COUNT_RANGE, "description": "Number of steps: exact or {min, max}."},
            "over": {**NAME, "description": "A ladder in `ranks`; omit to climb the per-hand "
                                            "`order` of one suit-system (trick games)."},
        },
        ["group", "length"],
    ),
}

PART = {
    "description": "One part of a composite pattern: a shape or a reference to a pattern.",
    "type": "object",
    "properties": {
        **SHAPE_PROPS,
        "pattern": {**NAME, "description": "Another pattern's name."},
        "where": {"description": "Every card standing in this part must satisfy this.",
                  "type": ["string", "boolean", "integer"]},
        "repeat": {"enum": ["per_step"],
                   "description": "This part appears once per step of the key part's run "
                                  "(an airplane's wings: one kicker per triple)."},
    },
    "additionalProperties": False,
}

PATTERN = _obj(
    "A combination pattern. Exactly one of group, run, parts, cards.",
    {
        "name": {**NAME, "description": "The pattern's name, used by examples and engines."},
        **SHAPE_PROPS,
        "parts": {"type": "array", "items": PART, "minItems": 2, "maxItems": 8,
                  "description": "A composite: triple with pair, butterfly."},
        "cards": _s("Exactly these cards (special bombs, the rocket).",
                    examples=["LJ LJ LJ LJ"]),
        "key": _int("For composites: the part whose key ranks the whole.", 0, 7),
        "same_length": {"type": "boolean",
                        "description": "For composites: runs among the parts are equally long."},
        "distinct": {"enum": [True, False, "key"],
                     "description": "For composites: true, no two parts share a rank; key, "
                                    "no other part shares a rank with the key part."},
        "bomb_free": {"type": "boolean",
                      "description": "For composites: the parts other than the key part, taken "
                                     "together, hold no bomb (no set of their cards reads as a "
                                     "bomb pattern): kickers may not hide a bomb."},
        "maximal": {"type": "boolean",
                    "description": "For composites whose key part is a run: no rank just "
                                   "beyond either end of the run, on its ladder, appears in "
                                   "the play as often as a step of the run (the other parts "
                                   "may not lengthen it)."},
        "where": {**EXPR, "description": "Every natural card of the play must satisfy this."},
        "by": {**NAME, "description": "The ladder ranking the key (default: the order)."},
        "bomb": {"type": "boolean", "description": "A bomb beats every non-bomb."},
        "counts_as_size": _int("A bomb that ranks as a bomb of this many cards.", 1, 64),
        "exclusive": {"type": "boolean",
                      "description": "If cards can be read as this pattern, they cannot be read "
                                     "as a non-exclusive one."},
        "enabled": {**EXPR, "description": "Whether the pattern is in play: an expression "
                                           "over options (default true).",
                    "examples": ["allow_full_house"]},
        "doc": _s("What the pattern is, with the seed's words."),
        "remove": {"type": "boolean", "description": "In a child ruleset: drop this pattern."},
    },
    ["name"],
)

TIER = _obj(
    "One tier of the per-hand order: the first tier whose select holds places the card.",
    {
        "name": {**NAME, "description": "Tier name (referenced by alternates)."},
        "select": {**EXPR, "description": "Which cards this tier takes."},
        "by": {**NAME, "description": "A ladder in `ranks` ordering the tier's cards; "
                                      "omit to make them equal."},
        "doc": _s("A note on the tier."),
        "remove": {"type": "boolean", "description": "In a child ruleset: drop this tier."},
    },
    ["select"],
)

ALTERNATE = _obj(
    "Another identity a card may take in some patterns (下放, demotion).",
    {
        "name": NAME,
        "select": {**EXPR, "description": "Cards that may take the alternate identity."},
        "rank": {**EXPR, "description": "The rank it plays as (default: its own)."},
        "tiers": {"type": "array", "items": NAME, "minItems": 1,
                  "description": "Tiers (by name) that may place the demoted card."},
        "patterns": {"type": "array", "items": NAME, "minItems": 1,
                     "description": "Patterns in which the alternate may be used."},
        "doc": _s("A note."),
        "remove": {"type": "boolean"},
    },
    ["name", "select", "tiers", "patterns"],
)

WILD = _obj(
    "Wild cards or tiles (财神, 得).",
    {
        "name": NAME,
        "select": {**EXPR, "description": "Which cards or tiles are wild."},
        "stands_for": {**EXPR, "description": "What a wild may stand for."},
        "doc": _s("A note."),
        "remove": {"type": "boolean"},
    },
    ["select"],
)

OPTION = _obj(
    "A named choice where the seed is silent, cut off or contradictory.",
    {
        "default": {"type": ["integer", "number", "boolean", "string"],
                    "description": "The value used unless a variant overrides it."},
        "choices": {"type": "array", "items": {"type": ["integer", "number", "boolean",
                                                         "string"]},
                    "description": "The values players could reasonably choose."},
        "doc": _s("Why this is a choice, citing the seed passage."),
    },
    ["default"],
)

TABLE = _obj(
    "A first-match lookup table.",
    {
        "input": {"type": "array", "items": NAME, "description": "Names the rows may use."},
        "output": {
            "type": "object",
            "description": "Output fields: `int` (rows give an expression) or a list of words.",
            "additionalProperties": {
                "oneOf": [{"const": "int"}, {"const": "bool"},
                          {"type": "array", "items": {"type": "string"}, "minItems": 1}]
            },
        },
        "rows": {
            "type": "array",
            "minItems": 1,
            "description": "Rows, first match wins. Each has `when` and the output fields.",
            "items": {"type": "object", "properties": {"when": EXPR},
                      "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        },
        "doc": _s("What the table decides, citing the seed."),
    },
    ["input", "output", "rows"],
)

FORMULA = _obj(
    "A named formula over its inputs.",
    {
        "input": {"type": "array", "items": NAME},
        "expr": EXPR,
        "doc": _s("A note."),
    },
    ["input", "expr"],
)

SCORING_ITEM = _obj(
    "A scoring item (tiles family): base points or fan.",
    {
        "name": NAME,
        "kind": {"enum": ["base", "fan"], "description": "base points (和) or fan (番)."},
        "for": {"type": "array", "items": {"enum": ["winner", "others"]}, "minItems": 1,
                "description": "Whose hands the item scores."},
        "each": {"enum": ["set", "tile"], "description": "Count once per set or tile."},
        "zone": {"enum": ["hand", "flowers", "exposed_flowers", "tiles"],
                 "description": "For each: tile, which tiles."},
        "where": {**EXPR, "description": "For each: the condition on a set or tile."},
        "when": {**EXPR, "description": "A condition on the whole hand."},
        "points": _int("Base points per occurrence.", 0, 100000),
        "fan": _int("Fan per occurrence.", 0, 64),
        "limit": {"type": "boolean", "description": "The item makes a limit hand."},
        "doc": _s("The seed's words."),
        "remove": {"type": "boolean"},
    },
    ["name", "kind", "for"],
)

EXAMPLE = {
    "type": "object",
    "description": "An executable example. Exactly one kind key: "
                   + ", ".join(EXAMPLE_KINDS) + ".",
    "properties": {
        "pattern": _s("Cards whose readings are asserted.", examples=["H6 H6 H7 H7"]),
        "beats": _s("A play asserted to beat (or not) the `over` play."),
        "over": _s("The led or previous play."),
        "as": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2,
               "description": "Readings (pattern names) of the two plays."},
        "order": _s("Single-card order, e.g. 'H5 > BJ > LJ > C2 = D2'."),
        "trump": _s("Cards asserted to be (or not be) trumps."),
        "points": _s("Cards whose points are asserted."),
        "table": {**NAME, "description": "A table to look up."},
        "formula": {**NAME, "description": "A formula to evaluate."},
        "hand": _s("A mahjong hand (Tenhou notation), evaluated by the tile engine."),
        "input": {"type": "object", "description": "Inputs of a table or formula, or of a hand.",
                  "additionalProperties": {"type": ["integer", "boolean", "string"]}},
        "melds": {"type": "array", "items": {"type": "string"},
                  "description": "Exposed melds of a hand, e.g. ['p:555z', 'k:1111m']."},
        "win_tile": _s("The winning tile."),
        "self_drawn": {"type": "boolean"},
        "seat_wind": _s("The seat wind tile (1z-4z)."),
        "flowers": _s("Exposed flowers and specials."),
        "kong_replacement": {"type": "boolean"},
        "flower_replacement": {"type": "boolean"},
        "robbed_kong": {"type": "boolean"},
        "winner": {"type": "boolean"},
        "expect": {"description": "What is asserted."},
        "context": {"type": "object", "description": "Per-hand context values.",
                    "additionalProperties": {"type": ["string", "integer"]}},
        "options": {"type": "object", "description": "Option values for this example only.",
                    "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "cite": _s("The seed passage this example comes from."),
        "note": _s("A note."),
        "name": _s("A name for the example."),
    },
    "additionalProperties": False,
}

LADDER = {
    "type": "array",
    "items": RANK,
    "minItems": 1,
    "maxItems": 64,
    "description": "Ranks, lowest first. 1 is the ace played low.",
}


@lru_cache(maxsize=1)
def ruleset_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "rulesdsl ruleset (language 1)",
        "description": "A card or tile game written as data. See docs/language.md.",
        "type": "object",
        "required": ["language", "id", "family"],
        "additionalProperties": False,
        "$defs": {"expr": EXPR, "pattern": PATTERN, "tier": TIER, "example": EXAMPLE},
        "properties": {
            "language": {"const": 1, "description": "The rules-language version: 1."},
            "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,63}$",
                   "description": "Lower-case slug; what rulesdsl.load() takes.",
                   "examples": ["my-local-variant"]},
            "name": _obj("Display names.", {"zh": _s("Chinese name."), "en": _s("English name.")}),
            "family": {"enum": ["trick", "shedding", "tiles"],
                       "description": "Which engine runs the game."},
            "version": {"type": ["string", "number"], "description": "The ruleset's version."},
            "source": _s("The seed text this ruleset traces to."),
            "description": _s("A short description."),
            "extends": _s("A ruleset (bundled id or relative path) this one starts from."),
            "options": {"type": "object", "description": "Named choices.",
                        "propertyNames": NAME, "additionalProperties": OPTION},
            "players": _obj(
                "Who plays.",
                {
                    "count": {"description": "Players: a number or the allowed numbers.",
                              "oneOf": [_int("Players.", 1, 8),
                                        {"type": "array", "items": _int("Players.", 1, 8),
                                         "minItems": 1}]},
                    "direction": {"enum": ["counter-clockwise", "clockwise"],
                                  "description": "Turn direction (the seeds play "
                                                 "counter-clockwise)."},
                    "teams": {"description": "opposite, none, or lists of seats.",
                              "oneOf": [{"enum": ["opposite", "none"]},
                                        {"type": "array", "items": {
                                            "type": "array", "items": _int("Seat.", 0, 7)}}]},
                },
                ["count"],
            ),
            "deck": _obj(
                "Card families: the packs in play.",
                {
                    "decks": _int("Number of 54-card packs.", 1, 8),
                    "jokers": {"type": "boolean", "description": "Keep BJ and LJ."},
                    "remove": {"type": "array", "items": {"type": "string"},
                               "description": "Cards removed from each pack.",
                               "examples": [["BJ", "LJ", "H2", "C2", "D2", "SA"]]},
                },
                ["decks"],
            ),
            "tileset": _obj(
                "Tile family: the tiles in play.",
                {
                    "suits": {"type": "array", "items": {"enum": ["m", "p", "s"]},
                              "uniqueItems": True},
                    "honors": {"type": "boolean", "description": "Winds and dragons."},
                    "flowers": _int("Flower tiles 1f..Nf.", 0, 8),
                    "copies": _int("Copies of each suited and honor tile.", 1, 8),
                },
                ["suits"],
            ),
            "deal": _obj(
                "The deal.",
                {
                    "hands": _int("Hands dealt (default: the player count).", 1, 8),
                    "hand_size": _int("Cards or tiles per hand.", 1, 200),
                    "kitty": _int("Cards left face down (底牌).", 0, 200),
                    "dealer_extra": _int("Extra cards or tiles for the dealer.", 0, 8),
                    "turn_up": {"enum": ["none", "wild", "trump"],
                                "description": "What is turned up after the deal."},
                    "dice": _int("Dice thrown for the wall break.", 0, 4),
                },
                ["hand_size"],
            ),
            "context": {
                "type": "object",
                "description": "Per-hand values (trump suit, level rank, turned tile).",
                "propertyNames": NAME,
                "additionalProperties": _obj(
                    "A context value.",
                    {"type": {"enum": ["suit", "rank", "tile", "card", "int", "bool"]},
                     "ladder": {**NAME, "description": "For ranks: the ladder of values."},
                     "doc": _s("A note.")},
                    ["type"],
                ),
            },
            "define": {"type": "object", "description": "Named expressions.",
                       "propertyNames": NAME, "additionalProperties": EXPR},
            "ranks": {"type": "object", "description": "Named rank ladders, lowest first.",
                      "propertyNames": NAME, "additionalProperties": LADDER},
            "trump": {**EXPR, "description": "Which cards are trumps (trick family)."},
            "order": {"type": "array", "items": _ref("tier"), "minItems": 1,
                      "description": "The per-hand ladder: first-match tiers, highest first."},
            "alternates": {"type": "array", "items": ALTERNATE,
                           "description": "Alternate identities (demotion)."},
            "wilds": {"type": "array", "items": WILD, "description": "Wild cards or tiles."},
            "patterns": _obj(
                "Combination patterns and how they compare.",
                {
                    "sameness": {"enum": ["card", "rank"],
                                 "description": "card: identical cards; rank: same rank."},
                    "hollow": {"enum": ["forbidden", "allowed"],
                               "description": "Runs over the order across removed ranks."},
                    "demoted": {"enum": ["incomparable", "normal"],
                                "description": "Whether demoted plays compare with "
                                               "same-shape plays."},
                    "list": {"type": "array", "items": _ref("pattern"), "minItems": 1},
                },
                ["list"],
            ),
            "points": {"type": "object", "description": "Card points by rank.",
                       "propertyNames": {"enum": [str(r) for r in RANK_TOKENS] + ["BJ", "LJ"]},
                       "additionalProperties": _int("Points.", 0, 1000)},
            "points_total": _int("Total points of all cards (a check).", 0, 100000),
            "levels": _obj(
                "Level progression (trick family).",
                {"ladder": LADDER, "start": RANK,
                 "must_stop": {"type": "array", "items": RANK}},
                ["ladder"],
            ),
            "play": _obj(
                "How a hand is played: the trick family's declare/kitty/follow/throw/"
                "captures/result, or the shedding family's lead, takeover, ends, settle.",
                {
                    "declare": _obj(
                        "Declaring trump during the deal by showing cards (叫主, 反主).",
                        {
                            "select": {**EXPR, "description": "Cards that may be shown "
                                                               "(usually level cards)."},
                            "max": _int("Most identical cards shown at once.", 1, 8),
                            "overcall_min": _int("Fewest cards that overcall.", 1, 8),
                            "overcall": {"enum": ["more", "more_or_higher_suit"],
                                         "description": "more: more cards overcall; "
                                                        "more_or_higher_suit: also as many "
                                                        "cards of a higher suit."},
                            "suit_order": {"type": "array", "items": {"enum": ["S", "H", "D",
                                                                                "C"]},
                                           "minItems": 4, "maxItems": 4, "uniqueItems": True,
                                           "description": "Suits low to high, for ties."},
                            "reinforce": {"type": "boolean",
                                          "description": "A declarer may add cards (加固)."},
                            "self_overcall": {"type": "boolean",
                                              "description": "A declarer may overcall "
                                                             "themselves in another suit."},
                            "fallback": {"enum": ["turn_up_kitty", "random_suit"],
                                         "description": "When nobody declares."},
                            "doc": _s("The seed's words."),
                        },
                        ["select"],
                    ),
                    "first_dealer": {"enum": ["declarer", "random"],
                                     "description": "Who deals the first hand."},
                    "kitty": _obj(
                        "The kitty at the end of the hand.",
                        {"capture": {**NAME, "description": "A formula: the points the "
                                     "defenders add when they win the last trick; inputs "
                                     "from kitty_points, last_size, last_units, last_group."},
                         "doc": _s("The seed's words.")},
                    ),
                    "follow": _obj(
                        "Following the led suit-system.",
                        {"shape": {"enum": ["ignore", "pairs"],
                                   "description": "ignore: any cards of the led suit-system "
                                                  "(「对牌型无要求」); pairs: as many pairs as "
                                                  "the lead holds, when you have them (升级)."},
                         "doc": _s("The seed's words.")},
                    ),
                    "throw": _obj(
                        "Throws (甩牌): several combinations of one suit-system at once.",
                        {"allowed": {"enum": ["plain", "any", "none"],
                                     "description": "Where throws are allowed."},
                         "failure": {"enum": ["smallest_card", "smallest_unit"],
                                     "description": "What is played when a throw fails."},
                         "penalty": _int("Points a failed throw moves to or from the "
                                         "defenders.", 0, 1000),
                         "doc": _s("The seed's words.")},
                    ),
                    "captures": {"type": "array", "description": "Opponents' cards counted "
                                 "when captured in a trick (红五, 方五).",
                                 "items": _obj("A captured card kind.",
                                               {"name": NAME, "select": EXPR,
                                                "doc": _s("A note.")},
                                               ["name", "select"])},
                    "first_lead": {"enum": ["random", "holder", "dealer"],
                                   "description": "Shedding: who leads the first hand "
                                                  "(holder: of the first of `holder` cards)."},
                    "then_lead": {"enum": ["first_out", "random", "holder", "dealer"],
                                  "description": "Shedding: who leads later hands."},
                    "holder": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                               "description": "Shedding: cards whose holder leads, in order "
                                              "(关牌: S3, S4, S5 …).",
                               "examples": [["S3", "S4", "S5"]]},
                    "takeover": {"enum": ["next_player", "none"],
                                 "description": "Shedding (接风): when a player goes out and "
                                                "all pass, their next player leads."},
                    "ends": {"type": "array", "minItems": 1,
                             "items": {"oneOf": [
                                 {"enum": ["one_left", "team_out"]},
                                 _obj("A table checked for each side after every play and "
                                      "round: inputs from points, opp_points, out, opp_out; "
                                      "output state: over or playing.",
                                      {"table": NAME}, ["table"])]},
                             "description": "Shedding: the hand ends when one player is left "
                                            "with cards, when a whole team is out, or when a "
                                            "table says so."},
                    "secured": {**NAME, "description": "Shedding: a formula giving a side's "
                                "secured points from finished_captured, unfinished_captured, "
                                "has_first (default: everything the side captured)."},
                    "auction": _obj(
                        "Shedding: bidding for the deal (叫牌). The highest bidder is the "
                        "dealer, takes the kitty and leads.",
                        {"bids": {"type": "array", "items": _int("A bid.", 1, 1000000),
                                  "minItems": 1, "description": "The bids, lowest first."},
                         "direction": {"enum": ["counter-clockwise", "clockwise"],
                                       "description": "The bidding order."},
                         "opener": {"enum": ["random"], "description": "Who bids first."},
                         "must_raise": {**EXPR, "description": "When true for the bidder, "
                                        "they must bid one step up (names: bid, round, "
                                        "hand)."},
                         "default_bid": _int("If nobody bids: the opener deals at this bid.",
                                             0, 1000000),
                         "doc": _s("The seed's words.")},
                        ["bids"],
                    ),
                    "sides": {"enum": ["teams", "dealer_alone"],
                              "description": "Shedding: the players' teams, or the dealer "
                                             "alone against everyone else."},
                    "instant_win": {"type": "array", "items": EXPR,
                                    "description": "Shedding: conditions on a dealt hand "
                                                   "(name: hand) that let its holder claim "
                                                   "the hand at once."},
                    "settle": _obj(
                        "Shedding: scoring a finished hand.",
                        {"seat_score": {**NAME, "description": "A table (output score) or "
                                        "formula per seat over place, own, in_hand, "
                                        "cards_left, last_captured, last_in_hand, early, "
                                        "players."},
                         "team_result": {**NAME, "description": "A table per team over "
                                         "points, first_out: outcome win, draw or lose."},
                         "payment": {**NAME, "description": "A formula: what each player who "
                                     "is not first out pays the first out (inputs "
                                     "cards_left, base, place, in_hand)."},
                         "base": _int("The base stake per unit.", 0, 1000000),
                         "side_payout": {**NAME, "description": "A table over bid: "
                                         "dealer_side_win (what the dealer side gains, paid "
                                         "by the defenders equally) and defender_side_win "
                                         "(what each defender gains, paid by the dealer "
                                         "side). The side of the first player out wins."},
                         "doc": _s("The seed's words.")},
                    ),
                    "bonus": {**EXPR, "description": "Tiles: tiles set aside face up with "
                              "a replacement from the wall's end (flowers, special tiles)."},
                    "wall": {**NAME, "description": "Tiles: a table over tiles_left giving "
                             "phase: play, live_tile or exhausted."},
                    "chow_from": {"enum": ["previous_player", "anyone", "none"],
                                  "description": "Tiles: who may chow a discard."},
                    "claim_with_wilds": {"type": "boolean",
                                         "description": "Tiles: wilds may help claim a "
                                                        "discard (「“得”不能“吃”」: false)."},
                    "pung_pass_lock": {"type": "boolean",
                                       "description": "Tiles: a pung passed up cannot be "
                                                      "claimed again until your next turn."},
                    "rob_kong": {"enum": ["added_only", "none"],
                                 "description": "Tiles: robbing a kong (抢杠): only a pung "
                                                "promoted to a kong can be robbed."},
                    "discarded_wild": {"enum": ["forfeit", "normal"],
                                       "description": "Tiles: forfeit: whoever discards a "
                                                      "wild cannot win and scores 0, and "
                                                      "nobody wins on it."},
                    "payments": _obj(
                        "Tiles: settlement formulas.",
                        {"to_winner": {**NAME, "description": "A formula (total, stake): "
                                       "what each player pays the winner."},
                         "between_others": {**NAME, "description": "A formula "
                                            "(receiver_total, payer_total, stake): what a "
                                            "non-winner pays another."},
                         "stake": _int("The stake (底银).", 0, 1000000)},
                    ),
                    "result": _obj(
                        "Turning the hand into level changes.",
                        {"table": {**NAME, "description": "A table with input points and "
                                   "outputs side, levels, next_dealer."},
                         "swing": {**NAME, "description": "A formula giving the final signed "
                                   "level change (+ defenders, - dealer side)."},
                         "overcall_bonus": {**NAME, "description": "A table: overcall_cards "
                                            "to bonus levels."},
                         "doc": _s("The seed's words.")},
                        ["table"],
                    ),
                    "doc": _s("A note."),
                },
            ),
            "win": _obj(
                "Winning shape (tiles family).",
                {
                    "sets": _int("Sets needed.", 0, 8),
                    "pairs": _int("Pairs needed.", 0, 8),
                    "set_kinds": {"type": "array",
                                  "items": {"enum": ["chow", "pung", "kong"]}},
                    "limit_hands": {"type": "array", "items": _obj(
                        "A limit hand (腊子): wins at once and scores the cap.",
                        {"name": NAME, "when": EXPR, "doc": _s("The seed's words."),
                         "for": {"type": "array", "items": {"enum": ["winner", "others"]}},
                         "remove": {"type": "boolean"}},
                        ["name", "when"])},
                },
            ),
            "scoring": _obj(
                "Scoring items and totals (tiles family).",
                {
                    "items": {"type": "array", "items": SCORING_ITEM},
                    "totals": {"type": "object", "additionalProperties": NAME,
                               "description": "Which formula totals each hand."},
                    "limit": _int("The cap (满贯).", 0, 1000000),
                },
            ),
            "tables": {"type": "object", "propertyNames": NAME, "additionalProperties": TABLE,
                       "description": "Lookup tables."},
            "formulas": {"type": "object", "propertyNames": NAME,
                         "additionalProperties": FORMULA, "description": "Named formulas."},
            "examples": {"type": "array", "items": _ref("example"), "maxItems": 5000,
                         "description": "Executable examples."},
        },
    }


def examples_file_schema() -> dict[str, Any]:
    base = ruleset_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["examples"],
        "additionalProperties": False,
        "$defs": base["$defs"],
        "properties": {"examples": base["properties"]["examples"],
                       "ruleset": _s("The ruleset these examples are for.")},
    }


def schema_json() -> str:
    return json.dumps(ruleset_schema(), indent=2, ensure_ascii=False)
