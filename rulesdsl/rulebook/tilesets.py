"""Tile patterns: the sets (chow, pung, kong, pair), a winning hand drawn and scored by
the tile engine, seven pairs, and the limit hands in words."""

from __future__ import annotations

from typing import Any

from .. import notation as nt
from ..errors import RulesdslError
from .context import Ctx
from .model import Block, Figure, Para, Picture, Section, Table

SET_SHAPES: dict[str, tuple[list[str], list[str]]] = {
    # kind → (smallest, typical)
    "chow": (["1m", "2m", "3m"], ["4p", "5p", "6p"]),
    "pung": (["1m", "1m", "1m"], ["7s", "7s", "7s"]),
    "kong": (["1m", "1m", "1m", "1m"], ["5p", "5p", "5p", "5p"]),
    "pair": (["1m", "1m"], ["8s", "8s"]),
}
# Sets a winning hand is built from, in order (skipping any tile that is wild or special
# in the typical hand, or not in the tile set).
HAND_SETS = [["2m", "3m", "4m"], ["5p", "5p", "5p"], ["6s", "7s", "8s"], ["1z", "1z", "1z"],
             ["1p", "2p", "3p"], ["7m", "8m", "9m"], ["2s", "2s", "2s"]]
HAND_PAIRS = [["9m", "9m"], ["6p", "6p"], ["4s", "4s"]]


def _usable(ctx: Ctx, tokens: list[str]) -> bool:
    from .sections import evaluate_selector

    kinds = ctx.r.kinds()
    bonus = set(evaluate_selector(ctx, ctx.play("bonus"))) if ctx.play("bonus") else set()
    wild = {t for w_ in ctx.data["wilds"] for t in w_["cards"]}
    for t in tokens:
        try:
            k = nt.tile_kind(t)
        except nt.NotationError:
            return False
        if k not in kinds or t in bonus or t in wild:
            return False
    return True


def set_words(ctx: Ctx, kind: str) -> str:
    w = ctx.w
    return {
        "chow": w("a chow: three consecutive tiles of one suit", "顺子：同一门花色的三张连续的牌"),
        "pung": w("a pung: three identical tiles", "刻子：三张相同的牌"),
        "kong": w("a kong: four identical tiles (it takes a replacement tile from the wall)",
                  "杠：四张相同的牌（杠后从牌墙补一张）"),
        "pair": w("a pair: two identical tiles", "对子（将）：两张相同的牌"),
    }.get(kind, w.term(kind))


def winning_hand(ctx: Ctx) -> tuple[list[str], str] | None:
    """A complete hand of the ruleset's shape (tokens, the winning tile), or None."""
    win = ctx.r.win or {}
    sets_needed, pairs_needed = int(win.get("sets", 4)), int(win.get("pairs", 1))
    kinds = set(win.get("set_kinds") or ["chow", "pung", "kong"])
    tokens: list[str] = []
    used = 0
    for s in HAND_SETS:
        if used == sets_needed:
            break
        is_chow = s[0] != s[1]
        if (is_chow and "chow" not in kinds) or (not is_chow and "pung" not in kinds):
            continue
        if _usable(ctx, s):
            tokens += s
            used += 1
    pairs = 0
    for p in HAND_PAIRS:
        if pairs == pairs_needed:
            break
        if _usable(ctx, p):
            tokens += p
            pairs += 1
    if used < sets_needed or pairs < pairs_needed:
        return None
    return tokens, tokens[2]


def score_example(ctx: Ctx, tokens: list[str], win_tile: str) -> Any:
    """The tile engine's score of a hand won on a discard by the East seat."""
    from ..engine.tiles.hand import ScoringHand
    from ..engine.tiles.scoring import score_hand

    try:
        hand = ScoringHand(concealed=[nt.tile_kind(t) for t in tokens], winner=True,
                           win_tile=nt.tile_kind(win_tile), seat_wind=nt.tile_kind("1z"))
        context = {n: ctx.hc.values.get(n) for n in ctx.r.context}
        return score_hand(ctx.r, hand, context, None)
    except (RulesdslError, ValueError, KeyError):
        return None


