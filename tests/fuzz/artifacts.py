"""Hostile variants of the other untrusted artifacts: game logs, compiled rulesets and
saved states (issue 19), at the text level and at the data level.

The seeds are built from every bundled ruleset (nothing here names a game): one refereed
log of a seeded game per ruleset, `rulesdsl.api.compiled_json` of each, and `to_json()`
of states along a seeded game (every phase the game passes through). Each mutator takes
a `random.Random` and returns a `Mutant`: a label naming what was done (a finding's
minimal reproduction is in it), the bytes, and for saved states whether the result is
impossible outright (a refusal is then required, not only allowed).
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from .mutate import (
    HOSTILE_STRINGS,
    HUGE_NUMBERS,
    INVISIBLES,
    _all_paths,
    _confuse,
    _delete,
    _exists,
    _get,
    _set,
    nested,
    random_text,
    random_value,
    seeds,
    swapped_type,
)

BIG_DIGITS = 4301  # one digit over CPython's int/str conversion limit
DEEP = 100_000  # nesting: far over any recursion limit

# Values json.dumps cannot write: markers replaced in the text after dumping.
_BIG = "\x00fuzz:big\x00"
_NEG_BIG = "\x00fuzz:-big\x00"
_DEEP_LIST = "\x00fuzz:deep-list\x00"
_DEEP_MAP = "\x00fuzz:deep-map\x00"
_MARKERS = {
    json.dumps(_BIG): "1" * BIG_DIGITS,
    json.dumps(_NEG_BIG): "-" + "9" * BIG_DIGITS,
    json.dumps(_DEEP_LIST): "[" * DEEP + "]" * DEEP,
    json.dumps(_DEEP_MAP): '{"k":' * DEEP + "1" + "}" * DEEP,
}
_MARKER_RE = re.compile("|".join(re.escape(m) for m in _MARKERS))

NUMBER_TEXTS = ["1" * BIG_DIGITS, "-" + "9" * BIG_DIGITS, "1e999", "-1e999", "NaN",
                "Infinity", "-Infinity", "-1", "-3", "0", "-0", "9223372036854775808",
                "1.5", "1e-999", "00", "0x10", "1_000", "+1", ".5", "10" + "0" * 300]
DEEP_TEXTS = ["[" * DEEP + "]" * DEEP, '{"k":' * DEEP + "1" + "}" * DEEP, "[" * DEEP]
CONTROLS = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b", "\x1c", "\x7f", "\x85",
            "\u2028", "\u2029", "\ufeff", "\u202e", "\r", "\t", "\n"]
BAD_UTF8 = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80", b"\xe2\x80", b"\xc0\xaf"]


def dumps(value: Any, **options: Any) -> str:
    """json.dumps, then the markers become what json cannot write (4,301-digit integers,
    100,000-deep nesting)."""
    text = json.dumps(value, **options)
    return _MARKER_RE.sub(lambda m: _MARKERS[m.group(0)], text) if "fuzz:" in text else text


def hostile_value(rng: random.Random) -> Any:
    """A value no honest writer produces: huge or negative numbers, a 4,301-digit
    integer, 100,000-deep nesting, control characters, confusables, another type."""
    roll = rng.randrange(10)
    if roll == 0:
        return rng.choice(HUGE_NUMBERS + [-3, -1, 2**64, 10**18])
    if roll == 1:
        return rng.choice([_BIG, _NEG_BIG])
    if roll == 2:
        return rng.choice([_DEEP_LIST, _DEEP_MAP])
    if roll == 3:
        return nested(rng.randint(10, 90), rng)
    if roll == 4:
        return rng.choice(CONTROLS) * rng.choice([1, 3])
    if roll == 5:
        return rng.choice(HOSTILE_STRINGS)
    if roll == 6:
        return random_text(rng, 30)
    return random_value(rng)


def _json_paths(data: Any) -> list[tuple]:
    return [p for p in _all_paths(data) if p]


def mutate_value(data: Any, rng: random.Random, paths: list[tuple] | None = None) -> str:
    """One data-level edit somewhere in `data` (in place); what was done, for the label."""
    paths = paths if paths is not None else _json_paths(data)
    if not paths:
        return "nothing"
    path = rng.choice(paths)
    op = rng.randrange(9)
    try:
        old = _get(data, path)
        if op == 0:
            _delete(data, path)
            return f"del {_show(path)}"
        if op == 1:
            new = swapped_type(old, rng)
        elif op == 2:
            ints = [p for p in paths if type(_get(data, p)) in (int, float)]
            path = rng.choice(ints or paths)
            old = _get(data, path)
            new = rng.choice([*HUGE_NUMBERS, -3, -1, _BIG, _NEG_BIG])
        elif op == 3:
            strs = [p for p in paths if isinstance(_get(data, p), str)]
            if not strs:
                return "nothing"
            path = rng.choice(strs)
            text = old = _get(data, path)
            if rng.random() < 0.5:
                new = _confuse(text, rng)
            else:
                i = rng.randrange(len(text) + 1)
                new = text[:i] + rng.choice(CONTROLS + INVISIBLES) + text[i:]
        elif op == 4:  # rename a key
            parent = _get(data, path[:-1])
            if not isinstance(parent, dict):
                return "nothing"
            new_key = _confuse(str(path[-1]), rng) if rng.random() < 0.6 else random_text(rng, 8)
            parent[new_key] = parent.pop(path[-1])
            return f"rename {_show(path)} -> {new_key!r}"
        elif op == 5:  # grow, shrink or reorder a list
            lists = [p for p in paths if isinstance(_get(data, p), list) and _get(data, p)]
            if not lists:
                return "nothing"
            path = rng.choice(lists)
            items = _get(data, path)
            how = rng.randrange(4)
            if how == 0:
                items.extend(json.loads(json.dumps(items)) * rng.choice([1, 10, 200]))
                return f"grow {_show(path)}"
            if how == 1:
                del items[rng.randrange(len(items)):]
                return f"cut {_show(path)}"
            if how == 2:
                rng.shuffle(items)
                return f"shuffle {_show(path)}"
            items.insert(rng.randrange(len(items) + 1), hostile_value(rng))
            return f"insert into {_show(path)}"
        elif op == 6:  # add a key
            parent = _get(data, path[:-1])
            if not isinstance(parent, dict):
                return "nothing"
            key = rng.choice(["extra", "__proto__", "type", "", random_text(rng, 8)])
            parent[key] = random_value(rng)
            return f"add {_show(path[:-1] + (key,))}"
        else:
            new = hostile_value(rng)
        _set(data, path, new)
        return f"{_show(path)}: {_short(old)} -> {_short(new)}"
    except (KeyError, IndexError, TypeError):
        return "nothing"


def _show(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") \
        or "(top)"


def _short(value: Any) -> str:
    for marker, what in ((_BIG, "<4301-digit int>"), (_NEG_BIG, "<-4301-digit int>"),
                         (_DEEP_LIST, "<100000-deep list>"), (_DEEP_MAP, "<100000-deep map>")):
        if value == marker:
            return what
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------- text level

_NUMBER_RE = re.compile(rb"-?\b\d+(\.\d+)?([eE][-+]?\d+)?")
_KEY_RE = re.compile(rb'[{,]\s*"([^"\\]{1,40})"\s*:')


def mutate_json_text(data: bytes, rng: random.Random, lines_too: bool = True) -> tuple[str, bytes]:
    """One text-level edit of JSON (or JSON Lines) bytes."""
    op = rng.randrange(16 if lines_too else 10)
    if op == 0 and data:  # random byte flips
        raw = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return "byte flips", bytes(raw)
    if op == 1:
        cut = rng.randrange(len(data) + 1)
        return f"truncate at {cut}", data[:cut]
    if op == 2:  # a control character, NUL, a line or paragraph separator, a BOM
        pos = rng.randrange(len(data) + 1)
        char = rng.choice(CONTROLS)
        return f"insert {char!r} at {pos}", data[:pos] + char.encode() + data[pos:]
    if op == 3:
        pos = rng.randrange(len(data) + 1)
        bad = rng.choice(BAD_UTF8)
        return f"insert {bad!r} at {pos}", data[:pos] + bad + data[pos:]
    if op == 4:
        return "BOM", b"\xef\xbb\xbf" + data
    if op in (5, 6):  # a number becomes a hostile one
        found = list(_NUMBER_RE.finditer(data))
        if found:
            m = rng.choice(found)
            text = rng.choice(NUMBER_TEXTS)
            return f"number at {m.start()} -> {text[:12]}", \
                data[:m.start()] + text.encode() + data[m.end():]
    if op == 7:  # a value becomes 100,000 levels of nesting
        colons = [m.end() for m in re.finditer(rb'":', data)]
        if colons:
            pos = rng.choice(colons)
            end = _value_end(data, pos)
            return f"deep nesting at {pos}", \
                data[:pos] + rng.choice(DEEP_TEXTS).encode() + data[end:]
    if op == 8:  # a duplicate key in an object, with another value or the same one
        found = list(_KEY_RE.finditer(data))
        if found:
            m = rng.choice(found)
            key = m.group(1)
            value = rng.choice([b"0", b"1", b"-1", b"null", b'"x"', b"[]", b"{}", b"true"])
            at = m.start() + 1
            return f"duplicate key {key.decode(errors='replace')!r}", \
                data[:at] + b'"' + key + b'":' + value + b"," + data[at:]
    if op == 9:  # characters JSON tokens are made of, inserted anywhere
        pos = rng.randrange(len(data) + 1)
        junk = rng.choice([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"null", b" "])
        return f"insert {junk!r} at {pos}", data[:pos] + junk + data[pos:]
    lines = data.splitlines(keepends=True)
    if not lines:
        return "empty", b""
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines))
    if op == 10:
        lines.insert(j, lines[i])
        return f"duplicate line {i + 1} at {j + 1}", b"".join(lines)
    if op == 11:
        count = rng.randint(1, 5)
        del lines[i:i + count]
        return f"delete lines {i + 1}-{i + count}", b"".join(lines)
    if op == 12:
        lines[i], lines[j] = lines[j], lines[i]
        return f"swap lines {i + 1} and {j + 1}", b"".join(lines)
    if op == 13:
        text = rng.choice([random_text(rng, 60), "{}", "[]", "null", '{"type": "x"}',
                           rng.choice(HOSTILE_STRINGS)])
        lines.insert(i, text.encode("utf-8", "surrogatepass") + b"\n")
        return f"random line at {i + 1}", b"".join(lines)
    if op == 14:
        line = lines.pop(i)
        lines.insert(j, line)
        return f"move line {i + 1} to {j + 1}", b"".join(lines)
    return f"drop lines from {i + 1}", b"".join(lines[:i])


def _value_end(data: bytes, start: int) -> int:
    """Where the JSON value starting at `start` ends (roughly: a scalar or a bracket run)."""
    depth = 0
    in_string = False
    i = start
    while i < len(data):
        c = data[i:i + 1]
        if in_string:
            if c == b"\\":
                i += 1
            elif c == b'"':
                in_string = False
                if depth == 0:
                    return i + 1
        elif c == b'"':
            in_string = True
        elif c in b"[{":
            depth += 1
        elif c in b"]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in b",\n" and depth == 0:
            return i
        i += 1
    return i


def line_count(data: bytes) -> int:
    """Lines in the file as an editor counts them (only "\\n" ends a line)."""
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


@dataclass(frozen=True)
class Mutant:
    label: str
    data: bytes
    must_pass: bool = False  # the same artifact written another way: it must pass
    impossible: str | None = None  # states: why this state can never arise (refuse it)
    extra: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- rulesets

@cache
def ruleset(name: str) -> Any:
    import rulesdsl

    return rulesdsl.load(name)


@lru_cache(maxsize=1)
def ruleset_names() -> tuple[str, ...]:
    from rulesdsl.resources import bundled_rulesets

    return tuple(sorted(bundled_rulesets()))


# ---------------------------------------------------------------- game logs

@dataclass(frozen=True)
class LogSeed:
    name: str  # "<ruleset>@<seed>"
    ruleset: str
    data: bytes
    records: tuple[dict[str, Any], ...]
    default_hands: int | None
    returns: tuple[float, ...]

    @property
    def meaning(self) -> tuple | None:
        return log_meaning(self.data, self.default_hands)


@lru_cache(maxsize=1)
def log_seeds() -> tuple[LogSeed, ...]:
    from rulesdsl.headless.agents import make_agents
    from rulesdsl.headless.logs import play_game

    out = []
    with tempfile.TemporaryDirectory(prefix="rulesdsl-logseed-") as tmp:
        for name in ruleset_names():
            rs = ruleset(name)
            # One hand of random play, and one of greedy play (other plays, other events;
            # greedy agents take seconds a game with six seats: random ones there).
            second = "greedy" if rs.players <= 4 else "random"
            for seed, agents in ((1, "random"), (2, second)):
                path = Path(tmp) / f"{name}-{seed}.jsonl"
                state = play_game(rs, seed, make_agents(agents, rs.players), 1, str(path))
                data = path.read_bytes()
                records = tuple(json.loads(line) for line in data.splitlines())
                out.append(LogSeed(f"{name}@{seed}", name, data, records,
                                   rs.new_game(seed=0).max_hands, tuple(state.returns())))
    return tuple(out)


def _dump_records(records: list[Any], **options: Any) -> bytes:
    options = {"ensure_ascii": False, "sort_keys": True, **options}
    return "".join(dumps(r, **options) + "\n" for r in records).encode("utf-8", "surrogatepass")


HOSTILE_RULESET_NAMES = ["", "../../etc/passwd", "/etc/passwd", "/dev/zero", "/dev/stdin",
                         "/proc/self/status", "..", ".", "game.jsonl", "rulesets/guan-pai.yaml",
                         "guan-pai\n", "GUAN-PAI", "guan-pai.yaml", "\x00", "~/x.yaml"]


def _forge_action(seed: LogSeed, records: list[Any], rng: random.Random) -> str:
    """Replace one action by another action that is legal at that point."""
    from rulesdsl.engine.base import Action

    actions = [i for i, r in enumerate(records) if r.get("type") == "action"]
    if not actions:
        return "nothing"
    k = rng.choice(actions)
    header = records[0]
    state = ruleset(seed.ruleset).new_game(seed=header["seed"], hands=header["hands"])
    for r in records[:k]:
        if r.get("type") == "action":
            state.apply(Action.parse(r["action"]))
    original = Action.parse(records[k]["action"])
    for _ in range(10):
        forged = state.sample_action(rng)
        if forged != original:
            records[k] = {**records[k], "action": forged.to_json()}
            return f"line {k + 1}: legal action {original} -> {forged}"
    return "nothing"


def _log_record_edit(seed: LogSeed, records: list[Any], rng: random.Random) -> str:
    """One data-level edit of the records (in place)."""
    if not records:
        return "nothing"
    kinds: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        if isinstance(r, dict):
            kinds.setdefault(str(r.get("type")), []).append(i)

    def pick(kind: str) -> int | None:
        return rng.choice(kinds[kind]) if kinds.get(kind) else None

    op = rng.randrange(15)
    i = rng.randrange(len(records))
    if op == 14:  # a value Python finds equal and JSON does not: 1 -> true, 0 -> false
        cells = [p for p in _json_paths(records) if type(_get(records, p)) is int
                 and _get(records, p) in (0, 1)]
        if not cells:
            return "nothing"
        path = rng.choice(cells[:40] if rng.random() < 0.5 else cells)  # often early on
        old = _get(records, path)
        _set(records, path, bool(old))
        return f"line {path[0] + 1}: {_show(path[1:])}: {old} -> {bool(old)}"
    if op == 0:  # drop a record: any, an event, an action, the header, the result
        kind = rng.choice(["any", "event", "action", "header", "result", "last event"])
        if kind == "last event" and kinds.get("event"):
            i = kinds["event"][-1]
        elif kind != "any" and pick(kind) is not None:
            i = pick(kind)  # type: ignore[assignment]
        del records[i]
        return f"drop line {i + 1} ({kind})"
    if op == 1:
        j = rng.choice([i + 1, rng.randrange(len(records) + 1)])
        records.insert(j, json.loads(json.dumps(records[i])))
        return f"repeat line {i + 1} at {j + 1}"
    if op == 2:  # swap two records, often neighbours
        j = min(len(records) - 1, i + 1) if rng.random() < 0.5 else rng.randrange(len(records))
        records[i], records[j] = records[j], records[i]
        return f"swap lines {i + 1} and {j + 1}"
    if op == 3:
        j = rng.randrange(len(records))
        records.insert(j, records.pop(i))
        return f"move line {i + 1} to {j + 1}"
    if op == 4:
        try:
            return _forge_action(seed, records, rng)
        except Exception:  # the records were already edited beyond replaying
            return "nothing"
    if op == 5:  # an action's content
        k = pick("action")
        if k is None or not isinstance(records[k].get("action"), dict):
            return "nothing"
        act = records[k]["action"]
        field_ = rng.choice(["type", "cards", "tiles", "pattern", "amount"])
        new = rng.choice(["pass", "play", "bid", "claim", "discard", "win", "", "S2", "BJ BJ",
                          "1m", "1z 1z 1z", "S2 S2 S2 S2 S2", "bomb", 10, -1, True,
                          hostile_value(rng)])
        old = act.get(field_)
        records[k] = {**records[k], "action": {**act, field_: new}}
        return f"line {k + 1}: action.{field_}: {_short(old)} -> {_short(new)}"
    if op == 6:  # an action's number or seat (often the first action's: n is 1 there)
        first = kinds.get("action", [None])[0]
        k = first if rng.random() < 0.3 else pick("action")
        if k is None:
            return "nothing"
        key = rng.choice(["n", "seat"])
        old = records[k].get(key)
        new = rng.choice([(old + 1) if type(old) is int else 1, -1, 0, True, False, None,
                          str(old), float(old) if type(old) is int else 0.5, hostile_value(rng)])
        records[k] = {**records[k], key: new}
        return f"line {k + 1}: {key}: {_short(old)} -> {_short(new)}"
    if op == 7:  # the result
        k = pick("result")
        if k is None:
            return "nothing"
        res = dict(records[k])
        key = rng.choice(["returns", "actions", "state_sha256"])
        old = res.get(key)
        if key == "returns" and isinstance(old, list) and old:
            how = rng.randrange(3)
            new = [old[-1], *old[:-1]] if how == 0 else [x + 1 for x in old] if how == 1 \
                else old[:-1]
        elif key == "state_sha256" and isinstance(old, str) and old:
            pos = rng.randrange(len(old))
            new = old[:pos] + ("0" if old[pos] != "0" else "1") + old[pos + 1:]
        elif key == "actions" and type(old) is int:
            new = old + rng.choice([-1, 1])
        else:
            new = hostile_value(rng)
        if rng.random() < 0.15:
            del res[key]
            records[k] = res
            return f"line {k + 1}: del result.{key}"
        res[key] = new
        records[k] = res
        return f"line {k + 1}: result.{key}: {_short(old)} -> {_short(new)}"
    if op == 8:  # the header
        k = pick("header")
        if k is None:
            return "nothing"
        head = dict(records[k])
        key = rng.choice(["seed", "hands", "hash", "format", "ruleset", "view", "ruleset"])
        old = head.get(key)
        options = {
            "seed": [(old or 0) + 1 if type(old) is int else 0, -1, 2**63, True, "1", 1.5],
            "hands": [None, 0, -3, 2, 10_001, True, "1", 1.0],
            "hash": ["", "0" * 64, str(old)[:-1], str(old).upper(), None],
            "format": [2, 0, "1", True, None, 1.0],
            "ruleset": [*HOSTILE_RULESET_NAMES, *ruleset_names()],
            "view": [0, 1, -1],
        }[key]
        new = rng.choice(options + [hostile_value(rng)])
        head[key] = new
        records[k] = head
        return f"line {k + 1}: header.{key}: {_short(old)} -> {_short(new)}"
    if op == 9:  # a foreign record
        new = rng.choice([{"type": "observation", "observation": {}}, {"type": "comment"},
                          {"type": "header", "format": 1}, {"type": None}, {}, [], 42, None,
                          "text", {"type": "event"}, {"type": "action"},
                          {"type": "event", "event": {"type": "deal", "hand": 0}},
                          json.loads(json.dumps(rng.choice(log_seeds()).records[1]))])
        records.insert(i, new)
        return f"insert {_short(new)} at line {i + 1}"
    if op == 10:
        cut = rng.randrange(len(records) + 1)
        del records[cut:]
        return f"keep lines 1-{cut}"
    if op == 11:  # a record from another game's log
        other = rng.choice(log_seeds())
        j = rng.randrange(len(other.records))
        records.insert(i, json.loads(json.dumps(other.records[j])))
        return f"line {j + 1} of {other.name} inserted at {i + 1}"
    if op == 12:  # an event's content
        k = pick("event")
        if k is None:
            return "nothing"
        desc = mutate_value(records[k], rng)
        return f"line {k + 1}: {desc}"
    desc = mutate_value(records, rng)
    return desc


def _cosmetic_log(seed: LogSeed, rng: random.Random) -> tuple[str, bytes]:
    """The same records, written another way: the referee must still accept the log."""
    records = list(seed.records)
    op = rng.randrange(6)
    if op == 0:
        lines = seed.data.splitlines(keepends=True)
        for _ in range(rng.randint(1, 5)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice([b"\n", b"  \n", b"\t\n"]))
        return "blank lines", b"".join(lines)
    if op == 1:
        return "CRLF line ends", seed.data.replace(b"\n", b"\r\n")
    if op == 2:
        return "ASCII escapes", _dump_records(records, ensure_ascii=True)
    if op == 3:
        shuffled = []
        for r in records:
            items = list(r.items())
            rng.shuffle(items)
            shuffled.append(dict(items))
        return "keys in another order", _dump_records(shuffled, sort_keys=False)
    if op == 4:
        return "spaces between tokens", _dump_records(records, separators=(" , ", " : "))
    return "no final newline", seed.data.rstrip(b"\n")


WHOLE_LOGS: list[bytes] = [
    b"", b"\n", b"\n" * 10_000, b" ", b"{}", b"[]", b"null\n", b"\x00" * 1000, b"\xef\xbb\xbf",
    b'{"type": "header"}\n', b'{"type": "result", "returns": []}\n',
    b"[" * DEEP + b"]" * DEEP + b"\n", b'{"type":' + b"[" * DEEP + b"]" * DEEP + b"}\n",
    b"[" + b"1," * 500_000 + b"1]\n", b"x" * 2_000_000, b"1" * BIG_DIGITS + b"\n",
    b'{"type": "header", "format": 1, "ruleset": "/dev/zero", "hash": "", "seed": 1}\n',
    b'{"type": "header", "format": 1, "ruleset": "/proc/self/status", "hash": "", "seed": 1}\n',
    b'{"type": "header", "format": 1, "ruleset": "../../../etc/passwd", "seed": 1}\n',
    b'{"type": "header", "format": 1, "ruleset": "game.jsonl", "hash": "", "seed": 1}\n',
    b'{"type": "header", "format": 1, "ruleset": "/dev/stdin", "hash": "", "seed": 1}\n',
]


def mutate_log(rng: random.Random) -> tuple[LogSeed, Mutant]:
    seed = rng.choice(log_seeds())
    roll = rng.random()
    if roll < 0.03:
        return seed, Mutant("unmodified", seed.data)
    if roll < 0.10:
        label, data = _cosmetic_log(seed, rng)
        return seed, Mutant(f"cosmetic:{label}", data, must_pass=True)
    if roll < 0.13:
        i = rng.randrange(len(WHOLE_LOGS))
        return seed, Mutant(f"whole:{i}", WHOLE_LOGS[i])
    if roll < 0.55:
        data = seed.data
        labels = []
        for _ in range(rng.randint(1, 2)):
            label, data = mutate_json_text(data, rng)
            labels.append(label)
        return seed, Mutant("text:" + "; ".join(labels), data)
    records = [json.loads(json.dumps(r)) for r in seed.records]
    labels = []
    for _ in range(rng.randint(1, 3)):
        try:
            labels.append(_log_record_edit(seed, records, rng))
        except (TypeError, KeyError, IndexError, ValueError, AttributeError):
            labels.append("nothing")  # an earlier edit left nothing of the kind to edit
    try:
        data = _dump_records(records)
    except (ValueError, RecursionError):
        data = seed.data
    return seed, Mutant("data:" + "; ".join(labels), data)


class _Ambiguous(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out and _norm(out[k]) != _norm(v):
            raise _Ambiguous(k)  # readers that keep the first value see another log
        out[k] = v
    return out


def _norm(value: Any) -> Any:
    """A value as JSON means it: true is not 1, 1 is 1.0 (one JSON number), keys unordered."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("z",)
    if isinstance(value, list):
        return ("l", tuple(_norm(v) for v in value))
    return ("d", tuple(sorted((k, _norm(v)) for k, v in value.items())))


