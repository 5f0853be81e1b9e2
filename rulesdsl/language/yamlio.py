"""Reading rule files: safe YAML with a position for every value.

PyYAML composes the file into nodes (no object construction, no tags that run
code); we build plain Python values from the nodes ourselves, recording where
each value and each mapping key starts. Duplicate keys, unknown tags, alias
bombs, oversized files, excessive nesting and characters YAML refuses (or reads as a
line break no editor shows) are reported as problems.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..errors import Problem, RulesetError, format_path

# libyaml's loader when PyYAML was built with it: same nodes and marks, much faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_NODES = 50_000
TEXT_PER_VALUE = 40  # characters of a text reused through aliases that count as one value

Path_ = tuple[Any, ...]

# What YAML allows in a stream (its printable set), less NEL, LINE SEPARATOR and PARAGRAPH
# SEPARATOR: PyYAML (YAML 1.1) reads those three as line breaks, editors and YAML 1.2 do
# not, so a comment holding one may end early and hide a key no editor shows.
_REFUSED = re.compile("[^\x09\x0a\x0d\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd"
                      "\U00010000-\U0010ffff]")
_HIDDEN_BREAKS = {"\x85": "NEL", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"}

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}


@dataclass(frozen=True)
class Mark:
    line: int  # 1-based
    column: int  # 1-based
    style: str | None = None  # YAML scalar style: None plain, "'" or '"' quoted, "|" ">" block
    file: str | None = None  # set when a merged document mixes files (extends)
    end_line: int | None = None  # where the token ends (exclusive column), when known
    end_column: int | None = None


@dataclass
class Document:
    """A parsed YAML document with the source position of every value."""

    file: str
    data: Any
    values: dict[Path_, Mark] = field(default_factory=dict)
    keys: dict[Path_, Mark] = field(default_factory=dict)
    claimed_hash: str | None = None  # a compiled ruleset's recorded content hash

    def mark(self, path: Path_, *, key: bool = False) -> Mark:
        """The closest recorded position for `path` (walking up to the root)."""
        table = self.keys if key else self.values
        p = tuple(path)
        while True:
            if p in table:
                return table[p]
            if not key and p in self.keys:
                return self.keys[p]
            if not p:
                return Mark(1, 1)
            p = p[:-1]

    def problem(
        self,
        path: Path_,
        message: str,
        *,
        expected: str | None = None,
        suggestion: str | None = None,
        key: bool = False,
        offset: int | None = None,
        length: int = 1,
        severity: str = "error",
    ) -> Problem:
        m = self.mark(path, key=key)
        line, column = m.line, m.column
        end_line, end_column = m.end_line, m.end_column
        if offset is not None and not key:
            # Point inside a one-line scalar (an expression); quoted scalars start one later.
            column += offset + (1 if m.style in ("'", '"') else 0)
            end_line, end_column = line, column + max(length, 1)
        return Problem(
            m.file or self.file, line, column, format_path(path), message, expected, suggestion,
            severity, end_line=end_line, end_column=end_column,
        )


def _end(node: yaml.Node) -> tuple[int | None, int | None]:
    """Where a node's token ends: a scalar's own end; a mapping or a list spans lines, so
    its range is only its first character (an editor underlines that, not the block)."""
    if isinstance(node, yaml.ScalarNode):
        return node.end_mark.line + 1, node.end_mark.column + 1
    return node.start_mark.line + 1, node.start_mark.column + 2


def _problem_at(file: str, mark: yaml.Mark | None, message: str, **kw: Any) -> Problem:
    line = mark.line + 1 if mark else 1
    column = mark.column + 1 if mark else 1
    return Problem(file, line, column, kw.pop("path", ""), message, **kw)


def load_yaml(text: str | bytes, file: str = "<string>") -> Document:
    """Parse YAML text into a Document, or raise RulesetError with located problems."""
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            raise RulesetError(
                [_problem_at(file, None, f"file is {len(text)} bytes, over the limit of "
                             f"{MAX_FILE_BYTES} bytes (max file size)")]
            )
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RulesetError(
                [_problem_at(file, None, f"file is not valid UTF-8 (byte {exc.start})",
                             expected="a UTF-8 text file")]
            ) from None
    if len(text) > MAX_FILE_BYTES:
        raise RulesetError(
            [_problem_at(file, None, f"file is over the limit of {MAX_FILE_BYTES} bytes "
                         "(max file size)")]
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise RulesetError([_problem_at(file, None, "file is empty",
                                        expected="a YAML mapping of ruleset keys")])
    refused = _REFUSED.search(text)
    if refused:
        raise RulesetError([_character_problem(file, text, refused.start())])

    # Excessive nesting is reported from the token stream (`_check_depth`), before any
    # other problem. Re-reading every token costs as much as composing, so it runs only
    # when it can find something: when composing failed, or when the composed nodes nest
    # deeper than MAX_DEPTH (the token depth never exceeds the node depth). libyaml's
    # composer is safe to run first: it stops at its own nesting limit (1000 levels).
    # The pure-Python composer recurses, so without libyaml the scan still comes first.
    if _LOADER is yaml.SafeLoader:
        _raise_depth_problem(text, file)
    try:
        nodes = list(yaml.compose_all(text, Loader=_LOADER))
    except yaml.MarkedYAMLError as exc:
        _raise_depth_problem(text, file)
        raise RulesetError([_syntax_problem(file, text, exc)]) from None
    except yaml.YAMLError as exc:
        _raise_depth_problem(text, file)
        raise RulesetError([_problem_at(file, None, f"YAML error: {exc}")]) from None
    except RecursionError:
        _raise_depth_problem(text, file)
        raise RulesetError([_problem_at(file, None, f"YAML nesting is too deep "
                                        f"(max depth {MAX_DEPTH})")]) from None
    nodes = [n for n in nodes if n is not None]
    shapes = [_plain_tree_shape(n) for n in nodes]
    if any(depth > MAX_DEPTH for _, depth in shapes):
        _raise_depth_problem(text, file)
    if not nodes:
        raise RulesetError([_problem_at(file, None, "file holds no YAML document",
                                        expected="a YAML mapping of ruleset keys")])
    if len(nodes) > 1:
        raise RulesetError([_problem_at(file, nodes[1].start_mark,
                                        "file holds several YAML documents",
                                        expected="exactly one document")])
    bomb = _check_expansion(nodes[0], file, shapes[0][0])
    if bomb:
        raise RulesetError([bomb])
    doc = Document(file, None)
    builder = _Builder(doc)
    doc.data = builder.build(nodes[0], (), 0)
    if builder.problems:
        raise RulesetError(builder.problems)
    return doc


def _character_problem(file: str, text: str, index: int) -> Problem:
    """A character YAML refuses, or reads as a line break where editors see none, at its
    line and column as an editor counts them (breaks: \\n, \\r\\n, \\r)."""
    lines = re.split("\r\n|\r|\n", text[:index])
    char = text[index]
    name = _HIDDEN_BREAKS.get(char)
    if name:
        message = (f"character U+{ord(char):04X} ({name}) is not allowed in a rule file: YAML "
                   "reads it as a line break, editors do not")
        suggestion = (f"delete it, or write it as \\u{ord(char):04x} inside a double-quoted "
                      "string")
    else:
        kind = "a control character" if unicodedata.category(char) == "Cc" else "unprintable"
        message = f"character U+{ord(char):04X} ({kind}) is not allowed in a rule file"
        suggestion = None
    return Problem(file, len(lines), len(lines[-1]) + 1, "", message, suggestion=suggestion)


def _syntax_problem(file: str, text: str, exc: yaml.MarkedYAMLError) -> Problem:
    """A YAML syntax error in words an author can act on."""
    mark = exc.problem_mark or exc.context_mark
    problem = (exc.problem or "invalid YAML").strip()
    context = (exc.context or "").strip()
    lines = text.splitlines()
    line_text = lines[mark.line] if mark and mark.line < len(lines) else ""
    if mark and "\t" in line_text[: mark.column + 1]:
        return _problem_at(file, mark, "YAML syntax error: while scanning for the next token: "
                           "found character '\\t' that cannot start any token",
                           suggestion="YAML indentation must use spaces, not tabs")
    if "flow sequence" in context or "flow mapping" in context:
        opener, closer = ("[", "]") if "sequence" in context else ("{", "}")
        kind = "list" if opener == "[" else "mapping"
        return _problem_at(file, exc.context_mark or mark,
                           f"YAML syntax error: the {kind} opened here with '{opener}' is never "
                           f"closed", expected=f"'{closer}' at the end of the {kind}")
    if "block mapping" in context and ("expected key" in problem or "block end" in problem):
        indent = len(line_text) - len(line_text.lstrip(" "))
        return _problem_at(file, mark, "YAML syntax error: this line is indented more than "
                           "the key above it" if indent else "YAML syntax error: this line "
                           "does not fit the mapping above it",
                           expected="the same indentation as the other keys of this mapping")
    message = f"{context}: {problem}" if context else problem
    return _problem_at(file, mark, f"YAML syntax error: {message}")


def _raise_depth_problem(text: str, file: str) -> None:
    depth_problem = _check_depth(text, file)
    if depth_problem:
        raise RulesetError([depth_problem])


def _check_depth(text: str, file: str, retry: bool = True) -> Problem | None:
    """Reject excessive nesting from the token stream, before any recursion."""
    depth = 0
    starts = (
        yaml.BlockMappingStartToken,
        yaml.BlockSequenceStartToken,
        yaml.FlowMappingStartToken,
        yaml.FlowSequenceStartToken,
    )
    ends = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
    try:
        for token in yaml.scan(text, Loader=_LOADER):
            if isinstance(token, starts):
                depth += 1
                if depth > MAX_DEPTH:
                    return _problem_at(file, token.start_mark,
                                       f"YAML nesting is deeper than {MAX_DEPTH} levels "
                                       "(max depth)")
            elif isinstance(token, ends):
                depth -= 1
    except yaml.YAMLError as exc:
        # libyaml stops at its own nesting limit (1000 levels) while it still holds back
        # the tokens of that line (each '[' may start a key): the text before its stop
        # scans whole, so our bound is named at its own place.
        mark = getattr(exc, "problem_mark", None)
        if retry and mark is not None and 0 < mark.index < len(text):
            return _check_depth(text[:mark.index], file, retry=False)
        return None  # the composer reports syntax errors with better context
    return None


def _check_expansion(root: yaml.Node, file: str, plain_size: int) -> Problem | None:
    """Size of the document once aliases are expanded, without expanding them.

    Aliases share node objects, so sizes are memoised per node; a node reached
    again while still open is a recursive alias.
    """
    if plain_size <= MAX_NODES:  # from _plain_tree_shape
        return None  # no node is shared and every value holds fewer nodes than the whole
    return _expansion_problem(root, file)


def _plain_tree_shape(root: yaml.Node) -> tuple[int, int]:
    """(node count, nesting depth of collections) when no node is reached twice (no
    alias), else (MAX_NODES + 1, MAX_NODES + 1).

    A cheap first pass: most files have no aliases, and then nothing expands."""
    seen: set[int] = set()
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or len(seen) >= MAX_NODES:
            deepest = MAX_NODES + 1
            break
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            deepest = max(deepest, depth)
            stack.extend((n, depth + 1) for n in node.value)
        elif isinstance(node, yaml.MappingNode):
            deepest = max(deepest, depth)
            for k, v in node.value:
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
    return (len(seen), deepest) if deepest <= MAX_NODES else (MAX_NODES + 1, deepest)


def _expansion_problem(root: yaml.Node, file: str) -> Problem | None:
    size: dict[int, int] = {}
    open_nodes: set[int] = set()
    shared = False
    stack: list[tuple[yaml.Node, bool, Path_]] = [(root, False, ())]
    while stack:
        node, done, path = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            kids = [k for k, _ in _children(node, path)]
            total = _weight(node) + sum(size[id(k)] for k in kids)
            size[key] = total
            if total > MAX_NODES and all(size[id(k)] <= MAX_NODES for k in kids):
                if not shared:  # a plain document that is simply too large
                    return _problem_at(file, node.start_mark,
                                       f"this value holds {total} values, over the limit of "
                                       f"{MAX_NODES} (max document size)",
                                       expected="a smaller rule file", path=format_path(path))
                return _problem_at(file, node.start_mark,
                                   f"this value expands to {total} values through aliases, over "
                                   f"the limit of {MAX_NODES} (max document size)",
                                   expected="anchors and aliases that do not multiply",
                                   path=format_path(path))
            continue
        if key in size:
            continue
        if key in open_nodes:
            return _problem_at(file, node.start_mark, "an alias refers to a value that "
                               "contains it (recursive alias)", expected="aliases to finished "
                               "values", path=format_path(path))
        open_nodes.add(key)
        stack.append((node, True, path))
        # Reversed, so children are visited in document order: a shared value is first
        # met where its anchor is defined, and problems name that path.
        for kid, kid_path in reversed(_children(node, path)):
            if id(kid) not in size:
                stack.append((kid, False, kid_path))
            else:
                shared = True  # a value reached again: an alias
    return None


def _weight(node: yaml.Node) -> int:
    """A value's share of the document size once aliases are expanded: a long text counts
    by its length, so one large expression reused through many aliases is bounded too
    (each copy is compiled once more)."""
    if isinstance(node, yaml.ScalarNode) and isinstance(node.value, str):
        return 1 + len(node.value) // TEXT_PER_VALUE
    return 1


def _children(node: yaml.Node, path: Path_) -> list[tuple[yaml.Node, Path_]]:
    if isinstance(node, yaml.SequenceNode):
        return [(n, path + (i,)) for i, n in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        out = []
        for k, v in node.value:
            label = str(k.value) if isinstance(k, yaml.ScalarNode) else "?"
            out.append((k, path))
            out.append((v, path + (label,)))
        return out
    return []


class _Builder:
    def __init__(self, doc: Document):
        self.doc = doc
        self.problems: list[Problem] = []
        self.count = 0
        self.constructor = yaml.SafeLoader("")

    def _record(self, path: Path_, node: yaml.Node) -> None:
        if path not in self.doc.values:
            style = getattr(node, "style", None)
            self.doc.values[path] = Mark(node.start_mark.line + 1, node.start_mark.column + 1,
                                         style, None, *_end(node))

    def build(self, node: yaml.Node, path: Path_, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            if self.count == MAX_NODES + 1:
                self.problems.append(_problem_at(
                    self.doc.file, node.start_mark,
                    f"document expands to more than {MAX_NODES} values (max document size); "
                    "aliases that expand exponentially are rejected",
                    path=format_path(path)))
            return None
        if depth > MAX_DEPTH:
            self.problems.append(_problem_at(self.doc.file, node.start_mark,
                                             f"nesting deeper than {MAX_DEPTH} (max depth)",
                                             path=format_path(path)))
            return None
        self._record(path, node)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag not in ("tag:yaml.org,2002:seq",):
                self._bad_tag(node, path)
                return None
            return [self.build(child, path + (i,), depth + 1)
                    for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            if node.tag not in ("tag:yaml.org,2002:map",):
                self._bad_tag(node, path)
                return None
            return self._mapping(node, path, depth)
        return None

    def _bad_tag(self, node: yaml.Node, path: Path_) -> None:
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        self.problems.append(_problem_at(
            self.doc.file, node.start_mark, f"YAML tag {tag!r} is not allowed",
            expected="plain YAML values (strings, numbers, booleans, lists, mappings)",
            path=format_path(path)))

    def _scalar(self, node: yaml.ScalarNode, path: Path_) -> Any:
        tag = node.tag
        if tag not in _SCALAR_TAGS:
            self._bad_tag(node, path)
            return None
        if tag == "tag:yaml.org,2002:str" or tag == "tag:yaml.org,2002:timestamp":
            return str(node.value)
        if tag == "tag:yaml.org,2002:int":
            if len(node.value) > 40:
                self.problems.append(_problem_at(self.doc.file, node.start_mark,
                                                 "number is too long", path=format_path(path)))
                return 0
        # An explicit tag (`!!int pair`, `!!bool maybe`) hands the constructors text the
        # resolver never matched: a located problem, not a ValueError or KeyError.
        try:
            if tag == "tag:yaml.org,2002:int":
                return self.constructor.construct_yaml_int(node)
            if tag == "tag:yaml.org,2002:float":
                return self.constructor.construct_yaml_float(node)
            if tag == "tag:yaml.org,2002:bool":
                return self.constructor.construct_yaml_bool(node)
        except (ValueError, KeyError, TypeError):
            kind = tag.replace("tag:yaml.org,2002:", "!!")
            self.problems.append(_problem_at(
                self.doc.file, node.start_mark, f"{str(node.value)[:40]!r} is not a valid "
                f"{kind} value", expected=f"a value of the type {kind} names, or no tag",
                path=format_path(path)))
        return None

    def _mapping(self, node: yaml.MappingNode, path: Path_, depth: int) -> dict:
        result: dict[Any, Any] = {}
        merged: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                for source in self._merge_sources(value_node, path, depth):
                    for k, v in source.items():
                        merged.setdefault(k, v)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.problems.append(_problem_at(self.doc.file, key_node.start_mark,
                                                 "mapping keys must be plain words",
                                                 path=format_path(path)))
                continue
            if key_node.tag not in _SCALAR_TAGS:
                self._bad_tag(key_node, path)
                continue
            # Keys stay as written (`5: 5` in a points table has the key "5"): JSON-compatible.
            key = str(key_node.value)
            if key in result:
                first = self.doc.keys.get(path + (key,))
                where = f" (first at line {first.line})" if first else ""
                self.problems.append(_problem_at(
                    self.doc.file, key_node.start_mark, f"duplicate key {key!r}{where}",
                    expected="each key once in a mapping",
                    path=format_path(path + (key,))))
                continue
            self.doc.keys[path + (key,)] = Mark(key_node.start_mark.line + 1,
                                                key_node.start_mark.column + 1, None, None,
                                                *_end(key_node))
            result[key] = self.build(value_node, path + (key,), depth + 1)
        for k, v in merged.items():
            result.setdefault(k, v)
        return result

    def _merge_sources(self, node: yaml.Node, path: Path_, depth: int) -> list[dict]:
        values = node.value if isinstance(node, yaml.SequenceNode) else [node]
        out = []
        for sub in values:
            if not isinstance(sub, yaml.MappingNode):
                self.problems.append(_problem_at(self.doc.file, sub.start_mark,
                                                 "a '<<' merge needs a mapping",
                                                 path=format_path(path)))
                continue
            out.append(self._mapping(sub, path, depth + 1))
        return out
