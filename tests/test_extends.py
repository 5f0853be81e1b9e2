"""`extends:` merges a child ruleset over its parent (docs/language.md)."""

from __future__ import annotations

import textwrap

import pytest

import rulesdsl
from rulesdsl.errors import RulesetError
from rulesdsl.examples import run_examples

BASE = textwrap.dedent("""\
    language: 1
    id: base-game
    name: {en: Base}
    family: shedding
    version: 1.0.0
    players: {count: 2}
    deck: {decks: 1, jokers: false}
    deal: {hand_size: 26}
    ranks:
      single: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2]
    order:
      - {name: ranks, select: "true", by: single}
    patterns:
      list:
        - {name: single, group: 1}
        - {name: pair, group: 2}
        - {name: bomb, group: {min: 4}, bomb: true}
    points: {5: 5, 10: 10, K: 10}
    examples:
      - {beats: "S3 H3 D3 C3", over: "S2 H2", expect: true}
    """)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_child_overrides_merge_by_rule(tmp_path):
    write(tmp_path, "base.yaml", BASE)
    child = write(tmp_path, "child.yaml", """\
        extends: base.yaml
        id: child-game
        points: {K: null, 5: 50}
        patterns:
          list:
            - {name: pair, remove: true}
            - {name: triple, group: 3}
            - {name: bomb, group: {min: 5}, bomb: true}
        examples:
          - {pattern: "S3 H3 D3 C3", expect: none}
        """)
    ruleset = rulesdsl.load(child)
    assert ruleset.id == "child-game"
    assert "name" not in ruleset.resolved and ruleset.version == "0"
    assert [p.name for p in ruleset.patterns] == ["single", "bomb", "triple"]
    assert ruleset.pattern("bomb").group == (5, 64)
    assert ruleset.points == {5: 50, 10: 10}
    # Plain lists are replaced wholesale: only the child's example remains.
    assert len(ruleset.examples) == 1
    assert run_examples(ruleset).failed == []


def test_extends_a_bundled_ruleset_by_id(tmp_path):
    child = write(tmp_path, "loose.yaml", """\
        extends: taicang-zhongxin-wu
        id: taicang-loose
        patterns: {hollow: allowed}
        examples:
          - pattern: "H4 H4 H6 H6"
            context: {trump: H, level: 2}
            expect: tractor
        """)
    ruleset = rulesdsl.load(child)
    assert ruleset.hollow == "allowed"
    assert ruleset.family == "trick" and ruleset.deck == rulesdsl.load("taicang-zhongxin-wu").deck
    assert run_examples(ruleset).failed == []


def test_problem_in_child_points_at_child_file(tmp_path):
    write(tmp_path, "base.yaml", BASE)
    child = write(tmp_path, "child.yaml", """\
        extends: base.yaml
        id: child-game
        order:
          - {name: ranks, select: "rnak == 3", by: single}
        """)
    with pytest.raises(RulesetError) as info:
        rulesdsl.load(child)
    p = info.value.problems[0]
    assert (p.file, p.line, p.column, p.path) == (str(child), 4, 28, "order[0].select")
    assert "unknown name 'rnak'" in p.message


def test_problem_in_inherited_part_points_at_parent_file(tmp_path):
    base = write(tmp_path, "base.yaml", BASE.replace("{5: 5, 10: 10, K: 10}",
                                                     "{5: 5, 10: 10, K: 10, Z: 3}"))
    child = write(tmp_path, "child.yaml", "extends: base.yaml\nid: child-game\n")
    with pytest.raises(RulesetError) as info:
        rulesdsl.load(child)
    p = info.value.problems[0]
    assert p.file == str(base) and p.path == "points.Z" and (p.line, p.column) == (18, 31)


def test_extends_cycles_and_unknown_parents(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\nid: a\n")
    b = write(tmp_path, "b.yaml", "extends: a.yaml\nid: b\n")
    with pytest.raises(RulesetError, match="cycle"):
        rulesdsl.load(b)
    c = write(tmp_path, "c.yaml", "extends: taicang-zhongxin-wo\nid: c\n")
    with pytest.raises(RulesetError) as info:
        rulesdsl.load(c)
    assert info.value.problems[0].suggestion == "did you mean 'taicang-zhongxin-wu'?"