# The fields the referee judges (docs/game-log.schema.json); the others (header's agents
# and version, keys a record does not define) carry nothing a game depends on.
_JUDGED = {"header": ("type", "format", "ruleset", "hash", "seed", "hands", "view"),
           "action": ("type", "n", "seat", "action"), "event": ("type", "event"),
           "result": ("type", "returns", "actions", "state_sha256")}


def _record_meaning(record: Any, default_hands: int | None) -> Any:
    from rulesdsl.engine.base import Action
    from rulesdsl.errors import RulesdslError

    if not isinstance(record, dict) or record.get("type") not in _JUDGED:
        return _norm(record)
    kept = {k: v for k, v in record.items() if k in _JUDGED[record["type"]]}
    if record["type"] == "header" and kept.get("hands") is None:
        kept["hands"] = default_hands  # hands null or absent: the family's default
    if record["type"] == "action" and "action" in kept:
        try:  # one action written in other words ("♥6" for "H6", cards in another order)
            kept["action"] = {"parsed": Action.parse(kept["action"]).to_json()}
        except (RulesdslError, TypeError, ValueError):
            pass
    return _norm(kept)


def log_meaning(data: bytes, default_hands: int | None) -> tuple | None:
    """What a referee must judge in a log: its records in order, each with the fields that
    matter. None when the bytes are no well-formed log text (`why_no_log`)."""
    return _read_log(data, default_hands)[0]


