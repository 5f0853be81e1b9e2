"""The property every hostile rule file must satisfy, checked for one input.

`rulesdsl.validate_file(path)` and `rulesdsl.load(path)` either give a compiled ruleset
or problems (a RulesetError) whose every problem has a line ≥ 1, a column ≥ 1 and a
message; never another exception, never longer than TIME_LIMIT seconds, never more than
MEMORY_LIMIT bytes traced.
"""

from __future__ import annotations

import signal
import traceback
import tracemalloc
from collections.abc import Iterator
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


def failure(path: Path, *, load_too: bool = True, examples: bool = True,
            trace_memory: bool = True, seconds: float = TIME_LIMIT) -> str | None:
    """None when the file gets a clear answer; else what went wrong."""
    if trace_memory:
        tracemalloc.start()
    try:
        with time_limit(seconds):
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
    except Timeout as exc:
        return f"hang: {exc}"
    except RecursionError:
        return "RecursionError:\n" + traceback.format_exc(limit=-8)
    except MemoryError:
        return "MemoryError"
    except Exception as exc:  # the finding: any exception other than RulesetError
        return f"{type(exc).__name__}: {exc}\n" + traceback.format_exc(limit=-8)
    finally:
        if trace_memory:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
    if trace_memory and peak > MEMORY_LIMIT:
        return f"memory: traced peak {peak / 2**20:.0f} MiB over {MEMORY_LIMIT / 2**20:.0f} MiB"
    return None
