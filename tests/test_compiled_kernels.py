"""The optional compiled kernels (hatch_build.py): a wheel built with RULESDSL_COMPILE=1
carries the kernels compiled beside their source, and plays the same games as the pure
Python engine: the shedding tests and the golden games run again against that wheel.

This run itself is pure Python (an editable install never compiles); the compiled run is a
subprocess that imports the unpacked wheel first and says so with RULESDSL_EXPECT_COMPILED.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from rulesdsl.engine import kernels

from .conftest import ROOT

EXPECT = "RULESDSL_EXPECT_COMPILED"
# The tests run again against the compiled wheel: every shedding engine test, the golden
# games of every ruleset (the shuffle deals every family) and this file's own check.
AGAIN = [
    "test_compiled_kernels.py::test_this_run_imports_the_kernels_it_expects",
    "test_golden.py",
    "test_shuffle.py",
    "test_shed_fast_paths.py",
    "test_shed_rules.py",
    "test_shed_invariants.py",
    "test_shed_levels.py",
    "test_lazy_plays.py",
    "test_play_entries.py",
    "test_suited_plays.py",
    "test_guandan.py",
    "test_tribute.py",
    "test_doudizhu_rlcard.py",
    "test_lead_play_bound.py",
    "test_lead_rules.py",
    "test_bomb_runs.py",
    "test_partial_wilds.py",
]


def test_this_run_imports_the_kernels_it_expects() -> None:
    expected = list(kernels.KERNELS) if os.environ.get(EXPECT) == "1" else []
    assert kernels.compiled() == expected


def test_kernels_are_modules_of_the_package() -> None:
    for name in kernels.KERNELS:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.fixture(scope="module")
def compiled_wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "RULESDSL_COMPILE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(ROOT)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(out.glob("rulesdsl-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def test_the_compiled_wheel_holds_each_kernel_beside_its_source(compiled_wheel) -> None:
    assert not compiled_wheel.name.endswith("-none-any.whl")  # tagged for this platform
    names = set(zipfile.ZipFile(compiled_wheel).namelist())
    for name in kernels.KERNELS:
        path = name.replace(".", "/")
        assert f"{path}.py" in names  # the fallback stays
        assert any(f"{path}{suffix}" in names for suffix in EXTENSION_SUFFIXES), name
    assert "rulesdsl/rulesets/dou-dizhu.yaml" not in names  # (extra rulesets live apart)
    assert "rulesdsl/rulesets/extra/dou-dizhu.yaml" in names


def test_the_compiled_wheel_plays_the_same_games(compiled_wheel, tmp_path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(compiled_wheel).extractall(site)
    # `python -m pytest` puts the working directory first on sys.path, so the unpacked
    # wheel is imported, not the checkout; --import-mode=append keeps the tests' own
    # folder behind it.
    env = {**os.environ, EXPECT: "1", "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--import-mode=append", "--rootdir", str(ROOT),
         *[str(ROOT / "tests" / t) for t in AGAIN]],
        capture_output=True, text=True, cwd=site, env=env)
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert " passed" in proc.stdout and "failed" not in proc.stdout, tail
