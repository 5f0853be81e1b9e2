"""What a rule file, a compiled ruleset or a log may make rulesdsl read (issue 19).

`extends:` and a log header's `ruleset` name a bundled id or a regular file inside the
naming file's folder; nothing else is opened, a device or FIFO is never read, sizes are
bounded before parsing, and foreign file content is never echoed. A compiled ruleset's
hash is checked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.api import compiled_json, validate_file
from rulesdsl.errors import RulesetError
from rulesdsl.headless.agents import make_agents
from rulesdsl.headless.logs import play_game, replay

ROOT = Path(__file__).resolve().parent.parent
GUAN = (ROOT / "rulesets" / "guan-pai.yaml").read_text(encoding="utf-8")


def child(folder: Path, extends: str, name: str = "child.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"language: 1\nid: child\nextends: {json.dumps(extends)}\n",
                    encoding="utf-8")
    return path


def messages(path: Path) -> list[str]:
    return [p.format() for p in validate_file(path).problems]


@pytest.mark.parametrize("target", ["/proc/self/status", "/dev/zero", "/etc/passwd",
                                    "../outside.yaml", "sub/../../outside.yaml"])
def test_extends_cannot_leave_the_folder(tmp_path: Path, target: str) -> None:
    (tmp_path / "outside.yaml").write_text(GUAN, encoding="utf-8")
    found = messages(child(tmp_path / "rules", target))
    assert len(found) == 1 and "is outside this file's folder" in found[0], found
    assert ":3:10: extends:" in found[0]
    # nothing of the named file is shown (its keys, e.g. /proc's VmRSS, or its lines)
    assert "VmRSS" not in found[0] and "root:" not in found[0]


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text(GUAN, encoding="utf-8")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    found = messages(child(rules, "link.yaml"))
    assert len(found) == 1 and "is outside this file's folder" in found[0], found


def test_files_inside_the_folder_and_bundled_ids_are_followed(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "base").mkdir(parents=True)
    (rules / "base" / "guan.yaml").write_text(GUAN, encoding="utf-8")
    assert messages(child(rules, "base/guan.yaml")) == []
    assert messages(child(rules, "guan-pai", "bundled.yaml")) == []


def test_the_widening_switch_allows_any_path(tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text(GUAN, encoding="utf-8")
    path = child(tmp_path / "rules", "../outside.yaml")
    env = {**os.environ, "RULESDSL_EXTENDS_ANYWHERE": "1"}
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    for path in (fifo, child(tmp_path, "rules.yaml", "fifo-child.yaml")):
        proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", str(path)],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert proc.returncode == 1
        assert "is not a regular file" in proc.stdout, proc.stdout


def test_a_device_given_on_the_command_line_is_not_read() -> None:
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", "/dev/zero"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1 and "is not a regular file" in proc.stdout


def test_an_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    for name in ("big.yaml", "big.json"):
        big = tmp_path / name
        big.write_bytes(b" " * ((1 << 20) + 1))
        found = messages(big)
        assert len(found) == 1 and "larger than" in found[0], found


# ---------------------------------------------------------------- compiled rulesets


def compiled(tmp_path: Path, edit=None) -> Path:
    payload = json.loads(compiled_json(rulesdsl.load("guan-pai")))
    if edit is not None:
        edit(payload)
    path = tmp_path / "guan.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def test_a_compiled_ruleset_loads_with_its_hash(tmp_path: Path) -> None:
    assert rulesdsl.load(compiled(tmp_path)).hash == rulesdsl.load("guan-pai").hash


@pytest.mark.parametrize("edit, message", [
    (lambda p: p["ruleset"].update(version="9"), "does not match its hash"),
    (lambda p: p.pop("hash"), "carries its content hash"),
    (lambda p: p["ruleset"].update(extends="guan-pai"), "extends nothing"),
])
def test_a_tampered_compiled_ruleset_is_refused(tmp_path: Path, edit, message: str) -> None:
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(compiled(tmp_path, edit))
    assert message in str(exc.value)


def test_duplicate_keys_in_json_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_text('{"language": 1, "id": "a", "id": "b", "family": "shedding"}',
                    encoding="utf-8")
    found = messages(path)
    assert len(found) == 1 and "duplicate key 'id'" in found[0], found


# ---------------------------------------------------------------- a log's ruleset


def logged_game(tmp_path: Path) -> list[dict]:
    log = tmp_path / "g.jsonl"
    play_game(rulesdsl.load("guan-pai"), 3, make_agents("random", 2), 1, str(log))
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def write_log(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_log_header_names_a_bundled_id_or_a_file_beside_it(tmp_path: Path) -> None:
    records = logged_game(tmp_path)
    assert replay(str(write_log(tmp_path / "a.jsonl", records))).ok
    (tmp_path / "guan.yaml").write_text(GUAN, encoding="utf-8")
    records[0]["ruleset"] = "guan.yaml"
    records[0]["hash"] = rulesdsl.load(tmp_path / "guan.yaml").hash
    assert replay(str(write_log(tmp_path / "b.jsonl", records))).ok


@pytest.mark.parametrize("named", ["/proc/self/status", "../guan.yaml", "/dev/zero"])
def test_a_log_header_cannot_name_a_file_elsewhere(tmp_path: Path, named: str) -> None:
    records = logged_game(tmp_path)
    (tmp_path / "guan.yaml").write_text(GUAN, encoding="utf-8")
    records[0]["ruleset"] = named
    logs = tmp_path / "logs"
    logs.mkdir()
    result = replay(str(write_log(logs / "g.jsonl", records)))
    assert not result.ok and result.line == 1
    assert "outside the log's folder" in result.message and "VmRSS" not in result.message


def test_problems_in_a_compiled_ruleset_are_located(tmp_path: Path) -> None:
    """A compiled JSON is located like a YAML file: the problem's line and column are
    those of the value in the JSON text (found only when there is a problem)."""
    import json

    from rulesdsl.api import compiled_json, load, validate_file

    data = json.loads(compiled_json(load("guan-pai")))
    data["ruleset"]["patterns"]["list"][0]["group"] = 0
    text = json.dumps(data, indent=1, ensure_ascii=False)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if '"group": 0' in line)
    problems = validate_file(path).problems
    assert [(p.line, p.column, p.path) for p in problems] == [
        (row + 1, lines[row].index("0") + 1, "patterns.list[0].group")], \
        [p.format() for p in problems]
    dup = tmp_path / "dup.json"
    dup.write_text(text.replace('"format": 1,', '"format": 1, "format": 1,', 1),
                   encoding="utf-8")
    problems = validate_file(dup).problems
    assert len(problems) == 1 and "duplicate key 'format'" in problems[0].message
    assert problems[0].line == next(i for i, line in enumerate(lines)
                                    if '"format": 1' in line) + 1
