"""Every bundled ruleset validates, its examples pass, and it loads by name."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import rulesdsl
from rulesdsl.api import compiled_json, validate_file
from rulesdsl.examples import run_examples
from rulesdsl.model.hand import HandContext

from .conftest import ROOT, RULESETS

SEED_GAMES = {
    "taicang-zhongxin-wu": "trick",
    "huzhou-hong-wu": "trick",
    "wenling-hong-wu": "trick",
    "wenling-duijia-tong": "shedding",
    "wenling-liujia-tong": "shedding",
    "wenling-biao-tong": "shedding",
    "guan-pai": "shedding",
    "wenling-mahjong": "tiles",
}


def test_all_eight_seed_games_are_bundled():
    ids = {p.stem for p in RULESETS}
    assert set(SEED_GAMES) <= ids


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_bundled_ruleset_validates_and_its_examples_pass(path):
    result = validate_file(path)
    assert result.ok, "\n".join(p.format() for p in result.problems)
    assert result.examples is not None
    assert result.examples.failed == []
    assert result.examples.passed + result.examples.deferred >= 10


@pytest.mark.parametrize("name, family", sorted(SEED_GAMES.items()))
def test_load_by_name(name, family):
    ruleset = rulesdsl.load(name)
    assert ruleset.id == name and ruleset.family == family
    assert len(ruleset.hash) == 64


@pytest.mark.parametrize("name", sorted(SEED_GAMES))
def test_compiled_json_loads_to_the_same_ruleset(name, tmp_path):
    ruleset = rulesdsl.load(name)
    out = tmp_path / f"{name}.json"
    out.write_text(compiled_json(ruleset), encoding="utf-8")
    again = rulesdsl.load(out)
    assert again.hash == ruleset.hash
    assert again.resolved == ruleset.resolved
    report = run_examples(again)
    assert report.failed == [] and report.passed == run_examples(ruleset).passed


def test_rules_traced_to_seeds():
    # Every bundled seed ruleset cites its seed and carries comments quoting it.
    for path in RULESETS:
        if path.stem not in SEED_GAMES:
            continue
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^source: .*seeds/", text, re.M), path
        quoted = [line for line in text.splitlines()
                  if "#" in line and re.search(r"[\u4e00-\u9fff]", line.split("#", 1)[1])]
        assert len(quoted) >= 10, f"{path.name} cites the seed in only {len(quoted)} comments"


def test_engines_name_no_game():
    pattern = re.compile(r"taicang|huzhou|wenling|zhongxin|hong.?wu|liujia|duijia|biao|guan.?pai"
                         r"|dou.?dizhu", re.I)
    offenders = []
    for path in (ROOT / "rulesdsl").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_point_totals():
    assert rulesdsl.load("taicang-zhongxin-wu").total_points() == 300
    assert rulesdsl.load("huzhou-hong-wu").total_points() == 300
    assert rulesdsl.load("wenling-hong-wu").total_points() == 200
    assert rulesdsl.load("wenling-duijia-tong").total_points() == 200
    assert rulesdsl.load("wenling-liujia-tong").total_points() == 400


def test_deck_sizes():
    assert sum(rulesdsl.load("guan-pai").deck) == 48
    assert sum(rulesdsl.load("wenling-liujia-tong").deck) == 216
    assert sum(rulesdsl.load("wenling-mahjong").deck) == 144
    assert sum(rulesdsl.load("taicang-zhongxin-wu").deck) == 162


def test_every_context_specialises():
    # The per-hand tables build for every trump suit and level of the trick games.
    for name in ("taicang-zhongxin-wu", "huzhou-hong-wu", "wenling-hong-wu"):
        ruleset = rulesdsl.load(name)
        for ctx in ruleset.all_contexts():
            hc = HandContext(ruleset, ctx)
            assert all(hc.place[k] is not None for k in ruleset.kinds())
            trumps = sum(ruleset.deck[k] for k in ruleset.kinds() if hc.is_trump[k])
            assert 0 < trumps < sum(ruleset.deck)


def test_validate_cli_over_bundled_folder():
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", str(ROOT / "rulesets"),
                           "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["valid"] is True
    assert len(payload["files"]) == len(RULESETS)
