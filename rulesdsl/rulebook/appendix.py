"""The closing appendix: every example of the rule file once, in words and pictures.

Examples are the rule file's checks (`rulesdsl validate` runs them); here each one says
what it shows: an order of cards, which cards are trumps, what a set of cards is, which
play beats which, what a table or formula gives, how a mahjong hand scores, or how a
short piece of play goes. Their citations become footnotes; the author's notes that
mark gaps in the source are left out.
"""

from __future__ import annotations

import re
from typing import Any

from .. import notation as nt
from .citations import cite_text
from .context import Ctx
from .exprwords import article
from .model import Bullets, Inline, Item, Para, Section, Term
from .tables import output_words

KINDS = {
    "order": ("Card order", "牌的大小"), "trump": ("Trumps", "主牌"),
    "pattern": ("Patterns", "牌型"), "beats": ("Which play beats which", "大小比较"),
    "points": ("Points", "分数"), "table": ("Tables", "表"), "formula": ("Formulas", "公式"),
    "hand": ("Scored hands", "算分"), "scenario": ("Pieces of play", "出牌过程"),
    "deck": ("The deck", "牌"),
}
RAW_DSL = re.compile(r"//|==|\*\*|\bgap\b|\{", re.I)


def _note(raw: dict[str, Any]) -> str:
    note = " ".join(str(raw.get("note") or "").split())
    return "" if not note or RAW_DSL.search(note) else note


def _context_words(ctx: Ctx, context: dict[str, Any] | None,
                   options: dict[str, Any] | None = None) -> str:
    w = ctx.w
    parts = []
    for name, value in (context or {}).items():
        decl = ctx.r.context.get(name)
        kind = decl.type if decl else ""
        text = str(value)
        if kind == "suit" and text in nt.SUITS:
            parts.append(w(f"{w.suit(text)} trumps", f"{w.suit(text)}为主"))
        elif kind == "rank":
            parts.append(w(f"level {text}", f"打{text}"))
        elif kind == "tile":
            parts.append(w(f"{w.tile(text)} turned up", f"翻出{w.tile(text)}"))
        else:
            parts.append(f"{name.replace('_', ' ')} {text}")
    for name, value in (options or {}).items():
        shown = (w("yes", "是") if value else w("no", "否")) if isinstance(value, bool) \
            else str(value).replace("_", " ")
        parts.append(w(f"variant {name.replace('_', ' ')}: {shown}",
                       f"可选规则{name.replace('_', ' ')}：{shown}"))
    return w.join(parts)


def _pieces(ctx: Ctx, text: Any) -> Inline:
    """Card or tile notation as pictures, an order's `>` and `=` kept; else the words."""
    out: Inline = []
    for token in re.split(r"(\s*[>=]\s*)", str(text)):
        if not token.strip():
            continue
        if token.strip() in (">", "="):
            out.append(f" {token.strip()} ")
            continue
        try:
            kinds = nt.parse_tiles(token) if ctx.tiles else nt.parse_cards(token)
        except nt.NotationError:
            return [str(text)]
        tokens = [nt.format_tile(k) if ctx.tiles else nt.format_card(k) for k in kinds]
        out.append(ctx.cards(tokens))
    return out


def _inputs(ctx: Ctx, inputs: dict[str, Any]) -> str:
    w = ctx.w
    return w.join([f"{ctx.say.name(k)} {v}" if not w.zh else f"{ctx.say.name(k)}为{v}"
                   for k, v in inputs.items()])


def _value(ctx: Ctx, value: Any) -> str:
    w = ctx.w
    if isinstance(value, bool):
        return w("yes", "是") if value else w("no", "否")
    if value is None:
        return w("nobody", "无")
    if isinstance(value, list):
        return w.join([_value(ctx, v) for v in value]) if value else w("none", "无")
    if isinstance(value, dict):
        return "; ".join(f"{ctx.w.term(str(k))} {_value(ctx, v)}" for k, v in value.items())
    if isinstance(value, str):
        return w.term(value)
    return str(value)