def why_no_log(data: bytes) -> str:
    return _read_log(data, None)[1]


def _read_log(data: bytes, default_hands: int | None) -> tuple[tuple | None, str]:
    number = 0
    try:
        text = data.decode("utf-8")
        out = []
        for index, raw in enumerate(text.split("\n")):
            number = index + 1
            if not raw.strip():
                continue  # blank lines carry nothing
            # Whitespace at a line's ends (U+0085, U+2028, form feeds…) is no content.
            out.append(_record_meaning(json.loads(raw.strip(), object_pairs_hook=_pairs),
                                       default_hands))
        return tuple(out), ""
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte {exc.start}, line {data[:exc.start].count(10) + 1})"
    except _Ambiguous as exc:
        return None, f"line {number} gives the key {exc.args[0]!r} twice, with two values"
    except (ValueError, RecursionError) as exc:
        return None, f"line {number} is not JSON ({type(exc).__name__})"


def _plain(meaning: Any) -> Any:
    """A normalised value as JSON again (for messages)."""
    tag = meaning[0]
    if tag == "z":
        return None
    if tag == "l":
        return [_plain(v) for v in meaning[1]]
    if tag == "d":
        return {k: _plain(v) for k, v in meaning[1]}
    return meaning[1]


def _where(a: Any, b: Any, path: str) -> str:
    """The first place two normalised values differ, and how."""
    if a[0] == b[0] == "d":
        da, db = dict(a[1]), dict(b[1])
        for k in sorted(set(da) | set(db)):
            if k not in db:
                return f"{path}.{k} removed"
            if k not in da:
                return f"{path}.{k} added: {_short(_plain(db[k]))}"
            if da[k] != db[k]:
                return _where(da[k], db[k], f"{path}.{k}")
    if a[0] == b[0] == "l" and len(a[1]) == len(b[1]):
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            if x != y:
                return _where(x, y, f"{path}[{i}]")
    return f"{path}: {_short(_plain(a))} became {_short(_plain(b))}"


