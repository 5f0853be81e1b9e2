"""The words the JSON Schema of rule files is written in: builders for an object, a
string, an int, a name, an expression (each with its description and examples) and the
small fragments many sections share (a rank, a card, a count or range)."""

from __future__ import annotations

from typing import Any

SCHEMA_ID = "https://rulesdsl.dev/schema/ruleset-1.json"

RANK_TOKENS: list[Any] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"]
ROLES = ["winner", "others"]  # tile scoring: whose hand an item or total is for
DIRECTIONS = ["counter-clockwise", "clockwise"]


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


def _s(description: str, *examples: Any, **extra: Any) -> dict[str, Any]:
    """A string; positional arguments are its examples."""
    schema: dict[str, Any] = {"type": "string", "description": description, **extra}
    if examples:
        schema["examples"] = list(examples)
    return schema


def _int(description: str, minimum: int = 0, maximum: int | None = None,
         *examples: int, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description, "minimum": minimum}
    if maximum is not None:
        schema["maximum"] = maximum
    if examples:
        schema["examples"] = list(examples)
    schema.update(extra)
    return schema


def _bool(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


def _enum(description: str, *names: Any) -> dict[str, Any]:
    return {"enum": list(names), "description": description}


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

# The end of a name. In Python's re (jsonschema's) `$` also matches before a final newline,
# so "evil\n" would pass; `(?!\n)` refuses that and changes nothing in an editor's
# JavaScript regex, where `$` is the end of the text.
END = r"$(?!\n)"

NAME = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*" + END,
        "description": "A name: letters, digits and underscores, not starting with a digit."}


def _expr(description: str, *examples: Any) -> dict[str, Any]:
    """An expression with its own description and (real) examples."""
    return {**EXPR, "description": description, "examples": list(examples or EXPR["examples"])}


def _name(description: str, *examples: str) -> dict[str, Any]:
    """A name (of a pattern, tier, table, formula …) with its own description."""
    schema = {**NAME, "description": description}
    if examples:
        schema["examples"] = list(examples)
    return schema


def _names(description: str, item: str, *examples: list[str], **extra: Any) -> dict[str, Any]:
    """A list of names."""
    first = examples[0] if examples else []
    schema: dict[str, Any] = {"type": "array", "items": _name(item, *first),
                              "description": description, **extra}
    if examples:
        schema["examples"] = list(examples)
    return schema


def _doc(description: str = "A note.",
         example: str = "「the seed's words」: what this ruleset makes of them.") -> dict[str, Any]:
    """A free-text note; the example shows the usual form (the seed's words, quoted)."""
    return _s(description, example)


REMOVE = _bool("In a child ruleset (extends): drop the inherited entry of this name.")

RANK = {"description": "A rank: 1 (ace played low), 2-10, J, Q, K, A.",
        "enum": RANK_TOKENS}

CARD = _s("A card: suit letter (S H D C) then rank (2-10, J, Q, K, A), or BJ / LJ.",
          "SA", "H10", "BJ")
CARDS = _s("Cards separated by spaces (suit then rank; BJ, LJ).", "H6 H6 H7 H7", "S3 H3 D3 BJ")


def _count_range(description: str, *examples: Any) -> dict[str, Any]:
    return {
        "description": description,
        "examples": list(examples),
        "oneOf": [
            _int("Exactly this many.", 1, 64),
            _obj("A range of counts.", {"min": _int("At least this many.", 1, 64, 2, 4),
                                        "max": _int("At most this many.", 1, 64, 10, 12)}),
        ],
    }


SHAPE_PROPS: dict[str, Any] = {
    "group": _count_range("N cards with the same sameness key (n of a kind): a number or "
                          "{min, max}.", 2, 3, {"min": 4}),
    "run": _obj(
        "Consecutive steps of equal groups: a tractor, consecutive pairs, a straight.",
        {
            "group": {"description": "Cards per step (1 straight, 2 pairs, 3 triples); or "
                                     "{min, max}: each step holds any number of cards in "
                                     "the range, steps may differ (a run of bombs; "
                                     "shedding family).",
                      "examples": [1, 2, {"min": 4}],
                      "oneOf": [_int("Exactly this many.", 1, 16),
                                _obj("A range of counts per step.",
                                     {"min": _int("At least this many.", 1, 64, 4),
                                      "max": _int("At most this many.", 1, 64, 8)})]},
            "steps": _enum("With a range of cards per step: any (default), steps may "
                           "differ; equal, every step holds as many cards.", "any", "equal"),
            "length": _count_range("Number of steps: exact or {min, max}.",
                                   2, {"min": 5, "max": 12}, {"min": 2}),
            "over": _name("A ladder in `ranks`; omit to climb the per-hand `order` of one "
                          "suit-system (trick games).", "chain", "run"),
        },
        ["group", "length"],
    ),
}
