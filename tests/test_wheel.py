"""The built wheel (not the source tree) carries the grammar and the rulesets."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(out.glob("rulesdsl-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def test_wheel_contains_grammar_and_rulesets(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "rulesdsl/grammar/expr.lark" in names
    assert "rulesdsl/rulesets/taicang-zhongxin-wu.yaml" in names
    assert "rulesdsl/templates/trick.yaml" in names
    assert "rulesdsl/rulesets/ruleset.schema.json" in names  # the bundled files' modeline
    assert "rulesdsl/docs/language.md" in names  # `rulesdsl doc --language` reads it
    assert sum(n.startswith("rulesdsl/rulesets/") and n.endswith(".yaml") for n in names) >= 8


def test_installed_wheel_loads_a_bundled_ruleset_by_name(wheel, tmp_path):
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target",
                           str(target), str(wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    code = (
        "import rulesdsl, pathlib;"
        "r = rulesdsl.load('wenling-liujia-tong');"
        "print(pathlib.Path(rulesdsl.__file__).resolve().parent);"
        "print(r.id, sum(r.deck));"
        "from rulesdsl.resources import reference_section;"
        "print(reference_section('tables').splitlines()[0])"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    # Run from an empty folder so the source checkout cannot be imported by accident.
    proc = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, "
                           f"{str(target)!r}); {code}"], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    location, result, section = proc.stdout.strip().splitlines()
    assert location.startswith(str(target))
    assert result == "wenling-liujia-tong 216"
    assert section == "### `tables`"  # the reference messages name, from the wheel