def first_difference(a: tuple | None, b: tuple | None) -> str:
    if a is None or b is None:
        return "the text is no well-formed log" if b is None else "the seed is no log"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return _where(x, y, f"record {i + 1}").replace(".parsed", "")
    return f"{len(a)} records became {len(b)}"


# ---------------------------------------------------------------- compiled rulesets

@dataclass(frozen=True)
class CompiledSeed:
    name: str
    data: bytes
    hash: str
    expression_paths: tuple[tuple, ...]  # inside "ruleset"


@lru_cache(maxsize=1)
def compiled_seeds() -> tuple[CompiledSeed, ...]:
    from rulesdsl.api import compiled_json

    exprs = {s.name: s.expression_paths for s in seeds()}
    out = []
    for name in ruleset_names():
        rs = ruleset(name)
        paths = tuple(p for p in exprs.get(name, ()) if _exists(rs.resolved, p))
        out.append(CompiledSeed(name, compiled_json(rs).encode("utf-8"), rs.hash, paths))
    return tuple(out)


def _honest(payload: dict[str, Any]) -> bytes | None:
    """The compiled JSON an honest compiler writes for this (mutated) ruleset, if it
    compiles at all: it must load again to the same hash."""
    from rulesdsl.api import compiled_json
    from rulesdsl.compiler.files import compile_document
    from rulesdsl.errors import RulesdslError
    from rulesdsl.language.yamlio import Document

    try:
        rs = compile_document(Document("mutant.json", json.loads(json.dumps(payload))))
        return compiled_json(rs).encode("utf-8")
    except RulesdslError:
        return None
    except Exception:  # a crash of the compiler: the check meets it again under the old hash
        return None


