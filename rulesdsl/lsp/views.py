"""What a compiled ruleset means for one sample hand, as hover shows it.

Built from `rulesdsl explain`'s own functions (the context the file's examples use most,
the ladder of tiers, each pattern's smallest example), so the editor shows what
`rulesdsl explain RULESET` prints and what the engines do. One View per compiled ruleset,
computed lazily and kept while that ruleset is the document's last good compile.
"""

from __future__ import annotations

from typing import Any

from .. import explain
from .. import notation as nt
from ..errors import RulesdslError
from ..model.hand import HandContext
from ..model.ruleset import Ruleset
from ..runtime.expressions import Env, EvaluationError


class View:
    """explain's view of one compiled ruleset for its sample context."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.values, self.shown = explain.resolve_context(ruleset)
        self.hc = HandContext(ruleset, self.values)
        self._ladder: list[dict[str, Any]] | None = None
        self._patterns: dict[str, dict[str, Any]] | None = None

    # -------------------------------------------------------------- the sample context

    def context_words(self) -> str:
        """`trump = S, level = 4`, or '' when the ruleset has no per-hand context."""
        return ", ".join(f"{c['name']} = {c['value']}" for c in self.shown)

    def context_note(self) -> str:
        words = self.context_words()
        if not words:
            return ""
        chosen = all(c["source"].startswith("default: the value the file's examples")
                     for c in self.shown)
        why = "the values the file's examples use most" if chosen else "a sample hand"
        return f" for {words} ({why})"

    # -------------------------------------------------------------- explain's sections

    def ladder(self) -> list[dict[str, Any]]:
        if self._ladder is None:
            self._ladder = explain.ladder(self.hc)
        return self._ladder

    def pattern(self, name: str) -> dict[str, Any] | None:
        if self._patterns is None:
            self._patterns = {p["name"]: p for p in explain.patterns(self.hc)}
        return self._patterns.get(name)

    def tier_cards(self, name: str) -> list[str]:
        """The cards the tier takes in the sample hand, strongest first."""
        return [c for system in self.ladder() for step in system["steps"]
                if step["tier"] == name for c in step["cards"]]

    def define_cards(self, name: str) -> list[str] | None:
        """The cards (tiles) a yes/no definition selects in the sample hand; None when it is
        not a yes/no definition over cards."""
        defines = self.ruleset.defines
        if defines is None or name not in defines.raw:
            return None
        compiled = defines.resolve(name)
        if compiled is None or compiled[0] != "bool":
            return None
        fn = compiled[1]
        out = []
        for kind in self.ruleset.kinds():
            try:
                if fn(Env(kind, self.hc.values)):
                    out.append(explain.kind_text(self.ruleset, kind))
            except (EvaluationError, RulesdslError, TypeError, ValueError):
                continue
        return out

    def card_facts(self, kind: int) -> list[str]:
        """What one card or tile is in the sample hand: its tier, trump, wild, points."""
        r, hc = self.ruleset, self.hc
        facts = []
        tier = hc.tier[kind] if kind < len(hc.tier) else None
        if tier is not None and 0 <= tier < len(r.tiers):
            facts.append(f"tier `{r.tiers[tier].name}`")
        if kind < len(hc.is_trump) and hc.is_trump[kind] and r.family != "tiles":
            facts.append("a trump")
        if kind in hc.wild_of:
            facts.append(f"wild (`{r.wilds[hc.wild_of[kind]].name}`)")
        points = hc.points[kind] if kind < len(hc.points) else 0
        if points:
            facts.append(f"{points} points")
        copies = r.deck[kind] if kind < len(r.deck) else 0
        facts.append(f"{copies} in the deck" if copies else "not in the deck")
        return facts

    def kinds(self) -> list[str]:
        """Every card or tile kind of the deck, in the notation."""
        return [explain.kind_text(self.ruleset, k) for k in self.ruleset.kinds()]


def parse_kind(text: str, tiles: bool) -> int | None:
    """A card or tile token as its kind, or None when it is no card or tile."""
    try:
        return nt.tile_kind(text) if tiles else nt.parse_card(text)
    except (RulesdslError, ValueError, KeyError):
        return None


class Views:
    """One View per compiled ruleset, for the last few rulesets (old ones are dropped)."""

    def __init__(self, keep: int = 8):
        self.keep = keep
        self._views: dict[int, tuple[Ruleset, View]] = {}

    def of(self, ruleset: Ruleset) -> View:
        found = self._views.get(id(ruleset))
        if found is not None and found[0] is ruleset:
            return found[1]
        view = View(ruleset)
        self._views[id(ruleset)] = (ruleset, view)  # the ruleset kept, so its id stays its own
        while len(self._views) > self.keep:
            self._views.pop(next(iter(self._views)))
        return view
