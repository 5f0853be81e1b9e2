"""The JSON Schema of one executable example (`examples:` in a rule file or an examples
file): exactly one kind key, with what that kind checks."""

from __future__ import annotations

from .schema_words import END, _bool, _enum, _int, _name, _obj, _s

EXAMPLE_KINDS = ("pattern", "beats", "order", "trump", "points", "table", "formula", "hand",
                 "scenario", "deck")

EXAMPLE = {
    "type": "object",
    "description": "An executable example. Exactly one kind key: "
                   + ", ".join(EXAMPLE_KINDS) + ".",
    "properties": {
        "pattern": _s("Cards whose readings are asserted.", "H6 H6 H7 H7", "S3 H3 D3 BJ"),
        "beats": _s("A play asserted to beat (or not) the `over` play.", "S2 H2", "BJ"),
        "over": _s("The led or previous play.", "SA HA", "S3 H3 D3 S2"),
        "as": {"type": "array", "items": _name("A pattern's name.", "bomb"), "minItems": 2,
               "maxItems": 2, "description": "Readings (pattern names) of the two plays.",
               "examples": [["bomb", "four_big_jokers"]]},
        "order": _s("Single-card order, e.g. 'H5 > BJ > LJ > C2 = D2'.",
                    "H5 > BJ > LJ > C2 = D2", "HA = CA = DA"),
        "trump": _s("Cards asserted to be (or not be) trumps.", "H5 D5 BJ LJ", "S3 C3"),
        "points": _s("Cards whose points are asserted.", "H5 HK S10"),
        "table": _name("A table to look up.", "result", "payout"),
        "formula": _name("A formula to evaluate.", "kitty_capture", "loser_pays"),
        "hand": _s("A mahjong hand (Tenhou notation), evaluated by the tile engine.",
                   "13p456m789m234s567s11z"),
        "input": {"type": "object", "description": "Inputs of a table or formula, or of a hand.",
                  "additionalProperties": {"type": ["integer", "boolean", "string"],
                                           "description": "An input's value.",
                                           "examples": [135, 16, True]}},
        "melds": {"type": "array",
                  "items": _s("A meld: c: chow, p: pung, k: kong, ck: concealed kong, then "
                              "its tiles.", "p:555z", "c:123m", "ck:1111m"),
                  "description": "Exposed melds of a hand, e.g. ['p:555z', 'k:1111m'].",
                  "examples": [["p:555z", "k:1111m"]]},
        "win_tile": _s("The winning tile.", "5p", "2p"),
        "self_drawn": _bool("The winning tile was drawn, not claimed."),
        "seat_wind": _s("The seat wind tile (1z-4z).", "1z", "2z"),
        "flowers": _s("Exposed flowers and specials.", "1f5z", "1f2f"),
        "kong_replacement": _bool("The winning tile replaced a kong."),
        "flower_replacement": _bool("The winning tile replaced a flower."),
        "robbed_kong": _bool("The win robs a kong (抢杠)."),
        "last_tile": _bool("No tile could be drawn after the winning one (海底)."),
        "first_turn": _bool("Nobody had claimed or declared a set and the winner had not "
                            "discarded (天胡, 地胡)."),
        "kong_discard": _bool("The winning discard came after the discarder's kong (杠上炮)."),
        "winner": _bool("Score the hand as the winner's (default: true when win_tile is "
                        "given)."),
        "expect": {"description": "What is asserted: true/false, a pattern name or list of "
                                  "names, a number, or a mapping of table outputs or hand "
                                  "results.",
                   "examples": [True, "pair", 25, {"side": "defenders", "levels": 1},
                                {"wins": True, "items": ["self_drawn_win", "no_wild"]}]},
        "context": {"type": "object", "description": "Per-hand context values.",
                    "additionalProperties": {"type": ["string", "integer"],
                                             "description": "A context value: a suit, rank, "
                                                            "tile or number.",
                                             "examples": ["S", 7, "5z"]}},
        "options": {"type": "object", "description": "Option values for this example only.",
                    "additionalProperties": {"type": ["string", "integer", "boolean"],
                                             "description": "An option's value (one of its "
                                                            "choices).",
                                             "examples": [True, 150, "top_bomb"]}},
        "deck": _obj("A deck assertion: its size, cards it lacks, its point total.",
                     {"size": _int("Cards (or tiles) in the deck.", 0, 10000, 48, 144),
                      "absent": _s("Cards that are not in the deck.", "BJ LJ H2 C2 D2 SA"),
                      "points": _int("The deck's point total.", 0, 100000, 0, 200)}),
        "includes": {"type": "array", "minItems": 1,
                     "description": "Pattern example: readings the cards must have (a name, "
                                    "or a reading's name and size, bomb size).",
                     "examples": [["bomb"], [{"name": "bomb", "bomb_size": 8}]],
                     "items": {"description": "A pattern name, or {name, size, bomb_size}.",
                               "examples": ["bomb", {"name": "bomb", "bomb_size": 8}],
                               "oneOf": [_name("A pattern's name.", "bomb"),
                                         _obj("A reading.",
                                              {"name": _name("Its pattern.", "bomb"),
                                               "size": _int("Cards it counts as.", 1, 64, 4),
                                               "bomb_size": {"type": "number", "minimum": 1,
                                                             "maximum": 64, "multipleOf": 0.5,
                                                             "description": "Its size as a "
                                                                            "bomb.",
                                                             "examples": [8, 5.5]}},
                                              ["name"])]}},
        "excludes": {"type": "array", "minItems": 1,
                     "description": "Pattern example: readings the cards must not have.",
                     "examples": [["pair"]],
                     "items": {"description": "A pattern name, or {name, size, bomb_size}.",
                               "examples": ["pair", {"name": "bomb", "bomb_size": 4}],
                               "oneOf": [_name("A pattern's name.", "pair"),
                                         _obj("A reading.",
                                              {"name": _name("Its pattern.", "bomb"),
                                               "size": _int("Cards it counts as.", 1, 64, 4),
                                               "bomb_size": {"type": "number", "minimum": 1,
                                                             "maximum": 64, "multipleOf": 0.5,
                                                             "description": "Its size as a "
                                                                            "bomb.",
                                                             "examples": [4, 5.5]}},
                                              ["name"])]}},
        "scenario": _s("A play scenario: what it shows (the hand is built from `hands`, then "
                       "`actions` are applied in order).",
                       "a led tractor must be answered by a tractor when one is held"),
        "hands": {"type": "object", "propertyNames": {"pattern": "^[0-9]" + END},
                  "description": "Scenario: seat -> what it holds (seats not listed hold "
                                 "nothing).",
                  "additionalProperties": _s("Cards or tiles.", "S6 S6 S7 S7 H9",
                                             "123m456m789m11z")},
        "kitty": _s("Scenario (cards): the kitty.", "S2 H3 D4"),
        "wall": _s("Scenario (tiles): the next draws from the wall, in order.", "7p 1z"),
        "wall_end": _s("Scenario (tiles): the next replacements drawn from the wall's end.",
                       "3s"),
        "tiles_left": _int("Scenario (tiles): tiles in the wall (default: the given draws "
                           "and every tile nobody holds).", 0, 1000, 17, 40),
        "exposed": {"type": "object", "propertyNames": {"pattern": "^[0-9]" + END},
                    "description": "Scenario (tiles): seat -> its exposed melds.",
                    "additionalProperties": {"type": "array",
                                             "items": _s("A meld.", "p:555z", "c:123m"),
                                             "description": "Melds.",
                                             "examples": [["p:555z"], ["c:123m", "p:1z1z1z"]]}},
        "exposed_flowers": {"type": "object", "propertyNames": {"pattern": "^[0-9]" + END},
                            "description": "Scenario (tiles): seat -> flowers and other bonus "
                                           "tiles it has set aside.",
                            "additionalProperties": _s("Tiles.", "1f 5z")},
        "discards": {"type": "object", "propertyNames": {"pattern": "^[0-9]" + END},
                     "description": "Scenario (tiles): seat -> tiles it discarded before.",
                     "additionalProperties": _s("Tiles.", "1z 9m")},
        "dealer": _int("Scenario: the dealer's seat.", 0, 7, 0, 3),
        "drawn": _s("Scenario (tiles): the tile the seat to act has just drawn (it is in its "
                    "hand).", "7p"),
        "bid": _int("Scenario (shedding, in play after an auction): the winning bid (default: "
                    "the auction's default bid).", 0, 1000000, 10, 20),
        "phase": _enum("Scenario: where the hand starts (play; auction in a shedding game "
                       "with one; deal in a trick game: declaring as cards are dealt).",
                       "play", "auction", "deal"),
        "to_deal": _s("Scenario (trick, phase deal): the cards still to deal, in order, one "
                      "at a time from `turn`; then the kitty.", "H2 S9 D2", "S2"),
        "declared": _obj("Scenario (trick): the declaration standing (in the deal), or "
                         "the one the hand was declared by (in play).",
                         {"seat": _int("Its seat.", 0, 7, 0, 1),
                          "cards": _s("Its cards: one card, or copies of one.", "H2", "H2 H2"),
                          "overcall": _bool("In play: it overcalled another declaration "
                                            "(its cards earn the overcall bonus).")},
                         ["seat", "cards"]),
        "voids": {"type": "object",
                  "description": "Scenario (tiles, with play.void_suit): each seat's void "
                                 "suit (定缺), seat → m, p or s.",
                  "additionalProperties": _enum("A suit of tiles.", "m", "p", "s"),
                  "examples": [{"0": "m", "1": "p", "2": "s", "3": "m"}]},
        "hand_number": _int("Scenario (trick): the hand's number in the match, from 1 (rules for "
                            "hands after the first: later_fallback).", 1, 10000, 1, 2),
        "turn": _int("Scenario: the seat to act first (default: the engine's own rule, e.g. "
                     "the first lead).", 0, 7, 0, 1),
        "last_order": {"type": "array", "minItems": 2, "maxItems": 8,
                       "items": _int("A seat.", 0, 7, 0, 1),
                       "description": "Scenario (shedding): the hand follows one that ended "
                                      "in this finishing order, first out first; the "
                                      "engine's own rules then apply (tribute, the level "
                                      "of the first out's side, who leads).",
                       "examples": [[1, 3, 0, 2]]},
        "side_levels": {"type": "object",
                        "description": "Scenario (with levels): each side's level (side "
                                       "→ rank; default: the hand's level; in the trick "
                                       "family the dealer's side stands at the context's "
                                       "level, the other at the ladder's start).",
                        "additionalProperties": {"type": ["string", "integer"],
                                                 "description": "A level.",
                                                 "examples": ["A", 5]},
                        "examples": [{"0": "A", "1": 5}]},
        "top_failed": {"type": "object",
                       "description": "Scenario (shedding, with top_failures): each side's "
                                      "failed hands at the top so far (side → count).",
                       "additionalProperties": _int("A count.", 0, 64, 0, 2),
                       "examples": [{"0": 2}]},
        "actions": {"type": "array", "maxItems": 500,
                    "items": _s("An action, applied in turn; each must be legal.", "S6 S6",
                                "pass", "bid 10", "discard 7p", "win 7p"),
                    "description": "Scenario: actions applied in order from `turn`.",
                    "examples": [["S6 S6 S7 S7", "S8 S8 S9 S9"], ["discard 7p", "win 7p"]]},
        "legal": {"type": "array", "maxItems": 500,
                  "items": _s("An action legal for the seat to act.", "S8 S8 S9 S9"),
                  "description": "Scenario: legal for the seat to act after `actions`.",
                  "examples": [["S8 S8 S9 S9", "pass"]]},
        "illegal": {"type": "array", "maxItems": 500,
                    "description": "Scenario: refused for the seat to act after `actions`.",
                    "examples": [["S8 S8 SQ SQ", {"action": "S8 S9 SQ SQ",
                                                  "reason": "tractor"}]],
                    "items": {"description": "An action, or an action with a substring of "
                                             "the reason it is refused.",
                              "examples": ["S8 S8 SQ SQ", {"action": "S8 S9 SQ SQ",
                                                           "reason": "tractor"}],
                              "oneOf": [_s("An action.", "S8 S8 SQ SQ"),
                                        _obj("An action and why it is refused.",
                                             {"action": _s("The action.", "S8 S9 SQ SQ"),
                                              "reason": _s("A substring of the refusal.",
                                                           "tractor")},
                                             ["action", "reason"])]}},
        "cite": _s("The seed passage this example comes from.", "牌的大小顺序：2 > A > K"),
        "note": _s("A note.", "The two jokers are the rocket, never a pair."),
        "name": _s("A name for the example.", "rocket beats a bomb"),
    },
    "additionalProperties": False,
}
