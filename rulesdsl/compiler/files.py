"""Reading rule files: YAML or compiled JSON, bundled ids, `extends` chains; then
compiling the merged document."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from ..errors import Problem, RulesetError, did_you_mean
from ..language.merge import merge_documents
from ..language.structure import check_structure
from ..language.yamlio import Document, load_yaml
from ..model.ruleset import Ruleset
from ..resources import bundled_rulesets
from .core import FORMAT_VERSION, _Compiler
from .limits import MAX_EXTENDS_DEPTH
from .schema import ruleset_schema


def read_document(path: str | Path) -> Document:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise RulesetError([Problem(str(path), 1, 1, "", "file not found",
                                    expected="a path to a .yaml rule file or a bundled id")]) \
            from None
    except IsADirectoryError:
        raise RulesetError([Problem(str(path), 1, 1, "", "is a folder, not a file")]) from None
    except OSError as exc:
        raise RulesetError([Problem(str(path), 1, 1, "", f"cannot read file: {exc.strerror}")]) \
            from None
    if p.suffix == ".json":
        return _json_document(data, str(path))
    return load_yaml(data, str(path))


def _json_document(data: bytes, file: str) -> Document:
    try:
        payload = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        line = getattr(exc, "lineno", 1)
        col = getattr(exc, "colno", 1)
        raise RulesetError([Problem(file, line, col, "", f"invalid JSON: {exc}")]) from None
    if isinstance(payload, dict) and "format" in payload and "ruleset" in payload:
        if payload.get("format") != FORMAT_VERSION:
            raise RulesetError([Problem(file, 1, 1, "format",
                                        f"compiled format {payload.get('format')!r} is not "
                                        "supported", expected=f"format {FORMAT_VERSION}")])
        payload = payload["ruleset"]
    return Document(file, payload)


def resolve_source(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    """A bundled id or a path to a file."""
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


def load_merged(path: Path, chain: tuple[str, ...] = ()) -> Document:
    """Read a file and merge it over what it extends."""
    doc = read_document(path)
    if not isinstance(doc.data, dict):
        kind = "a list" if isinstance(doc.data, list) else "a single value"
        raise RulesetError([doc.problem((), f"the file holds {kind}",
                                        expected="a mapping of ruleset keys (language, id, ...)")])
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        return doc
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
        parent_path = resolve_source(parent_ref, path)
    except KeyError:
        raise RulesetError([doc.problem(("extends",), f"no ruleset named {parent_ref!r}",
                                        expected="a bundled id or a path relative to this file",
                                        suggestion=did_you_mean(parent_ref,
                                                                bundled_rulesets()))]) from None
    parent = load_merged(parent_path, chain + (key,))
    return merge_documents(parent, doc)


def compile_file(path: str | Path) -> Ruleset:
    p = Path(path)
    doc = load_merged(p)
    return compile_document(doc)


def compile_document(doc: Document) -> Ruleset:
    if not isinstance(doc.data, dict):
        raise RulesetError([doc.problem((), "the file does not hold a mapping",
                                        expected="a mapping of ruleset keys")])
    problems = check_structure(doc, ruleset_schema())
    if problems:
        raise RulesetError(problems)
    # JSON Schema counts 2.0 (and -0.0) as an integer; the compiler counts and indexes
    # with these values, so they become the ints they equal.
    doc.data = _whole_floats_as_ints(doc.data)
    compiler = _Compiler(doc)
    ruleset = compiler.compile()
    errors = [p for p in compiler.problems if p.severity == "error"]
    if errors:
        raise RulesetError(compiler.problems)
    ruleset.warnings = [p for p in compiler.problems if p.severity != "error"]  # type: ignore
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
    data = copy.deepcopy(doc.data)
    for name, value in options.items():
        data.setdefault("options", {}).setdefault(name, {})["default"] = value
    return compile_document(Document(doc.file, data, doc.values, doc.keys))
