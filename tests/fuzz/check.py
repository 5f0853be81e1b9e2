"""The property every hostile rule file must satisfy, checked for one input.

`rulesdsl.validate_file(path)` and `rulesdsl.load(path)` either give a compiled ruleset
or problems (a RulesetError) whose every problem has a line ≥ 1, a column ≥ 1 and a
message; never another exception, never longer than TIME_LIMIT seconds, never more than
MEMORY_LIMIT bytes traced. `guarded` puts any check under the same time and memory
property (check_artifacts.py uses it for logs, compiled rulesets and saved states).
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import rulesdsl
from rulesdsl.errors import Problem, RulesetError

TIME_LIMIT = 10.0  # seconds for one input (a bundled ruleset validates in < 0.2 s)
MEMORY_LIMIT = 200 * 1024 * 1024


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so no `except Exception` in rulesdsl hides it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def fire(signum: int, frame: object) -> None:
        raise Timeout(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def bad_problems(problems: list[Problem]) -> list[str]:
    out = []
    for p in problems:
        if not isinstance(p.line, int) or p.line < 1:
            out.append(f"line {p.line!r} < 1: {p.format()}")
        if not isinstance(p.column, int) or p.column < 1:
            out.append(f"column {p.column!r} < 1: {p.format()}")
        if not isinstance(p.message, str) or not p.message.strip():
            out.append(f"empty message: {p!r}")
        if not p.file:
            out.append(f"no file: {p!r}")
    return out


def guarded(run: Callable[[], str | None], *, trace_memory: bool = True,
            seconds: float = TIME_LIMIT) -> str | None:
    """`run()` (None, or what went wrong) under the time limit and the memory trace; a
    hang, a RecursionError, a MemoryError or any exception `run` lets out is a failure."""
    if trace_memory:
        tracemalloc.start()
    try:
        with time_limit(seconds):
            problem = run()
    except Timeout as exc:
        return f"hang: {exc}"
    except RecursionError:
        return f"RecursionError{origin()}:\n" + traceback.format_exc(limit=-8)
    except MemoryError:
        return "MemoryError"
    except Exception as exc:  # the finding: any exception `run` did not expect
        return f"{type(exc).__name__}{origin()}: {exc}\n" + traceback.format_exc(limit=-8)
    finally:
        if trace_memory:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
    if problem is None and trace_memory and peak > MEMORY_LIMIT:
        return f"memory: traced peak {peak / 2**20:.0f} MiB over {MEMORY_LIMIT / 2**20:.0f} MiB"
    return problem


def origin() -> str:
    """` at rulesdsl/…/file.py:line`: the deepest frame of the exception being handled
    inside the package (where a finding comes from), or nothing."""
    tb = sys.exc_info()[2]
    found = ""
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if _PACKAGE in name:
            found = f" at rulesdsl/{name.split(_PACKAGE, 1)[1]}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


_PACKAGE = f"{os.sep}rulesdsl{os.sep}"


def failure(path: Path, *, load_too: bool = True, examples: bool = True,
            trace_memory: bool = True, seconds: float = TIME_LIMIT) -> str | None:
    """None when the file gets a clear answer; else what went wrong."""

    def run() -> str | None:
        result = rulesdsl.validate_file(path, examples)
        if result.ruleset is None and not result.problems:
            return "validate_file gave neither a ruleset nor problems"
        bad = bad_problems(result.problems)
        if bad:
            return "validate_file: " + "; ".join(bad[:3])
        if load_too:
            try:
                rulesdsl.load(path)
                loaded = True
            except RulesetError as exc:
                loaded = False
                if not exc.problems:
                    return "load raised a RulesetError without problems"
                bad = bad_problems(exc.problems)
                if bad:
                    return "load: " + "; ".join(bad[:3])
            if loaded != (result.ruleset is not None):
                return f"load {'compiled' if loaded else 'refused'} what validate_file " \
                       f"{'refused' if loaded else 'compiled'}"
        return None

    return guarded(run, trace_memory=trace_memory, seconds=seconds)
