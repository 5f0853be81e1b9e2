"""The optional compiled kernels (hatch_build.py): a wheel built with RULESDSL_COMPILE=1
carries the kernels compiled beside their source, and plays the same games as the pure
Python engine: the shedding tests, the bundled rulesets' examples and the golden games run
again against that wheel (tests/compiled_run.py lists them).

This run itself is pure Python (an editable install never compiles). The wheel is built
and tested in a process of its own (tests/compiled_run.py), started once the tests are
collected; this file's checks run last and wait for it (tests/conftest.py).
"""

from __future__ import annotations

import os
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from rulesdsl.engine import kernels

from . import compiled_run
from .conftest import COMPILED_JOB, ROOT

JOB_TIMEOUT = 1800  # seconds: the build and the second run, on a loaded two-core machine


def test_this_run_imports_the_kernels_it_expects() -> None:
    expected = list(kernels.KERNELS) if os.environ.get(compiled_run.EXPECT) == "1" else []
    assert kernels.compiled() == expected


def test_kernels_are_modules_of_the_package() -> None:
    for name in kernels.KERNELS:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.fixture(scope="module")
def compiled_job(request) -> dict:
    """The outcome of the job the session started (tests/conftest.py)."""
    proc, out = request.config.stash[COMPILED_JOB]
    proc.wait(timeout=JOB_TIMEOUT)
    return compiled_run.outcome(out)


def test_the_compiled_wheel_holds_each_kernel_beside_its_source(compiled_job) -> None:
    assert compiled_job["build_rc"] == 0, compiled_job.get("build_tail")
    (wheel,) = map(Path, compiled_job["wheels"])
    assert not wheel.name.endswith("-none-any.whl")  # tagged for this platform
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in kernels.KERNELS:
        path = name.replace(".", "/")
        assert f"{path}.py" in names  # the fallback stays
        assert any(f"{path}{suffix}" in names for suffix in EXTENSION_SUFFIXES), name
    assert "rulesdsl/rulesets/extra/dou-dizhu.yaml" in names


def test_the_compiled_wheel_plays_the_same_games(compiled_job) -> None:
    assert compiled_job["build_rc"] == 0, compiled_job.get("build_tail")
    tail = compiled_job["test_tail"]
    assert compiled_job["test_rc"] == 0, tail
    assert " passed" in tail and "failed" not in tail, tail
