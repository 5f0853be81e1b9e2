"""Hostile variants of the bundled rulesets, at the YAML text level and at the data level.

Every mutator takes a `random.Random` (hypothesis hands one in through `st.randoms()`,
the long run seeds its own) and returns the bytes of a rule file. Nothing here names a
game: the seeds are whatever files live under rulesets/, and the expression fields are
the paths the compiler itself parsed as expressions.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
SEEDS = sorted((ROOT / "rulesets").rglob("*.yaml"))

Path_ = tuple[Any, ...]


@dataclass(frozen=True)
class Seed:
    name: str
    text: str
    data: dict[str, Any]
    expression_paths: tuple[Path_, ...]
    paths: tuple[Path_, ...]  # every value in the document
    json: str  # the data as JSON, to copy it quickly


def _all_paths(value: Any, path: Path_ = ()) -> list[Path_]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_all_paths(v, path + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_all_paths(v, path + (i,)))
    return out


def _expression_paths(path: Path) -> tuple[Path_, ...]:
    """The YAML paths the compiler parsed as expressions in this file."""
    from rulesdsl.compiler.core import _Compiler
    from rulesdsl.compiler.files import load_merged

    compiler = _Compiler(load_merged(path))
    compiler.compile()
    return tuple(sorted(compiler.normalised, key=repr))


@lru_cache(maxsize=1)
def seeds() -> tuple[Seed, ...]:
    out = []
    for p in SEEDS:
        text = p.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        out.append(Seed(p.stem, text, data, _expression_paths(p), tuple(_all_paths(data)),
                        json.dumps(data)))
    return tuple(out)


# ---------------------------------------------------------------- hostile values

CONFUSABLES = {
    "a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445",
    "i": "\u0456", "s": "\u0455", "0": "\uff10", "1": "\uff11", "2": "\uff12", "5": "\uff15",
    "9": "\uff19", "=": "\uff1d", "(": "\uff08", " ": "\u3000", "-": "\u2212",
}
INVISIBLES = ["\u200d", "\u200b", "\u200c", "\u200e", "\u200f", "\u202e", "\u2066", "\ufeff",
              "\u00ad", "\u2028", "\u0085", "\x00", "\x1b", "\x7f"]
HUGE_NUMBERS: list[Any] = [10**100, -1, 2**63, 2**63 - 1, -(2**63), 2**31, 0, 10**6 + 1,
                           1e308, float("inf"), float("-inf"), float("nan"), 0.5, -0.0, True]
HOSTILE_STRINGS = [
    "", " ", "(", ")", "((((((((((", "'", '"', "\\", "a" * 3000, "1" * 500, "not " * 200 + "a",
    "__import__('os').system('echo pwned')", "open('/etc/passwd').read()", "lambda: 0",
    "exec", "eval('1')", "a.__class__.__mro__", "rank ** rank ** rank ** 99",
    "9 ** 9 ** 9 ** 9", "10 ** 100000", "2 ** 2 ** 2 ** 2 ** 2 ** 2", "1 / 0", "1 // 0",
    "1 % 0", "-(-(-(-(-(-1)))))", "[" * 40 + "]" * 40, "[1,2,3][0]", "x if y else z",
    "rank == 5 and", "rank in []", "rank in [" + ", ".join(["1"] * 900) + "]",
    "count(rank == rank) == 1", "len(" * 30 + "x" + ")" * 30, "♠A == ♥Ｋ", "suit == 'H'",
    "rank == ５", "ｒａｎｋ == 5", "r\u0430nk == 5", "rank\u200d == 5", "\u202erank == 5",
    "true", "false", "null", "none", "None", "NaN", "inf", "-inf", "0x10", "1e999", "1_000",
    "$x", "@x", "`x`", "x;y", "x\ny", "rank == 5 # comment", "'unterminated",
]


def _confuse(text: str, rng: random.Random) -> str:
    chars = list(text)
    if not chars:
        return rng.choice(INVISIBLES)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars))
        choice = rng.random()
        if choice < 0.5 and chars[i] in CONFUSABLES:
            chars[i] = CONFUSABLES[chars[i]]
        elif choice < 0.8:
            chars.insert(i, rng.choice(INVISIBLES))
        else:
            lowered = [k for k in CONFUSABLES if k in chars]
            if lowered:
                c = rng.choice(lowered)
                j = chars.index(c)
                chars[j] = CONFUSABLES[c]
    return "".join(chars)


def random_text(rng: random.Random, size: int = 20) -> str:
    alphabet = ("abcdefghijklmnopqrstuvwxyz_0123456789 ()[]'\".,=<>!+-*/%&|^~{}:#"
                "\u0430\uff10\u200d\u202e♠♥♦♣王")
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, size)))


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A value of a random type (str, int, float, bool, null, list, mapping)."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return rng.choice(HOSTILE_STRINGS)
    if kind == 1:
        return random_text(rng)
    if kind == 2:
        return rng.choice(HUGE_NUMBERS)
    if kind == 3:
        return rng.randint(-3, 70)
    if kind == 4:
        return None
    if kind == 5:
        return rng.choice([True, False])
    if kind == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == 7:
        return {random_text(rng, 8) or "k": random_value(rng, depth + 1)
                for _ in range(rng.randint(0, 3))}
    return {}


def swapped_type(value: Any, rng: random.Random) -> Any:
    """The same information in another YAML type: str↔int↔list↔dict↔null."""
    choices: list[Callable[[], Any]] = [
        lambda: None,
        lambda: str(value),
        lambda: [value],
        lambda: {"value": value},
        lambda: {str(value): value} if not isinstance(value, (dict, list)) else {},
        lambda: rng.choice(HUGE_NUMBERS),
        lambda: list(value.values()) if isinstance(value, dict) else 7,
        lambda: value[0] if isinstance(value, list) and value else "",
        lambda: len(str(value)),
        lambda: not value,
    ]
    return rng.choice(choices)()


def nested(depth: int, rng: random.Random) -> Any:
    value: Any = rng.choice(["x", 1, None])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"k": value}
    return value


# ---------------------------------------------------------------- data level


def _get(data: Any, path: Path_) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: Path_, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _delete(data: Any, path: Path_) -> None:
    parent = _get(data, path[:-1])
    del parent[path[-1]]


# libyaml's emitter when PyYAML has it: the data-level mutations dump on every input.
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False, width=10_000)


def mutate_data(seed: Seed, rng: random.Random, expression: str | None = None) -> bytes:
    """Load → mutate one to three values → dump."""
    data = json.loads(seed.json)  # a fresh copy, faster than deepcopy
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _all_paths(data) if p]
        exprs = [p for p in seed.expression_paths if _exists(data, p)]
        path = rng.choice(paths)
        op = rng.randrange(10)
        try:
            if op == 0:
                _delete(data, path)
            elif op == 1:
                _set(data, path, swapped_type(_get(data, path), rng))
            elif op in (2, 3) and exprs:
                target = rng.choice(exprs)
                text = expression if expression is not None and rng.random() < 0.7 else None
                if text is None:
                    text = rng.choice([rng.choice(HOSTILE_STRINGS), random_text(rng, 40),
                                       _confuse(str(_get(data, target)), rng)])
                _set(data, target, text)
            elif op == 4:
                leaves = [p for p in paths if isinstance(_get(data, p), (int, float))]
                _set(data, rng.choice(leaves or paths), rng.choice(HUGE_NUMBERS))
            elif op == 5:
                _set(data, path, nested(rng.randint(10, 90), rng))
            elif op == 6:
                strs = [p for p in paths if isinstance(_get(data, p), str)]
                if strs:
                    p = rng.choice(strs)
                    _set(data, p, _confuse(_get(data, p), rng))
            elif op == 7:  # rename a key to a confusable or random word
                parent_path = path[:-1]
                parent = _get(data, parent_path)
                if isinstance(parent, dict):
                    new = _confuse(str(path[-1]), rng) if rng.random() < 0.6 \
                        else random_text(rng, 10)
                    parent[new] = parent.pop(path[-1])
            elif op == 8:  # grow a list
                lists = [p for p in paths if isinstance(_get(data, p), list) and _get(data, p)]
                if lists:
                    p = rng.choice(lists)
                    items = _get(data, p)
                    items.extend(copy.deepcopy(items) * rng.choice([2, 10, 200]))
            else:
                _set(data, path, random_value(rng))
        except (KeyError, IndexError, TypeError):
            pass
    if rng.random() < 0.05:
        data = rng.choice([list(data.items())[:3], data.get("id"), [data], 42, None])
    try:
        text = dump(data)
    except (yaml.YAMLError, ValueError, OverflowError):
        text = seed.text
    return text.encode("utf-8", "surrogatepass")


def _exists(data: Any, path: Path_) -> bool:
    try:
        _get(data, path)
        return True
    except (KeyError, IndexError, TypeError):
        return False


# ---------------------------------------------------------------- text level

BILLION_LAUGHS = (
    "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
)
MAPPING_LAUGHS = (
    "x1: &x1 {a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1}\n"
    "x2: &x2 {a: *x1, b: *x1, c: *x1, d: *x1, e: *x1, f: *x1, g: *x1, h: *x1}\n"
    "x3: &x3 {a: *x2, b: *x2, c: *x2, d: *x2, e: *x2, f: *x2, g: *x2, h: *x2}\n"
    "x4: &x4 {a: *x3, b: *x3, c: *x3, d: *x3, e: *x3, f: *x3, g: *x3, h: *x3}\n"
    "x5: &x5 {a: *x4, b: *x4, c: *x4, d: *x4, e: *x4, f: *x4, g: *x4, h: *x4}\n"
    "x6: {<<: [*x5, *x4], z: *x5}\n"
)
WHOLE_FILES: list[bytes] = [
    b"", b" ", b"\n\n\n", b"# only a comment\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n",
    b"---\n", b"---\n...\n", b"~\n", b"null\n", b"42\n", b"3.5\n", b"true\n", b"'text'\n",
    b"- a\n- b\n", b"[]\n", b"{}\n", b"[language, 1]\n", b"- {language: 1}\n",
    b"!!binary aGVsbG8=\n", b"!!set {a, b}\n", b"!!omap [a: 1]\n", b"!custom {}\n",
    b"%YAML 1.1\n---\na: 1\n", b"%TAG ! tag:evil.com,2000:\n---\n!x a: 1\n",
    b"a: 1\n---\nb: 2\n", b"? [a, b]\n: c\n", b"? {a: b}\n: c\n", b"[a]: b\n",
    b"a: *undefined\n", b"a: &x\n  b: *x\n", b"&x a: *x\n", b"a: &x [*x]\n",
    b"\xff\xfe\x00a\x00:\x00 \x001\x00", b"\xfe\xff\x00a", b"a: \xc3\x28\n", b"\x00\x00\x00",
    b"\ta: 1\n", b"a:\n\t- 1\n", b"a: 'unterminated\n", b'a: "\\x\n', b"a: [1, 2\n",
    b"a: {b: 1\n", b"a: |\n  x\n b: 1\n", b"key: value: other\n", b"- a\nb: 1\n",
    b"a: !!python/object/apply:os.system ['echo pwned']\n",
    b"a: !!python/name:os.system\n", b"!!python/object/new:tuple [[1]]\n",
    b"a: " + b"[" * 200 + b"]" * 200 + b"\n", b"a: " + b"{b: " * 120 + b"1" + b"}" * 120,
    b"a:\n" + b"".join(b"  " * i + b"- \n" for i in range(1, 100)),
    BILLION_LAUGHS.encode(), MAPPING_LAUGHS.encode(),
    b"a: " + b"9" * 5000 + b"\n", b"a: 0x" + b"f" * 60 + b"\n", b"a: 1e999999\n",
    b"a: 0b" + b"1" * 200 + b"\n", b"a: 1:2:3:4:5:6:7:8:9\n", b"a: 2001-13-45\n",
    b"a: .nan\nb: .inf\n", b"\\u202e: 1\n", "\u202eid: x\n".encode(),
    "ｌａｎｇｕａｇｅ: １\n".encode(), b"x" * 2_000_000, b"a: b\n" * 60_000,
    b"- " * 30_000, b"[" + b"1," * 60_000 + b"1]",
]


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def mutate_text(seed: Seed, rng: random.Random) -> bytes:
    """Edit the file's text: lines, bytes, indentation, anchors, tags, encodings."""
    text = seed.text
    for _ in range(rng.randint(1, 3)):
        lines = _lines(text)
        op = rng.randrange(16)
        i = rng.randrange(len(lines)) if lines else 0
        if op == 0 and lines:  # a duplicate key: repeat a line
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif op == 1 and lines:
            del lines[i:i + rng.randint(1, 5)]
        elif op == 2 and lines:  # tabs for indentation
            stripped = lines[i].lstrip(" ")
            indent = len(lines[i]) - len(stripped)
            lines[i] = "\t" * max(1, indent // 2) + stripped
        elif op == 3:
            lines.insert(0, rng.choice([BILLION_LAUGHS, MAPPING_LAUGHS]))
        elif op == 4 and lines:  # an anchor on one value, an alias elsewhere
            j = rng.randrange(len(lines))
            if ": " in lines[i]:
                key, _, rest = lines[i].partition(": ")
                lines[i] = f"{key}: &anc {rest}"
                if ": " in lines[j] and j > i:
                    k2, _, _ = lines[j].partition(": ")
                    lines[j] = f"{k2}: *anc\n"
                else:
                    lines.append("extra: *anc\n")
        elif op == 5:
            return ("\ufeff" * rng.randint(1, 2)).encode() + text.encode()
        elif op == 6:  # bytes that are not UTF-8
            raw = bytearray(text.encode())
            pos = rng.randrange(len(raw) + 1)
            raw[pos:pos] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80",
                                       b"\x00", b"\xe2\x80"])
            return bytes(raw)
        elif op == 7 and lines:  # a YAML tag in front of a value
            if ": " in lines[i]:
                key, _, rest = lines[i].partition(": ")
                tag = rng.choice(["!!python/object/apply:os.system", "!!binary", "!!set",
                                  "!!omap", "!!pairs", "!custom", "!!str", "!!int", "!!float",
                                  "!!map", "!!seq", "!!null", "!!bool", "!!timestamp"])
                lines[i] = f"{key}: {tag} {rest}"
        elif op == 8 and lines:
            lines[i] = _confuse(lines[i], rng)
        elif op == 9:  # random byte-level noise
            raw = bytearray(text.encode())
            for _ in range(rng.randint(1, 8)):
                if not raw:
                    break
                pos = rng.randrange(len(raw))
                raw[pos] = rng.randrange(256)
            return bytes(raw)
        elif op == 10:
            text = text[:rng.randrange(len(text) + 1)]
            continue
        elif op == 11 and lines:  # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 12 and lines:  # re-indent a line
            lines[i] = " " * rng.choice([1, 3, 5, 40]) + lines[i]
        elif op == 13:
            lines.insert(i, rng.choice(["---\n", "...\n", "%YAML 1.2\n", "? complex\n",
                                        "<<: *nothing\n", "<<: 5\n", "<<: [1, 2]\n",
                                        "'': empty\n", "~: null key\n", "? [a]\n: b\n"]))
        elif op == 14 and lines:  # a duplicated section
            j = min(len(lines), i + rng.randint(2, 30))
            lines[j:j] = lines[i:j]
        else:  # a random line
            lines.insert(i, random_text(rng, 60) + "\n")
        text = "".join(lines)
    return text.encode("utf-8", "surrogatepass")


def whole_file(rng: random.Random) -> bytes:
    return rng.choice(WHOLE_FILES)


def any_mutation(rng: random.Random, expression: str | None = None) -> tuple[str, bytes]:
    """A label (for reports) and the bytes of one hostile file."""
    seed = rng.choice(seeds())
    roll = rng.random()
    if roll < 0.45:
        return f"data:{seed.name}", mutate_data(seed, rng, expression)
    if roll < 0.95:
        return f"text:{seed.name}", mutate_text(seed, rng)
    return "whole", whole_file(rng)
