"""Tampered game logs, compiled rulesets and saved states get a clear answer (issue 19):
the referee refuses every log whose content changed and names a line of the file, a
compiled ruleset loads only under its own hash, a saved state restores only when the
engine could be in it, and none of them raises, hangs or runs away with memory.

The quick profile runs here (derandomized under the "ci" hypothesis profile); the long
one is `python -m tests.fuzz.run --target logs|compiled|states|all` (docs/fuzzing.md).
The properties are in check_artifacts.py, the mutators in artifacts.py.
"""

from __future__ import annotations

import json
import os
import random
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.headless.logs import replay

from .artifacts import (
    WHOLE_LOGS,
    WHOLE_STATES,
    Mutant,
    compiled_seeds,
    line_count,
    log_meaning,
    log_seeds,
    mutate_compiled,
    mutate_log,
    mutate_state,
    state_seeds,
)
from .check import MEMORY_LIMIT
from .check_artifacts import compiled_failure, log_failure, state_failure

LONG = os.environ.get("RULESDSL_FUZZ") == "long"
SCALE = 20 if LONG else 1


def quick(examples: int) -> settings:
    # Hypothesis draws one number per input, seeding a random.Random as the long run does
    # (a HypothesisRandom makes every draw of the mutators a hypothesis choice, many times
    # slower). No shrinking: the input's label already names the edits that made it.
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=list(HealthCheck),
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])


def _traced(rng: random.Random, mutant: Mutant, seed_size: int) -> bool:
    # tracemalloc slows the engines about tenfold: every large input and one in four
    # of the others are traced (the long run bounds memory with RLIMIT_AS instead).
    return len(mutant.data) > 2 * seed_size or rng.random() < 0.25


def _report(problem: str | None, mutant: Mutant, seed_name: str) -> None:
    assert problem is None, f"{problem}\n--- input: {seed_name}, {mutant.label[:800]}\n" \
                            f"--- first 400 bytes ---\n{mutant.data[:400]!r}"


# ---------------------------------------------------------------- game logs

@quick(150)
@given(n=st.integers(0, 2**63))
def test_tampered_logs(tmp_path_factory, n: int) -> None:
    rng = random.Random(f"logs:{n}")
    seed, mutant = mutate_log(rng)
    problem = log_failure(tmp_path_factory.mktemp("log"), seed, mutant,
                          trace_memory=_traced(rng, mutant, len(seed.data)))
    _report(problem, mutant, seed.name)


@pytest.mark.parametrize("seed", log_seeds(), ids=lambda s: s.name)
def test_every_untouched_log_replays(tmp_path: Path, seed) -> None:
    assert log_failure(tmp_path, seed, Mutant("unmodified", seed.data),
                       trace_memory=False) is None


@pytest.mark.parametrize("index", range(len(WHOLE_LOGS)))
def test_whole_hostile_logs(tmp_path: Path, index: int) -> None:
    seed = log_seeds()[0]
    mutant = Mutant(f"whole:{index}", WHOLE_LOGS[index])
    _report(log_failure(tmp_path, seed, mutant, trace_memory=False), mutant, seed.name)


def test_replaying_a_small_log_takes_little_memory(tmp_path: Path) -> None:
    # Each replay of a 6 kB log once reserved the whole log bound (256 MiB) to read it.
    seed = min(log_seeds(), key=lambda s: len(s.data))
    path = tmp_path / "game.jsonl"
    path.write_bytes(seed.data)
    tracemalloc.start()
    try:
        assert replay(str(path)).ok
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, f"replaying a {len(seed.data)}-byte log traced " \
                                f"{peak / 2**20:.0f} MiB"


