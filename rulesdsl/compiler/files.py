"""Reading rule files: YAML or compiled JSON, bundled ids, `extends` chains; then
compiling the merged document."""

from __future__ import annotations

import copy
import json
import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import code_problems
from ..errors import Problem, RulesdslError, RulesetError, did_you_mean, spell, spell_choice
from ..language.merge import merge_documents
from ..language.structure import check_structure
from ..language.yamlio import MAX_FILE_BYTES, Document, load_yaml
from ..model.order_memo import OrderMemo, order_memo_of
from ..model.ruleset import Ruleset
from ..resources import bundled_rulesets
from .core import FORMAT_VERSION, _Compiler
from .limits import MAX_EXTENDS_DEPTH
from .recovery import kept, set_aside
from .schema import ruleset_schema


def read_document(path: str | Path, text: str | None = None) -> Document:
    """A rule file's document. Only a regular file is read (never a device, a FIFO or a
    /proc entry, which could block or never end), and never more than the size bound.
    `text` is the file's content as an editor holds it (not read from disk)."""
    p = Path(path)
    if text is not None:
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > MAX_FILE_BYTES:
            raise RulesetError([Problem(str(p), 1, 1, "", f"the file is larger than "
                                        f"{MAX_FILE_BYTES} bytes (max file size)")])
    else:
        data = read_bounded(p, MAX_FILE_BYTES)
    if p.suffix == ".json":
        return _json_document(data, str(path))
    return load_yaml(data, str(path))