def _line(ctx: Ctx, e: dict[str, Any]) -> Item | None:
    w = ctx.w
    raw = e["raw"]
    kind = e["kind"]
    where = _context_words(ctx, raw.get("context"), raw.get("options"))
    lead: Inline = [w(f"With {where}: ", f"{where}：")] if where else []
    expect = raw.get("expect")
    content: Inline
    if kind == "order":
        holds = expect is None or bool(expect)
        content = [*lead, *_pieces(ctx, raw["order"]),
                   "" if holds else w(" — this order does not hold", "——此顺序不成立")]
    elif kind == "trump":
        cards = _pieces(ctx, raw["trump"])
        content = [*lead, *cards, w(" are all trumps", "都是主牌") if expect else
                   w(" are none of them trumps", "都不是主牌")]
    elif kind == "pattern":
        names = expect if isinstance(expect, list) else [expect] if expect is not None else []
        names = [str(n) for n in names if n is not None]
        if not names or names == ["none"]:
            said = w(" is no pattern", "不成牌型")
        elif len(names) == 1:
            said = w(f" is {article(w.term(names[0]))}", f"是{w.term(names[0])}")
        else:
            said = w(f" can be read as {w.join([w.term(n) for n in names], 'or')}",
                     f"可以看作{w.join([w.term(n) for n in names], 'or')}")
        if "includes" in raw or "excludes" in raw:
            inc = [str(x.get("pattern", x) if isinstance(x, dict) else x)
                   for x in raw.get("includes") or []]
            exc = [str(x.get("pattern", x) if isinstance(x, dict) else x)
                   for x in raw.get("excludes") or []]
            said = ""
            if inc:
                said += w(f" can be read as {w.join([w.term(n) for n in inc])}",
                          f"可以看作{w.join([w.term(n) for n in inc])}")
            if exc:
                said += w(f"{';' if inc else ''} is never read as "
                          f"{w.join([w.term(n) for n in exc], 'or')}",
                          f"{'；' if inc else ''}不能看作{w.join([w.term(n) for n in exc], 'or')}")
        content = [*lead, *_pieces(ctx, raw["pattern"]), said]
    elif kind == "beats":
        verb = w(" beats ", "压过") if expect else w(" does not beat ", "压不过")
        content = [*lead, *_pieces(ctx, raw["beats"]), verb, *_pieces(ctx, raw["over"])]
        if raw.get("as"):
            read = [w.term(str(x)) for x in raw["as"]]
            content.append(w(f" (read as {read[0]} and {read[-1]})",
                             f"（分别看作{read[0]}和{read[-1]}）"))
    elif kind == "points":
        content = [*lead, *_pieces(ctx, raw["points"]),
                   w(f" are worth {expect} points", f"共{expect}分")]
    elif kind == "table":
        got = output_words(ctx, dict(expect or {})) if isinstance(expect, dict) else \
            _value(ctx, expect)
        content = [*lead, w(f"With {_inputs(ctx, raw.get('input') or {})}: {got}",
                            f"{_inputs(ctx, raw.get('input') or {})}时：{got}")]
    elif kind == "formula":
        name = w.term(str(raw["formula"]))
        content = [*lead, Term(name), w(f" with {_inputs(ctx, raw.get('input') or {})} gives "
                                        f"{_value(ctx, expect)}",
                                        f"：{_inputs(ctx, raw.get('input') or {})}时为"
                                        f"{_value(ctx, expect)}")]
    elif kind == "hand":
        content = [*lead, *_hand(ctx, raw)]
    elif kind == "scenario":
        return _scenario(ctx, raw)
    else:
        content = [*lead, str(raw.get(kind, ""))]
    children: list[Item] = []
    note = _note(raw)
    if note:
        children.append(Item([note]))
    refs = ctx.notes.refs(cite_text(raw.get("cite")))
    return Item([*content, *refs], children)


