from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").rglob("*.yaml"))

# CI runs a fixed sample (derandomize) so a red build always reproduces; the "explore"
# profile (HYPOTHESIS_PROFILE=explore) draws new examples every run.
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("explore", max_examples=500, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def root() -> Path:
    return ROOT