def test_what_a_log_means() -> None:
    """The checker's own yardstick: what counts as a change the referee must see."""
    seed = log_seeds()[0]
    lines = seed.data.splitlines(keepends=True)
    same = seed.meaning
    assert same is not None and len(same) == len(lines)
    # written another way: the same log
    assert log_meaning(seed.data.replace(b"\n", b"\r\n"), seed.default_hands) == same
    assert log_meaning(b"\n".join(lines) + b"\n \n", seed.default_hands) == same
    # changed: another log, or no log at all
    assert log_meaning(b"".join(lines[:-1]), seed.default_hands) != same
    assert log_meaning(b"".join([lines[0], lines[2], lines[1], *lines[3:]]),
                       seed.default_hands) != same
    record = json.loads(lines[1])
    forged = json.dumps({**record, "type": "event"} if record["type"] != "event"
                        else {**record, "event": {**record["event"], "x": 1}})
    assert log_meaning(b"".join([lines[0], forged.encode() + b"\n", *lines[2:]]),
                       seed.default_hands) != same
    action = next(i for i, line in enumerate(lines) if b'"action"' in line)
    as_bool = lines[action].replace(b'"n": 1', b'"n": true')
    assert as_bool != lines[action]
    assert log_meaning(b"".join([*lines[:action], as_bool, *lines[action + 1:]]),
                       seed.default_hands) != same
    assert log_meaning(b"\xff" + seed.data, seed.default_hands) is None
    assert line_count(b"a\nb") == line_count(b"a\nb\n") == 2


def test_the_log_checker_catches_a_referee_that_accepts_anything(tmp_path: Path,
                                                                 monkeypatch) -> None:
    from rulesdsl.headless import logs

    from . import check_artifacts

    seed = log_seeds()[0]
    dropped = b"".join(seed.data.splitlines(keepends=True)[:-1])
    monkeypatch.setattr(check_artifacts, "replay",
                        lambda path: logs.ReplayResult(True, "fine", None, list(seed.returns)))
    problem = log_failure(tmp_path, seed, Mutant("drop result", dropped), trace_memory=False)
    assert problem and problem.startswith("a changed log is accepted")
    monkeypatch.setattr(check_artifacts, "replay",
                        lambda path: logs.ReplayResult(False, "no", 10**6))
    problem = log_failure(tmp_path, seed, Mutant("drop result", dropped), trace_memory=False)
    assert problem and "without naming a line" in problem


# ---------------------------------------------------------------- compiled rulesets

@quick(300)
@given(n=st.integers(0, 2**63))
def test_tampered_compiled_rulesets(tmp_path_factory, n: int) -> None:
    rng = random.Random(f"compiled:{n}")
    seed, mutant = mutate_compiled(rng)
    problem = compiled_failure(tmp_path_factory.mktemp("json"), seed, mutant,
                               trace_memory=_traced(rng, mutant, len(seed.data)))
    _report(problem, mutant, seed.name)


@pytest.mark.parametrize("seed", compiled_seeds(), ids=lambda s: s.name)
def test_every_untouched_compiled_ruleset_loads_to_its_hash(tmp_path: Path, seed) -> None:
    assert compiled_failure(tmp_path, seed, Mutant("unmodified", seed.data)) is None
    path = tmp_path / "ruleset.json"
    assert rulesdsl.load(path).hash == seed.hash


def test_changed_content_under_the_old_hash_is_refused(tmp_path: Path) -> None:
    seed = compiled_seeds()[0]
    wrapper = json.loads(seed.data)
    wrapper["ruleset"]["version"] = str(wrapper["ruleset"].get("version", "")) + "-forged"
    mutant = Mutant("version forged", json.dumps(wrapper, indent=2).encode())
    path = tmp_path / "ruleset.json"
    path.write_bytes(mutant.data)
    with pytest.raises(rulesdsl.RulesetError):
        rulesdsl.load(path)
    assert compiled_failure(tmp_path, seed, mutant) is None


# ---------------------------------------------------------------- saved states

@quick(800)
@given(n=st.integers(0, 2**63))
def test_tampered_saved_states(n: int) -> None:
    rng = random.Random(f"states:{n}")
    seed, mutant = mutate_state(rng)
    problem = state_failure(seed, mutant, steps=20,
                            trace_memory=_traced(rng, mutant, len(seed.text)))
    _report(problem, mutant, seed.name)


@pytest.mark.parametrize("seed", state_seeds(), ids=lambda s: s.name)
def test_every_untouched_state_restores_and_plays_on_alike(seed) -> None:
    assert state_failure(seed, Mutant("unmodified", seed.text.encode()),
                         trace_memory=False) is None