def _hand(ctx: Ctx, raw: dict[str, Any]) -> Inline:
    w = ctx.w
    out: Inline = [*_pieces(ctx, raw["hand"])]
    if raw.get("melds"):
        melds = raw["melds"] if isinstance(raw["melds"], list) else str(raw["melds"]).split()
        out += [w(" with exposed sets ", "，明牌："),
                *[x for m in melds for x in (*_pieces(ctx, re.sub(r"[^0-9mpszf]", "", str(m))),
                                             " ")]]
    if raw.get("flowers"):
        out += [w(" and flowers ", "，花牌："), *_pieces(ctx, raw["flowers"])]
    if raw.get("win_tile"):
        how = w("self-drawn", "自摸") if raw.get("self_drawn") else w("on a discard", "点和")
        out += [w(" wins on ", "，和"), *_pieces(ctx, raw["win_tile"]), f" ({how})" if not w.zh
                else f"（{how}）"]
    if raw.get("seat_wind"):
        out.append(w(f", seat wind {w.tile(str(raw['seat_wind']))}",
                     f"，门风{w.tile(str(raw['seat_wind']))}"))
    expect = raw.get("expect") or {}
    said = []
    if "wins" in expect:
        said.append(w("a winning hand", "可以和牌") if expect["wins"] else
                    w("not a winning hand", "不能和牌"))
    if expect.get("limit"):
        said.append(w(f"limit hand {w.term(str(expect['limit']))}",
                      f"腊子：{w.term(str(expect['limit']))}"))
    if expect.get("items") is not None:
        said.append(w(f"scores {w.join([w.term(str(i)) for i in expect['items']]) or 'nothing'}",
                      f"计：{w.join([w.term(str(i)) for i in expect['items']]) or '无'}"))
    for key, en, zh in (("base", "base", "基础牌点"), ("fan", "fan", "番数"),
                        ("total", "total", "总计")):
        if key in expect:
            said.append(w(f"{en} {expect[key]}", f"{zh}{expect[key]}"))
    if said:
        out.append(w(": " + ", ".join(said), "：" + "，".join(said)))
    return out


def _action(ctx: Ctx, text: str) -> Inline:
    w = ctx.w
    parts = str(text).split()
    verbs = {"pass": ("pass", "不出"), "declare": ("declares", "叫"), "bid": ("bids", "叫分"),
             "discard": ("discards", "打"), "chow": ("chows", "吃"), "pung": ("pungs", "碰"),
             "kong": ("kongs", "杠"), "added_kong": ("adds to a kong", "补杠"),
             "concealed_kong": ("concealed kong", "暗杠"), "win": ("wins", "和"),
             "claim": ("claims", "亮牌"), "tribute": ("pays tribute", "进贡"),
             "return": ("gives back", "还贡"), "bury": ("buries", "扣底"),
             "void": ("is void of", "定缺")}
    if parts and parts[0] in verbs:
        en, zh = verbs[parts[0]]
        rest = " ".join(parts[1:])
        out: Inline = [w(en, zh)]
        if rest:
            if re.fullmatch(r"[mps]", rest):
                out.append(" " + w.term({"m": "characters", "p": "dots", "s": "bamboo"}[rest])
                           if not w.zh else {"m": "万", "p": "筒", "s": "条"}[rest])
            elif rest.isdigit():
                out.append(f" {rest}")
            else:
                out += [" ", *_pieces(ctx, re.sub(r"\bas\b.*$", "", rest))]
        return out
    return _pieces(ctx, re.sub(r"\bas\b.*$", "", str(text)))


