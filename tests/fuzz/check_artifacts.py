"""The properties every tampered log, compiled ruleset and saved state must satisfy,
checked for one input under check.py's time limit and memory trace (issue 19).

- **Logs**: `replay(path)` returns a ReplayResult (never raises, never hangs); an
  unmodified log, or the same records written another way, is ok; a log whose records
  changed in any way the referee judges (`artifacts.log_meaning`: an action, a dropped,
  repeated or reordered record, the result, the header's game) is not ok; a refusal of a
  non-empty file names a line of the file.
- **Compiled rulesets**: `rulesdsl.load(path)` loads the untouched file to its hash; any
  other file either raises RulesetError whose problems each have a line (within the file)
  and column ≥ 1 and a message, or loads a ruleset whose hash is the one the file records
  (changed content under the old hash is refused); a JSON rule file without the wrapper
  may load; a file that is not strict JSON (duplicate keys, bad UTF-8) never loads.
- **Saved states**: `state_from_json(text)` restores or raises RulesdslError, nothing
  else; a state that can never arise (`Mutant.impossible`) is refused; a restored state's
  `to_json()` restores to the same text, and the restored state can be used through the
  state API (a few actions, every seat's observation, returns, clone) raising nothing but
  RulesdslError.
"""

from __future__ import annotations

import random
import sys
import traceback
from pathlib import Path
from typing import Any

import rulesdsl
from rulesdsl.errors import RulesdslError, RulesetError
from rulesdsl.headless.logs import ReplayResult, replay

from .artifacts import (
    CompiledSeed,
    LogSeed,
    Mutant,
    StateSeed,
    first_difference,
    line_count,
    live_state,
    log_meaning,
    recorded_hash,
    ruleset,
    why_no_log,
)
from .check import TIME_LIMIT, bad_problems, guarded, origin

LOG_NAME = "game.jsonl"
COMPILED_NAME = "ruleset.json"


def _raised(where: str) -> str:
    exc = sys.exc_info()[1]
    return f"{where}: {type(exc).__name__}{origin()}: {exc}"[:2000] + "\n" + \
        traceback.format_exc(limit=-6)


def log_failure(folder: Path, seed: LogSeed, mutant: Mutant, *, trace_memory: bool = True,
                seconds: float = TIME_LIMIT) -> str | None:
    path = folder / LOG_NAME
    path.write_bytes(mutant.data)

    def run() -> str | None:
        try:
            result = replay(str(path))
        except Exception:
            return _raised("replay raised")
        if not isinstance(result, ReplayResult) or not isinstance(result.ok, bool):
            return f"replay returned {result!r}"
        if not isinstance(result.message, str) or not result.message.strip():
            return f"replay gave no message: {result!r}"
        untouched = mutant.data == seed.data
        if (untouched or mutant.must_pass) and not result.ok:
            what = "the unmodified log" if untouched else "the same log written another way"
            return f"{what} is refused: {result.message}"
        if result.ok:
            changed = log_meaning(mutant.data, seed.default_hands)
            if changed is None:
                return f"a log that is no well-formed log text is accepted: " \
                       f"{why_no_log(mutant.data)}"
            if changed != seed.meaning:
                return "a changed log is accepted: " + first_difference(seed.meaning, changed)
            if result.returns is None or list(result.returns) != list(seed.returns):
                return f"accepted with returns {result.returns!r}, not {list(seed.returns)}"
            return None
        if mutant.data:
            lines = line_count(mutant.data)
            if type(result.line) is not int or not 1 <= result.line <= lines:
                return f"refused without naming a line of the file (line {result.line!r}, " \
                       f"the file has {lines}): {result.message[:300]}"
        return None

    return guarded(run, trace_memory=trace_memory, seconds=seconds)


