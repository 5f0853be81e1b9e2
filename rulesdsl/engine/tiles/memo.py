"""Limit-hand conditions remembered by what they read: each condition's results kept in a
trie over the scope values it looked at, so a new meld rarely evaluates it again."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from typing import Any

from ...runtime.expressions import Env, EvaluationError

_CACHE_LIMIT = 200_000  # entries per memo before it is cleared (bounds memory)
_MISSING = object()
_SCALARS = frozenset({int, bool, str, float, type(None)})


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a scope value (type-tagged: True and 1 stay apart)."""
    if value.__class__ is list and all(v.__class__ is int for v in value):
        return tuple(zip(repeat(int), value))  # a list of tiles: the same, made faster
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return (value.__class__, value)


def _read_key(value: Any) -> Any:
    """What a read of `value` is keyed on: a list of records (a hand's sets) only by its
    length, since its records' own fields are traced as they are read; else the value."""
    cls = value.__class__
    if cls in _SCALARS:
        return (cls, value)  # as _freeze has it
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return ("records", len(value))
    return _freeze(value)


def _fetch(root: dict[str, Any], what: tuple) -> Any:
    """The value at a traced path (tag, name, index, field, …) below a scope dict."""
    value: Any = root.get(what[1], _MISSING)
    for j in range(2, len(what), 2):
        value = value[what[j]].get(what[j + 1], _MISSING)
    return value


class _Reads(dict):
    """A scope dict that notes each name an expression reads from it (as a path from the
    scope, with its read key); the records in a list it hands out are traced the same."""

    def __init__(self, data: dict[str, Any], path: tuple, reads: list[tuple]):
        super().__init__(data)
        self.path = path
        self.reads = reads

    def _note(self, name: str, value: Any) -> Any:
        key = _read_key(value)
        self.reads.append(((*self.path, name), key))
        if key.__class__ is tuple and key[:1] == ("records",):
            return [_Reads(v, (*self.path, name, i), self.reads) for i, v in enumerate(value)]
        return value

    def __getitem__(self, name: str) -> Any:
        return self._note(name, dict.__getitem__(self, name))

    def get(self, name: str, default: Any = None) -> Any:
        value = self._note(name, dict.get(self, name, _MISSING))
        return default if value is _MISSING else value


class ReadTrie:
    """One pure condition memoised as a decision tree over the values it reads.

    Evaluation is deterministic, so the first name it reads is always the same, the next
    depends only on the first's value, and so on: a node names the value read next (the
    hand scope's or the named values'), its children are keyed by that value, a leaf
    holds the result. A miss evaluates the condition once, noting its reads, and adds
    that path. Conditions are never special-cased: whatever they read is the key."""

    __slots__ = ("root", "size")

    def __init__(self) -> None:
        # a node: (path read next, {its read key: node}); a leaf: (None, result)
        self.root: tuple | None = None
        self.size = 0

    @staticmethod
    def first_holding(conditions: Iterable[tuple[Any, ReadTrie]], hand: dict[str, Any],
                      values: dict[str, Any], frozen_values: dict[tuple, Any]) -> int:
        """The index of the first (condition, its trie) that holds on this scope, or -1.
        The hashable values read are made once: those of the hand's scope for this call,
        those of the named values in `frozen_values` (which may outlive the scope)."""
        frozen: dict[tuple, Any] = {}
        for i, (when, trie) in enumerate(conditions):
            node = trie.root
            while node is not None and node[0] is not None:
                what = node[0]
                cache = frozen if what[0] else frozen_values
                value = cache.get(what, _MISSING)
                if value is _MISSING:
                    value = cache[what] = _read_key(_fetch(hand if what[0] else values, what))
                node = node[1].get(value)
            if node[1] if node is not None else trie._learn(when, hand, values):
                return i
        return -1

    def _learn(self, when: Any, hand: dict[str, Any], values: dict[str, Any]) -> bool:

        reads: list[tuple] = []
        traced_values = _Reads(values, (0,), reads)
        try:
            result = bool(when(Env(_Reads(hand, (1,), reads), traced_values,
                                   Env(None, traced_values))))
        except EvaluationError:
            result = False
        if self.size > _CACHE_LIMIT:
            self.root, self.size = None, 0  # bounds memory
        self.size += 1
        seen: set[tuple] = set()
        path = []
        for what, frozen in reads:
            if what not in seen:  # a name read again has the same value
                seen.add(what)
                path.append((what, frozen))
        leaf = (None, result)
        if self.root is None:
            self.root = self._chain(path, leaf)
            return result
        node = self.root
        for i, (what, frozen) in enumerate(path):
            if node[0] != what:  # cannot happen for a pure condition: just don't memoise
                return result
            child = node[1].get(frozen)
            if child is None:
                node[1][frozen] = self._chain(path[i + 1:], leaf)
                return result
            node = child
        return result

    @staticmethod
    def _chain(path: list[tuple], leaf: tuple) -> tuple:
        node = leaf
        for what, frozen in reversed(path):
            node = (what, {frozen: node})
        return node