def tile_patterns_section(ctx: Ctx) -> Section:
    w, r = ctx.w, ctx.r
    win = r.win or {}
    blocks: list[Block] = []
    kinds = list(win.get("set_kinds") or ["chow", "pung", "kong"]) + ["pair"]
    blocks.append(Para([w.sentence(w(
        f"A hand wins with {win.get('sets')} sets and {win.get('pairs')} pair; the sets are "
        "chows, pungs or kongs, exposed (claimed) or concealed, and wild tiles may stand in "
        "concealed sets",
        f"和牌需要{win.get('sets')}组牌加{win.get('pairs')}对将；组牌可以是顺子、刻子或杠，"
        "可以是明的（吃碰杠得来）或暗的，暗的组牌中可以用得代替")),
        *ctx.cite(("win",), ("win", "sets"))]))
    subsections: list[Section] = []
    for kind in kinds:
        smallest, typical = SET_SHAPES.get(kind, ([], []))
        pics = []
        if smallest and _usable(ctx, smallest):
            pics.append(Picture(w("smallest", "最小"), ctx.cards(smallest)))
        if typical and _usable(ctx, typical):
            pics.append(Picture(w("typical", "常见"), ctx.cards(typical)))
        sub: list[Block] = [Para([w.sentence(set_words(ctx, kind)[:1].upper()
                                             + set_words(ctx, kind)[1:])])]
        if pics:
            sub.append(Figure(pics, "pattern-figure"))
        subsections.append(Section(f"pattern-{kind}", w.title(kind), sub, cls="pattern"))
    found = winning_hand(ctx)
    if found is not None:
        tokens, win_tile = found
        sub = [Para([w.sentence(w(f"{win.get('sets')} sets and a pair, for example (won on "
                                  f"the {w.tile(win_tile)})",
                                  f"{win.get('sets')}组牌加一对将，例如（和{w.tile(win_tile)}）"))])]
        sub.append(Figure([Picture(w("a winning hand", "和牌"), ctx.cards(tokens))],
                          "pattern-figure"))
        score = score_example(ctx, tokens, win_tile)
        if score is not None and score.wins:
            items = w.join([w.term(n) for n in score.item_names()]) or w("nothing", "无")
            sub.append(Para([w.sentence(w(
                f"Won on a discard by the East seat it scores {items}: base {score.base}, "
                f"{w.count(score.fan, 'fan', 'fan')}, {score.total} in all",
                f"东家和别人打出的牌时计：{items}，基础牌点{score.base}，{score.fan}番，"
                f"共{score.total}"))]))
        subsections.append(Section("pattern-winning-hand", w("Winning hand", "和牌"), sub,
                                   cls="pattern"))
    if win.get("seven_pairs"):
        pairs = ["1m", "1m", "4m", "4m", "7m", "7m", "2p", "2p", "5p", "5p", "8p", "8p", "3s",
                 "3s"]
        sub = [Para([w.sentence(w("Seven pairs also win (no claimed sets); four identical "
                                  "tiles count as two pairs",
                                  "七对也可以和牌（不能有吃碰杠）；四张相同的牌算两对")),
                     *ctx.cite(("win", "seven_pairs"))])]
        if _usable(ctx, pairs):
            sub.append(Figure([Picture(w("seven pairs", "七对"), ctx.cards(pairs))],
                              "pattern-figure"))
        subsections.append(Section("pattern-seven-pairs", w.title("seven_pairs"), sub,
                                   cls="pattern"))
    if r.limit_hands:
        rows = []
        for i, h in enumerate((r.resolved.get("win") or {}).get("limit_hands") or []):
            if not isinstance(h, dict):
                continue
            cond = ctx.condition(h.get("when", ""))
            folded = ctx.say.fold(h.get("when", "true"))
            if getattr(folded, "id", None) == "false":
                continue
            rows.append([[w.term(str(h.get("name")))],
                         [cond, *ctx.cite(("win", "limit_hands", i))]])
        limit = (r.resolved.get("scoring") or {}).get("limit")
        lead = w("A limit hand wins at once, whatever the rest of the hand, and scores the "
                 "cap", "腊子（满贯）无论其余的牌如何都可以立即和牌，计满贯")
        if limit is not None:
            lead += w(f" ({limit})", f"（{limit}）")
        subsections.append(Section("pattern-limit-hands", w("Limit hands", "腊子（满贯）"),
                                   [Para([w.sentence(lead)]),
                                    Table([w("Limit hand", "名称"), w("When", "条件")], rows, "",
                                          "rule-table")], cls="pattern"))
    return Section("patterns", w("Sets and winning hands", "牌型与和牌"), blocks, subsections)
