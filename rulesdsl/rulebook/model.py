"""The rulebook as a small document model, rendered as HTML or markdown.

Sections hold paragraphs, headings, bullet lists, tables and figures; inline content
mixes text, card or tile pictures (`Cards`), emphasised terms and footnote references.
Everything is plain data: the renderers escape every string.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Cards:
    """Cards or tiles in the project's notation, drawn as pictures, in the given order."""

    tokens: list[str]
    tiles: bool = False
    labels: list[str] = field(default_factory=list)  # each in words (screen readers, text)

    @property
    def label(self) -> str:
        return " ".join(self.labels) if self.labels else " ".join(self.tokens)


@dataclass
class Term:
    """A term shown emphasised (a pattern's or an item's name)."""

    text: str


@dataclass
class Ref:
    """A footnote reference (numbers from 1)."""

    number: int


Inline = list["str | Cards | Term | Ref"]


@dataclass
class Para:
    content: Inline
    cls: str = ""


@dataclass
class Heading:
    text: str
    anchor: str = ""


@dataclass
class Item:
    content: Inline
    children: list[Item] = field(default_factory=list)
    anchor: str = ""


@dataclass
class Bullets:
    items: list[Item]
    ordered: bool = False


@dataclass
class Table:
    headers: list[str]
    rows: list[list[Inline]]
    caption: str = ""
    cls: str = ""
    # Per row, machine-readable attributes (`data-*` in HTML): a range's bounds.
    row_data: list[dict[str, str]] = field(default_factory=list)
    name: str = ""  # the rule file's table it shows (`data-table` in HTML)


@dataclass
class Picture:
    """One captioned group of cards in a figure."""

    caption: str
    cards: Cards


@dataclass
class Figure:
    pictures: list[Picture]
    cls: str = ""


Block = Para | Heading | Bullets | Table | Figure


@dataclass
class Section:
    key: str
    title: str
    blocks: list[Block]
    subsections: list[Section] = field(default_factory=list)
    cls: str = ""


@dataclass
class Book:
    lang: str
    title: str
    subtitle: str
    sections: list[Section]
    footnotes: list[str]
    notes_title: str = "Notes"
    contents_title: str = "Contents"


class Notes:
    """Numbered footnotes: each distinct passage once, numbered in order of first use."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def ref(self, text: str) -> Ref:
        number = self._index.get(text)
        if number is None:
            self.texts.append(text)
            number = self._index[text] = len(self.texts)
        return Ref(number)

    def refs(self, texts: list[str]) -> Inline:
        return [self.ref(t) for t in texts]
