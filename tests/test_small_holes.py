"""Issue 19, "Messages and small holes": each problem is reported where it is, named by
its own bound, and nothing the schema means to refuse slips through."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rulesdsl.api import validate_file
from rulesdsl.compiler.schema import ruleset_schema
from rulesdsl.errors import RulesetError
from rulesdsl.language import ast, parser
from rulesdsl.language.parser import MAX_EXPRESSION_DEPTH, ExpressionSyntaxError, _parse_uncached
from rulesdsl.language.quickcheck import is_valid
from rulesdsl.language.yamlio import MAX_DEPTH, load_yaml

ROOT = Path(__file__).resolve().parent.parent
GUAN_PAI = (ROOT / "rulesets" / "guan-pai.yaml").read_text(encoding="utf-8")


def problems(text: str | bytes) -> list[tuple[int, int, str]]:
    with pytest.raises(RulesetError) as info:
        load_yaml(text, "f.yaml")
    return [(p.line, p.column, p.message) for p in info.value.problems]


def variant(tmp_path: Path, old: str, new: str) -> list[str]:
    """Guan Pai with one text replaced: its error messages (file name dropped)."""
    assert old in GUAN_PAI
    path = tmp_path / "variant.yaml"
    path.write_text(GUAN_PAI.replace(old, new, 1), encoding="utf-8")
    result = validate_file(path, run_examples_too=False)
    return [p.format().removeprefix(f"{path}:") for p in result.problems
            if p.severity == "error"]


# -- 1. control characters are located


def test_a_nul_byte_is_reported_at_its_line_and_column():
    assert problems("a: 1\nb: x\x00y\n") == [
        (2, 5, "character U+0000 (a control character) is not allowed in a rule file")]
    assert problems(b"a: 1\r\nb: 2\r\n\x07\n")[0][:2] == (3, 1)


# -- 2. characters YAML reads as a line break and editors do not


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"])
def test_a_hidden_line_break_is_refused_where_it_is(char):
    # PyYAML ends the comment at the character: `evil` would be a key no editor shows.
    out = problems(f"a: 1\n# note{char}evil: 1\nb: [\n")
    assert len(out) == 1
    line, column, message = out[0]
    assert (line, column) == (2, 7)
    assert f"U+{ord(char):04X}" in message and "line break" in message


# -- 3. names and ids refuse a trailing newline, in Python's re and in editors' regexes


def _patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        return own + [p for v in node.values() for p in _patterns(v)]
    if isinstance(node, list):
        return [p for v in node for p in _patterns(v)]
    return []


def test_every_schema_pattern_refuses_a_trailing_newline():
    patterns = sorted(set(_patterns(ruleset_schema())))
    assert len(patterns) >= 3
    for pattern in patterns:
        samples = [s for s in ("a", "x_1", "my-id", "0", "7") if re.search(pattern, s)]
        assert samples, pattern
        schema = {"type": "string", "pattern": pattern}
        for s in samples:
            for bad in (s + "\n", s + "\n\n", "\n" + s):
                assert re.search(pattern, bad) is None, (pattern, bad)
                assert not Draft202012Validator(schema).is_valid(bad), (pattern, bad)
            assert Draft202012Validator(schema).is_valid(s)


def test_the_quick_check_refuses_a_trailing_newline_too():
    schema = ruleset_schema()
    good = load_yaml(GUAN_PAI, "g.yaml").data
    assert is_valid(schema, good)
    assert not is_valid(schema, {**good, "id": "guan-pai\n"})


def test_an_id_and_a_pattern_name_ending_in_a_newline_are_refused(tmp_path):
    out = variant(tmp_path, "id: guan-pai\n", 'id: "guan-pai\\n"\n')
    assert out == ["10:5: id: the string 'guan-pai\\n' is not a valid name here; expected a "
                   "lower-case slug of letters, digits and '-'"], out
    out = variant(tmp_path, "{name: pair, group: 2}", '{name: "pair\\n", group: 2}')
    assert out == ["72:14: patterns.list[1].name: the string 'pair\\n' is not a valid name "
                   "here; expected a name of letters, digits and '_', not starting with a "
                   "digit"], out


# -- 4. a flat chain is not nesting


def test_a_long_flat_chain_is_not_nesting():
    for op in ("and", "or", "+", "*"):
        node = _parse_uncached(f" {op} ".join(["a"] * 80))
        assert ast.nesting(node) == 2
        assert ast.unparse(node) == f" {op} ".join(["a"] * 80)
    mixed = _parse_uncached(" + ".join(["a - b"] * 60))
    assert ast.nesting(mixed) == 2


def test_real_nesting_stays_bounded():
    for text in ("not " * (MAX_EXPRESSION_DEPTH + 1) + "a",
                 "-" * (MAX_EXPRESSION_DEPTH + 1) + "a",
                 "a ** " * (MAX_EXPRESSION_DEPTH + 1) + "a",  # right-associative: a tower
                 "f(" * (MAX_EXPRESSION_DEPTH + 1) + "a" + ")" * (MAX_EXPRESSION_DEPTH + 1)):
        with pytest.raises(ExpressionSyntaxError, match="max expression depth"):
            _parse_uncached(text)
    # A chain longer than the tree the compiler walks is refused by its own bound.
    longest = parser.MAX_TREE_DEPTH
    assert ast.depth(_parse_uncached("+".join(["1"] * (longest + 1)))) == longest + 1
    with pytest.raises(ExpressionSyntaxError, match="max expression chain"):
        _parse_uncached("+".join(["1"] * (longest + 2)))


def test_an_eighty_term_chain_validates_and_plays(tmp_path):
    chain = " and ".join(["rank != 1"] * 80)
    assert variant(tmp_path, 'select: "true", by: single', f'select: "{chain}", by: single') \
        == []


# -- 5. the project's depth bound wins over libyaml's


@pytest.mark.parametrize("text", [
    "a: " + "[" * 2000 + "]" * 2000 + "\n",
    "a: " + "{b: " * 1100 + "c" + "}" * 1100 + "\n",
    "a:\n" + "".join(" " * i + "k:\n" for i in range(1, 1100)),
])
def test_deep_nesting_names_the_projects_bound(text):
    out = problems(text)
    assert len(out) == 1
    line, column, message = out[0]
    assert message == f"YAML nesting is deeper than {MAX_DEPTH} levels (max depth)"
    assert (line, column) != (1, 1)


def test_deep_flow_nesting_is_located_at_the_first_level_too_deep():
    assert problems("a: " + "[" * 2000 + "]" * 2000 + "\n")[0][:2] == (1, 3 + MAX_DEPTH)


# -- 6. holder cards are cards of the deck


def test_a_holder_card_absent_from_the_deck_is_refused(tmp_path):
    holder = "holder: [S3, S4, S5, S6, S7, S8, S9, S10, SJ, SQ, SK]"
    out = variant(tmp_path, holder, "holder: [S3, BJ, H2]")
    assert out == [
        "142:16: play.holder[1]: BJ is not in the deck; expected cards of the deck",
        "142:20: play.holder[2]: H2 is not in the deck; expected cards of the deck"], out
    # Jokers left out by `jokers: false` rather than by `remove`.
    no_jokers = GUAN_PAI.replace("jokers: true\n  remove: [BJ, LJ, ", "jokers: false\n"
                                 "  remove: [").replace(holder, "holder: [LJ, S3]")
    path = tmp_path / "no-jokers.yaml"
    path.write_text(no_jokers, encoding="utf-8")
    out = [p.format() for p in validate_file(path, run_examples_too=False).problems]
    assert [p for p in out if "play.holder" in p] == [
        f"{path}:142:12: play.holder[0]: LJ is not in the deck; expected cards of the deck"]


@pytest.mark.parametrize("value", [5, 5.5, 5.25, 0, -1.5, 1e308, True, "5", 2**70])
@pytest.mark.parametrize("step", [0.5, 2])
def test_the_quick_check_decides_multiple_of_as_jsonschema(value, step):
    import jsonschema

    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "multipleOf": step}
    expected = jsonschema.Draft202012Validator(schema).is_valid(value)
    quick = is_valid(schema, value)  # False also when undecided: the caller asks jsonschema
    assert expected or not quick
    if isinstance(value, str) or abs(value) < 1e300:
        assert quick == expected