def compiled_failure(folder: Path, seed: CompiledSeed, mutant: Mutant, *,
                     trace_memory: bool = True, seconds: float = TIME_LIMIT) -> str | None:
    path = folder / COMPILED_NAME
    path.write_bytes(mutant.data)

    def run() -> str | None:
        try:
            loaded = rulesdsl.load(path)
        except RulesetError as exc:
            if mutant.data == seed.data or mutant.must_pass:
                return "an untouched or honestly compiled file is refused: " + \
                    "; ".join(p.format() for p in exc.problems[:2])
            if not exc.problems:
                return "a RulesetError without problems"
            bad = bad_problems(exc.problems)
            lines = max(1, line_count(mutant.data))
            # The end of a file that ends with a newline is the column 1 after it.
            bad += [f"line {p.line} is beyond the file's {lines} lines: {p.format()}"
                    for p in exc.problems if isinstance(p.line, int) and p.line > lines
                    and (p.line, p.column) != (lines + 1, 1)]
            return ("problems: " + "; ".join(bad[:3])) if bad else None
        except Exception:
            return _raised("load raised")
        kind, recorded = recorded_hash(mutant.data)
        if kind == "invalid":
            return f"loaded a file that is not strict JSON ({recorded})"
        if kind == "wrapped" and loaded.hash != recorded:
            return f"loaded changed content: its hash {loaded.hash[:16]}… is not the " \
                   f"recorded {str(recorded)[:20]!r}"
        if mutant.data == seed.data and loaded.hash != seed.hash:
            return "the untouched file loads to another hash"
        return None

    return guarded(run, trace_memory=trace_memory, seconds=seconds)


MAX_STEPS = 2000  # "to the end": a 2-hand match takes ~300 actions (hands=None may never end)


def use_state(state: Any, rng: random.Random, steps: int | None = 3) -> str | None:
    """Drive a restored state through the API for `steps` actions (None: to the end);
    RulesdslError may be raised (an illegal action, a rule failing), anything else is
    the caller's failure."""
    players = state.game.ruleset.players
    for _ in range(MAX_STEPS if steps is None else steps):
        state.returns()
        for seat in range(players):
            state.observation(seat)
        if state.is_terminal():
            break
        state.current_player  # noqa: B018 - the property is the call
        if state.legal_actions().count() == 0:
            return "a restored state that is not over has no legal action (a stuck game)"
        state.apply(state.sample_action(rng))
    state.clone()
    state.to_json()
    return None


def plays_on_alike(original: Any, restored: Any, steps: int = 60) -> str | None:
    """The restored state plays on as the state it was saved from (a field left out of
    the saved ones shows here, not in a round trip)."""
    a, b = random.Random(1), random.Random(1)
    for n in range(steps):
        if original.is_terminal() or restored.is_terminal():
            break
        original.apply(original.sample_action(a))
        restored.apply(restored.sample_action(b))
        if original.to_json() != restored.to_json():
            return f"the restored state plays on differently: after {n + 1} actions " \
                   "its to_json() is not the original's"
    if original.is_terminal() != restored.is_terminal():
        return "the restored state ends at another time than the original"
    return None


def state_failure(seed: StateSeed, mutant: Mutant, *, trace_memory: bool = True,
                  seconds: float = TIME_LIMIT, steps: int | None = 3) -> str | None:
    game = ruleset(seed.ruleset)
    text = mutant.data.decode("utf-8", "surrogateescape")

    def run() -> str | None:
        try:
            state = game.state_from_json(text)
        except RulesdslError as exc:
            if mutant.data == seed.text.encode():
                return f"the unmodified state is refused: {exc}"
            return None if str(exc).strip() else "a RulesdslError without a message"
        except Exception:
            return _raised("restore raised")
        if mutant.impossible:
            return f"restored an impossible state ({mutant.impossible})"
        try:
            saved = state.to_json()
            again = game.state_from_json(saved).to_json()
        except Exception:
            return _raised("round trip raised")
        if again != saved:
            return "to_json() of the restored state does not restore to itself"
        if mutant.data == seed.text.encode():
            if saved != seed.text:
                return "the unmodified state restores to another text"
            return plays_on_alike(live_state(seed), state)
        try:
            return use_state(state, random.Random(0), steps)
        except RulesdslError:
            return None
        except Exception:
            return _raised("using the restored state raised")

    return guarded(run, trace_memory=trace_memory, seconds=seconds)
