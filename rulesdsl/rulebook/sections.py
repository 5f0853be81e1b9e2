"""The rulebook's sections every family shares: at a glance, the cards or tiles, their
order (trumps and wilds), the patterns, and the variants (options)."""

from __future__ import annotations

from typing import Any

from .. import notation as nt
from ..model.hand import TRUMP
from ..runtime.expressions import Env
from .context import Ctx
from .model import Block, Cards, Figure, Heading, Inline, Para, Picture, Section, Table, Term
from .patterns import PatternWords, ladder_text
from .tables import card_points_rows

FAMILY = {"trick": ("trick-taking game", "升级类打牌游戏（抓分）"),
          "shedding": ("shedding game (climbing: get rid of your cards first)",
                       "跑牌类游戏（先出完手中的牌）"),
          "tiles": ("mahjong game", "麻将游戏")}


def teams_words(ctx: Ctx) -> str:
    w, r = ctx.w, ctx.r
    n = r.players
    teams = [t for t in r.teams if t]
    if ctx.play("sides") == "dealer_alone":
        return w("the dealer plays alone against all the others",
                 "庄家一人对其余所有玩家")
    if len(teams) <= 1 or all(len(t) == 1 for t in teams):
        return w("everyone plays for themselves", "各自为战")
    size = len(teams[0])
    if size == 2 and n == 4:
        return w("two partnerships; partners sit opposite each other", "两人一组，对家为搭档")
    return w(f"{len(teams)} teams of {size}; teammates sit in every other seat",
             f"分{len(teams)}队，每队{size}人，隔位而坐")


def direction_words(ctx: Ctx, direction: str | None = None) -> str:
    d = direction or ctx.r.direction
    return ctx.w("counter-clockwise", "逆时针") if d == "counter-clockwise" \
        else ctx.w("clockwise", "顺时针")


def players_words(ctx: Ctx) -> str:
    w, counts = ctx.w, ctx.r.player_counts
    if len(counts) == 1:
        return w(f"{counts[0]} players", f"{counts[0]}人")
    shown = w.join([str(c) for c in counts], "or")
    return w(f"{shown} players", f"{shown}人")


# ---------------------------------------------------------------- at a glance


def overview(ctx: Ctx) -> Section:
    w, r = ctx.w, ctx.r
    en, zh = FAMILY.get(r.family, (r.family, r.family))
    pieces = w(f"{sum(r.deck)} tiles", f"{sum(r.deck)}张牌") if ctx.tiles else \
        w(f"{sum(r.deck)} cards", f"{sum(r.deck)}张牌")
    text: Inline = [w.sentence(w(f"A {en} for {players_words(ctx)} ({teams_words(ctx)}), "
                                 f"with {pieces}; turns go {direction_words(ctx)}",
                                 f"{zh}，{players_words(ctx)}（{teams_words(ctx)}），共{pieces}，"
                                 f"按{direction_words(ctx)}方向轮流")),
                    *ctx.cite(("players",))]
    aims: list[str] = []
    if r.family == "trick":
        aims.append(w("Each hand one side is the dealer's side and the other the defenders; "
                      "the defenders try to capture point cards in tricks, the dealer's side "
                      "to keep them from it",
                      "每局一方为庄家方，另一方为闲家；闲家在每一轮中争取抓分，庄家方阻止闲家得分"))
    elif r.family == "shedding":
        aims.append(w("Players take turns playing combinations that beat the one before, and "
                      "try to be the first to get rid of all their cards",
                      "玩家轮流打出能压过上家的牌型，争取最先出完手中的牌"))
    else:
        win = r.win or {}
        aims.append(w(f"Players draw and discard tiles to complete a hand of {win.get('sets')} "
                      f"sets and {win.get('pairs')} pair",
                      f"玩家摸牌、打牌，凑成{win.get('sets')}组牌加{win.get('pairs')}对将即可和牌"))
    if isinstance(r.levels, dict) and r.levels.get("ladder"):
        ladder = [int(x) for x in r.levels["ladder"]]
        aims.append(w(f"The result of each hand moves the sides up a ladder of levels from "
                      f"{nt.rank_name(ladder[0])} to {nt.rank_name(ladder[-1])}; a side that "
                      "climbs past the top wins the match",
                      f"每局的结果让双方沿级别从{nt.rank_name(ladder[0])}升到"
                      f"{nt.rank_name(ladder[-1])}；打过最高级的一方赢得整场比赛"))
    text += [" " if not w.zh else "", " ".join(w.sentence(a) for a in aims) if not w.zh
             else "".join(w.sentence(a) for a in aims)]
    blocks: list[Block] = [Para(text)]
    blocks.append(Para([w("Everything below is generated from the rule file; where the rule "
                          "file offers variants, the rules shown are its defaults (see "
                          "Variants). Numbered notes quote the source text each rule comes "
                          "from.",
                          "以下内容均由规则文件生成；规则文件提供可选规则时，正文按默认选择介绍（见“可选规则”）。"
                          "带编号的注释引用每条规则的原文出处。")], "muted"))
    return Section("overview", w("At a glance", "概述"), blocks)


