"""`rulesdsl explain`: the compiled view of a ruleset for one hand's context."""

from __future__ import annotations

import json

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.explain import explain_data, parse_kinds, resolve_context
from rulesdsl.model.hand import HandContext
from rulesdsl.model.patterns import readings
from rulesdsl.resources import bundled_rulesets

IDS = sorted(bundled_rulesets())


def _json(capsys, *argv: str) -> dict:
    assert main(["explain", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", IDS)
def test_text_and_json_for_every_bundled_ruleset(name, capsys):
    assert main(["explain", name]) == 0
    text = capsys.readouterr().out
    assert "Trumps" in text and "Wilds" in text
    data = _json(capsys, name)
    ruleset = rulesdsl.load(name)
    assert data["ruleset"] == ruleset.id
    assert [p["name"] for p in data["patterns"]] == [p.name for p in ruleset.patterns]
    for c in data["context"]:  # a default is stated with where it came from
        assert c["source"].startswith("default")


@pytest.mark.parametrize("name", IDS)
def test_ladder_lists_every_kind_once_and_trump_flags_agree(name, capsys):
    ruleset = rulesdsl.load(name)
    data = _json(capsys, name)
    values, _ = resolve_context(ruleset)
    hc = HandContext(ruleset, values)
    listed = [c for s in data["ladder"] for step in s["steps"] for c in step["cards"]]
    if ruleset.family == "trick":
        assert sorted(parse_kinds(ruleset, " ".join(listed))) == ruleset.kinds()
    assert len(listed) == len(set(listed))
    for system in data["ladder"]:
        for step in system["steps"]:
            for kind in parse_kinds(ruleset, " ".join(step["cards"])):
                assert hc.is_trump[kind] == step["trump"]
    trumps = set(parse_kinds(ruleset, " ".join(data["trumps"])))
    assert trumps == {k for k in ruleset.kinds() if hc.is_trump[k]}


@pytest.mark.parametrize("name", IDS)
def test_every_pattern_example_reads_as_its_pattern(name):
    ruleset = rulesdsl.load(name)
    values, shown = resolve_context(ruleset)
    hc = HandContext(ruleset, values)
    for p in explain_data(ruleset, values, shown)["patterns"]:
        assert p["example"], p["name"]
        cards = parse_kinds(ruleset, " ".join(p["example"]))
        assert p["name"] in {x.pattern for x in readings(hc, cards)}
        assert p["readings"]


def test_context_flags_map_onto_the_declared_context(capsys):
    data = _json(capsys, "huzhou-hong-wu", "--trump", "H", "--level", "8")
    shown = {c["name"]: c for c in data["context"]}
    assert shown["trump"]["value"] == "H" and shown["level"]["value"] == "8"
    trumps = data["ladder"][0]
    assert trumps["label"] == "trumps"
    tiers = [s["tier"] for s in trumps["steps"]]
    assert tiers.index("trump_level") < tiers.index("off_level")
    off_level = next(s for s in trumps["steps"] if s["tier"] == "off_level")
    assert sorted(off_level["cards"]) == ["C8", "D8", "S8"]  # equal cards grouped
    tiles = _json(capsys, "wenling-mahjong", "--wild", "3s")
    assert tiles["wilds"][0]["cards"] == ["3s"]
    assert "3s" in tiles["wilds"][0]["stands_for"]


def test_set_changes_an_option(capsys):
    off = _json(capsys, "wenling-biao-tong")
    on = _json(capsys, "wenling-biao-tong", "--set", "jokers_wild=true")
    assert off["wilds"] == [] and {w["cards"][0] for w in on["wilds"]} == {"BJ", "LJ"}


@pytest.mark.parametrize("argv, fragment", [
    (["huzhou-hong-wu", "--trump", "X"], "S, H, D, C"),
    (["huzhou-hong-wu", "--level", "3"], "2, 4, 6, 7"),
    (["wenling-mahjong", "--wild", "0s"], "1m, 2m"),
    (["guan-pai", "--trump", "H"], "no suit-typed context"),
    (["wenling-biao-tong", "--set", "jokers_wild=maybe"], "false, true"),
    (["wenling-biao-tong", "--set", "nothing=1"], "jokers_wild"),
])
def test_bad_values_exit_2_with_one_line(argv, fragment, capsys):
    assert main(["explain", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err
