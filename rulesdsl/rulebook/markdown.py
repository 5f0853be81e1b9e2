"""The rulebook as GitHub markdown: cards as text (♠A, 3 bamboo), footnotes as [^n].

Markup characters in anything from the rule file are escaped, and no raw HTML passes
(`<` and `&` become entities)."""

from __future__ import annotations

import re

from .. import notation as nt
from .model import (
    Book,
    Bullets,
    Cards,
    Figure,
    Heading,
    Inline,
    Item,
    Para,
    Ref,
    Section,
    Table,
    Term,
)

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")


def md_text(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def _card_text(token: str, tiles: bool) -> str:
    if not tiles and token[:1] in nt.SUITS and len(token) > 1:
        return nt.SUIT_PICTURES[token[0]] + token[1:]
    return token


def md_inline(content: Inline, in_table: bool = False) -> str:
    out = []
    for part in content:
        if isinstance(part, Cards):
            shown = " ".join(_card_text(t, part.tiles) for t in part.tokens)
            out.append(md_text(shown))
        elif isinstance(part, Ref):
            out.append(f"[^{part.number}]")
        elif isinstance(part, Term):
            out.append(f"**{md_text(part.text)}**")
        else:
            out.append(md_text(str(part)))
    text = "".join(out)
    return text.replace("|", "\\|") if in_table else text


def _items(items: list[Item], depth: int) -> list[str]:
    lines = []
    for it in items:
        lines.append("  " * depth + "- " + md_inline(it.content))
        lines.extend(_items(it.children, depth + 1))
    return lines


def _section(s: Section, depth: int) -> list[str]:
    lines = [f'<a id="{s.key}"></a>', "", "#" * depth + " " + md_text(s.title), ""]
    for b in s.blocks:
        if isinstance(b, Para):
            lines += [md_inline(b.content), ""]
        elif isinstance(b, Heading):
            lines += ["#" * min(6, depth + 1) + " " + md_text(b.text), ""]
        elif isinstance(b, Bullets):
            lines += _items(b.items, 0) + [""]
        elif isinstance(b, Table):
            lines.append("| " + " | ".join(md_text(h) or " " for h in b.headers) + " |")
            lines.append("|" + "---|" * len(b.headers))
            for row in b.rows:
                lines.append("| " + " | ".join(md_inline(c, True) for c in row) + " |")
            lines.append("")
        elif isinstance(b, Figure):
            for p in b.pictures:
                lines.append(f"- {md_text(p.caption)}: {md_inline([p.cards])}")
            lines.append("")
    for sub in s.subsections:
        lines += _section(sub, min(6, depth + 1))
    return lines


def render_markdown(book: Book) -> str:
    lines = [f"# {md_text(book.title)}", "", md_text(book.subtitle), ""]
    lines.append(" · ".join(f"[{md_text(s.title)}](#{s.key})" for s in book.sections))
    lines.append("")
    for s in book.sections:
        lines += _section(s, 2)
    if book.footnotes:
        lines += [f"## {md_text(book.notes_title)}", ""]
        for i, text in enumerate(book.footnotes, 1):
            lines.append(f"[^{i}]: 「{md_text(text)}」" if not text.startswith("[") else
                         f"[^{i}]: {md_text(text)}")
    return "\n".join(lines).rstrip() + "\n"
