"""No silent rule: what a rule file says that its family's engine would play another way.

A family's contract lists the language features its engine honours. An engine without
`suited_plays` builds every play from ranks: the cards of one rank are interchangeable
to it (sameness: rank). A selector (an order tier, a wild and what it stands for, a
pattern's `where`, an alternate identity) or an exact-card pattern that tells two cards
of one rank apart would be played as if it did not: that is refused here, at the
selector's location, for the first context where it happens.
"""

from __future__ import annotations

from typing import Any

from .. import notation as nt
from ..model.ruleset import PatternDef, Ruleset
from ..runtime.expressions import Env, EvaluationError, Fn

MAX_CONTEXTS = 256  # contexts tried; rank-alike selectors rarely depend on many


def check_soundness(compiler: Any, ruleset: Ruleset) -> None:
    contract = compiler.contract
    if ruleset.is_tiles or "suited_plays" in dict(contract.features):
        return
    selectors: list[tuple[tuple, str, Fn]] = []
    for tier in ruleset.tiers:
        selectors.append((tier.path + ("select",), f"order tier {tier.name!r}", tier.select))
    for i, wild in enumerate(ruleset.wilds):
        if not contract.honours("kind_wilds"):  # else a wild card is keyed apart
            selectors.append((("wilds", i, "select"), "wild selector", wild.select))
        selectors.append((("wilds", i, "stands_for"), "wild's stands_for", wild.stands_for))
    for i, alt in enumerate(ruleset.alternates):
        selectors.append((("alternates", i, "select"), f"alternate {alt.name!r}", alt.select))
    for pd in _all_patterns(ruleset.patterns):
        if pd.where is not None:
            selectors.append((pd.path + ("where",), f"where of pattern {pd.name or 'part'!r}",
                              pd.where))
        if pd.cards:
            suited = [k for k in pd.cards if nt.card_suit(k) is not None]
            if suited:
                compiler.error(pd.path + ("cards",), f"{contract.engine} plays cards of one "
                               f"rank alike, so the exact cards {_show(suited)} would match "
                               "any suit of their rank", expected="exact cards without suits "
                               "(jokers), or a pattern over ranks")
    by_rank: dict[int, list[int]] = {}
    for kind in ruleset.kinds():
        by_rank.setdefault(nt.card_rank(kind), []).append(kind)
    groups = [kinds for kinds in by_rank.values() if len(kinds) > 1]
    reported: set[tuple] = set()
    for n, ctx in enumerate(ruleset.all_contexts()):
        if n >= MAX_CONTEXTS:
            break
        values = ruleset.context_values(ctx)
        where = ", ".join(f"{k}={v}" for k, v in ctx.items())
        where = f" (with {where})" if where else ""
        for path, what, fn in selectors:
            if path in reported:
                continue
            split = _split(fn, groups, values)
            if split is None:
                continue
            reported.add(path)
            yes, no = split
            compiler.error(path, f"{contract.engine} plays cards of one rank alike, but the "
                           f"{what} holds for {nt.format_card(yes)} and not for "
                           f"{nt.format_card(no)}{where}", expected="a selector that treats "
                           "every suit of a rank alike (this engine reads selectors by rank; suits "
                           "enter a play only through suit and ties)")


def _split(fn: Fn, groups: list[list[int]], values: dict[str, Any]) -> tuple[int, int] | None:
    """Two cards of one rank the selector tells apart, if any."""
    for kinds in groups:
        try:
            seen = [(k, bool(fn(Env(k, values)))) for k in kinds]
        except EvaluationError:
            return None  # the static checks report evaluation failures
        yes = [k for k, v in seen if v]
        no = [k for k, v in seen if not v]
        if yes and no:
            return yes[0], no[0]
    return None


def _all_patterns(patterns: list[PatternDef]) -> list[PatternDef]:
    out: list[PatternDef] = []
    stack = list(patterns)
    while stack:
        pd = stack.pop()
        out.append(pd)
        stack.extend(pd.parts)
    return out


def _show(kinds: list[int]) -> str:
    return " ".join(nt.format_card(k) for k in kinds[:6])