# ---------------------------------------------------------------- cards and tiles


def cards_section(ctx: Ctx) -> Section:
    w, r = ctx.w, ctx.r
    blocks: list[Block] = []
    if ctx.tiles:
        ts = r.resolved.get("tileset") or {}
        suits = [w.term({"m": "characters", "p": "dots", "s": "bamboo"}.get(s, s))
                 if not w.zh else {"m": "万", "p": "筒", "s": "条"}.get(s, s)
                 for s in ts.get("suits", [])]
        text = w(f"{sum(r.deck)} tiles: the suits {w.join(suits)}, 1 to 9",
                 f"共{sum(r.deck)}张：{w.join(suits)}三门序数牌（1至9）")
        if ts.get("honors"):
            text += w(", the four winds and the three dragons", "，东南西北四风和中发白")
        text += w(f", {ts.get('copies', 4)} of each", f"，各{ts.get('copies', 4)}张")
        if ts.get("flowers"):
            text += w(f"; and {ts['flowers']} flowers, one of each",
                      f"；另有{ts['flowers']}张花牌，各一张")
        blocks.append(Para([w.sentence(text), *ctx.cite(("tileset",))]))
        rows: list[list[Inline]] = []
        names = {"m": ("Characters", "万子"), "p": ("Dots", "筒子"), "s": ("Bamboo", "条子"),
                 "z": ("Winds and dragons", "风牌与中发白"), "f": ("Flowers", "花牌")}
        for group in ctx.data.get("tiles", []):
            en, zh = names.get(group["suit"], (group["suit"], group["suit"]))
            rows.append([[w(en, zh)], [ctx.cards(group["tiles"])]])
        blocks.append(Table([w("Kind", "种类"), w("Tiles", "牌")], rows, "", "pieces"))
        return Section("cards", w("The tiles", "牌"), blocks)
    deck = r.resolved.get("deck") or {}
    decks = int(deck.get("decks", 1))
    text = w(f"{decks} standard deck{'s' if decks != 1 else ''} of 52 cards"
             + (" with their two jokers each" if deck.get("jokers") else ""),
             f"{decks}副扑克牌" + ("（含大小王）" if deck.get("jokers") else "（不含大小王）"))
    text += w(f": {sum(r.deck)} cards in play", f"，共{sum(r.deck)}张")
    blocks.append(Para([w.sentence(text), *ctx.cite(("deck",))]))
    if deck.get("remove"):
        removed = [str(c) for c in deck["remove"]]
        blocks.append(Para([w("Taken out of each deck: ", "每副牌去掉："), ctx.cards(removed),
                            *ctx.cite(("deck", "remove"))]))
    if r.points:
        total = r.total_points()
        blocks.append(Heading(w("Point cards", "分牌")))
        blocks.append(Table([w("Card", "牌"), w("Worth", "分值")], card_points_rows(ctx), "",
                            "points"))
        blocks.append(Para([w.sentence(w(f"Cards of these ranks in every suit count; all the "
                                         f"cards together hold {total} points",
                                         f"各花色同点数的牌分值相同，全部牌共{total}分")),
                            *ctx.cite(("points",))]))
    return Section("cards", w("The cards", "牌"), blocks)