def read_bounded(p: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, else a located problem."""
    def refuse(message: str, **kw: Any) -> RulesetError:
        return RulesetError([Problem(str(p), 1, 1, "", message, **kw)])

    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise refuse("file not found",
                     expected="a path to a .yaml rule file or a bundled id") from None
    except IsADirectoryError:
        raise refuse("is a folder, not a file") from None
    except OSError as exc:
        raise refuse(f"cannot read file: {exc.strerror}") from None
    mode = os.fstat(fd).st_mode  # before fdopen, which refuses a folder itself
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise refuse("is a folder, not a file")
        raise refuse("is not a regular file (a device, pipe or socket is never read)",
                     expected="a .yaml or .json rule file")
    chunks: list[bytes] = []
    got = 0
    with os.fdopen(fd, "rb") as f:
        try:
            # In chunks: read(limit + 1) would allocate the whole bound for a small file.
            while got <= limit:
                chunk = f.read(min(1 << 16, limit + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        except OSError as exc:
            raise refuse(f"cannot read file: {exc.strerror}") from None
    data = b"".join(chunks)
    if len(data) > limit:
        raise refuse(f"the file is larger than {limit} bytes (max file size)")
    return data


@dataclass
class JsonDocument(Document):
    """A compiled ruleset's document. Positions are read only when a problem is located
    (a valid compiled file loads without them): its text composed as YAML, a superset of
    the JSON it already is, within `prefix` (the `ruleset` object of a compiled file)."""

    text: str = ""
    prefix: tuple = ()
    located: bool = False

    def mark(self, path: Any, *, key: bool = False) -> Any:
        if not self.located:
            self.located = True
            try:
                found = load_yaml(self.text, self.file)
            except RulesetError:
                found = None  # the positions stay unknown: 1:1
            if found is not None:
                n = len(self.prefix)
                self.values = {p[n:]: m for p, m in found.values.items()
                               if p[:n] == self.prefix}
                self.keys = {p[n:]: m for p, m in found.keys.items()
                             if p[:n] == self.prefix}
        return super().mark(path, key=key)


def _json_document(data: bytes, file: str) -> Document:
    try:
        payload = json.loads(data.decode("utf-8"), object_pairs_hook=no_duplicate_keys,
                             parse_constant=_no_constant, parse_float=_finite_float)
    except DuplicateKey as exc:
        located = None
        try:
            load_yaml(data, file)  # the YAML reader refuses the duplicate at its position
        except RulesetError as problem:
            located = problem
        if located is not None and any("duplicate" in p.message for p in located.problems):
            raise located from None
        raise RulesetError([Problem(file, 1, 1, "", f"duplicate key {exc.key!r}",
                                    expected="each key once in an object")]) from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        line = getattr(exc, "lineno", 1)
        col = getattr(exc, "colno", 1)
        what = exc.msg if isinstance(exc, json.JSONDecodeError) else \
            str(exc) if isinstance(exc, ValueError) and len(str(exc)) < 80 else \
            type(exc).__name__
        raise RulesetError([Problem(file, line, col, "", f"invalid JSON: {what}")]) from None
    claimed = None
    if isinstance(payload, dict) and "format" in payload and "ruleset" in payload:
        if payload.get("format") != FORMAT_VERSION:
            raise RulesetError([Problem(file, 1, 1, "format",
                                        f"compiled format {payload.get('format')!r} is not "
                                        "supported", expected=f"format {FORMAT_VERSION}")])
        claimed = payload.get("hash")
        if not isinstance(claimed, str):
            raise RulesetError([Problem(file, 1, 1, "hash", "a compiled ruleset carries its "
                                        "content hash", expected="the hash `rulesdsl "
                                        "compile` wrote")])
        payload = payload["ruleset"]
    return JsonDocument(file, payload, claimed_hash=claimed, text=data.decode("utf-8"),
                        prefix=("ruleset",) if claimed is not None else ())


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number of strict JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


class DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(k)
        out[k] = v
    return out


def resolve_source(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    """A bundled id or a path to a file (given by the user: not confined)."""
    text = str(name_or_path)
    candidate = Path(text)
    if relative_to is not None and not candidate.is_absolute():
        rel = relative_to.parent / candidate
        if rel.exists():
            return rel
    if candidate.exists():
        return candidate
    bundled = bundled_rulesets()
    if text in bundled:
        return bundled[text]
    raise KeyError(text)


def resolve_confined(ref: str, folder: Path) -> Path:
    """What a file names (`extends:`, a log's ruleset): a bundled id, or a path inside
    `folder` (no absolute path, no way out through `..` or a symbolic link). Set
    RULESDSL_EXTENDS_ANYWHERE=1 to allow any path on purpose. KeyError: no such ruleset;
    PermissionError: the path leaves the folder."""
    bundled = bundled_rulesets()
    candidate = Path(ref)
    if os.environ.get("RULESDSL_EXTENDS_ANYWHERE") == "1":
        path = candidate if candidate.is_absolute() else folder / candidate
        if path.exists():
            return path
        if ref in bundled:
            return bundled[ref]
        raise KeyError(ref)
    if not candidate.is_absolute() and ".." not in candidate.parts:
        path = folder / candidate
        if path.exists():
            try:
                path.resolve().relative_to(folder.resolve())
            except ValueError:
                raise PermissionError(ref) from None
            return path
    if ref in bundled:
        return bundled[ref]
    if candidate.is_absolute() or ".." in candidate.parts:
        raise PermissionError(ref)
    raise KeyError(ref)


def load_merged(path: Path, chain: tuple[str, ...] = (), text: str | None = None,
                read: Document | None = None) -> Document:
    """Read a file (or take its `text`, or the document `read` from it already) and merge
    it over what it extends."""
    doc = read if read is not None else read_document(path, text)
    if not isinstance(doc.data, dict):
        kind = "a list" if isinstance(doc.data, list) else "a single value"
        raise RulesetError([doc.problem((), f"the file holds {kind}",
                                        expected="a mapping of ruleset keys (language, id, ...)")])
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        return doc
    if doc.claimed_hash is not None:
        raise RulesetError([doc.problem(("extends",), "a compiled ruleset is already merged: "
                                        "it extends nothing", expected="no extends")])
    if not isinstance(parent_ref, str):
        raise RulesetError([doc.problem(("extends",), "extends must name a ruleset",
                                        expected="a bundled id or a relative path")])
    key = str(path.resolve())
    if key in chain:
        raise RulesetError([doc.problem(("extends",), "rulesets extend each other in a cycle",
                                        expected="a chain that ends")])
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise RulesetError([doc.problem(("extends",), f"extends chain is deeper than "
                                        f"{MAX_EXTENDS_DEPTH} (max extends depth)")])
    try:
        parent_path = resolve_confined(parent_ref, path.parent)
    except PermissionError:
        raise RulesetError([doc.problem(("extends",), f"{parent_ref!r} is outside this file's "
                                        "folder", expected="a bundled id or a path inside "
                                        "this file's folder (RULESDSL_EXTENDS_ANYWHERE=1 "
                                        "allows any path)")]) from None
    except KeyError:
        raise RulesetError([doc.problem(("extends",), f"no ruleset named {parent_ref!r}",
                                        expected="a bundled id or a path relative to this file",
                                        suggestion=did_you_mean(parent_ref,
                                                                bundled_rulesets()))]) from None
    parent = load_merged(parent_path, chain + (key,))
    return merge_documents(parent, doc)


def diagnose_file(path: str | Path, text: str | None = None, read: Document | None = None) \
        -> tuple[Ruleset | None, list[Problem]]:
    """Every problem of a rule file at once, each with its code: reading, then the
    structure and the compiler together. Where the structure is wrong the compiler still
    reads the rest: the wrong values are set aside, and what it finds at or above them
    (their consequences) is left out. The ruleset when there is no error. `read`: the
    file's document when the caller has read it already (it is compiled, so not reused)."""
    p = Path(path)
    try:
        doc = load_merged(p, text=text, read=read)
    except RulesetError as exc:
        return None, code_problems(exc.problems, "read")
    if not isinstance(doc.data, dict):
        return None, code_problems([doc.problem((), "the file does not hold a mapping",
                                                expected="a mapping of ruleset keys")],
                                   "structure")
    structure = code_problems(check_structure(doc, ruleset_schema()), "structure")
    if not structure:
        try:
            ruleset = _compile_structured(doc)  # compile_document less the check just made
        except RulesetError as exc:
            return None, code_problems(exc.problems, "compile")
        if doc.claimed_hash is not None and doc.claimed_hash != ruleset.hash:
            return None, code_problems([_changed_after_compiling(p)], "read")
        return ruleset, code_problems(ruleset.warnings, "compile")  # type: ignore[attr-defined]
    data = set_aside(doc.data, ruleset_schema(), structure)
    if data is None:
        return None, structure
    rest = Document(doc.file, data, doc.values, doc.keys, doc.claimed_hash)
    try:
        _compile_structured(rest)
        found: list[Problem] = []
    except RulesetError as exc:
        found = code_problems(exc.problems, "compile")
    except Exception:  # noqa: BLE001 - a stand-in value can stop any later step; the
        found = []      # structure problems already say what to mend first
    return None, structure + kept(found, structure)


def _changed_after_compiling(p: Path) -> Problem:
    return Problem(str(p), 1, 1, "hash", "the compiled ruleset's content does not match "
                   "its hash (changed after compiling)",
                   expected="a file as `rulesdsl compile` wrote it")


def compile_file(path: str | Path, text: str | None = None) -> Ruleset:
    """Compile a rule file; `text` stands for its content (an editor's unsaved buffer)."""
    p = Path(path)
    doc = load_merged(p, text=text)
    claimed = doc.claimed_hash
    ruleset = compile_document(doc)
    if claimed is not None and claimed != ruleset.hash:
        raise RulesetError([_changed_after_compiling(p)])
    return ruleset


def compile_document(doc: Document, shared: OrderMemo | None = None) -> Ruleset:
    if not isinstance(doc.data, dict):
        raise RulesetError([doc.problem((), "the file does not hold a mapping",
                                        expected="a mapping of ruleset keys")])
    problems = check_structure(doc, ruleset_schema())
    if problems:
        raise RulesetError(problems)
    return _compile_structured(doc, shared)


def _compile_structured(doc: Document, shared: OrderMemo | None = None) -> Ruleset:
    """Compile a document whose structure was checked (or set aside where wrong);
    `shared`: the order memo of a compile of the same file (model/order_memo.py)."""
    # JSON Schema counts 2.0 (and -0.0) as an integer; the compiler counts and indexes
    # with these values, so they become the ints they equal.
    doc.data = _whole_floats_as_ints(doc.data)
    compiler = _Compiler(doc)
    compiler.shared_order_memo = shared
    ruleset = compiler.compile()
    errors = [p for p in compiler.problems if p.severity == "error"]
    if errors:
        raise RulesetError(compiler.problems)
    ruleset.warnings = [p for p in compiler.problems if p.severity != "error"]  # type: ignore
    ruleset.variant = compile_variant
    return ruleset


def _whole_floats_as_ints(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_floats_as_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_floats_as_ints(v) for v in value]
    return value


def compile_with_options(ruleset: Ruleset, options: dict[str, Any]) -> Ruleset:
    """The same rule file compiled with other option defaults (an example's options)."""
    doc = ruleset.document
    if doc is None or not isinstance(doc.data, dict):
        raise RulesetError([Problem(ruleset.id, 1, 1, "options",
                                    "this ruleset has no document to compile again")])
    # A copy of the path to each default only: the compiler works on its own copy of the
    # whole (_whole_floats_as_ints), so the first compile's document is never written.
    data = dict(doc.data)
    if options:
        declared = data["options"] = dict(data.get("options") or {})
        for name, value in options.items():
            spec = declared[name] = dict(declared.get(name) or {})
            spec["default"] = value
    # The order is evaluated again for every context: what it reads of options that
    # are the same is shared with the first compile (model/order_memo.py).
    return compile_document(Document(doc.file, data, doc.values, doc.keys),
                            order_memo_of(ruleset))


def compile_variant(ruleset: Ruleset, players: int | None = None,
                    options: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset for another of its player counts and other option values, chosen at
    play time (`new_game(players=3, options={...})`): the rule file compiled again with
    that count first and those defaults, so every check runs for them. Refused, naming
    what the file offers, when the count or a value is not one of its own."""
    options = dict(options or {})
    declared = (ruleset.document.data.get("options", {})
                if ruleset.document is not None and isinstance(ruleset.document.data, dict)
                else {})
    for name, value in options.items():
        if name not in declared:
            offered = ", ".join(sorted(declared)) or "no options"
            raise RulesdslError(f"{ruleset.id} has no option {name!r} (it offers {offered})")
        choices = declared[name].get("choices")
        if choices is not None and value not in choices:
            raise RulesdslError(f"option {name} of {ruleset.id} is one of "
                                f"{', '.join(map(spell_choice, choices))}, not {spell(value)}")
    if players is not None and players not in ruleset.player_counts:
        raise RulesdslError(f"{ruleset.id} is played by "
                            f"{' or '.join(map(str, ruleset.player_counts))} players, "
                            f"not {players!r}")
    key = (players, tuple(sorted((k, repr(v)) for k, v in options.items())))
    known = ruleset.__dict__.setdefault("_variants", {})
    if key not in known:
        if players in (None, ruleset.players) and all(
                ruleset.options.get(k) == v for k, v in options.items()):
            known[key] = ruleset
        else:
            doc = ruleset.document
            if doc is None or not isinstance(doc.data, dict):
                raise RulesdslError(f"{ruleset.id} holds no rule file to compile again for "
                                    "other players or options")
            data = copy.deepcopy(doc.data)
            for name, value in options.items():
                data["options"][name]["default"] = value
            if players is not None:
                data["players"]["count"] = [players] + [c for c in ruleset.player_counts
                                                        if c != players]
            known[key] = compile_document(Document(doc.file, data, doc.values, doc.keys))
    return known[key]
