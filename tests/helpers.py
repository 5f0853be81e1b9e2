"""Checks shared by the engines' rule tests."""

from __future__ import annotations

import functools

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
