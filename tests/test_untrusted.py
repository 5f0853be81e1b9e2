"""Rule files are untrusted: every bad input is a located RulesetError, nothing runs."""

from __future__ import annotations

import pytest

from rulesdsl.errors import RulesetError
from rulesdsl.language.yamlio import MAX_DEPTH, MAX_FILE_BYTES, load_yaml


def problems(text: str | bytes) -> list[str]:
    with pytest.raises(RulesetError) as info:
        load_yaml(text, "f.yaml")
    return [p.format() for p in info.value.problems]


def test_duplicate_keys_are_errors():
    assert problems("a: 1\nb: 2\na: 3\n") == [
        "f.yaml:3:1: a: duplicate key 'a' (first at line 1); expected each key once in a mapping"]


def test_python_tags_never_construct_anything():
    out = problems("a: !!python/object/apply:os.system ['echo pwned']\n")
    assert out == ["f.yaml:1:4: a: YAML tag '!!python/object/apply:os.system' is not allowed; "
                   "expected plain YAML values (strings, numbers, booleans, lists, mappings)"]


def test_non_utf8_and_oversized_files():
    assert "not valid UTF-8" in problems(b"a: \xff\xfe\n")[0]
    assert "max file size" in problems(b"a: " + b"x" * MAX_FILE_BYTES)[0]


def test_deep_nesting_is_bounded():
    deep = "a: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"
    assert "max depth" in problems(deep)[0]


def test_recursive_alias_is_refused():
    assert "recursive alias" in problems("a: &x\n  b: *x\n")[0]


def test_byte_order_mark_is_accepted():
    doc = load_yaml("\ufeffa: 1\n".encode(), "f.yaml")
    assert doc.data == {"a": 1}


def test_positions_are_recorded_for_values_and_keys():
    doc = load_yaml("top:\n  list:\n    - {x: 'q', y: 2}\n", "f.yaml")
    mark = doc.mark(("top", "list", 0, "x"))
    assert (mark.line, mark.column, mark.style) == (3, 11, "'")
    key = doc.mark(("top", "list"), key=True)
    assert (key.line, key.column) == (2, 3)


def test_a_large_plain_document_is_refused_without_blaming_aliases():
    text = "language: 1\nrows:\n" + "".join(f"  - [{i}, {i}, {i}]\n" for i in range(20000))
    with pytest.raises(RulesetError) as info:
        load_yaml(text, "big.yaml")
    problem = info.value.problems[0]
    assert (problem.line, problem.path) == (3, "rows")
    assert "max document size" in problem.message and "alias" not in problem.message
