"""Drop-in CI: the `rulesdsl-validate` pre-commit hook (.pre-commit-hooks.yaml), tried
with `pre-commit try-repo` on a temporary repository, and the composite GitHub Action
(action.yml), whose validate step is run as the workflow would run it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import ROOT

BAD = "language: 1\nid: bad\nfamilly: shedding\n"  # line 3: a misspelled key
BAD_ERROR = "rulesets/bad.yaml:3:1: familly: unknown key 'familly'"


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def new_ruleset(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "new", path.stem, "--family",
                           "shedding", "-o", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkout the tests run in, as a repository of its own: every file git tracks or
    would track (new files too), committed. `pre-commit try-repo` takes a repository's
    commit plus its changes to tracked files, so a hook file not yet committed would be
    missing; in CI's fresh clone this is the clone itself."""
    snapshot = tmp_path_factory.mktemp("project") / "rulesdsl"
    listed = git(ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    git(snapshot, "init", "-q")
    git(snapshot, "add", "-A")
    git(snapshot, "commit", "-q", "-m", "snapshot")
    return snapshot


# ------------------------------------------------------------------------ pre-commit

def test_hook_manifest_declares_rulesdsl_validate():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "rulesdsl-validate"]
    assert hook["entry"] == "rulesdsl validate" and hook["language"] == "python"
    assert re.search(hook["files"], "games/rulesets/my-variant.yaml")
    assert not re.search(hook["files"], ".github/workflows/ci.yaml")


def try_repo(project: Path, user: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(user.parent / "pre-commit-home"),
           "PRE_COMMIT_COLOR": "never", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(project),
                           "rulesdsl-validate", *args], cwd=user, capture_output=True,
                          text=True, env=env, timeout=600)


def test_pre_commit_try_repo(project: Path, tmp_path: Path):
    user = tmp_path / "user"
    user.mkdir()
    git(user, "init", "-q")
    new_ruleset(user / "rulesets" / "good.yaml")
    (user / "rulesets" / "bad.yaml").write_text(BAD, encoding="utf-8")
    (user / "config.yaml").write_text("not: a ruleset\n", encoding="utf-8")  # not a rule file
    git(user, "add", "-A")

    proc = try_repo(project, user, "--all-files")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert re.search(r"rulesdsl validate\.+Failed", out), out
    assert BAD_ERROR in out
    assert "ok: rulesets/good.yaml" in out and "INVALID: rulesets/bad.yaml" in out
    assert "config.yaml" not in out.replace("pre-commit-config.yaml", "")

    proc = try_repo(project, user, "--files", "rulesets/good.yaml")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert re.search(r"rulesdsl validate\.+Passed", out), out


# ------------------------------------------------------------------------ the action

@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def expressions(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [e for value in node.values() for e in expressions(value)]
    if isinstance(node, list):
        return [e for value in node for e in expressions(value)]
    return re.findall(r"\$\{\{\s*(.*?)\s*\}\}", node) if isinstance(node, str) else []


def test_action_is_a_composite_that_installs_itself(action: dict[str, Any]):
    assert action["name"] and action["description"]
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert steps[0]["with"]["python-version"] == "${{ inputs.python-version }}"
    for step in steps:
        assert "run" not in step or step.get("shell") == "bash", step
        assert "${{" not in step.get("run", ""), "inputs reach scripts through env only"
    install = next(s for s in steps if "pip install" in s.get("run", ""))
    assert '"$GITHUB_ACTION_PATH"' in install["run"]
    assert (ROOT / "pyproject.toml").is_file()  # what GITHUB_ACTION_PATH holds: this checkout
    used = {e.removeprefix("inputs.") for e in expressions(action["runs"])}
    assert used == set(action["inputs"]), "every input used, every expression an input"
    for name, spec in action["inputs"].items():
        assert spec["description"] and "default" in spec, name


def run_validate_step(action: dict[str, Any], workspace: Path,
                      **inputs: str) -> subprocess.CompletedProcess[str]:
    """The action's validate step as a runner runs it: its env with the inputs filled in,
    its script under `bash -e`, in the workspace, with rulesdsl on PATH."""
    step = next(s for s in action["runs"]["steps"] if "rulesdsl validate" in s.get("run", ""))
    values = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    values.update({name.replace("_", "-"): value for name, value in inputs.items()})

    def fill(text: str) -> str:
        return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: values[m.group(1)], text)

    env = {**os.environ, **{k: fill(str(v)) for k, v in step.get("env", {}).items()}}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           step["run"]], cwd=workspace, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    new_ruleset(tmp_path / "rulesets" / "good.yaml")
    (tmp_path / "rulesets" / "bad.yaml").write_text(BAD, encoding="utf-8")
    return tmp_path


def test_action_annotates_a_bad_file(action: dict[str, Any], workspace: Path):
    proc = run_validate_step(action, workspace)  # the default paths: rulesets
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines and all(line.startswith("::") for line in lines), proc.stdout
    assert any(line.startswith("::error file=rulesets/bad.yaml,line=3,col=1,")
               and "::familly: unknown key 'familly'" in line for line in lines), proc.stdout
    assert "good.yaml" not in proc.stdout


def test_action_passes_good_files_and_honours_its_inputs(action: dict[str, Any],
                                                         workspace: Path):
    proc = run_validate_step(action, workspace, paths="rulesets/good.yaml")
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr
    proc = run_validate_step(action, workspace, paths="rulesets\n", exclude="bad.*  *.draft.yaml")
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr
    # examples: "false" passes --no-examples: a failing example is then not run
    good = (workspace / "rulesets" / "good.yaml").read_text(encoding="utf-8")
    failing = good.replace("expect: straight", "expect: pair", 1)
    assert failing != good
    (workspace / "rulesets" / "good.yaml").write_text(failing, encoding="utf-8")
    proc = run_validate_step(action, workspace, paths="rulesets/good.yaml")
    assert proc.returncode == 1 and "::error file=rulesets/good.yaml" in proc.stdout
    proc = run_validate_step(action, workspace, paths="rulesets/good.yaml", examples="false")
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr
