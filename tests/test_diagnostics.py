"""Every diagnostic the compiler can give is shown by a file that triggers it.

The compiler's messages are read from its source with `ast` (nothing is imported): every
call that reports a problem (`self.error(...)`, `compiler.error(...)`, `reader.error(...)`,
`err(...)`, `refuse(...)`, `doc.problem(...)`, `Problem(...)`) in rulesdsl/compiler/*.py,
rulesdsl/engine/contract.py and rulesdsl/engine/*/contract.py. A message's fingerprint is
its constant text: the literal fragments of an f-string, in order, with a `{}` for each
value. Every fingerprint must be produced by a file of the tests/broken/ corpus (or, for
what cannot be a YAML file there — a folder, a FIFO, compiled JSON, an extends chain, a
file past a size bound — by an input built here), or be on the commented allow-list
below. A new diagnostic without either fails `test_every_diagnostic_has_a_broken_file`.

At the end: the CI hook of tests/conftest.py (a skip fails when CI=true) is shown to work.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulesdsl.api import compiled_json, validate_file
from rulesdsl.compiler.limits import MAX_DECK_CARDS, MAX_EXTENDS_DEPTH, MAX_PATTERNS, MAX_TIERS
from rulesdsl.compiler.schema import ruleset_schema
from rulesdsl.language.yamlio import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"
SOURCES = sorted([*ROOT.glob("rulesdsl/compiler/*.py"), ROOT / "rulesdsl/engine/contract.py",
                  *ROOT.glob("rulesdsl/engine/*/contract.py")])

# The calls that report a problem, and the position of their message argument (a
# `message=` keyword counts too). `warn` reports warnings: a file with only a warning
# validates, so it cannot be a broken file; its messages are not listed.
SINKS = {"error": 1, "err": 1, "problem": 1, "refuse": 0, "Problem": 4}
WARNING_SINKS = {"warn"}

# Diagnostics no file can trigger, each with the reason. Keep it short: a diagnostic a
# file can reach gets a file in tests/broken/ (or an input in BUILT) instead.
ALLOWED = {
    # test_the_deck_bound_is_the_schema_bound checks that the two bounds agree
    "{} cards is over the limit of {} (max deck size)":
        "a guard: the schema caps deck.decks at 8, and 8 packs of 54 is this bound",
    "the file does not hold a mapping":
        "compile_document's guard: load_merged refuses a non-mapping first "
        "('the file holds a list', tests/broken/top_level_list.yaml)",
    "this ruleset has no document to compile again":
        "compile_with_options' guard: every Ruleset the compiler makes carries its document",
}


# ---------------------------------------------------------------- reading the source


@dataclass
class Diagnostic:
    key: str                  # the fingerprint: literal text, `{}` for each value
    parts: list[str | None]   # literal fragments, None for a value
    where: list[str]          # file:line of every call that gives it

    @property
    def literal(self) -> int:
        return sum(len(p) for p in self.parts if p)

    def matches(self, message: str) -> bool:
        pattern = "".join(".*?" if p is None else re.escape(p) for p in self.parts)
        return re.fullmatch(pattern, message, re.S) is not None


def _parts(node: ast.expr) -> list[str | None]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value if isinstance(v, ast.Constant) else None for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _parts(node.left) + _parts(node.right)
    return [None]


def _merged(parts: list[str | None]) -> list[str | None]:
    out: list[str | None] = []
    for p in parts:
        if out and p is None and out[-1] is None:
            continue
        if out and p is not None and out[-1] is not None:
            out[-1] += p
            continue
        out.append(p)
    return out


def _callee(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Attribute):
        return f.attr
    return f.id if isinstance(f, ast.Name) else None


def _message_arg(call: ast.Call) -> ast.expr | None:
    index = SINKS.get(_callee(call) or "")
    if index is None:
        return None
    if any(k.arg == "severity" for k in call.keywords):
        return None  # a warning (`warn` passes severity="warning" on)
    for k in call.keywords:
        if k.arg == "message":
            return k.value
    return call.args[index] if len(call.args) > index else None


def diagnostics() -> dict[str, Diagnostic]:
    found: dict[str, Diagnostic] = {}
    for src in SOURCES:
        tree = ast.parse(src.read_text(encoding="utf-8"), filename=str(src))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or (arg := _message_arg(node)) is None:
                continue
            parts = _merged(_parts(arg))
            # A message with no words of its own (`str(exc)`, a helper's `message`
            # parameter) passes on text made elsewhere (notation, expressions): the
            # layer that makes it tests it.
            if not any(p and re.search(r"[A-Za-z]", p) for p in parts):
                continue
            key = "".join("{}" if p is None else p for p in parts)
            d = found.setdefault(key, Diagnostic(key, parts, []))
            d.where.append(f"{src.relative_to(ROOT)}:{node.lineno}")
    return found


def credited(messages: list[str], diags: dict[str, Diagnostic]) -> dict[str, str]:
    """fingerprint -> a message that shows it. A message credits the fingerprints that
    match it with the most literal text ('start 3 is not on the ladder' shows
    'start {} is not on the ladder', not the looser '{} is not on the ladder')."""
    out: dict[str, str] = {}
    for m in messages:
        hits = [d for d in diags.values() if d.matches(m)]
        if hits:
            best = max(d.literal for d in hits)
            for d in hits:
                if d.literal == best:
                    out.setdefault(d.key, m)
    return out


# ---------------------------------------------------------------- what files produce


# A small valid ruleset the built inputs start from.
SHED = """language: 1
id: tiny-shed
family: shedding
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 1, jokers: true}
deal: {hand_size: 13, kitty: 2}
ranks:
  single: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2]
order:
  - {name: big_joker, select: "card == BJ"}
  - {name: little_joker, select: "card == LJ"}
  - {name: ranks, select: "true", by: single}
patterns:
  sameness: rank
  list:
    - {name: single, group: 1}
    - {name: pair, group: 2}
"""

# Inputs that cannot be a YAML file of tests/broken/ (not YAML, not a regular file, past a
# size bound, several files): name -> the diagnostic it must show. `built_inputs` makes them.
BUILT = {
    "missing": "file not found",
    "folder": "is a folder, not a file",
    "symlink_loop": "cannot read file: {}",
    "fifo": "is not a regular file (a device, pipe or socket is never read)",
    "large": "the file is larger than {} bytes (max file size)",
    "tiers": "{} tiers is over the limit of {} (max order tiers)",
    "patterns": "{} patterns is over the limit of {} (max patterns)",
    "extends_chain": "extends chain is deeper than {} (max extends depth)",
    "invalid_json": "invalid JSON: {}",
    "compiled_format": "compiled format {} is not supported",
    "compiled_no_hash": "a compiled ruleset carries its content hash",
    "compiled_changed":
        "the compiled ruleset's content does not match its hash (changed after compiling)",
    "compiled_extends": "a compiled ruleset is already merged: it extends nothing",
}

# Built inputs the validator handles wrongly today (strict xfail: when it is fixed,
# remove the entry). Their diagnostic counts as shown meanwhile.
KNOWN_WRONG: dict[str, str] = {}


def built_inputs(tmp: Path) -> dict[str, Path]:
    base = SHED
    (tmp / "base.yaml").write_text(base, encoding="utf-8")
    out = {"missing": tmp / "missing.yaml", "folder": tmp / "folder.yaml"}
    out["folder"].mkdir()
    (tmp / "loop_a.yaml").symlink_to(tmp / "loop_b.yaml")   # open() fails with ELOOP
    (tmp / "loop_b.yaml").symlink_to(tmp / "loop_a.yaml")
    out["symlink_loop"] = tmp / "loop_a.yaml"
    out["fifo"] = tmp / "fifo.yaml"
    os.mkfifo(out["fifo"])
    out["large"] = tmp / "large.yaml"
    out["large"].write_bytes(b"#" * (MAX_FILE_BYTES + 1))

    tiers = "".join(f"  - {{name: t{i}, select: \"true\"}}\n" for i in range(MAX_TIERS + 1))
    out["tiers"] = tmp / "tiers.yaml"
    out["tiers"].write_text(re.sub(r"order:\n(  - .*\n)+", "order:\n" + tiers, base),
                            encoding="utf-8")
    patterns = "".join(f"    - {{name: p{i}, group: 1}}\n" for i in range(MAX_PATTERNS + 1))
    out["patterns"] = tmp / "patterns.yaml"
    out["patterns"].write_text(re.sub(r"  list:\n(    - .*\n)+", "  list:\n" + patterns, base),
                               encoding="utf-8")

    # An extends chain one link too deep: each file names the next, the last is valid.
    links = MAX_EXTENDS_DEPTH + 1
    for i in range(links):
        (tmp / f"link{i}.yaml").write_text(f"id: link-{i}\nextends: link{i + 1}.yaml\n",
                                           encoding="utf-8")
    (tmp / f"link{links}.yaml").write_text(base, encoding="utf-8")
    out["extends_chain"] = tmp / "link0.yaml"

    out["invalid_json"] = tmp / "invalid.json"
    out["invalid_json"].write_text('{"language": 1,', encoding="utf-8")
    compiled = validate_file(tmp / "base.yaml").ruleset
    assert compiled is not None
    edits = {
        "compiled_format": lambda p: p.update(format=99),
        "compiled_no_hash": lambda p: p.pop("hash"),
        "compiled_changed": lambda p: p["ruleset"].update(version="9"),
        "compiled_extends": lambda p: p["ruleset"].update(extends="guan-pai"),
    }
    for name, edit in edits.items():
        payload = json.loads(compiled_json(compiled))
        edit(payload)
        out[name] = tmp / f"{name}.json"
        out[name].write_text(json.dumps(payload), encoding="utf-8")
    assert set(out) == set(BUILT)
    return out


@pytest.fixture(scope="session")
def corpus_messages() -> list[str]:
    """The messages validate gives for the files of tests/broken/ (once per session)."""
    return [q.message for p in sorted(BROKEN.glob("*.yaml")) for q in validate_file(p).problems]


@pytest.fixture(scope="session")
def built_messages(tmp_path_factory) -> dict[str, list[str] | BaseException]:
    """name -> the messages validate gives for that built input, or what it raised."""
    out: dict[str, list[str] | BaseException] = {}
    for name, path in built_inputs(tmp_path_factory.mktemp("diagnostics")).items():
        try:
            out[name] = [q.message for q in validate_file(path).problems]
        except Exception as exc:  # noqa: BLE001 - a crash is what KNOWN_WRONG records
            out[name] = exc
    return out


def all_messages(corpus_messages, built_messages) -> list[str]:
    built = [m for ms in built_messages.values() if isinstance(ms, list) for m in ms]
    return corpus_messages + built


# ---------------------------------------------------------------- the tests


def test_the_source_reader_finds_the_diagnostics() -> None:
    # The reader sees each kind of call: if it stopped matching one, coverage would pass
    # vacuously for its messages.
    diags = diagnostics()
    assert len(diags) >= 100, len(diags)
    for key in ("tier name {} is used twice",                          # self.error
                "bids must rise",                                      # reader.error
                "a scenario asserts nothing",                          # err
                "rulesets extend each other in a cycle",               # doc.problem
                "a compiled ruleset carries its content hash",         # Problem
                "file not found",                                      # refuse
                "the cards carry {} points, not {}",                   # static checks
                "{} does not play {}: {}"):                            # engine/contract.py
        assert key in diags, key
    d = diags["the deal uses {} cards ({} hands × {} + kitty {}) but the deck has {}"]
    assert d.matches("the deal uses 55 cards (4 hands × 13 + kitty 3) but the deck has 54")
    assert not d.matches("the deal uses 55 cards")
    # the most literal text wins: this message shows the first, not the looser second
    shown = credited(["start 3 is not on the ladder"], diags)
    assert "start {} is not on the ladder" in shown and "{} is not on the ladder" not in shown


def test_every_message_helper_is_a_known_sink() -> None:
    # A new helper that forwards a message (as `refuse` and `err` do) would hide every
    # diagnostic reported through it: name it in SINKS (or WARNING_SINKS).
    unknown = []
    for src in SOURCES:
        for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                params = [a.arg for a in node.args.args + node.args.kwonlyargs]
                if "message" in params and node.name not in {*SINKS, *WARNING_SINKS}:
                    unknown.append(f"{src.relative_to(ROOT)}:{node.lineno}: {node.name}")
    assert not unknown, unknown


def _built_param(name: str):
    marks = [pytest.mark.xfail(reason=KNOWN_WRONG[name], strict=True)] \
        if name in KNOWN_WRONG else []
    return pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", [_built_param(n) for n in BUILT])
def test_built_input_shows_its_diagnostic(built_messages, name: str) -> None:
    diags = diagnostics()
    key = BUILT[name]
    assert key in diags, f"{key!r} is no longer a diagnostic: update BUILT"
    messages = built_messages[name]
    if isinstance(messages, BaseException):
        raise messages
    assert key in credited(messages, diags), messages


def test_every_diagnostic_has_a_broken_file(corpus_messages, built_messages) -> None:
    diags = diagnostics()
    shown = set(credited(all_messages(corpus_messages, built_messages), diags))
    shown |= {BUILT[name] for name in KNOWN_WRONG}
    missing = [f"{d.where[0]}: {key!r}" for key, d in sorted(diags.items())
               if key not in shown and key not in ALLOWED]
    assert not missing, (
        "diagnostics that no file of tests/broken/ produces (write a broken file for each, "
        "or an ALLOWED entry saying why no file can):\n" + "\n".join(missing))


def test_the_allow_list_is_current(corpus_messages, built_messages) -> None:
    diags = diagnostics()
    stale = [key for key in ALLOWED if key not in diags]
    assert not stale, f"ALLOWED names messages the compiler no longer gives: {stale}"
    shown = credited(all_messages(corpus_messages, built_messages), diags)
    reached = [key for key in ALLOWED if key in shown]
    assert not reached, f"a file produces these now: remove them from ALLOWED: {reached}"


def test_the_deck_bound_is_the_schema_bound() -> None:
    # the reason ALLOWED gives for the deck-size message
    deck = ruleset_schema()["properties"]["deck"]
    assert deck["properties"]["decks"]["maximum"] * 54 <= MAX_DECK_CARDS


# ---------------------------------------------------------------- no silent skips in CI
# tests/conftest.py turns a skip into a failure when CI=true (a missing dependency must
# not pass as a green build), except the skips CI_ALLOWED_SKIPS lists.

TINY = {
    "test_tiny.py": """import pytest