# ---------------------------------------------------------------- order, trumps, wilds


def _context_phrase(ctx: Ctx) -> str:
    w = ctx.w
    parts = []
    for c in ctx.data["context"]:
        if c["type"] == "suit":
            parts.append(w(f"{w.suit(c['value'])} trumps", f"{w.suit(c['value'])}为主"))
        elif c["type"] == "rank":
            parts.append(w(f"level {c['value']}", f"打{c['value']}"))
        elif c["type"] == "tile":
            parts.append(w(f"{w.tile(c['value'])} turned up", f"翻出{w.tile(c['value'])}"))
    return w.join(parts)


def order_section(ctx: Ctx) -> Section:
    w, r = ctx.w, ctx.r
    blocks: list[Block] = []
    data = ctx.data
    if ctx.tiles:
        return Section("order", w("Wild tiles", "得（财神）"), _wild_blocks(ctx))
    if r.family == "trick":
        decls = [c for c in data["context"] if c["type"] in ("suit", "rank")]
        if decls:
            blocks.append(Para([w.sentence(w(
                "In every hand one suit is trumps and one rank is the level: the rank the "
                "dealer's side is playing on. Which cards are trumps, and their order, depend "
                f"on both; the tables below show a hand with {_context_phrase(ctx)}",
                f"每局有一门主花色和一个级牌点数（庄家方所打的级）。哪些牌是主牌、以及牌的大小都取决于这两者；"
                f"下表以{_context_phrase(ctx)}为例")), *ctx.cite(("context",), ("trump",))]))
    else:
        blocks.append(Para([w.sentence(w("Cards rank by their rank alone, whatever the suit; "
                                         "strongest first",
                                         "牌的大小只看点数，不论花色；从大到小排列")),
                            *ctx.cite(("order",), ("ranks",))]))
    for system in data["ladder"]:
        if r.family == "trick" and system["system"] not in (TRUMP,) and \
                system is not _first_plain(data):
            continue
        rows: list[list[Inline]] = []
        for step in system["steps"]:
            tier = step["tier"]
            label = w.term(tier) if tier != "plain" else w("plain", "副牌")
            cards: Inline = [ctx.cards(step["cards"])] if len(step["cards"]) == 1 else \
                [ctx.cards(step["cards"]), w(" (equal)", "（同大）")]
            if rows and rows[-1][0] == [label] and r.family == "trick":
                rows[-1][1] += [" ", *cards]
            else:
                rows.append([[label], cards])
        if r.family == "trick":
            title = w("Trumps, strongest first", "主牌（从大到小）") if system["system"] == TRUMP \
                else w(f"A plain suit ({w.suit(system['system'])}), strongest first; the other "
                       "plain suits rank the same way",
                       f"副牌（以{w.suit(system['system'])}为例，从大到小；其他副牌花色相同）")
            blocks.append(Heading(title))
            blocks.append(Table([w("Rank", "名称"), w("Cards", "牌")], rows, "", "ladder"))
        else:
            compact = [c for step in system["steps"] for c in step["cards"][:1]]
            blocks.append(Para([w("From strongest to weakest: ", "从大到小："),
                                ctx.cards(compact)], "ladder-line"))
    alternates = r.resolved.get("alternates") or []
    if alternates:
        blocks.append(Heading(w("Demotion", "下放")))
        for i, alt in enumerate(a for a in alternates if isinstance(a, dict)):
            select = str(alt.get("select", ""))
            who = w.term(select) if select.isidentifier() else ctx.condition(select)
            pats = w.join([w.term(p) for p in alt.get("patterns", [])], "or")
            rank = alt.get("rank")
            text = w(f"A {who} may also play as a card of its own suit"
                     + (f" of rank {'A (low)' if str(rank) == '1' else rank}" if rank else "")
                     + f" when that makes a {pats}",
                     f"{who}也可以下放到本花色当作普通牌"
                     + (f"（当作{'小A' if str(rank) == '1' else rank}）" if rank else "")
                     + f"，用来组成{pats}")
            blocks.append(Para([w.sentence(text), *ctx.cite(("alternates", i))]))
        if r.demoted == "incomparable":
            blocks.append(Para([w.sentence(w("A demoted play never beats a play of the same "
                                             "shape in its suit",
                                             "下放组成的牌不能压同花色同牌型的牌"))]))
    blocks += _wild_blocks(ctx)
    title = w("Card order, trumps and wilds", "牌的大小、主牌与百搭") if r.family == "trick" \
        else w("Card order and wilds", "牌的大小与百搭")
    return Section("order", title, blocks)


