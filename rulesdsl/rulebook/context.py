"""What every part of the rulebook reads: the ruleset, its typical hand, the language,
the expression speaker and the footnotes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.hand import HandContext
from ..model.ruleset import Ruleset
from .citations import Citations
from .exprwords import NotSpoken, Speaker
from .model import Cards, Inline, Notes
from .words import Words


@dataclass
class Ctx:
    r: Ruleset
    w: Words
    say: Speaker
    notes: Notes
    cites: Citations
    hc: HandContext
    values: dict[str, Any]  # the typical hand's context and the options
    data: dict[str, Any]  # explain_data for the typical hand

    @property
    def tiles(self) -> bool:
        return self.r.family == "tiles"

    def cite(self, *paths: tuple[Any, ...], above: bool = True) -> Inline:
        """Footnote references for the passages the rule file cites at these rules."""
        return self.notes.refs(self.cites.at(*paths, above=above))

    def cards(self, tokens: list[str]) -> Cards:
        return Cards(list(tokens), self.tiles, [self.w.piece(t, self.tiles) for t in tokens])

    def condition(self, text: Any, in_sets: bool = False) -> str:
        try:
            return self.say.condition(text, in_sets)
        except NotSpoken:
            return ""

    def formula(self, text: Any) -> str:
        try:
            return self.say.formula(text)
        except NotSpoken:
            return ""

    def option(self, name: str) -> Any:
        return self.r.options.get(name)

    def play(self, attr: str, default: Any = None) -> Any:
        return getattr(self.r.play, attr, default) if self.r.play is not None else default

    def written(self, *path: str) -> Any:
        """A value as the rule file writes it under `play:` (None when absent)."""
        node: Any = (self.r.resolved.get("play") or {})
        for step in path:
            if not isinstance(node, dict):
                return None
            node = node.get(step)
        return node

    def option_of(self, *path: str) -> str | None:
        """The option a play setting is left to (`{option: NAME}`), if any."""
        value = self.written(*path)
        if isinstance(value, dict) and isinstance(value.get("option"), str):
            return value["option"]
        return None
