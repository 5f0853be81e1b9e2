"""The schema fits real editors: yaml-language-server shows no error on a bundled ruleset,
on a file `rulesdsl new` writes or on a child file (`extends:`), and every one of them
finds the schema through its first-line modeline, on disk.

An editor reads YAML as YAML says: `5:` in `points: {5: 5, K: 10}` is the number 5, where
rulesdsl reads every key as the text written; and a child file is only a part of a
ruleset until it is merged. The schema `rulesdsl schema` prints (the editor schema) allows
for both; the validator keeps checking its own schema, so nothing it refuses changes.

`test_yaml_language_server_*` drive the real server (yaml-language-server 1.25, Node.js)
over stdio with LSP framing; `.ci/run` installs it into the virtual environment and the
test installs it there too when npm is at hand. The other tests reproduce its semantics
with jsonschema: data from `yaml.safe_load` keeps each key's YAML type, as the server's.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from rulesdsl.compiler.schema import editor_schema, ruleset_schema, schema_json
from rulesdsl.errors import RulesetError
from rulesdsl.language.yamlio import load_yaml
from rulesdsl.resources import rulesets_dir

from .conftest import ROOT

SCHEMA_FILE = ROOT / "rulesets" / "ruleset.schema.json"
RULESETS = sorted((ROOT / "rulesets").rglob("*.yaml"))
BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))
FAMILIES = ("trick", "shedding", "tiles")
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
YLS_VERSION = "1.25.0"  # the version the issue was seen with; .ci/run pins the same

# A child file: it leaves `language`, `family` and `deal.hand_size` to its parent, drops a
# pattern by name and scores a 5 with a whole-number key.
CHILD = """\
# yaml-language-server: $schema=./ruleset.schema.json
extends: guan-pai
id: guan-pai-no-bombs
name: {en: Guan Pai without bombs}
deal: {kitty: 0}
points: {5: 5, 10: 10}
patterns:
  list:
    - {name: bomb, remove: true}
"""


def run_new(folder: Path, family: str) -> Path:
    out = folder / f"my-{family}.yaml"
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "new", f"my-{family}",
                           "--family", family, "-o", str(out)], capture_output=True,
                          text=True, timeout=120, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def new_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """One file per family as `rulesdsl new` writes it, with the schema it writes beside."""
    folder = tmp_path_factory.mktemp("new")
    files = [run_new(folder, family) for family in FAMILIES]
    assert (folder / "ruleset.schema.json").is_file()
    (folder / "child.yaml").write_text(CHILD, encoding="utf-8")
    return files


def typed_errors(schema: dict[str, Any], path: Path) -> list[str]:
    """The schema's errors on the file's data as a YAML editor reads it (typed keys)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in Draft202012Validator(schema).iter_errors(data)]


# ------------------------------------------------------------------ the committed schema