@pytest.mark.parametrize("index", range(len(WHOLE_STATES)))
def test_whole_hostile_states(index: int) -> None:
    seed = state_seeds()[0]
    mutant = Mutant(f"whole:{index}", WHOLE_STATES[index].encode("utf-8", "surrogatepass"))
    _report(state_failure(seed, mutant, trace_memory=False), mutant, seed.name)


def test_the_state_checker_demands_a_refusal_of_the_impossible() -> None:
    seed = next(s for s in state_seeds() if '"phase":"play"' in s.text)
    untouched = Mutant("unmodified", seed.text.encode(), impossible="told so")
    assert state_failure(seed, untouched, trace_memory=False) == \
        "restored an impossible state (told so)"


# ---------------------------------------------------------------- the long runs' findings
# Minimised inputs of the failures the long profile found (docs/fuzzing.md).

def test_a_header_format_of_true_is_refused(tmp_path: Path) -> None:
    # `"format": true` passed `header.get("format") != 1` (Python's True == 1).
    seed = log_seeds()[0]
    lines = seed.data.splitlines(keepends=True)
    header = json.loads(lines[0])
    header["format"] = True
    data = json.dumps(header, sort_keys=True).encode() + b"\n" + b"".join(lines[1:])
    mutant = Mutant("header.format: 1 -> true", data)
    _report(log_failure(tmp_path, seed, mutant, trace_memory=False), mutant, seed.name)


def test_a_scenario_seat_of_infinity_is_refused(tmp_path: Path) -> None:
    # `expect: {to_act: .inf}` in a scenario raised OverflowError from int(inf).
    seed, index = next((s, i) for s in compiled_seeds()
                       for i, e in enumerate(json.loads(s.data)["ruleset"].get("examples", []))
                       if isinstance(e.get("expect"), dict) and "to_act" in e["expect"])
    wrapper = json.loads(seed.data)
    wrapper["ruleset"]["examples"][index]["expect"]["to_act"] = float("inf")
    mutant = Mutant(f"ruleset.examples[{index}].expect.to_act -> Infinity",
                    json.dumps(wrapper, indent=2).encode())
    _report(compiled_failure(tmp_path, seed, mutant, trace_memory=False), mutant, seed.name)


def _edited_state(where, edit) -> tuple:
    seed = next(s for s in state_seeds() if where(json.loads(s.text)))
    data = json.loads(seed.text)
    label = edit(data)
    return seed, Mutant(label, json.dumps(data, sort_keys=True).encode())


def test_a_result_without_its_winner_is_refused() -> None:
    # A finished tile game whose results[0] lacks `winner`: KeyError in engine/saved/tiles.py.
    def edit(data: dict) -> str:
        del data["results"][0]["winner"]
        return "del results[0].winner"

    seed, mutant = _edited_state(lambda d: d["phase"] == "over" and d["results"]
                                 and "winner" in d["results"][0] and "wall" in d, edit)
    _report(state_failure(seed, mutant, trace_memory=False), mutant, seed.name)


def test_a_deal_order_cut_short_is_refused() -> None:
    # A trick hand in play whose deal_order holds 10 of its cards: IndexError in
    # engine/saved/trick.py (reading who was dealt what).
    def edit(data: dict) -> str:
        del data["deal_order"][10:]
        return "deal_order cut to 10 cards"

    seed, mutant = _edited_state(lambda d: d["phase"] == "play" and len(d.get("deal_order")
                                                                         or []) > 10, edit)
    _report(state_failure(seed, mutant, trace_memory=False), mutant, seed.name)


def test_a_dealt_hand_that_is_a_mapping_is_refused() -> None:
    # A shedding deal event whose `hands[1]` is `{}` instead of a text of cards: TypeError
    # (unhashable dict) in engine/saved/shedding.py (long run of seed 2029, inputs 3822 and 18207).
    def edit(data: dict) -> str:
        data["log"][0]["hands"][1] = {}
        return "log[0].hands[1]: {}"

    seed, mutant = _edited_state(lambda d: bool(d.get("log")) and d["log"][0].get("type")
                                 == "deal" and isinstance(d["log"][0].get("hands"), list),
                                 edit)
    _report(state_failure(seed, mutant, trace_memory=False), mutant, seed.name)