def _first_plain(data: dict[str, Any]) -> Any:
    for system in data["ladder"]:
        if system["system"] != TRUMP:
            return system
    return None


def _wild_blocks(ctx: Ctx) -> list[Block]:
    w = ctx.w
    blocks: list[Block] = []
    rules = ctx.r.resolved.get("wilds") or []
    if not rules:
        return blocks
    thing = w("tile", "牌") if ctx.tiles else w("card", "牌")
    if ctx.tiles and ctx.data["context"]:
        blocks.append(Para([w.sentence(w(
            "After the deal a tile is turned up; it decides which tiles are wild (they may "
            f"stand for other tiles). Shown for a hand with {_context_phrase(ctx)}",
            f"发牌后翻开一张牌，由它决定哪些牌是得（百搭，可以代替其他牌）。以下以{_context_phrase(ctx)}为例")),
            *ctx.cite(("context",), ("define", "wild"))]))
    if not ctx.data["wilds"]:
        blocks.append(Para([w.sentence(w(f"With the default variants no {thing} is wild",
                                         f"默认规则下没有百搭{thing}"))]))
    for i, wild in enumerate(ctx.data["wilds"]):
        if wild["not_for"] and len(wild["not_for"]) <= len(wild["stands_for"]):
            stands: Inline = [w(f"any {thing} except ", f"除以下{thing}外的任何{thing}："),
                              ctx.cards(wild["not_for"])]
        elif wild["not_for"]:
            stands = [ctx.cards(wild["stands_for"])]
        else:
            stands = [w(f"any {thing}", f"任何{thing}")]
        blocks.append(Para([w("Wild: ", "百搭："), ctx.cards(wild["cards"]),
                            w(" — may stand for ", "——可以代替"), *stands,
                            *ctx.cite(("wilds", i))]))
    return blocks


# ---------------------------------------------------------------- patterns


