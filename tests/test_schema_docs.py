"""Editor support (issue 8): the schema `rulesdsl schema` prints documents every key,
gives examples for every value an author writes, lists the language's fixed sets of names
as enums, accepts every bundled ruleset, and docs/language.md documents the modeline the
`rulesdsl new` templates begin with."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rulesdsl.language.schema_examples import EXAMPLE_KINDS
from rulesdsl.language.yamlio import load_yaml

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").rglob("*.yaml"))
TEMPLATES = sorted((ROOT / "rulesdsl" / "templates").glob("*.yaml"))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")

Node = dict[str, Any]


@pytest.fixture(scope="module")
def schema() -> Node:
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "schema"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    Draft202012Validator.check_schema(printed)
    return printed


def resolve(root: Node, node: Node) -> Node:
    """The node with its $ref followed (annotations beside the $ref win)."""
    while "$ref" in node:
        target = root["$defs"][node["$ref"].removeprefix("#/$defs/")]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def described_nodes(root: Node) -> Iterator[tuple[str, Node]]:
    """Every schema that describes a key or a value: properties, patternProperties,
    additionalProperties, $defs entries, array items (also inside oneOf/anyOf)."""
    def walk(node: Any, path: str) -> Iterator[tuple[str, Node]]:
        if not isinstance(node, dict) or "$ref" in node:
            return
        children: list[tuple[str, Any]] = [(f"{path}.{k}", v) for k, v in
                                           node.get("properties", {}).items()]
        children += [(f"{path}.<{k}>", v) for k, v in node.get("patternProperties", {}).items()]
        if isinstance(node.get("additionalProperties"), dict):
            children.append((f"{path}.*", node["additionalProperties"]))
        if isinstance(node.get("items"), dict):
            children.append((f"{path}[]", node["items"]))
        for child_path, child in children:
            yield child_path, child
            yield from walk(child, child_path)
        for key in ("oneOf", "anyOf"):
            for i, alt in enumerate(node.get(key, [])):
                yield from walk(alt, f"{path}|{i}")

    for name, node in root["$defs"].items():
        yield f"$defs.{name}", node
        yield from walk(node, f"$defs.{name}")
    yield from walk(root, "")


def author_written(root: Node, node: Node) -> bool:
    """A value the author types (a number, a string, an expression, a list of those);
    not a mapping, and not a fixed choice, which completion lists by itself."""
    node = resolve(root, node)
    if "enum" in node or "const" in node or node.get("type") == "boolean":
        return False
    if node.get("type") == "object" or "properties" in node or \
            "additionalProperties" in node:
        return False
    if node.get("type") == "array":
        return author_written(root, node.get("items", {}))
    alternatives = node.get("oneOf") or node.get("anyOf")
    if alternatives:
        return any(author_written(root, alt) for alt in alternatives)
    return True


def test_every_key_and_value_has_a_description(schema: Node):
    missing = [path for path, node in described_nodes(schema)
               if not resolve(schema, node).get("description")]
    assert missing == []


def test_every_author_written_value_has_examples(schema: Node):
    missing = [path for path, node in described_nodes(schema)
               if author_written(schema, node) and not resolve(schema, node).get("examples")]
    assert missing == []


def test_examples_are_valid_values(schema: Node):
    # An example must itself pass its own schema (completion inserts it as is).
    bad = []
    for path, node in described_nodes(schema):
        node = resolve(schema, node)
        if "examples" not in node:
            continue
        check = {k: v for k, v in copy.deepcopy(node).items() if k != "examples"}
        check["$defs"] = schema["$defs"]
        validator = Draft202012Validator(check)
        bad += [f"{path}: {ex!r}" for ex in node["examples"] if not validator.is_valid(ex)]
    assert bad == []


def at(schema: Node, path: str) -> Node:
    """The schema at a dotted path: names are properties, `[]` array items, `*`
    additionalProperties, `|N` the Nth oneOf alternative."""
    node = schema
    for part in re.findall(r"[^.\[\]|]+|\[\]|\|\d+", path):
        node = resolve(schema, node)
        if part == "[]":
            node = node["items"]
        elif part == "*":
            node = node["additionalProperties"]
        elif part.startswith("|"):
            node = node["oneOf"][int(part[1:])]
        else:
            node = node["properties"][part]
    return resolve(schema, node)


# The language's fixed sets of names, each where the schema must offer them as an enum.
FIXED_SETS = {
    "family": {"trick", "shedding", "tiles"},
    "players.direction": {"counter-clockwise", "clockwise"},
    "players.teams|0": {"opposite", "none"},
    "deal.turn_up": {"none", "wild", "trump"},
    "context.*.type": {"suit", "rank", "tile", "card", "int", "bool"},
    "patterns.sameness": {"card", "rank"},
    "patterns.hollow": {"forbidden", "allowed"},
    "play.follow.shape": {"ignore", "pairs", "format"},
    "play.throw.allowed": {"plain", "any", "none"},
    "play.throw.failure": {"smallest_card", "smallest_unit", "first_blocker_unit"},
    "play.declare.overcall": {"more", "more_or_higher_suit"},
    "play.declare.fallback": {"turn_up_kitty", "first_kitty_card", "random_suit"},
    "play.first_dealer": {"declarer", "random"},
    "play.first_lead": {"random", "holder", "dealer"},
    "play.then_lead": {"first_out", "random", "holder", "dealer"},
    "play.takeover": {"next_player", "partner", "none"},
    "play.ends[]|0": {"one_left", "team_out", "first_out"},
    "play.sides": {"teams", "dealer_alone"},
    "play.auction.direction": {"counter-clockwise", "clockwise"},
    "play.chow_from": {"previous_player", "anyone", "none"},
    "play.rob_kong": {"added_only", "none"},
    "play.discarded_wild": {"forfeit", "normal"},
    "tileset.suits[]": {"m", "p", "s"},
    "win.set_kinds[]": {"chow", "pung", "kong"},
    "scoring.items[].kind": {"base", "fan"},
    "scoring.items[].each": {"set", "tile"},
    "scoring.items[].for[]": {"winner", "others"},
    "scoring.items[].zone": {"hand", "flowers", "exposed_flowers", "tiles"},
}


@pytest.mark.parametrize("path", sorted(FIXED_SETS))
def test_fixed_sets_of_names_are_enums(schema: Node, path: str):
    node = at(schema, path)
    assert node.get("description")
    if "anyOf" in node:  # a fixed set, or the name of an option choosing among it (or a
        fixed, by_option, *table = node["anyOf"]  # table deciding it: then_lead)
        assert by_option["required"] == ["option"]
        assert all(t["required"] == ["table"] for t in table)
        node = fixed
    assert set(node.get("enum", [])) == FIXED_SETS[path], node


def test_scoring_totals_are_keyed_by_role(schema: Node):
    assert set(at(schema, "scoring.totals")["propertyNames"]["enum"]) == {"winner", "others"}


def test_example_kinds_are_keys_of_an_example(schema: Node):
    example = schema["$defs"]["example"]
    assert set(EXAMPLE_KINDS) <= set(example["properties"])
    for kind in EXAMPLE_KINDS:
        assert kind in example["description"]


def schema_errors(schema: Node, path: Path) -> list[str]:
    # Read as rulesdsl reads it (mapping keys are text, as in an editor's JSON view).
    data = load_yaml(path.read_text(encoding="utf-8"), str(path)).data
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in Draft202012Validator(schema).iter_errors(data)]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_bundled_rulesets_match_the_printed_schema(schema: Node, path: Path):
    assert schema_errors(schema, path) == []


@pytest.mark.parametrize("family", ["trick", "shedding", "tiles"])
def test_new_rulesets_match_the_printed_schema(schema: Node, family: str, tmp_path: Path):
    out = tmp_path / "my-variant.yaml"
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "new", "my-variant", "--family",
                           family, "-o", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert schema_errors(schema, out) == []


def editor_section() -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    match = re.search(r"^## Editor support\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, "docs/language.md has no '## Editor support' section"
    return match.group(1)


def test_editor_section_documents_schema_modeline_and_authority():
    section = editor_section()
    assert "rulesdsl schema > ruleset.schema.json" in section
    assert "# yaml-language-server: $schema=./ruleset.schema.json" in section
    assert "redhat.vscode-yaml" in section and "yaml-language-server" in section
    assert "rulesdsl validate" in section


def test_templates_begin_with_a_documented_modeline():
    documented = {m.group(1) for line in editor_section().splitlines()
                  if (m := MODELINE.match(line))}
    assert "./ruleset.schema.json" in documented
    assert TEMPLATES
    for path in TEMPLATES:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = MODELINE.match(first)
        assert match, f"{path.name} does not begin with a yaml-language-server modeline"
        assert match.group(1) in documented, f"{path.name}: {first}"
