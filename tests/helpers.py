"""Checks shared by the engines' rule tests."""

from __future__ import annotations

import pytest

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