def _scenario(ctx: Ctx, raw: dict[str, Any]) -> Item:
    w = ctx.w
    title = " ".join(str(raw.get("scenario", "")).split())
    where = _context_words(ctx, raw.get("context"), raw.get("options"))
    head: Inline = [Term(title)]
    if where:
        head.append(w(f" ({where})", f"（{where}）"))
    head += ctx.notes.refs(cite_text(raw.get("cite")))
    children: list[Item] = []
    hands = raw.get("hands") or {}
    if hands:
        seats: Inline = [w("Hands: ", "手牌：")]
        for i, (seat, cards) in enumerate(sorted(hands.items(), key=lambda kv: int(kv[0]))):
            seats += [("; " if not w.zh else "；") if i else "", w.seat(int(seat)) + " ",
                      *_pieces(ctx, cards)]
        children.append(Item(seats))
    if raw.get("kitty"):
        children.append(Item([w("Kitty: ", "底牌："), *_pieces(ctx, raw["kitty"])]))
    actions = raw.get("actions") or []
    if actions:
        plays: Inline = [w("Then: ", "然后：")]
        for i, a in enumerate(actions):
            if i:
                plays.append(", " if not w.zh else "，")
            plays += _action(ctx, a)
        if raw.get("turn") is not None:
            plays.insert(1, w(f"{w.seat(int(raw['turn']))} first; ",
                              f"{w.seat(int(raw['turn']))}先；"))
        children.append(Item(plays))
    if raw.get("legal"):
        legal: Inline = [w("Allowed next: ", "接下来可以：")]
        for i, a in enumerate(raw["legal"]):
            legal += ([", " if not w.zh else "，"] if i else []) + _action(ctx, a)
        children.append(Item(legal))
    if raw.get("illegal"):
        bad: Inline = [w("Not allowed: ", "不可以：")]
        for i, a in enumerate(raw["illegal"]):
            action = a.get("action") if isinstance(a, dict) else a
            bad += ([", " if not w.zh else "，"] if i else []) + _action(ctx, str(action))
        children.append(Item(bad))
    outcome = _outcome(ctx, raw.get("expect") or {})
    if outcome:
        children.append(Item([w("Outcome: ", "结果："), outcome]))
    note = _note(raw)
    if note:
        children.append(Item([note]))
    return Item(head, children)


def _outcome(ctx: Ctx, expect: dict[str, Any]) -> str:
    w = ctx.w
    said = []
    for key, value in expect.items():
        if key == "winner" and value is not None:
            said.append(w(f"{w.seat(int(value))} wins the trick" if ctx.r.family == "trick"
                          else f"{w.seat(int(value))} wins", f"{w.seat(int(value))}赢"))
        elif key == "to_act":
            said.append(w("nobody is to act", "无人行动") if value is None else
                        w(f"{w.seat(int(value))} is to act", f"轮到{w.seat(int(value))}"))
        elif key == "terminal":
            said.append(w("the hand is over", "本局结束") if value else
                        w("the hand goes on", "本局继续"))
        elif key == "points" and isinstance(value, dict):
            said += [w(f"{w.term(str(k))} have {v} points", f"{w.term(str(k))}得{v}分")
                     for k, v in value.items()]
        elif key == "phase":
            said.append(w(f"next: {w.term(str(value))}", f"进入：{w.term(str(value))}"))
        elif key == "returns" and isinstance(value, list):
            said.append(w("payouts ", "输赢：") + ", ".join(
                f"{w.seat(i)} {v:+g}" if isinstance(v, (int, float)) else f"{w.seat(i)} {v}"
                for i, v in enumerate(value)))
        elif key == "actions" and isinstance(value, list):
            said.append(w("the choices are ", "可以：") + ", ".join(
                "".join(x if isinstance(x, str) else x.label for x in _action(ctx, a))
                for a in value))
        elif key in ("result", "context") and isinstance(value, dict):
            said.append(", ".join(f"{w.term(str(k))} {_value(ctx, v)}" for k, v in value.items()))
        elif key == "events":
            continue
        else:
            said.append(f"{w.term(str(key))} {_value(ctx, value)}")
    return w("; ".join(said), "；".join(said))


def appendix(ctx: Ctx) -> Section | None:
    w = ctx.w
    examples = ctx.r.examples
    if not examples:
        return None
    intro = Para([w.sentence(w(
        f"The rule file's {len(examples)} examples, each checked against the rules by "
        "rulesdsl validate; seats are numbered from 0 in turn order",
        f"规则文件中的{len(examples)}个例子，均经 rulesdsl validate 检查；座位按出牌顺序从0编号"))])
    subsections: list[Section] = []
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in examples:
        groups.setdefault(e["kind"], []).append(e)
    for kind, items in groups.items():
        en, zh = KINDS.get(kind, (kind, kind))
        lines = []
        for e in items:
            line = _line(ctx, e)
            if line is not None:
                line.anchor = f"example-{e['path'][-1]}" if e.get("path") else ""
                lines.append(line)
        if lines:
            subsections.append(Section(f"examples-{kind}", w(en, zh), [Bullets(lines)]))
    return Section("examples", w("Appendix: examples", "附录：例子"), [intro], subsections)

