"""The rulebook as one self-contained HTML page: inline CSS and SVG, no scripts, no
external resources. Every string from the rule file is escaped."""

from __future__ import annotations

import html

from .model import (
    Block,
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
from .pictures import picture, symbols

CSS = """
:root{--ink:#1d1d1f;--muted:#5f6368;--accent:#b3261e;--rule:#d9d4c7;--paper:#fffefb}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",
"WenQuanYi Micro Hei","PingFang SC","Microsoft YaHei",sans-serif;max-width:62rem;
margin:0 auto;padding:1.5rem 1.25rem 4rem;line-height:1.6;color:var(--ink);background:var(--paper)}
header{border-bottom:3px solid var(--accent);margin-bottom:1rem}
h1{font-size:2rem;margin:.2rem 0}.subtitle{color:var(--muted);margin:0 0 .8rem}
h2{font-size:1.45rem;margin:2.4rem 0 .6rem;padding-bottom:.2rem;border-bottom:1px solid var(--rule)}
h3{font-size:1.15rem;margin:1.6rem 0 .4rem}h4{font-size:1rem;margin:1.2rem 0 .3rem}
nav.toc{background:#f6f3ea;border:1px solid var(--rule);border-radius:8px;padding:.6rem 1rem}
nav.toc ol{margin:.2rem 0;padding-left:1.3rem;columns:2}nav.toc a{color:var(--ink)}
p{margin:.5rem 0}.muted{color:var(--muted);font-size:.92em}
.source{color:var(--muted);font-size:.9em}
ul,ol{padding-left:1.4rem}li{margin:.25rem 0}
table{border-collapse:collapse;margin:.6rem 0;font-size:.95em}
th,td{border:1px solid var(--rule);padding:.3rem .6rem;vertical-align:middle;text-align:left}
th{background:#f1ede2;font-weight:600}
table.rule-table td:first-child{white-space:nowrap}
table.variants td:last-child{font-size:.9em;color:#333}
.term{font-weight:600}
sup.ref{font-size:.7em;line-height:0}sup.ref a{color:var(--accent);text-decoration:none}
.cards{display:inline-flex;flex-wrap:wrap;vertical-align:middle;margin:1px 2px}
svg.card{width:2.1em;height:2.94em;margin:1px}svg.tile{width:1.95em;height:2.6em;margin:1px}
.ladder svg.card,.ladder svg.tile{width:1.8em;height:2.52em}
figure{margin:.5rem 0 1rem;display:flex;flex-wrap:wrap}
figure .picture{display:flex;flex-direction:column;margin-right:1.4rem}
figure .picture figcaption{font-size:.8em;color:var(--muted);text-transform:uppercase;
letter-spacing:.04em}
section.pattern{border-left:3px solid #e4dccb;padding-left:.9rem;margin:1rem 0}
section.pattern h3{margin-top:.4rem}
.examples li{margin:.45rem 0}
ol.notes{font-size:.9em;color:#333}ol.notes li:target{background:#fff3c4}
.piece-text{font-family:monospace}
@media (max-width:40rem){nav.toc ol{columns:1}}
"""


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


class HtmlWriter:
    def __init__(self, book: Book):
        self.book = book
        self.cards: set[str] = set()
        self.tiles: set[str] = set()

    def inline(self, content: Inline) -> str:
        out = []
        for part in content:
            if isinstance(part, Cards):
                (self.tiles if part.tiles else self.cards).update(part.tokens)
                labels = part.labels if len(part.labels) == len(part.tokens) else part.tokens
                pics = "".join(picture(t, part.tiles, label)
                               for t, label in zip(part.tokens, labels))
                out.append(f'<span class="cards">{pics}</span>')
            elif isinstance(part, Ref):
                n = part.number
                out.append(f'<sup class="ref"><a href="#note-{n}" id="ref-{n}">[{n}]</a></sup>')
            elif isinstance(part, Term):
                out.append(f'<span class="term">{_esc(part.text)}</span>')
            else:
                out.append(_esc(str(part)))
        return "".join(out)

    def items(self, items: list[Item], ordered: bool = False) -> str:
        tag = "ol" if ordered else "ul"
        out = [f"<{tag}>"]
        for it in items:
            anchor = f' id="{_esc(it.anchor)}"' if it.anchor else ""
            out.append(f"<li{anchor}>" + self.inline(it.content))
            if it.children:
                out.append(self.items(it.children))
            out.append("</li>")
        out.append(f"</{tag}>")
        return "".join(out)

    def block(self, b: Block, depth: int) -> str:
        if isinstance(b, Para):
            cls = f' class="{_esc(b.cls)}"' if b.cls else ""
            return f"<p{cls}>{self.inline(b.content)}</p>"
        if isinstance(b, Heading):
            level = min(6, depth + 1)
            return f"<h{level}>{_esc(b.text)}</h{level}>"
        if isinstance(b, Bullets):
            return self.items(b.items, b.ordered)
        if isinstance(b, Table):
            cls = f' class="{_esc(b.cls)}"' if b.cls else ""
            if b.name:
                cls += f' data-table="{_esc(b.name)}"'
            caption = f"<caption>{_esc(b.caption)}</caption>" if b.caption else ""
            head = "".join(f'<th scope="col">{_esc(h)}</th>' for h in b.headers)
            rows = []
            for i, row in enumerate(b.rows):
                data = b.row_data[i] if i < len(b.row_data) else {}
                attrs = "".join(f' data-{_esc(k)}="{_esc(v)}"' for k, v in data.items())
                cells = "".join(f"<td>{self.inline(c)}</td>" for c in row)
                rows.append(f"<tr{attrs}>{cells}</tr>")
            return (f"<table{cls}>{caption}<thead><tr>{head}</tr></thead>"
                    f"<tbody>{''.join(rows)}</tbody></table>")
        if isinstance(b, Figure):
            pics = "".join(f'<div class="picture"><figcaption>{_esc(p.caption)}</figcaption>'
                           f"{self.inline([p.cards])}</div>" for p in b.pictures)
            cls = f' class="{_esc(b.cls)}"' if b.cls else ""
            return f"<figure{cls}>{pics}</figure>"
        raise TypeError(f"not a block: {b!r}")

    def section(self, s: Section, depth: int = 2) -> str:
        cls = " ".join(x for x in (s.cls, "examples" if s.key.startswith("examples") else "")
                       if x)
        attr = f' class="{_esc(cls)}"' if cls else ""
        out = [f'<section id="{_esc(s.key)}"{attr}><h{depth}>{_esc(s.title)}</h{depth}>']
        out += [self.block(b, depth) for b in s.blocks]
        out += [self.section(sub, min(6, depth + 1)) for sub in s.subsections]
        out.append("</section>")
        return "\n".join(out)

    def page(self) -> str:
        book = self.book
        body = [self.section(s) for s in book.sections]  # first: it collects the pictures
        toc = "".join(f'<li><a href="#{_esc(s.key)}">{_esc(s.title)}</a></li>'
                      for s in book.sections)
        notes = ""
        if book.footnotes:
            lis = "".join(f'<li id="note-{i}">「{_esc(t)}」 <a href="#ref-{i}" '
                          f'aria-label="back">↩</a></li>' if not t.startswith("[") else
                          f'<li id="note-{i}">{_esc(t)} <a href="#ref-{i}" '
                          f'aria-label="back">↩</a></li>'
                          for i, t in enumerate(book.footnotes, 1))
            notes = (f'<section id="notes"><h2>{_esc(book.notes_title)}</h2>'
                     f'<ol class="notes">{lis}</ol></section>')
        parts = ["<!DOCTYPE html>", f'<html lang="{"zh-CN" if book.lang == "zh" else "en"}">',
                 "<head>", '<meta charset="utf-8">',
                 '<meta name="viewport" content="width=device-width, initial-scale=1">',
                 f"<title>{_esc(book.title)}</title>", f"<style>{CSS}</style>", "</head>",
                 "<body>", symbols(self.cards, self.tiles),
                 f"<header><h1>{_esc(book.title)}</h1>"
                 f'<p class="subtitle">{_esc(book.subtitle)}</p></header>',
                 f'<nav class="toc"><strong>{_esc(book.contents_title)}</strong>'
                 f"<ol>{toc}</ol></nav>",
                 *body, notes, "</body>", "</html>"]
        return "\n".join(p for p in parts if p) + "\n"


def render_html(book: Book) -> str:
    return HtmlWriter(book).page()
