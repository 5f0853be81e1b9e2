"""The rulesdsl language server (`rulesdsl lsp`): diagnostics from the validator, hover,
completion, go to definition and quick fixes for rule files, over stdio (docs/lsp.md).

pygls is an optional dependency (`pip install 'rulesdsl[lsp]'`): it is imported only when
the server starts, so the rest of rulesdsl never needs it.
"""

from __future__ import annotations

import importlib.util
import sys


def main() -> int:
    """Start the language server on stdin/stdout; returns when the client exits."""
    missing = [m for m in ("pygls", "lsprotocol") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"rulesdsl lsp needs {' and '.join(missing)}: pip install 'rulesdsl[lsp]'",
              file=sys.stderr)
        return 2
    from .server import main as serve

    return serve()


__all__ = ["main"]