def test_passes():
    pass

def test_skips():
    pytest.skip("the oracle is not installed")

@pytest.mark.xfail(reason="a known bug", strict=True)
def test_xfails():
    assert False
""",
    "test_module_skip.py": """import pytest

pytest.importorskip("no_such_oracle_for_rulesdsl")

def test_never_runs():
    pass
""",
}


def _run_tiny(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess:
    for name, text in TINY.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    # the project's conftest as a plugin, over a folder outside the project
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "tests.conftest", "-p",
         "no:cacheprovider", "--continue-on-collection-errors", "--rootdir", str(tmp_path),
         str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_a_skip_fails_in_ci(tmp_path: Path) -> None:
    proc = _run_tiny(tmp_path, "true")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "test_tiny.py::test_skips skipped in CI" in out, out
    assert "test_module_skip.py skipped in CI" in out, out
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in out, out   # the xfail stays one


def test_a_skip_is_a_skip_outside_ci(tmp_path: Path) -> None:
    proc = _run_tiny(tmp_path, None)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "1 passed, 2 skipped, 1 xfailed" in out, out


def test_the_allowed_ci_skips_are_current() -> None:
    from tests.conftest import CI_ALLOWED_SKIPS, skip_is_allowed

    for nodeid, words in CI_ALLOWED_SKIPS.items():
        path, _, name = nodeid.partition("::")
        text = (ROOT / path).read_text(encoding="utf-8")
        assert f"def {name.split('[')[0]}(" in text, f"{nodeid} no longer exists"
        assert words in text, f"{nodeid}: its skip reason no longer says {words!r}"
        assert skip_is_allowed(nodeid, f"reason: {words}")
        assert not skip_is_allowed(nodeid, "could not import 'rlcard'")
    assert not skip_is_allowed("tests/test_rulebook.py::test_html_renders_in_headless_chromium"
                               "[huzhou-hong-wu]", "chromium is not installed")