def test_committed_schema_is_what_rulesdsl_schema_prints():
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "schema"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == schema_json() + "\n"
    assert SCHEMA_FILE.read_text(encoding="utf-8") == proc.stdout, (
        "rulesets/ruleset.schema.json is stale: "
        "rulesdsl schema > rulesets/ruleset.schema.json")
    Draft202012Validator.check_schema(json.loads(proc.stdout))
    assert (rulesets_dir() / "ruleset.schema.json").is_file()  # shipped with the rulesets


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_bundled_modeline_resolves_to_the_committed_schema(path: Path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{path.name} does not begin with a yaml-language-server modeline"
    target = match.group(1)
    assert not re.match(r"[a-z]+://", target), f"{path.name}: {target} is not a local path"
    assert (path.parent / target).resolve() == SCHEMA_FILE.resolve()


def test_new_writes_a_modeline_that_resolves(new_files: list[Path]):
    for path in new_files:
        match = MODELINE.match(path.read_text(encoding="utf-8").splitlines()[0])
        assert match, path.name
        written = path.parent / match.group(1)
        assert written.read_text(encoding="utf-8") == schema_json() + "\n"


# ------------------------------------------------- the same JSON Schema semantics, offline

@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_bundled_rulesets_have_no_errors_with_typed_keys(path: Path):
    assert typed_errors(editor_schema(), path) == []


def test_new_files_and_a_child_have_no_errors_with_typed_keys(new_files: list[Path]):
    for path in [*new_files, new_files[0].parent / "child.yaml"]:
        assert typed_errors(editor_schema(), path) == [], path.name


def test_integer_keys_were_the_false_error():
    # What the editor showed before: the validator's schema, applied to typed keys,
    # refuses the 5 of `points: {5: 5}`; the editor schema does not, and still refuses
    # a number that is no rank.
    shedding = ROOT / "rulesdsl" / "templates" / "shedding.yaml"
    assert any(e.startswith("points: 5 is not one of")
               for e in typed_errors(ruleset_schema(), shedding))
    points = editor_schema()["properties"]["points"]["propertyNames"]["enum"]
    assert {5, 10, "5", "K"} <= set(points) and 11 not in points and "11" not in points


def test_child_may_leave_out_what_its_parent_says(tmp_path: Path):
    child = tmp_path / "child.yaml"
    child.write_text(CHILD, encoding="utf-8")
    assert typed_errors(editor_schema(), child) == []
    # ... but not its own id (never inherited) or a misspelled key
    child.write_text(CHILD.replace("id: guan-pai-no-bombs\n", "")
                     .replace("deal:", "dael:"), encoding="utf-8")
    errors = typed_errors(editor_schema(), child)
    assert any("'id' is a required property" in e for e in errors), errors
    assert any("'dael' was unexpected" in e for e in errors), errors
    # The same text without `extends` is a whole ruleset: everything it lacks is missing.
    whole = tmp_path / "whole.yaml"
    whole.write_text(CHILD.replace("extends: guan-pai\n", ""), encoding="utf-8")
    missing = " ".join(typed_errors(editor_schema(), whole))
    for key in ("language", "family", "hand_size"):
        assert f"'{key}' is a required property" in missing, missing


def whole_rulesets() -> list[tuple[Path, Any]]:
    """The bundled and broken files the YAML reader accepts and that extend nothing, with
    their data read as the validator reads it (text keys)."""
    out = []
    for path in [*RULESETS, *BROKEN]:
        try:
            data = load_yaml(path.read_text(encoding="utf-8"), str(path)).data
        except RulesetError:  # refused before any schema sees it
            continue
        if not (isinstance(data, dict) and "extends" in data):
            out.append((path, data))
    return out


WHOLE = whole_rulesets()


def schema_breaks(schema: dict[str, Any], data: Any) -> list[tuple[str, str]]:
    return sorted((".".join(map(str, e.absolute_path)), str(e.validator))
                  for e in Draft202012Validator(schema).iter_errors(data))


@pytest.mark.parametrize(("path", "data"), WHOLE, ids=[p.stem for p, _ in WHOLE])
def test_editor_schema_is_the_validators_for_a_whole_ruleset(path: Path, data: Any):
    # A file without `extends`, read as the validator reads it, breaks the same rules of
    # both schemas at the same places: the editor schema loosens nothing.
    assert schema_breaks(editor_schema(), data) == schema_breaks(ruleset_schema(), data)


def test_broken_corpus_exercises_the_schema():
    # The comparison above means something: many broken files fail the schema itself.
    assert len(WHOLE) > len(RULESETS) + 100
    failing = [path.name for path, data in WHOLE if schema_breaks(ruleset_schema(), data)]
    assert len(failing) >= 10, failing


# ------------------------------------------------------------- the real language server

def yaml_language_server() -> list[str]:
    """The command that starts yaml-language-server: $YAML_LANGUAGE_SERVER, the copy
    .ci/run installs into the virtual environment, one on PATH; else installed there now
    with npm (pinned)."""
    if os.environ.get("YAML_LANGUAGE_SERVER"):
        return [os.environ["YAML_LANGUAGE_SERVER"], "--stdio"]
    prefix = Path(sys.prefix) / "node"
    local = prefix / "node_modules" / ".bin" / "yaml-language-server"
    if not local.exists() and shutil.which("yaml-language-server"):
        return [str(shutil.which("yaml-language-server")), "--stdio"]
    if not local.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("yaml-language-server needs Node.js and npm (.ci/run installs them)")
        proc = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit",
                               "--no-fund", f"yaml-language-server@{YLS_VERSION}"],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return [str(local), "--stdio"]


