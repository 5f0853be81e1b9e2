"""Remembering a ruleset's card order (`tier_assignment`) across contexts and variants.

The order is evaluated for every context when a file is compiled (the static checks),
again for each option variant its examples compile, and again for each hand context. Its
result depends on the compiled order (deck, ladders, trump and tier expressions) and on
the values its expressions read, nothing else: an expression reads a context value or an
option only by name (`env.values[name]`). So each result is kept with the names read
while computing it, and serves any later values that agree on those names.

A memo belongs to one compiled order, named by a key (the expressions' canonical text,
their names' types, the defines, the deck and ladders: StaticChecks._order_key): a rule
file compiled again with other option defaults (compile_with_options) shares the memo of
its first compile when the keys agree. Each ruleset also remembers the objects its order
was compiled to, and computes afresh if they were replaced since.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .ruleset import Ruleset

Assignment = list[tuple[int | None, int, bool]]

# Results one memo holds before it starts afresh (a full memo is only a lost speed-up):
# a file has at most 4096 contexts (Ruleset.all_contexts), its variants add a few more.
MEMO_LIMIT = 5_000

_ABSENT = object()


class _Reads(dict):
    """Values that note each name read. Whatever reads them all (iterating, copying,
    comparing) notes every name: the result then depends on all of them. (Expressions
    never write their values.)"""

    __slots__ = ("read",)

    def __init__(self, values: dict[str, Any]):
        super().__init__(values)
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return dict.__getitem__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        return dict.get(self, name, default)

    def __contains__(self, name: object) -> bool:
        self.read.add(name)  # type: ignore[arg-type]
        return dict.__contains__(self, name)

    def _all(self) -> None:
        self.read.update(dict.keys(self))

    def __iter__(self) -> Iterator[str]:
        self._all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._all()
        return dict.__len__(self)

    def keys(self):  # type: ignore[override]
        self._all()
        return dict.keys(self)

    def values(self):  # type: ignore[override]
        self._all()
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self._all()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self._all()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._all()
        return dict.__eq__(self, other)

    def __repr__(self) -> str:
        self._all()
        return dict.__repr__(self)


class OrderMemo:
    """The assignments of one compiled order, by the values of the names each read."""

    def __init__(self, key: Hashable):
        self.key = key
        self._by_names: dict[tuple[str, ...], dict[tuple, Assignment]] = {}
        self._size = 0

    def get(self, values: dict[str, Any]) -> Assignment | None:
        for names, results in self._by_names.items():
            found = results.get(_typed(values, names))
            if found is not None:
                return found
        return None

    def put(self, names: set[str], values: dict[str, Any], result: Assignment) -> None:
        if self._size >= MEMO_LIMIT:
            self._by_names.clear()
            self._size = 0
        ordered = tuple(sorted(names, key=repr))
        self._by_names.setdefault(ordered, {})[_typed(values, ordered)] = result
        self._size += 1


def _typed(values: dict[str, Any], names: tuple[str, ...]) -> tuple:
    # With each value's type: True, 1 and 1.0 are one dict key, and an expression may
    # still tell them apart.
    out = []
    for name in names:
        value = dict.get(values, name, _ABSENT)
        out.append((type(value), value))
    return tuple(out)


def _order_objects(ruleset: Ruleset) -> tuple:
    """What `tier_assignment` reads of a ruleset besides the values (by identity for the
    compiled expressions, by value for the rest)."""
    ladders = sorted({t.ladder for t in ruleset.tiers if t.ladder is not None})
    return (ruleset.trump, tuple((t.select, t.ladder) for t in ruleset.tiers),
            tuple(ruleset.deck),
            tuple((n, tuple(ruleset.ranks[n])) for n in ladders if n in ruleset.ranks))


def attach_order_memo(ruleset: Ruleset, key: Hashable, shared: OrderMemo | None) -> None:
    """Give a compiled ruleset its memo: `shared` (another compile's) when it was made for
    the same order key, else a new one."""
    memo = shared if shared is not None and shared.key == key else OrderMemo(key)
    ruleset.__dict__["_order_memo"] = (memo, _order_objects(ruleset))


def order_memo_of(ruleset: Ruleset) -> OrderMemo | None:
    attached = ruleset.__dict__.get("_order_memo")
    return attached[0] if attached is not None else None


def remembered(ruleset: Ruleset, values: dict[str, Any],
               compute: Callable[[Ruleset, dict[str, Any]], Assignment]) -> Assignment:
    """compute(ruleset, values), from the ruleset's memo when some earlier values agree
    on every name that computation read."""
    attached = ruleset.__dict__.get("_order_memo")
    if attached is None or attached[1] != _order_objects(ruleset):
        return compute(ruleset, values)
    memo: OrderMemo = attached[0]
    try:
        found = memo.get(values)
    except TypeError:  # a value that cannot be a key
        return compute(ruleset, values)
    if found is not None:
        return list(found)
    reads = _Reads(values)
    result = compute(ruleset, reads)
    try:
        memo.put(reads.read, values, list(result))
    except TypeError:
        pass
    return result
