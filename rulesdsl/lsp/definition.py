"""Go to definition: where a name is defined (in this file or a parent it extends), and
the file an `extends:` names."""

from __future__ import annotations

from pathlib import Path

from ..compiler.files import resolve_confined, resolve_source
from .cursor import CARD, RULESET
from .names import Index, Site
from .resolve import BUILTIN, INPUT, Symbol
from .text import Span


def definition_site(symbol: Symbol, index: Index) -> Site | None:
    """The site of a symbol's definition, or None (cards and built-ins have none)."""
    if symbol.kind == RULESET:
        target = extends_target(symbol.name, index.path)
        return Site(str(target), Span(0, 0, 0, 0)) if target is not None else None
    if symbol.kind in (CARD, BUILTIN, INPUT):
        return None
    return index.sites.get((symbol.kind, symbol.name))


def extends_target(ref: str, path: Path) -> Path | None:
    """The file `extends: ref` names from `path`: as the compiler confines it, else as the
    command line would find it (a bundled id, a path)."""
    if not ref:
        return None
    try:
        return resolve_confined(ref, path.parent)
    except (KeyError, PermissionError, OSError, ValueError):
        pass
    try:
        return resolve_source(ref, relative_to=path)
    except (KeyError, OSError, ValueError):
        return None
