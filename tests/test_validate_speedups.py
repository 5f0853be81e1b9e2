"""The validator's fast paths held to what they stand for, each against an oracle: the
order memo (model/order_memo.py) against evaluating the order afresh, also across option
variants that share it; cards read once per examples run against cards read afresh; a
file read once against one read by each step; a variant compiled from a copy of the path
to its defaults against one compiled from a deep copy.
And the work-bound probe still makes every card play a lead would (they are lazy now)."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl.api import validate_file, validate_paths
from rulesdsl.compiler.files import compile_document, compile_file, compile_with_options
from rulesdsl.compiler.work_bounds import probe_lead_plays
from rulesdsl.engine.shedding import suited
from rulesdsl.errors import RulesetError
from rulesdsl.examples import _Runner
from rulesdsl.language.yamlio import Document, load_yaml
from rulesdsl.model.hand import HandContext, _tier_assignment, tier_assignment
from rulesdsl.model.order_memo import _Reads, order_memo_of
from rulesdsl.model.patterns import readings
from rulesdsl.model.ruleset import Ruleset

from .conftest import ROOT, RULESETS

BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))
SUITED = [ROOT / "rulesets" / "extra" / "big-two.yaml",
          ROOT / "rulesets" / "extra" / "guandan.yaml"]


def _choices(ruleset: Ruleset) -> list[dict[str, Any]]:
    """One option set per other choice of each option (as examples ask for them)."""
    assert ruleset.document is not None
    return [{name: choice}
            for name, spec in (ruleset.document.data.get("options") or {}).items()
            for choice in spec.get("choices") or [] if choice != spec["default"]]


# ---------------------------------------------------------------- the order memo


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_remembered_order_is_the_order_evaluated_afresh(path: Path) -> None:
    ruleset = compile_file(path)
    variants = [compile_with_options(ruleset, options) for options in _choices(ruleset)]
    for r in [ruleset, *variants]:
        assert order_memo_of(r) is not None
        for ctx in r.all_contexts():
            values = r.context_values(ctx)
            assert tier_assignment(r, values) == _tier_assignment(r, values), ctx
            assert HandContext(r, ctx).tier == [a[0] for a in _tier_assignment(r, values)]


def test_option_variants_share_the_memo_of_an_order_they_do_not_change() -> None:
    ruleset = compile_file(ROOT / "rulesets" / "extra" / "tractor.yaml")
    variants = [compile_with_options(ruleset, options) for options in _choices(ruleset)]
    assert variants
    assert all(order_memo_of(v) is order_memo_of(ruleset) for v in variants)


def _swappable_jokers(default: Any) -> Ruleset:
    """Dou Dizhu with an option that swaps its two jokers in the order."""
    doc = load_yaml((ROOT / "rulesets" / "extra" / "dou-dizhu.yaml").read_bytes(), "swap")
    data = copy.deepcopy(doc.data)
    data["options"]["swapped"] = {"default": default, "choices": [False, True]}
    data["options"]["label"] = {"default": 1}  # read by nothing
    data["order"][0]["select"] = "if(swapped, card == LJ, card == BJ)"
    data["order"][1]["select"] = "card == LJ or card == BJ"
    return compile_document(Document("swap.yaml", data))


@pytest.mark.parametrize("default", [False, True])
def test_an_order_that_reads_a_changed_option_is_evaluated_for_it(default: bool) -> None:
    base = _swappable_jokers(default)
    variant = compile_with_options(base, {"swapped": not default})
    assert order_memo_of(variant) is order_memo_of(base)  # one order, read differently
    for r in (base, variant, base):
        values = r.context_values({})
        assert tier_assignment(r, values) == _tier_assignment(r, values)
    big, little = 53, 52
    assert HandContext(base, {}).tier[big] != HandContext(variant, {}).tier[big]
    assert HandContext(base, {}).tier[little] != HandContext(variant, {}).tier[little]


def test_an_option_of_another_type_compiles_an_order_of_its_own() -> None:
    base = _swappable_jokers(False)
    assert base.document is not None
    same = compile_with_options(base, {"label": 2})
    assert order_memo_of(same) is order_memo_of(base)
    variant = compile_with_options(base, {"label": "two"})  # an int option now a string
    assert order_memo_of(variant) is not order_memo_of(base)
    values = variant.context_values({})
    assert tier_assignment(variant, values) == _tier_assignment(variant, values)


def test_a_ruleset_whose_order_was_replaced_is_evaluated_afresh() -> None:
    ruleset = compile_file(ROOT / "rulesets" / "extra" / "dou-dizhu.yaml")
    values = ruleset.context_values({})
    before = tier_assignment(ruleset, values)
    ruleset.tiers = [ruleset.tiers[1], ruleset.tiers[0], *ruleset.tiers[2:]]
    after = tier_assignment(ruleset, values)
    assert after == _tier_assignment(ruleset, values)
    assert after != before


def test_values_read_whole_count_as_every_name_read() -> None:
    values = _Reads({"a": 1, "b": 2, "c": 3})
    assert values["a"] == 1 and values.get("b") == 2
    assert values.read == {"a", "b"}
    for read_all in (list, dict, lambda v: list(v.items()), len, repr,
                     lambda v: {**v}, lambda v: v == {}):
        values = _Reads({"a": 1, "b": 2, "c": 3})
        read_all(values)
        assert values.read == {"a", "b", "c"}, read_all


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_contexts_in_any_order_read_the_order_as_afresh(seed: int) -> None:
    # The memo holds results by the names each read: any sequence of contexts, from a
    # fresh compile, gives what evaluating each afresh gives.
    rng = random.Random(seed)
    path = rng.choice([p for p in RULESETS if "mahjong" not in p.stem])
    ruleset = compile_file(path)
    contexts = list(ruleset.all_contexts())
    for ctx in rng.sample(contexts, min(12, len(contexts))):
        values = ruleset.context_values(ctx)
        assert tier_assignment(ruleset, values) == _tier_assignment(ruleset, values)


# ---------------------------------------------------------------- the probe's card plays


@pytest.mark.parametrize("path", SUITED, ids=lambda p: p.stem)
def test_the_probe_spreads_every_card_play_a_lead_would(path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Card plays are made on demand (a follow spreads one shape): the probe must still
    # ask for a lead's every card play, or the bound on them would go unchecked.
    ruleset = compile_file(path)
    assert probe_lead_plays(ruleset) == []
    monkeypatch.setattr(suited, "MAX_LEAD_PLAYS", 10)  # the card plays' bound alone
    found = probe_lead_plays(ruleset)
    assert len(found) == 1 and "max lead plays" in found[0].message


# ---------------------------------------------------------------- read once, copy less


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_cards_read_once_per_run_read_as_afresh(path: Path) -> None:
    ruleset = compile_file(path)
    runner = _Runner(ruleset, ruleset.document)
    for item in ruleset.examples:
        if item["kind"] != "scenario":
            runner.run(item)
    contexts = {id(hc): hc for hc in runner.contexts.values()}
    for (hc_id, cards), found in runner.known_readings.items():
        assert found == readings(contexts[hc_id], list(cards))




def _report(result: Any) -> tuple:
    ex = result.examples
    return (result.ok, [p.format() for p in result.problems],
            None if ex is None else (ex.passed, ex.deferred, len(ex.failed)))


@pytest.mark.parametrize("path", BROKEN + SUITED, ids=lambda p: p.stem)
def test_a_file_read_once_validates_as_one_read_by_each_step(path: Path) -> None:
    once = validate_paths([str(path)])
    assert len(once) == 1
    assert _report(once[0]) == _report(validate_file(path))


def test_a_rule_file_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulesdsl.api
    import rulesdsl.compiler.files

    reads: list[str] = []
    original = rulesdsl.compiler.files.read_document

    def counted(path: Any, text: Any = None) -> Document:
        reads.append(str(path))
        return original(path, text)

    monkeypatch.setattr(rulesdsl.compiler.files, "read_document", counted)
    monkeypatch.setattr(rulesdsl.api, "read_document", counted)
    path = ROOT / "rulesets" / "guan-pai.yaml"
    assert validate_paths([str(path)])[0].ok
    assert reads == [str(path)]


def test_validating_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    import gc

    from rulesdsl.cli import main

    before = gc.get_threshold()
    assert main(["validate", str(ROOT / "rulesets" / "guan-pai.yaml")]) == 0
    assert main(["validate", str(tmp_path / "missing.yaml")]) != 0
    assert gc.get_threshold() == before


def _deep_copied_variant(ruleset: Ruleset, options: dict[str, Any]) -> Ruleset:
    """compile_with_options as first written: a deep copy of the whole document."""
    doc = ruleset.document
    assert doc is not None
    data = copy.deepcopy(doc.data)
    for name, value in options.items():
        data.setdefault("options", {}).setdefault(name, {})["default"] = value
    return compile_document(Document(doc.file, data, doc.values, doc.keys))


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_variant_compiles_as_from_a_deep_copy(path: Path) -> None:
    ruleset = compile_file(path)
    assert ruleset.document is not None
    before = copy.deepcopy(ruleset.document.data)
    for options in _choices(ruleset) + [{}, {"not_an_option": 1}]:
        try:
            variant = compile_with_options(ruleset, options)
        except RulesetError as exc:
            with pytest.raises(RulesetError) as want:
                _deep_copied_variant(ruleset, options)
            assert [p.format() for p in exc.problems] == \
                [p.format() for p in want.value.problems]
            continue
        reference = _deep_copied_variant(ruleset, options)
        assert (variant.hash, variant.resolved, variant.options) == \
            (reference.hash, reference.resolved, reference.options)
        assert [(p.name, p.path) for p in variant.patterns] == \
            [(p.name, p.path) for p in reference.patterns]
    assert ruleset.document.data == before  # the first compile's document is not written
