from __future__ import annotations

import os
import shutil
import tempfile
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


# ---------------------------------------------------------------- no silent skips in CI
# In CI (CI=true) a skip fails instead: a skip there is almost always a missing dependency
# or an oracle that no longer imports (`pytest.importorskip`, a `skipif` on a browser), and
# a green build that ran nothing of it claims a check it never made (issue 19). A skip
# that is a choice, not an accident, is listed here: test id -> words its reason must hold
# (so the same test skipped for another reason still fails).
CI_ALLOWED_SKIPS = {
    # the long soak is an opt-in profile of its own (docs/soak.md), never part of CI
    "tests/test_soak.py::test_long_soak": "RULESDSL_SOAK=long",
}


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def skip_is_allowed(nodeid: str, reason: str) -> bool:
    words = CI_ALLOWED_SKIPS.get(nodeid)
    return words is not None and words in reason


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _fail_skip(report, what: str) -> None:
    reason = _skip_reason(report)
    report.outcome = "failed"
    report.longrepr = (f"{what} skipped in CI (CI=true), which must run everything: {reason}\n"
                       "install what it needs, or list it in CI_ALLOWED_SKIPS "
                       "(tests/conftest.py) with the reason it may skip")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if (in_ci() and report.skipped and not hasattr(report, "wasxfail")
            and not skip_is_allowed(item.nodeid, _skip_reason(report))):
        _fail_skip(report, item.nodeid)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    # a module-level `pytest.importorskip` skips the whole module at collection
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped and not skip_is_allowed(report.nodeid, _skip_reason(report)):
        _fail_skip(report, report.nodeid or str(collector.path))


# ---------------------------------------------------------------- the compiled kernels
# tests/test_compiled_kernels.py checks a wheel built with the kernels compiled, and the
# engine's tests run again against it (tests/compiled_run.py): minutes of C compiling and
# playing. Its checks run last, and the job starts as soon as the tests are collected, so
# it runs on the core the rest of the suite leaves idle.
def _needs_compiled_job(item) -> bool:
    return "compiled_job" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=_needs_compiled_job)  # (a stable sort: the rest keep their order)


COMPILED_JOB = pytest.StashKey[tuple]()  # (the job's process, its output folder)


def pytest_collection_finish(session):
    config = session.config
    if config.option.collectonly or not any(map(_needs_compiled_job, session.items)):
        return
    from . import compiled_run

    out = Path(tempfile.mkdtemp(prefix="rulesdsl-compiled-"))
    config.stash[COMPILED_JOB] = (compiled_run.start(out), out)


def pytest_unconfigure(config):
    job = config.stash.get(COMPILED_JOB, None)
    if job is None:
        return
    proc, out = job
    if proc.poll() is None:  # the run stopped early: so does the job
        proc.kill()
        proc.wait()
    shutil.rmtree(out, ignore_errors=True)