def mutate_compiled(rng: random.Random) -> tuple[CompiledSeed, Mutant]:
    seed = rng.choice(compiled_seeds())
    roll = rng.random()
    if roll < 0.03:
        return seed, Mutant("unmodified", seed.data)
    if roll < 0.45:
        data = seed.data
        labels = []
        for _ in range(rng.randint(1, 2)):
            label, data = mutate_json_text(data, rng)
            labels.append(label)
        return seed, Mutant("text:" + "; ".join(labels), data)
    wrapper = json.loads(seed.data)
    payload = wrapper["ruleset"]
    labels = []
    for _ in range(rng.randint(1, 3)):
        if seed.expression_paths and rng.random() < 0.25:
            path = rng.choice(seed.expression_paths)
            if _exists(payload, path):
                old = _get(payload, path)
                new = rng.choice([rng.choice(HOSTILE_STRINGS), random_text(rng, 40),
                                  _confuse(str(old), rng), f" {old} ", f"({old})"])
                _set(payload, path, new)
                labels.append(f"ruleset.{_show(path)}: {_short(old)} -> {_short(new)}")
                continue
        labels.append("ruleset." + mutate_value(payload, rng))
    how = rng.randrange(10)
    if how == 0:  # the attacker writes the hash of the changed content
        honest = _honest(payload)
        if honest is not None:
            return seed, Mutant("data:" + "; ".join(labels) + "; honest hash", honest,
                                must_pass=True)
    if how == 1:
        del wrapper["hash"]
        labels.append("del hash")
    elif how == 2:
        wrapper["hash"] = rng.choice(["", "0" * 64, seed.hash.upper(), None, 1, [seed.hash]])
        labels.append(f"hash -> {_short(wrapper['hash'])}")
    elif how == 3:
        key = rng.choice(["format", "language", "id", "version", "extends", "ruleset"])
        wrapper[key] = rng.choice([2, 0, "1", None, "../x.json", "guan-pai", [], {},
                                   hostile_value(rng)])
        labels.append(f"wrapper.{key} -> {_short(wrapper[key])}")
    elif how == 4:
        wrapper = payload  # a plain JSON rule file: no hash to hold it to
        labels.append("unwrapped")
    elif how == 5:
        payload["extends"] = rng.choice(["guan-pai", "../../etc/passwd", "/dev/zero", "x.json"])
        labels.append(f"ruleset.extends = {payload['extends']!r}")
    try:
        data = dumps(wrapper, indent=2, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        data = seed.data
    return seed, Mutant("data:" + "; ".join(labels), data)


def recorded_hash(data: bytes) -> tuple[str, Any]:
    """("wrapped", hash) for a compiled ruleset, ("plain", None) for a JSON rule file,
    ("invalid", why) for bytes no loader may accept."""
    try:
        value = json.loads(data.decode("utf-8"), object_pairs_hook=_strict_pairs)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return "invalid", f"{type(exc).__name__}: {exc}"[:200]
    if not isinstance(value, dict):
        return "invalid", "not an object"
    if "format" in value and "ruleset" in value:
        return "wrapped", value.get("hash")
    return "plain", None


def _strict_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


# ---------------------------------------------------------------- saved states

@dataclass(frozen=True)
class StateSeed:
    name: str  # "<ruleset>@<actions applied>"
    ruleset: str
    text: str
    actions: int  # how many actions of the seeded game led here
    hands: int


def _seed_game(name: str, hands: int) -> tuple[Any, random.Random]:
    return ruleset(name).new_game(seed=3, hands=hands), random.Random(f"state-seeds/{name}")


def live_state(seed: StateSeed) -> Any:
    """The state `seed.text` was saved from, played again (not restored)."""
    state, rng = _seed_game(seed.ruleset, seed.hands)
    for _ in range(seed.actions):
        state.apply(state.sample_action(rng))
    return state


@lru_cache(maxsize=1)
def state_seeds() -> tuple[StateSeed, ...]:
    """States along one seeded game of every bundled ruleset: the first state of every
    phase (of every hand) the game passes through, a few positions within, the end."""
    out = []
    for name in ruleset_names():
        hands = 2 if ruleset(name).family == "trick" else 1  # a trick match: a second deal
        state, rng = _seed_game(name, hands)
        phases_seen: set[Any] = set()
        n = 0
        while True:
            key = (state.phase, getattr(state, "hand_no", 0))
            if key not in phases_seen or n in (1, 2, 5, 17, 40, 90) or state.is_terminal():
                phases_seen.add(key)
                out.append(StateSeed(f"{name}@{n}", name, state.to_json(), n, hands))
            if state.is_terminal():
                break
            state.apply(state.sample_action(rng))
            n += 1
    return tuple(out)


def _hands_paths(data: dict[str, Any], deck_size: int) -> list[tuple[int, int]]:
    """(seat, kind) cells of count-vector hands."""
    hands = data.get("hands")
    if not isinstance(hands, list):
        return []
    return [(s, k) for s, h in enumerate(hands) if isinstance(h, list) and len(h) == deck_size
            for k in range(len(h))]


def _state_edit(seed: StateSeed, data: dict[str, Any],
                rng: random.Random) -> tuple[str, str | None]:
    """One data-level edit of a saved state (in place): what was done, and why the state
    is now impossible (a refusal is required) or None."""
    rs = ruleset(seed.ruleset)
    deck = list(rs.deck)
    cells = _hands_paths(data, len(deck))
    op = rng.randrange(12)
    if op == 0 and cells:  # move one card from a hand to another
        held = [(s, k) for s, k in cells if type(data["hands"][s][k]) is int
                and data["hands"][s][k] > 0]
        seats = sorted({s for s, _ in cells})
        if held and len(seats) > 1:
            s, k = rng.choice(held)
            t = rng.choice([x for x in seats if x != s])
            data["hands"][s][k] -= 1
            data["hands"][t][k] += 1
            # A card game's deal and plays fix what each seat holds (tiles: the draws do).
            return f"move card {k} from seat {s} to seat {t}", \
                None if rs.is_tiles else "a card moved between hands"
        return "nothing", None
    if op == 1 and cells:  # a card the deck does not have that many of
        s, k = rng.choice(cells)
        old = data["hands"][s][k]
        data["hands"][s][k] = deck[k] + rng.choice([1, 2, 100])
        return f"hands[{s}][{k}]: {old} -> {data['hands'][s][k]} (deck has {deck[k]})", \
            f"seat {s} holds more of card {k} than the deck has"
    if op == 2 and cells:  # a negative count
        s, k = rng.choice(cells)
        old = data["hands"][s][k]
        data["hands"][s][k] = rng.choice([-1, -3, -(2**63)])
        return f"hands[{s}][{k}]: {old} -> {data['hands'][s][k]}", "a negative card count"
    if op == 3 and cells:  # one more or one fewer copy of a card (conservation)
        s, k = rng.choice(cells)
        old = data["hands"][s][k]
        if type(old) is int:
            data["hands"][s][k] = old + rng.choice([-1, 1]) if old else 1
            return f"hands[{s}][{k}]: {old} -> {data['hands'][s][k]}", \
                "a card more or less than the deck has (conservation)"
        return "nothing", None
    if op == 4:  # seats
        keys = [k for k in ("to_act", "leader", "dealer", "deal_seat", "deal_start",
                            "first_leader") if k in data]
        if keys:
            key = rng.choice(keys)
            old = data[key]
            if rng.random() < 0.5:
                new = rng.choice([rs.players, rs.players + 3, -7, 2**31])
                data[key] = new
                return f"{key}: {_short(old)} -> {new}", f"{key} {new} is no seat"
            new = rng.choice([(old + 1) % rs.players if type(old) is int else 0, None, True,
                              "0", 1.5])
            data[key] = new
            return f"{key}: {_short(old)} -> {_short(new)}", None
    if op == 5 and "max_hands" in data:
        old = data["max_hands"]
        new = rng.choice([0, -3, -1, _BIG, 10**18, None, True, 1.5, "1"])
        data["max_hands"] = new
        return f"max_hands: {_short(old)} -> {_short(new)}", \
            "a hand count below 1" if new in (0, -3, -1) and new is not True else None
    if op == 6 and "hand_no" in data:
        old = data["hand_no"]
        new = rng.choice([-1, -3, old + 1 if type(old) is int else 1, 10**9, _BIG, None, "0"])
        data["hand_no"] = new
        return f"hand_no: {_short(old)} -> {_short(new)}", \
            "a negative hand number" if new in (-1, -3) else None
    if op == 7 and "phase" in data:
        old = data["phase"]
        new = rng.choice(["no-such-phase", "", "over", "play", "deal", "bury", "auction",
                          "turn", "claims", None, 1])
        data["phase"] = new
        return f"phase: {old!r} -> {new!r}", \
            f"phase {new!r} is no phase" if new in ("no-such-phase", "") else None
    if op == 8:  # a card list (kitty, wall, trick, discards) gets a card out of range
        lists = [p for p in _json_paths(data) if isinstance(_get(data, p), list)
                 and _get(data, p) and all(type(x) is int for x in _get(data, p))
                 and p[0] not in ("hands", "totals", "team_levels", "captured")]
        if lists:
            path = rng.choice(lists)
            items = _get(data, path)
            j = rng.randrange(len(items))
            old = items[j]
            items[j] = rng.choice([len(deck), 54, 99, -1, -55, _BIG])
            return f"{_show(path)}[{j}]: {old} -> {_short(items[j])}", None
    if op == 9 and isinstance(data.get("log"), list) and data["log"]:
        how = rng.randrange(3)
        if how == 0:
            del data["log"][rng.randrange(len(data["log"])):]
            return "log cut", None
        desc = mutate_value(data["log"], rng)
        return f"log{desc if desc.startswith('[') else ' ' + desc}", None
    if op == 10:  # the identity of the state
        key = rng.choice(["format", "family", "ruleset"])
        old = data.get(key)
        new = rng.choice([None, 2, "trick", "shedding", "tiles", "", "0" * 64])
        if new == old:
            return "nothing", None
        data[key] = new
        return f"{key}: {_short(old)} -> {_short(new)}", f"another {key}"
    return mutate_value(data, rng), None


WHOLE_STATES: list[str] = [
    "", " ", "null", "[]", "{}", "0", '"text"', "[" * DEEP + "]" * DEEP,
    '{"format":' + "[" * DEEP + "]" * DEEP + "}", "1" * BIG_DIGITS, "NaN", "\x00",
    '{"format": 1, "family": "trick"}', "{" * 1000, "x" * 2_000_000,
]


def mutate_state(rng: random.Random) -> tuple[StateSeed, Mutant]:
    seed = rng.choice(state_seeds())
    roll = rng.random()
    if roll < 0.03:
        return seed, Mutant("unmodified", seed.text.encode())
    if roll < 0.06:
        i = rng.randrange(len(WHOLE_STATES))
        return seed, Mutant(f"whole:{i}", WHOLE_STATES[i].encode("utf-8", "surrogatepass"))
    if roll < 0.35:
        data = seed.text.encode()
        labels = []
        if rng.random() < 0.3:  # spread over lines, so line edits have lines to work on
            data = json.dumps(json.loads(seed.text), indent=1, sort_keys=True).encode()
            labels.append("indented")
        for _ in range(rng.randint(1, 2)):
            label, data = mutate_json_text(data, rng, lines_too=b"\n" in data)
            labels.append(label)
        return seed, Mutant("text:" + "; ".join(labels), data)
    data_ = json.loads(seed.text)
    labels = []
    whys = []
    for _ in range(rng.randint(1, 2) if rng.random() < 0.4 else 1):
        try:
            label, why = _state_edit(seed, data_, rng)
        except (TypeError, KeyError, IndexError, ValueError, AttributeError):
            label, why = "nothing", None  # an earlier edit left nothing of the kind
        labels.append(label)
        whys.append(why)
    # A refusal is required after one edit only: a second one may undo the first (a card
    # moved back, a count set right again).
    impossible = whys[0] if len(whys) == 1 else None
    try:
        text = dumps(data_, sort_keys=True, separators=(",", ":"))
    except (ValueError, RecursionError):
        text, impossible = seed.text, None
    return seed, Mutant("data:" + "; ".join(labels), text.encode("utf-8", "surrogatepass"),
                        impossible=impossible)


MUTATORS: dict[str, Callable[[random.Random], tuple[Any, Mutant]]] = {
    "logs": mutate_log, "compiled": mutate_compiled, "states": mutate_state}
