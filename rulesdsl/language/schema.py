"""The JSON Schema (draft 2020-12) of rule files.

Built here as data so every key carries a description and, where an author writes a
value, examples (taken from the bundled rulesets); where the language has a fixed set of
names the schema lists them as an enum. `rulesdsl schema` prints it for editors
(yaml-language-server: completion, hover, inline errors). The compiler checks the meaning
of what the schema lets through: expressions, references, examples.

Some descriptions are also read back by error messages (a missing required key is
explained with its description), so word those of required keys as "what to write".
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

from .schema_examples import EXAMPLE
from .schema_words import (  # the words and fragments, used here and re-exported
    CARD,
    DIRECTIONS,
    END,
    EXPR,
    NAME,
    RANK,
    RANK_TOKENS,
    REMOVE,
    ROLES,
    SCHEMA_ID,
    SHAPE_PROPS,
    _bool,
    _count_range,
    _doc,
    _enum,
    _expr,
    _int,
    _name,
    _names,
    _obj,
    _ref,
    _s,
)

PART = {
    "description": "One part of a composite pattern: a shape or a reference to a pattern.",
    "type": "object",
    "properties": {
        **SHAPE_PROPS,
        "pattern": _name("Another pattern's name.", "single", "pair"),
        "where": {"description": "Every card standing in this part must satisfy this.",
                  "type": ["string", "boolean", "integer"], "examples": ["rank == A"]},
        "repeat": {"enum": ["per_step"],
                   "description": "This part appears once per step of the key part's run "
                                  "(an airplane's wings: one kicker per triple)."},
    },
    "additionalProperties": False,
}

PATTERN = _obj(
    "A combination pattern. Exactly one of group, run, parts, cards, any.",
    {
        "name": _name("The pattern's name, used by examples and engines.",
                      "pair", "tractor", "trio_with_pair", "bomb"),
        **SHAPE_PROPS,
        "parts": {"type": "array", "items": PART, "minItems": 2, "maxItems": 8,
                  "description": "A composite: triple with pair, butterfly."},
        "cards": _s("Exactly these cards (special bombs, the rocket).",
                    "LJ BJ", "LJ LJ LJ LJ"),
        "any": _count_range("Any N cards, whatever their ranks: with `suit: same`, a flush "
                            "(shedding family; a wild card plays as itself).", 5),
        "suit": _enum("same: every natural card of the play is of one suit (a flush, a "
                      "straight flush); a wild card stands in the suit (shedding family).",
                      "same"),
        "last_play_only": _bool("The pattern may only be a player's last play, all the "
                                "cards left in the hand (shedding family)."),
        "ties": {"description": "suit: plays of equal rank compare by the suit of their "
                                "best card of the top rank, in `patterns.suit_order`; "
                                "suit_first: that suit decides first, the rank only between "
                                "plays of one suit; or {option: NAME} (shedding family).",
                 "anyOf": [{"enum": ["suit", "suit_first"]},
                           {"type": "object", "description": "An option choosing the rule.",
                            "properties": {"option": _name("An option's name.",
                                                           "flush_order")},
                            "required": ["option"], "additionalProperties": False}],
                 "examples": ["suit", "suit_first", {"option": "flush_order"}]},
        "wilds": {"description": "Whether wild cards may stand for other cards in this "
                                 "pattern: true (default), false (a wild card plays only as "
                                 "itself), or an expression over options.",
                  "type": ["boolean", "string"],
                  "examples": [False, "wild_straight_flush"]},
        "key": _int("For composites: the part whose key ranks the whole.", 0, 7, 0),
        "same_length": _bool("For composites: runs among the parts are equally long."),
        "distinct": {"enum": [True, False, "key"],
                     "description": "For composites: true, no two parts share a rank; key, "
                                    "no other part shares a rank with the key part."},
        "bomb_free": _bool("For composites: the parts other than the key part, taken "
                           "together, hold no bomb (no set of their cards reads as a "
                           "bomb pattern): kickers may not hide a bomb."),
        "maximal": _bool("For composites whose key part is a run: no rank just beyond "
                         "either end of the run, on its ladder, appears in the play as often "
                         "as a step of the run (the other parts may not lengthen it)."),
        "where": _expr("Every natural card of the play must satisfy this.",
                       "rank == A", "not is_joker"),
        "by": _name("The ladder ranking the key (default: the order).", "run", "bomb"),
        "bomb": _bool("A bomb beats every non-bomb."),
        "grade": _expr("A bomb's grade, which ranks it among bombs instead of its number of "
                       "cards: an expression over size (cards), length (steps: 1 for a "
                       "group) and step (the fewest cards of a step), and options. Equal "
                       "grades compare by key.", "length + step", "size"),
        "counts_as_size": {"type": "number", "minimum": 1, "maximum": 64,
                           "multipleOf": 0.5,
                           "description": "A bomb that ranks as a bomb of this many cards; "
                                          "a half ranks it between two sizes (5.5: above "
                                          "every five-card bomb, below every six-card one).",
                           "examples": [5, 8, 5.5]},
        "exclusive": {"description": "If cards can be read as this pattern, they cannot be "
                                     "read as a non-exclusive one (true), or as one of the "
                                     "patterns listed.",
                      "oneOf": [{"type": "boolean", "description": "All other patterns."},
                                _names("The patterns it excludes.", "A pattern's name.",
                                       ["full_house"], minItems=1)],
                      "examples": [True, ["full_house"]]},
        "enabled": _expr("Whether the pattern is in play: an expression over options "
                         "(default true).", "allow_full_house", "four_jokers == 'top_bomb'"),
        "doc": _s("What the pattern is, with the seed's words.", "「3带2」: a trio with a pair."),
        "remove": {"type": "boolean", "description": "In a child ruleset: drop this pattern."},
    },
    ["name"],
)

TIER = _obj(
    "One tier of the per-hand order: the first tier whose select holds places the card.",
    {
        "name": _name("Tier name (referenced by alternates).", "big_joker", "trump_suit",
                      "plain"),
        "select": _expr("Which cards this tier takes.", "card == BJ", "suit == trump", "true"),
        "by": _name("A ladder in `ranks` ordering the tier's cards; omit to make them equal.",
                    "natural", "single"),
        "doc": _doc("A note on the tier."),
        "remove": {"type": "boolean", "description": "In a child ruleset: drop this tier."},
    },
    ["select"],
)

ALTERNATE = _obj(
    "Another identity a card may take in some patterns (下放, demotion).",
    {
        "name": _name("The alternate's name.", "level_demotion", "counselor_demotion"),
        "select": _expr("Cards that may take the alternate identity.", "level_card",
                        "counselor"),
        "rank": _expr("The rank it plays as (default: its own).", "1"),
        "tiers": _names("Tiers (by name) that may place the demoted card.", "A tier's name.",
                        ["trump_suit", "plain"], minItems=1),
        "patterns": _names("Patterns in which the alternate may be used.",
                           "A pattern's name.", ["tractor", "triple_tractor"], minItems=1),
        "doc": _doc(),
        "remove": REMOVE,
    },
    ["name", "select", "tiers", "patterns"],
)

WILD = _obj(
    "Wild cards or tiles (财神, 得).",
    {
        "name": _name("The wild's name.", "jokers", "turned"),
        "select": _expr("Which cards or tiles are wild.", "card == BJ", "wild"),
        "stands_for": _expr("What a wild may stand for.", "not is_joker",
                            "not is_flower and not special"),
        "doc": _doc(),
        "remove": REMOVE,
    },
    ["select"],
)

SCALAR = ["integer", "number", "boolean", "string"]

OPTION = _obj(
    "A named choice where the seed is silent, cut off or contradictory.",
    {
        "default": {"type": SCALAR,
                    "description": "The value used unless a variant overrides it.",
                    "examples": [False, 120, "wild"]},
        "choices": {"type": "array",
                    "items": {"type": SCALAR, "description": "A value players could choose.",
                              "examples": [True, 150, "top_bomb"]},
                    "description": "The values players could reasonably choose.",
                    "examples": [[False, True], [120, 150], ["wild", "top_bomb"]]},
        "doc": _s("Why this is a choice, citing the seed passage.",
                  "「炸弹（4带1）」: false = a bomb needs its extra card; true = four of a "
                  "kind alone is also a bomb."),
    },
    ["default"],
)

TABLE_WORDS = {"type": "array", "minItems": 1,
               "items": {"type": "string", "description": "A word rows may give.",
                         "examples": ["defenders", "over"]},
               "description": "The words rows may give."}

TABLE = _obj(
    "A first-match lookup table.",
    {
        "input": _names("Names the rows may use.", "An input name.", ["points"],
                        ["place", "own", "last_captured"], ["tiles_left"]),
        "output": {
            "type": "object",
            "description": "Output fields: `int` (rows give an expression) or a list of words.",
            "additionalProperties": {
                "description": "An output field: int, bool, or the list of words it may be.",
                "examples": ["int", ["dealer", "defenders", "none"], ["over", "playing"]],
                "oneOf": [{"const": "int", "description": "Rows give a number (an expression)."},
                          {"const": "bool", "description": "Rows give true or false."},
                          TABLE_WORDS],
            },
        },
        "rows": {
            "type": "array",
            "minItems": 1,
            "description": "Rows, first match wins. Each has `when` and the output fields.",
            "items": {"type": "object",
                      "description": "A row: `when` and a value for every output field.",
                      "properties": {"when": _expr("When this row applies (the first row that "
                                                   "holds wins).", "points >= 120", "true")},
                      "additionalProperties": {
                          "type": ["string", "integer", "boolean"],
                          "description": "An output field's value: a word, or an expression "
                                         "for an int field.",
                          "examples": ["defenders", "min(13, (points - 120) // 10)", 0]}},
        },
        "doc": _s("What the table decides, citing the seed.",
                  "「闲家抓分对应的升级」: defenders' points to levels."),
    },
    ["input", "output", "rows"],
)

FORMULA = _obj(
    "A named formula over its inputs.",
    {
        "input": _names("Names the expression may use.", "An input name.", ["kitty_points"],
                        ["cards_left", "base"]),
        "expr": _expr("The formula's value.", "kitty_points * 2",
                      "cards_left * base * if(cards_left == 16, 2, 1)"),
        "doc": _doc(),
    },
    ["input", "expr"],
)

SCORING_ITEM = _obj(
    "A scoring item (tiles family): base points or fan.",
    {
        "name": _name("The item's name (shown in a hand's score).", "pung_major",
                      "self_drawn_win"),
        "kind": {"enum": ["base", "fan"], "description": "base points (和) or fan (番)."},
        "for": {"type": "array", "minItems": 1,
                "items": _enum("winner: the winning hand; others: the other hands.", *ROLES),
                "description": "Whose hands the item scores.",
                "examples": [["winner"], ["winner", "others"]]},
        "each": {"enum": ["set", "tile"], "description": "Count once per set or tile."},
        "zone": {"enum": ["hand", "flowers", "exposed_flowers", "tiles"],
                 "description": "For each: tile, which tiles."},
        "where": _expr("For each: the condition on a set or tile.",
                       "kind == pair and tile.is_dragon",
                       "kind == pung and not concealed and (tile.is_honor or tile.is_terminal)"),
        "when": _expr("A condition on the whole hand.", "self_drawn", "wait == edge"),
        "times": _expr("An item without each: how many times it applies, an integer "
                       "over the whole hand (default once).", "groups(tiles, 4)"),
        "points": _int("Base points per occurrence.", 0, 100000, 2, 4, 8),
        "fan": _int("Fan per occurrence.", 0, 64, 1, 4),
        "limit": {"type": "boolean", "description": "The item makes a limit hand."},
        "doc": _doc("The seed's words."),
        "remove": REMOVE,
    },
    ["name", "kind", "for"],
)


LADDER = {
    "type": "array",
    "items": RANK,
    "minItems": 1,
    "maxItems": 64,
    "description": "Ranks, lowest first. 1 is the ace played low.",
    "examples": [[3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A", 2],
                 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"]],
}

PLAYERS = _obj(
    "Who plays.",
    {
        "count": {"description": "Players: a number or the allowed numbers.",
                  "examples": [4, 3, [2, 3]],
                  "oneOf": [_int("Players.", 1, 8),
                            {"type": "array", "items": _int("Players.", 1, 8, 2, 3),
                             "minItems": 1}]},
        "direction": _enum("Turn direction (the seeds play counter-clockwise).", *DIRECTIONS),
        "teams": {"description": "opposite, none, or lists of seats.",
                  "examples": ["opposite", "none", [[0, 2], [1, 3]]],
                  "oneOf": [_enum("opposite: partners sit opposite (seats 0, 2, … against "
                                  "1, 3, …); none: everyone plays alone.", "opposite", "none"),
                            {"type": "array", "items": {
                                "type": "array", "description": "A team: its seats.",
                                "examples": [[0, 2], [1, 3, 4]],
                                "items": _int("Seat (0 is the first player).", 0, 7, 0, 2)}}]},
    },
    ["count"],
)


WIN = _obj(
    "Winning shape (tiles family).",
    {
        "sets": _int("Sets needed.", 0, 8, 4, 5),
        "pairs": _int("Pairs needed.", 0, 8, 1),
        "seven_pairs": _bool("A hand of pairs only (七对: as many tiles as a complete hand, "
                             "no melds) wins too; four identical tiles are two pairs."),
        "set_kinds": {"type": "array",
                      "items": _enum("A set kind.", "chow", "pung", "kong"),
                      "description": "Which sets count towards `sets`.",
                      "examples": [["chow", "pung", "kong"]]},
        "limit_hands": {"type": "array",
                        "description": "Limit hands (腊子): a hand that holds one wins at "
                                       "once and scores the cap.",
                        "items": _obj(
                            "A limit hand (腊子): wins at once and scores the cap.",
                            {"name": _name("The limit hand's name.", "three_wilds"),
                             "when": _expr("When the hand holds.", "wilds >= 3",
                                           "count(exposed_flowers, red_flower) == 4"),
                             "doc": _doc("The seed's words."),
                             "for": {"type": "array",
                                     "items": _enum("winner or others.", *ROLES),
                                     "description": "Whose hands it applies to.",
                                     "examples": [["winner"]]},
                             "remove": REMOVE},
                            ["name", "when"])},
    },
)

SCORING = _obj(
    "Scoring items and totals (tiles family).",
    {
        "items": {"type": "array", "items": SCORING_ITEM,
                  "description": "Scoring items: base points and fan."},
        "totals": {"type": "object",
                   "propertyNames": _enum("A role: winner or others.", *ROLES),
                   "additionalProperties": _name("A formula (inputs base and fan).",
                                                 "winner_total", "other_total"),
                   "description": "Which formula totals each hand: winner and others."},
        "limit": _int("The cap (满贯).", 0, 1000000, 500),
    },
)


def ruleset_schema_with(play: dict[str, Any]) -> dict[str, Any]:
    """The whole schema, given the `play:` fragment the family contracts declare
    (rulesdsl.compiler.schema assembles it)."""
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
            "id": _s("Lower-case slug; what rulesdsl.load() takes.", "my-local-variant",
                     "red-five-6-players", pattern="^[a-z0-9][a-z0-9-]{0,63}" + END),
            "name": _obj("Display names.", {"zh": _s("Chinese name.", "升级", "红五"),
                                            "en": _s("English name.", "Sheng Ji",
                                                     "Red Five")}),
            "family": _enum("Which engine runs the game: trick (trick-taking, 升级), shedding "
                            "(climbing, 争上游) or tiles (mahjong).",
                            "trick", "shedding", "tiles"),
            "version": {"type": ["string", "number"], "description": "The ruleset's version.",
                        "examples": ["1.0.0"]},
            "source": _s("The seed text this ruleset traces to.",
                         "seeds/001_6813623d5c2d4f85.txt"),
            "description": _s("A short description.",
                              "Two-deck red five for four players in partnerships."),
            "extends": _s("A ruleset (bundled id or relative path) this one starts from.",
                          "my-local-variant", "./base.yaml"),
            "options": {"type": "object", "description": "Named choices.",
                        "propertyNames": NAME, "additionalProperties": OPTION},
            "players": PLAYERS,
            "deck": _obj(
                "Card families: the packs in play.",
                {
                    "decks": _int("Number of 54-card packs.", 1, 8, 1, 2, 3),
                    "jokers": _bool("Keep BJ and LJ."),
                    "remove": {"type": "array",
                               "items": {**CARD, "description": "A card removed from each "
                                                                "pack."},
                               "description": "Cards removed from each pack.",
                               "examples": [["BJ", "LJ", "H2", "C2", "D2", "SA"]]},
                },
                ["decks"],
            ),
            "tileset": _obj(
                "Tile family: the tiles in play.",
                {
                    "suits": {"type": "array",
                              "items": _enum("m: characters (万), p: dots (筒), s: bamboo "
                                             "(条).", "m", "p", "s"),
                              "uniqueItems": True,
                              "description": "The suits in play.",
                              "examples": [["m", "p", "s"]]},
                    "honors": _bool("Winds and dragons."),
                    "flowers": _int("Flower tiles 1f..Nf.", 0, 8, 8),
                    "copies": _int("Copies of each suited and honor tile.", 1, 8, 4),
                },
                ["suits"],
            ),
            "deal": _obj(
                "The deal.",
                {
                    "hands": _int("Hands dealt (default: the player count).", 1, 8, 3),
                    "hand_size": _int("Cards or tiles per hand.", 1, 200, 17, 25, 16),
                    "kitty": _int("Cards left face down (底牌).", 0, 200, 0, 3, 8),
                    "dealer_extra": _int("Extra cards or tiles for the dealer.", 0, 8, 1),
                    "turn_up": _enum("What is turned up after the deal.", "none", "wild",
                                     "trump"),
                    "dice": _int("Dice thrown for the wall break.", 0, 4, 2),
                },
                ["hand_size"],
            ),
            "context": {
                "type": "object",
                "description": "Per-hand values (trump suit, level rank, turned tile).",
                "propertyNames": NAME,
                "additionalProperties": _obj(
                    "A context value.",
                    {"type": _enum("What kind of value it holds.", "suit", "rank", "tile",
                                   "card", "int", "bool"),
                     "ladder": _name("For ranks: the ladder of values.", "levels"),
                     "doc": _doc()},
                    ["type"],
                ),
            },
            "define": {"type": "object", "description": "Named expressions.",
                       "propertyNames": NAME,
                       "additionalProperties": _expr(
                           "A named expression, usable by name in every other expression.",
                           "card == H5", "suit == trump and rank == 5", "rank == level")},
            "ranks": {"type": "object", "description": "Named rank ladders, lowest first.",
                      "propertyNames": NAME, "additionalProperties": LADDER},
            "trump": _expr("Which cards are trumps (trick family).",
                           "is_joker or center_five or counselor or level_card or "
                           "suit == trump"),
            "order": {"type": "array", "items": _ref("tier"), "minItems": 1,
                      "description": "The per-hand ladder: first-match tiers, highest first."},
            "alternates": {"type": "array", "items": ALTERNATE,
                           "description": "Alternate identities (demotion)."},
            "wilds": {"type": "array", "items": WILD, "description": "Wild cards or tiles."},
            "patterns": _obj(
                "Combination patterns and how they compare.",
                {
                    "sameness": _enum("card: identical cards; rank: same rank.", "card",
                                      "rank"),
                    "hollow": _enum("Runs over the order across removed ranks.",
                                    "forbidden", "allowed"),
                    "demoted": _enum("Whether demoted plays compare with same-shape plays.",
                                     "incomparable", "normal"),
                    "list": {"type": "array", "items": _ref("pattern"), "minItems": 1,
                             "description": "The patterns."},
                    "suit_order": {
                        "type": "array", "items": {"enum": ["S", "H", "D", "C"],
                                                   "description": "A suit letter."},
                        "minItems": 4, "maxItems": 4, "uniqueItems": True,
                        "description": "The suits from lowest to highest, for patterns with "
                                       "`ties: suit` (as D, C, H, S).",
                        "examples": [["D", "C", "H", "S"]]},
                    "classes": {
                        "type": "array", "maxItems": 16,
                        "description": "Classes of patterns: within one list, a later "
                                       "pattern beats an earlier one of the same number of "
                                       "cards (five-card poker hands).",
                        "items": {"type": "array", "minItems": 2, "maxItems": 64,
                                  "uniqueItems": True,
                                  "description": "Pattern names, weakest first.",
                                  "examples": [["straight", "flush", "full_house"]],
                                  "items": _name("A pattern's name.", "straight", "flush")},
                        "examples": [[["straight", "flush", "full_house"]]]},
                },
                ["list"],
            ),
            "points": {"type": "object", "description": "Card points by rank.",
                       "propertyNames": {"enum": [str(r) for r in RANK_TOKENS] + ["BJ", "LJ"],
                                         "description": "A rank, BJ or LJ."},
                       "additionalProperties": _int("Points.", 0, 1000, 5, 10)},
            "points_total": _int("Total points of all cards (a check).", 0, 100000, 200, 300),
            "levels": _obj(
                "Level progression (trick family).",
                {"ladder": {**LADDER, "description": "The levels a side climbs, lowest first.",
                            "examples": [[2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"]]},
                 "start": {**RANK, "description": "The level every side starts at."},
                 "must_stop": {"type": "array", "items": RANK,
                               "description": "Levels a side must stop at (and play) on its "
                                              "way up.",
                               "examples": [[10, "K", "A"]]}},
                ["ladder"],
            ),
            "play": play,
            "win": WIN,
            "scoring": SCORING,
            "tables": {"type": "object", "propertyNames": NAME, "additionalProperties": TABLE,
                       "description": "Lookup tables."},
            "formulas": {"type": "object", "propertyNames": NAME,
                         "additionalProperties": FORMULA, "description": "Named formulas."},
            "examples": {"type": "array", "items": _ref("example"), "maxItems": 5000,
                         "description": "Executable examples."},
        },
    }


def examples_file_schema_with(base: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["examples"],
        "additionalProperties": False,
        "$defs": base["$defs"],
        "properties": {"examples": base["properties"]["examples"],
                       "ruleset": _s("The ruleset these examples are for.",
                                     "my-local-variant")},
    }


def editor_schema_with(strict: dict[str, Any]) -> dict[str, Any]:
    """The schema as a YAML language server applies it: what `rulesdsl schema` prints and
    `rulesdsl new` writes beside a new file. `strict` is the schema the validator checks
    (`ruleset_schema_with`); for the text-keyed data the validator reads, a file without
    `extends` is valid under both or under neither. Two differences:

    - An editor keeps a mapping key's YAML type: in `points: {5: 5, K: 10}` the first key
      is the number 5, where rulesdsl reads every key as the text written ("5"). Where the
      allowed keys are listed (`propertyNames` with an enum), every one written as a whole
      number is listed as that number too.
    - A child file (`extends:`) is checked only once merged over its parent, so it may
      leave out what its parent says: `language`, `family`, `hand_size` under `deal` …
      Every `required` on the way from the top through properties, mapping values, list
      items and `$defs` is taken out of the shape and said again, at the same place, under
      `else` of `if: {required: [extends]}`: a file without `extends` is held to every one,
      a child only to its own `id` (never inherited). A `required` inside alternatives
      (oneOf / anyOf), which tells one alternative from another, stays where it is.
    """
    # A copy through JSON: the schema shares nodes between places (the shape keys of a
    # pattern and of its parts), and each place's `required` is taken on its own.
    schema = json.loads(json.dumps(strict))
    _accept_integer_keys(schema)
    defs = schema.get("$defs", {})
    taken: dict[str, dict[str, Any] | None] = {}

    def ref(target: str) -> dict[str, Any] | None:
        name = target.removeprefix("#/$defs/")
        if name not in defs or "/" in name:
            raise ValueError(f"editor schema: cannot follow $ref {target!r}")
        if name not in taken:
            taken[name] = None  # a def reached again while it is read: refused below
            taken[name] = _take_required(defs[name], ref) or {}
        elif taken[name] is None:
            raise ValueError(f"editor schema: $defs/{name} refers to itself")
        return copy.deepcopy(taken[name]) or None

    for name in defs:
        ref(f"#/$defs/{name}")
    whole = _take_required(schema, ref) or {}
    schema["if"] = {"required": ["extends"]}
    schema["then"] = {"required": ["id"]}
    schema["else"] = whole
    return schema


def _accept_integer_keys(node: Any) -> None:
    if isinstance(node, dict):
        names = node.get("propertyNames")
        if isinstance(names, dict) and isinstance(names.get("enum"), list):
            numbers = [int(n) for n in names["enum"]
                       if isinstance(n, str) and re.fullmatch(r"0|[1-9][0-9]*", n)]
            names["enum"] += [n for n in numbers if n not in names["enum"]]
        for value in node.values():
            _accept_integer_keys(value)
    elif isinstance(node, list):
        for value in node:
            _accept_integer_keys(value)


def _take_required(node: Any, ref: Callable[[str], dict[str, Any] | None]) \
        -> dict[str, Any] | None:
    """Remove the `required` lists of `node` and of what lies under it (not inside
    alternatives); return them as a schema of the same shape holding only them (None: there
    were none)."""
    if not isinstance(node, dict):
        return None
    if "$ref" in node:
        return ref(node["$ref"])
    out: dict[str, Any] = {}
    required = node.pop("required", None)
    if required:
        out["required"] = required
    properties = {key: _take_required(value, ref)
                  for key, value in node.get("properties", {}).items()}
    values = _take_required(node.get("additionalProperties"), ref)
    if values is not None:  # `additionalProperties` here must skip the named keys too
        out["properties"] = {key: value or {} for key, value in properties.items()}
        out["additionalProperties"] = values
    elif any(value is not None for value in properties.values()):
        out["properties"] = {key: value for key, value in properties.items()
                             if value is not None}
    for value in out.get("properties", {}).values():
        # The shape offers each key once, with its words: editors (VS Code's JSON
        # languages, yaml-language-server) leave a `doNotSuggest` key out of completion.
        value["doNotSuggest"] = True
    items = _take_required(node.get("items"), ref)
    if items is not None:
        out["items"] = items
    return out or None


# For the family contracts (rulesdsl/engine/contract.py), which declare their play keys
# with the same helpers.
obj_schema = _obj
string_schema = _s
int_schema = _int
bool_schema = _bool
enum_schema = _enum
expr_schema = _expr
name_schema = _name
doc_schema = _doc
