"""The code stays ruff-clean (the project's style bar)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT


def test_ruff_clean():
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(ROOT / ".venv" / "bin"))
    if ruff is None:
        try:
            import ruff as _  # noqa: F401
        except ImportError:
            pytest.skip("ruff is not installed (pip install -e '.[test]')")
        cmd = [sys.executable, "-m", "ruff"]
    else:
        cmd = [ruff]
    proc = subprocess.run([*cmd, "check", "rulesdsl", "tests"], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
