"""`rulesdsl doc`: a rulebook players learn from, rendered from a rule file alone.

The rulebook is built from the compiled ruleset (and `explain`'s view of a typical hand)
as a small document model, in English or Chinese, then rendered as one self-contained
HTML page (inline CSS and SVG pictures, no scripts, no fonts needed for the cards and
tiles) or as GitHub markdown. It tells how a hand proceeds (deal, declaring or bidding,
leading and following, rounds, the end, settlement), describes every pattern in words
with pictures of its smallest and a typical example, renders tables as ranges and
formulas as words, cites the source text in numbered notes, and closes with the rule
file's examples. Modules:

- `book`: assembles the sections; `sections`, `prose_trick`, `prose_shedding`,
  `prose_tiles`, `tilesets`, `appendix`: the sections' content;
- `patterns`: patterns in words and their examples; `tables`: tables and formulas;
- `exprwords`: expressions in words; `words`: the two languages' terms;
- `citations`: the source passages quoted in the rule file's comments;
- `pictures`: cards and tiles as SVG; `html`, `markdown`: the renderers.
"""

from __future__ import annotations

from ..model.ruleset import Ruleset
from .book import build_book
from .html import render_html
from .markdown import render_markdown
from .words import LANGS

FORMATS = ("md", "html")

__all__ = ["FORMATS", "LANGS", "build_book", "render", "render_html", "render_markdown"]


def render(ruleset: Ruleset, fmt: str = "md", lang: str = "en") -> str:
    """The rulebook of a ruleset as 'md' or 'html', in 'en' or 'zh'."""
    if fmt not in FORMATS:
        raise ValueError(f"format is one of {', '.join(FORMATS)}, not {fmt!r}")
    book = build_book(ruleset, lang)
    return render_html(book) if fmt == "html" else render_markdown(book)
