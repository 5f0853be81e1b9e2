"""Building the rulebook of a ruleset in one language, from the compiled rules alone."""

from __future__ import annotations

from ..explain import explain_data, resolve_context
from ..model.hand import HandContext
from ..model.ruleset import Ruleset
from . import prose_shedding, prose_tiles, prose_trick
from .appendix import appendix
from .citations import Citations
from .context import Ctx
from .exprwords import Speaker
from .model import Book, Notes, Section
from .sections import (
    FAMILY,
    cards_section,
    options_section,
    order_section,
    overview,
    patterns_section,
    players_words,
)
from .words import Words

PROSE = {"trick": prose_trick.proceeds, "shedding": prose_shedding.proceeds,
         "tiles": prose_tiles.proceeds}


def make_context(ruleset: Ruleset, lang: str = "en") -> Ctx:
    """The typical hand (the context values the examples use most) and the words."""
    w = Words(lang)
    values, shown = resolve_context(ruleset)
    data = explain_data(ruleset, values, shown)
    hc = HandContext(ruleset, values)
    defines = set(ruleset.resolved.get("define") or {})
    names: dict[str, tuple[str, str]] = {}
    play = ruleset.play
    for cap, _ in getattr(play, "captures", None) or []:
        select = next((c.get("select") for c in (ruleset.resolved.get("play") or {})
                       .get("captures") or [] if isinstance(c, dict) and c.get("name") == cap),
                      None)
        en, zh = (Words("en").term(str(select)), Words("zh").term(str(select))) \
            if isinstance(select, str) and select.isidentifier() else (cap, cap)
        names[f"defender_{cap}"] = (f"the defenders' captured {en}s", f"闲家抓到的{zh}")
        names[f"dealer_{cap}"] = (f"the dealer side's captured {en}s", f"庄家方抓到的{zh}")
    if ruleset.family == "trick":
        names["points"] = ("the defenders' points", "闲家得分")
    if ruleset.family == "shedding":
        names["base"] = ("the base stake", "底分")
    speaker = Speaker(w, ruleset.options, names=names, defines=defines,
                      tiles=ruleset.family == "tiles")
    return Ctx(ruleset, w, speaker, Notes(), Citations(ruleset), hc, hc.values, data)


def build_book(ruleset: Ruleset, lang: str = "en") -> Book:
    ctx = make_context(ruleset, lang)
    w, r = ctx.w, ruleset
    name = r.name or {}
    title = " ".join(x for x in (name.get("zh"), name.get("en")) if x) or w("Rulebook", "规则书")
    en, zh = FAMILY.get(r.family, (r.family, r.family))
    subtitle = w(f"Rulebook · a {en} for {players_words(ctx)}",
                 f"规则书 · {zh} · {players_words(ctx)}")
    sections: list[Section] = [overview(ctx), cards_section(ctx), order_section(ctx),
                               patterns_section(ctx)]
    sections = [s for s in sections if s.blocks or s.subsections]
    sections += PROSE[r.family](ctx)
    sections.append(options_section(ctx))
    extra = appendix(ctx)
    if extra is not None:
        sections.append(extra)
    return Book(lang, title, subtitle, sections, list(ctx.notes.texts),
                w("Notes: the source text", "注释：原文出处"), w("Contents", "目录"))
