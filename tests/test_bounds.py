"""Bounded work for valid files (issue 19): a search a file asks for is within the stated
bound, or the file is refused with the bound named and located — never read short."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.api import validate_file


def problems(path: Path) -> list[str]:
    return [p.format() for p in validate_file(path).problems]


def test_a_composite_past_the_combination_bound_is_refused(tmp_path: Path) -> None:
    # four free parts of 1-3 cards each: over 200,000 ways to make 5 cards, where the
    # move generator would stop and silently miss readings
    path = tmp_path / "huge.yaml"
    part = "{group: {min: 1, max: 3}}"
    path.write_text("language: 1\nid: huge\nextends: wenling-duijia-tong\npatterns:\n"
                    "  list:\n    - name: huge\n"
                    f"      parts: [{part}, {part}, {part}, {part}]\n      key: 0\n"
                    "examples: []\n", encoding="utf-8")
    found = problems(path)
    assert len(found) == 1, found
    assert found[0].startswith(f"{path}:6:7: patterns.list[10]: pattern 'huge' can be made")
    assert "(max part combinations)" in found[0]


def test_the_bundled_composites_are_within_the_bound() -> None:
    root = Path(__file__).resolve().parent.parent / "rulesets"
    for name in ("wenling-duijia-tong", "wenling-liujia-tong", "extra/dou-dizhu"):
        assert problems(root / f"{name}.yaml") == [], name


def test_examples_under_too_many_option_sets_are_refused(tmp_path: Path) -> None:
    # every distinct option set compiles the ruleset once more: 17 of them is refused
    many = "".join(f"  - {{table: t, input: {{x: {i}}}, expect: {{y: 1}}, "
                   f"options: {{k: {i}}}}}\n" for i in range(17))
    path = tmp_path / "variants.yaml"
    path.write_text("language: 1\nid: variants\nextends: guan-pai\n"
                    "options:\n  k: {default: 0}\n"
                    "tables:\n  t:\n    input: [x]\n    output: {y: int}\n"
                    "    rows: [{when: \"true\", y: 1}]\n"
                    f"examples:\n{many}", encoding="utf-8")
    found = problems(path)
    assert len(found) == 1 and "(max option variants)" in found[0], found
    assert "examples[16].options" in found[0]


def test_a_long_expression_reused_through_aliases_counts_by_its_length(tmp_path: Path) -> None:
    # one 1,900-character selector reused by 1,200 tiers: few values, but each copy is
    # compiled once more; counted by its length it is over the document bound
    expr = " or ".join(f"card == S{r}" for r in ["2", "3", "4", "5", "6", "7", "8", "9"] * 17)
    tiers = "".join(f"  - {{name: t{i}, select: *big}}\n" for i in range(1200))
    path = tmp_path / "aliases.yaml"
    path.write_text("language: 1\nid: aliases\nextends: guan-pai\n"
                    f"define:\n  big: &big \"{expr}\"\norder:\n{tiers}", encoding="utf-8")
    found = problems(path)
    assert len(found) == 1 and "through aliases" in found[0], found
    assert "(max document size)" in found[0]