def patterns_section(ctx: Ctx) -> Section:
    w, r = ctx.w, ctx.r
    if ctx.tiles:
        from .tilesets import tile_patterns_section

        return tile_patterns_section(ctx)
    pw = PatternWords(r, w, ctx.say)
    intro: list[Block] = []
    same = w("Cards of one rank are alike whatever their suits", "同点数的牌不论花色都算相同") \
        if r.sameness == "rank" else \
        w("Cards are alike only when identical: same suit and same rank",
          "只有花色和点数都相同的牌才算相同")
    intro.append(Para([w.sentence(w(f"{same}. These are the combinations a player may play; "
                                    "each comes with its smallest example and a typical one",
                                    f"{same}。以下是可以打出的牌型，每种附最小的例子和一个常见的例子")),
                       *ctx.cite(("patterns",), above=True)]))
    if r.family == "trick":
        intro.append(Para([w.sentence(w(
            "A pattern is played in one suit-system: all trumps, or all of one plain suit",
            "一手牌型必须在同一个花色系统内：全是主牌，或全是同一门副牌"))]))
    for row in r.classes:
        names = " < ".join(w.term(x) for x in row)
        intro.append(Para([w.sentence(w(f"Of plays with the same number of cards, each of "
                                        f"these beats the ones before it: {names}",
                                        f"张数相同时，后面的牌型可以压前面的牌型：{names}")),
                           *ctx.cite(("patterns", "classes"))]))
    subsections: list[Section] = []
    by_name = {p["name"]: p for p in ctx.data["patterns"]}
    for i, pd in enumerate(r.patterns):
        entry = by_name.get(pd.name) or {}
        pics = pw.pictures(ctx.hc, pd, entry.get("example"))
        index = pd.path[2] if len(pd.path) > 2 else i
        blocks: list[Block] = [Para([pw.describe(pd), *ctx.cite(("patterns", "list", index))])]
        pictures: list[Picture] = []
        if pics.smallest:
            pictures.append(Picture(w("smallest", "最小"), _cards_of(ctx, pics.smallest)))
        if pics.typical:
            pictures.append(Picture(w("typical", "常见"), _cards_of(ctx, pics.typical)))
        if pictures:
            blocks.append(Figure(pictures, "pattern-figure"))
        title = w.title(pd.name)
        subsections.append(Section(f"pattern-{pd.name}", title, blocks, cls="pattern"))
    off = [p for p in ((r.resolved.get("patterns") or {}).get("list") or [])
           if isinstance(p, dict) and p.get("name") not in {pd.name for pd in r.patterns}]
    if off:
        names = w.join([w.term(str(p.get("name"))) for p in off])
        intro.append(Para([w.sentence(w(f"Only with a variant (see Variants): {names}",
                                        f"仅在可选规则下使用（见“可选规则”）：{names}"))]))
    return Section("patterns", w("Patterns", "牌型"), intro, subsections)


def _cards_of(ctx: Ctx, kinds: list[int]) -> Cards:
    tokens = [nt.format_tile(k) if ctx.tiles else nt.format_card(k) for k in kinds]
    return ctx.cards(tokens)


# ---------------------------------------------------------------- variants


def _choice(ctx: Ctx, value: Any) -> str:
    w = ctx.w
    if isinstance(value, bool):
        return w("yes", "是") if value else w("no", "否")
    return str(value).replace("_", " ")


def options_section(ctx: Ctx) -> Section:
    w, r = ctx.w, ctx.r
    opts = r.resolved.get("options") or {}
    if not opts:
        return Section("variants", w("Variants", "可选规则"),
                       [Para([w.sentence(w("The rule file offers no variants",
                                           "规则文件没有可选规则"))])])
    blocks: list[Block] = [Para([w.sentence(w(
        "The rule file leaves these choices open; the rulebook follows the default of each",
        "规则文件把以下几处留作可选；本规则书按各项的默认选择介绍"))])]
    rows: list[list[Inline]] = []
    for name, spec in opts.items():
        spec = spec if isinstance(spec, dict) else {"default": spec}
        choices = [_choice(ctx, c) for c in spec.get("choices") or []]
        default = _choice(ctx, spec.get("default"))
        others = [c for c in choices if c != default]
        doc = " ".join(str(spec.get("doc", "")).split())
        rows.append([[Term(name.replace("_", " "))], [default],
                     [w.join(others, "or") if others else "—"], [doc]])
    blocks.append(Table([w("Variant", "选项"), w("Default", "默认"), w("Other choices", "其他选择"),
                         w("What it means (the rule file's words)", "说明（规则文件原文）")], rows,
                        "", "variants"))
    return Section("variants", w("Variants", "可选规则"), blocks)


def evaluate_selector(ctx: Ctx, fn: Any) -> list[str]:
    """The cards or tiles of the deck a compiled selector picks in the typical hand."""
    out = []
    for k in ctx.r.kinds():
        try:
            hit = fn(Env(k, ctx.hc.values))
        except Exception:  # noqa: BLE001 - a selector that cannot be read picks nothing
            hit = False
        if hit:
            out.append(nt.format_tile(k) if ctx.tiles else nt.format_card(k))
    return out


def ladder_words(ctx: Ctx, ladder: list[int]) -> str:
    return ladder_text(ctx.w, ladder)
