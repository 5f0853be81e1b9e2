"""Checks shared by the engines' rule tests."""

from __future__ import annotations

import functools
import os
import pty
import select
import sys
import time

import pytest

from rulesdsl import notation as nt
from rulesdsl.engine.base import IllegalAction


def assert_illegal(st, action, *fragments):
    """The action raises IllegalAction naming the reason, and the state is untouched."""
    before = st.to_json()
    with pytest.raises(IllegalAction) as info:
        st.apply(action)
    reason = info.value.reason
    for fragment in fragments:
        assert fragment in reason, reason
    assert st.to_json() == before
    assert not st.is_legal(action)
    assert action not in st.legal_actions()
    assert st.why_illegal(action) == reason


@functools.lru_cache(maxsize=65_536)
def parsed_cards(text: str) -> tuple[int, ...]:
    """A logged play's cards (conservation checks re-read the whole log at every position,
    so the same texts recur)."""
    return tuple(nt.parse_cards(text))


PROMPT = b"your move> "


def on_terminal(args: list[str], answers: list[str] | None = None,
                seconds: float = 240) -> tuple[int, str, int]:
    """Run `rulesdsl ARGS` on a pseudo-terminal, as a person's shell runs it; at each move
    prompt type the next answer (the last one again when they run out). Returns the exit
    code, the text as the terminal got it (colour codes included) and the prompts seen."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI on the terminal
        os.execv(sys.executable, [sys.executable, "-m", "rulesdsl", *args])
    out = b""
    prompts = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        if answers and out.rstrip().endswith(PROMPT.rstrip()):
            os.write(fd, answers[min(prompts, len(answers) - 1)].encode() + b"\n")
            prompts += 1
    else:
        os.kill(pid, 9)
        pytest.fail(f"rulesdsl {' '.join(args)} did not end in {seconds} s")
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace"), prompts
