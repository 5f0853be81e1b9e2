"""`python -m rulesdsl.lsp`: the language server on stdio (what `rulesdsl lsp` runs)."""

import sys

from . import main

sys.exit(main())