SETTINGS = {"yaml": {"validate": True, "hover": True, "completion": True,
                     "schemaStore": {"enable": False}, "schemas": {}}}


class LanguageServer:
    """A client of a language server over stdio, with LSP's Content-Length framing."""

    def __init__(self, command: list[str]):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    self.inbox.put(None)
                    return
                text = line.decode("ascii").strip()
                if not text:
                    break
                name, _, value = text.partition(":")
                headers[name.lower()] = value.strip()
            self.inbox.put(json.loads(stream.read(int(headers["content-length"]))))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        number = self.next_id
        self.send({"id": number, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == number and "method" not in m)["result"]

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def wait(self, wanted: Any, timeout: float = 60) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            try:
                message = self.inbox.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError("yaml-language-server did not answer") from None
            if message is None:
                assert self.proc.stderr is not None
                raise AssertionError("yaml-language-server stopped: "
                                     + self.proc.stderr.read().decode(errors="replace"))
            if "method" in message and "id" in message:  # the server asks the client
                items = message["params"].get("items", [])
                result = ([SETTINGS.get(i.get("section", "")) for i in items]
                          if message["method"] == "workspace/configuration" else None)
                self.send({"id": message["id"], "result": result})
                continue
            if wanted(message):
                return message

    def diagnostics(self, path: Path) -> list[dict[str, Any]]:
        uri = path.resolve().as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": path.read_text(encoding="utf-8")}})
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri)
        return message["params"]["diagnostics"]

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def server() -> Any:
    client = LanguageServer(yaml_language_server())
    try:
        info = client.request("initialize", {
            "processId": os.getpid(), "rootUri": None,
            "capabilities": {"workspace": {"configuration": True},
                             "textDocument": {"publishDiagnostics": {}}}})
        assert "capabilities" in info
        client.notify("initialized", {})
        client.notify("workspace/didChangeConfiguration", {"settings": SETTINGS})
        yield client
    finally:
        client.close()


def shown(diagnostics: list[dict[str, Any]]) -> list[str]:
    return [f"{d['range']['start']['line'] + 1}:{d['range']['start']['character'] + 1}: "
            f"{d['message']}" for d in diagnostics]


def test_yaml_language_server_shows_no_error_on_the_bundled_rulesets(server: LanguageServer):
    found = {str(path.relative_to(ROOT)): shown(server.diagnostics(path)) for path in RULESETS}
    assert found == {name: [] for name in found}


def test_yaml_language_server_shows_no_error_on_new_files_and_a_child(
        server: LanguageServer, new_files: list[Path]):
    paths = [*new_files, new_files[0].parent / "child.yaml"]
    found = {path.name: shown(server.diagnostics(path)) for path in paths}
    assert found == {name: [] for name in found}


def test_yaml_language_server_reads_the_schema(server: LanguageServer, tmp_path: Path):
    # The silence above is the schema's: with the same modeline, real mistakes are shown
    # at their lines (and without a schema the server would show none of them).
    shutil.copy(SCHEMA_FILE, tmp_path / "ruleset.schema.json")
    text = run_new(tmp_path, "shedding").read_text(encoding="utf-8")
    lines = text.splitlines()
    family = lines.index("family: shedding")
    points = lines.index("points: {5: 5, 10: 10, K: 10}")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("family: shedding", "family: shedin")
                   .replace("points: {5: 5,", "points: {11: 5,"), encoding="utf-8")
    found = shown(server.diagnostics(bad))
    assert any(d.startswith(f"{family + 1}:9: Value is not accepted") for d in found), found
    assert any(d.startswith(f"{points + 1}:10: Value is not accepted") for d in found), found
    child = tmp_path / "child.yaml"
    child.write_text(CHILD.replace("id: guan-pai-no-bombs\n", ""), encoding="utf-8")
    assert shown(server.diagnostics(child)) == ['2:1: Missing property "id".']
    whole = tmp_path / "whole.yaml"
    whole.write_text(CHILD.replace("extends: guan-pai\n", ""), encoding="utf-8")
    missing = " ".join(shown(server.diagnostics(whole)))
    for key in ("language", "family", "hand_size"):
        assert f'Missing property "{key}"' in missing, missing
