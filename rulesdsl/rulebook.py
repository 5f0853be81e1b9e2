"""`rulesdsl doc`: a readable rulebook rendered from a rule file alone.

The rulebook is built once as a small document model (sections of paragraphs, bullet
lists and tables whose cells mix text, code and card pictures) from the compiled ruleset
and its `explain` view, then rendered as GitHub markdown or as one self-contained HTML
page (inline CSS, no scripts, no external resources). Every string that comes from the
rule file is untrusted: the HTML renderer escapes all text and code, the markdown
renderer escapes markup characters and puts expressions in code spans.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import notation as nt
from .explain import explain_data, resolve_context
from .model.ruleset import Ruleset

# ---------------------------------------------------------------- the document model


@dataclass
class Cards:
    """Card or tile tokens in the project's notation, shown as pictures."""

    tokens: list[str]


@dataclass
class Code:
    text: str


Inline = list[str | Cards | Code]


@dataclass
class Para:
    content: Inline


@dataclass
class Pre:
    text: str


@dataclass
class Heading:
    text: str


@dataclass
class Item:
    content: Inline
    children: list[Item] = field(default_factory=list)


@dataclass
class Bullets:
    items: list[Item]


@dataclass
class Table:
    headers: list[str]
    rows: list[list[Inline]]


Block = Para | Pre | Heading | Bullets | Table


@dataclass
class Section:
    key: str
    zh: str
    en: str
    blocks: list[Block]


@dataclass
class Book:
    title: str
    subtitle: Inline
    intro: str
    sections: list[Section]


# ---------------------------------------------------------------- words

DEAL_WORDS = {
    "hand_size": "{unit} to each player",
    "kitty": "cards to the kitty (底牌)",
    "hands": "hands dealt",
    "dealer_extra": "more to the dealer",
    "turn_up": "the tile turned up after the deal decides",
    "dice": "dice thrown",
}

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _words(ruleset: Ruleset, path: tuple) -> str:
    """A `play:` key in words, as the family's contract declares them."""
    words = ruleset.contract.words() if ruleset.contract is not None else {}
    return words.get(path, str(path[-1]).replace("_", " "))


def _value(ruleset: Ruleset, value: Any) -> Inline:
    """A `play:` value in words: names of tables/formulas/defines and expressions as code."""
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    if isinstance(value, (int, float)):
        return [str(value)]
    if isinstance(value, str):
        named = set(ruleset.tables) | set(ruleset.formulas) | set(ruleset.resolved.get("define")
                                                                   or {})
        if _IDENT.fullmatch(value) and value not in named:
            return [value.replace("_", " ")]
        return [Code(value)]
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        out: Inline = []
        for i, v in enumerate(value):
            if i:
                out.append(", ")
            out.extend(_value(ruleset, v))
        return out
    return [Code(str(value))]


def _play_items(ruleset: Ruleset, data: Any, path: tuple = ()) -> list[Item]:
    items: list[Item] = []
    if isinstance(data, dict):
        for key, value in data.items():
            here = path + (key,)
            if isinstance(value, dict):
                items.append(Item([_words(ruleset, here)], _play_items(ruleset, value, here)))
            elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
                children = [Item(_inline_dict(ruleset, v, here)) if isinstance(v, dict)
                            else Item(_value(ruleset, v)) for v in value]
                items.append(Item([_words(ruleset, here)], children))
            else:
                items.append(Item([_words(ruleset, here) + ": ", *_value(ruleset, value)]))
    return items


def _inline_dict(ruleset: Ruleset, d: dict[str, Any], path: tuple) -> Inline:
    out: Inline = []
    for i, (k, v) in enumerate(d.items()):
        if i:
            out.append("; ")
        out.append(f"{_words(ruleset, path + (k,))}: ")
        out.extend(_value(ruleset, v))
    return out


# ---------------------------------------------------------------- building the book


def header_comment(ruleset: Ruleset) -> str:
    """The rule file's leading comment block (its author's introduction)."""
    path = getattr(ruleset.document, "file", None)
    if not path or not Path(path).is_file():
        return ""
    lines: list[str] = []
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        stripped = raw.strip()
        if not stripped.startswith("#"):
            break
        text = stripped[1:].removeprefix(" ")
        if "yaml-language-server" in text:
            continue
        lines.append(text)
    return "\n".join(lines).strip()


def _ctx_phrase(data: dict[str, Any]) -> str:
    return ", ".join(f"{c['name']} = {c['value']}" for c in data["context"])


def _deck_section(r: Ruleset, data: dict[str, Any]) -> Section:
    blocks: list[Block] = []
    res = r.resolved
    if r.family == "tiles":
        ts = res.get("tileset") or {}
        blocks.append(Para([f"{data['cards']} tiles: suits {', '.join(ts.get('suits', []))}"
                            + (", winds and dragons" if ts.get("honors") else "")
                            + (f", {ts['flowers']} flowers" if ts.get("flowers") else "")
                            + f"; {ts.get('copies', 4)} copies of each suited and honour tile."]))
        rows = [[[g["suit"]], [Cards(g["tiles"])], ["/".join(map(str, g["copies"]))]]
                for g in data["tiles"]]
        blocks.append(Table(["suit", "tiles", "copies"], rows))
    else:
        deck = res.get("deck") or {}
        decks = deck.get("decks", 1)
        text = f"{decks} deck{'s' if decks != 1 else ''} of 52 cards" + \
            (" with the two jokers" if deck.get("jokers") else "")
        blocks.append(Para([text + f": {data['cards']} cards in play."]))
        if deck.get("remove"):
            blocks.append(Para(["Taken out: ", Cards([str(c) for c in deck["remove"]])]))
        rows = []
        for suit in nt.SUITS:
            kinds = [k for k in r.kinds() if nt.card_suit(k) == suit]
            if kinds:
                rows.append([[nt.SUIT_PICTURES[suit]], [Cards([nt.format_card(k)
                                                              for k in kinds])],
                             ["/".join(map(str, sorted({r.deck[k] for k in kinds})))]])
        jokers = [k for k in r.kinds() if k >= nt.LITTLE_JOKER]
        if jokers:
            rows.append([["jokers"], [Cards([nt.format_card(k) for k in jokers])],
                         ["/".join(map(str, sorted({r.deck[k] for k in jokers})))]])
        blocks.append(Table(["suit", "cards", "copies"], rows))
    return Section("deck", "牌", "Deck", blocks)


def _deal_section(r: Ruleset) -> Section:
    items = []
    for key, value in (r.resolved.get("deal") or {}).items():
        unit = "tiles" if r.family == "tiles" else "cards"
        words = DEAL_WORDS.get(key, key.replace("_", " ")).replace("{unit}", unit)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            items.append(Item([f"{value} {words}"]))
        else:
            items.append(Item([f"{words}: ", *_value(r, value)]))
    players = r.resolved.get("players") or {}
    counts = "/".join(map(str, r.player_counts))
    teams = players.get("teams", "none")
    items.insert(0, Item([f"{counts} players, turns go {players.get('direction', 'in turn')}; "
                          f"teams: {teams if isinstance(teams, str) else teams}"]))
    return Section("deal", "发牌", "Deal", [Bullets(items)])


def _ladder_section(r: Ruleset, data: dict[str, Any]) -> Section:
    blocks: list[Block] = []
    if data["context"]:
        decls = ", ".join(f"{c['name']} ({c['type']})" for c in data["context"]
                          if c["type"] != "option")
        blocks.append(Para([f"The order depends on values fixed for each hand: {decls}. "
                            f"Shown for a typical hand: {_ctx_phrase(data)} (the values the "
                            "file's examples use most); ", Code(f"rulesdsl explain {r.id}"),
                            " shows it for any other."]))
    if not data["ladder"]:
        blocks.append(Para(["Tiles have no ladder: a hand wins by its shape (see Patterns)."]))
    else:
        blocks.append(Para(["Strongest first: ", Code(">"), " stronger than, ", Code("="),
                            " equal."]))
    for system in data["ladder"]:
        blocks.append(Heading(system["label"].capitalize()))
        rows: list[list[Inline]] = []
        for step in system["steps"]:
            same: Inline = []
            for j, token in enumerate(step["cards"]):
                same += [" = "] if j else []
                same.append(Cards([token]))
            if rows and rows[-1][0] == [step["tier"].replace("_", " ")]:
                rows[-1][1] += [" > ", *same]
            else:
                rows.append([[step["tier"].replace("_", " ")], same])
        blocks.append(Table(["", "cards"], rows))
    alternates = r.resolved.get("alternates") or []
    if alternates:
        blocks.append(Heading("Demotion (下放)"))
        blocks.append(Bullets([Item([f"{a.get('name', '').replace('_', ' ')}: ",
                                     Code(str(a.get("select"))),
                                     " may also play in "
                                     + ", ".join(map(str, a.get("tiers", [])))
                                     + " for " + ", ".join(map(str, a.get("patterns", []))),
                                     *([" as rank ", Code(str(a["rank"]))]
                                       if a.get("rank") else [])])
                               for a in alternates if isinstance(a, dict)]))
    return Section("ladder", "大小", "Ladder", blocks)


def _trump_section(r: Ruleset, data: dict[str, Any]) -> Section:
    blocks: list[Block] = []
    if r.resolved.get("trump"):
        blocks.append(Para(["Trumps: ", Code(str(r.resolved["trump"]))]))
        blocks.append(Para([f"With {_ctx_phrase(data)}: ", Cards(data["trumps"])]
                           if data["context"] else ["In every hand: ", Cards(data["trumps"])]))
    else:
        blocks.append(Para(["No trumps."]))
    rules = r.resolved.get("wilds") or []
    if rules:
        items = [Item(["wild: ", Code(str(w.get("select"))), " — may stand for ",
                       Code(str(w.get("stands_for")))]) for w in rules if isinstance(w, dict)]
        blocks.append(Bullets(items))
        if data["wilds"]:
            for w in data["wilds"]:
                what = "tile" if r.family == "tiles" else "card"
                stands: Inline = [f"any {what} except ", Cards(w["not_for"])] \
                    if len(w["not_for"]) <= len(w["stands_for"]) else [Cards(w["stands_for"])]
                if not w["not_for"]:
                    stands = [f"any {what}"]
                blocks.append(Para([f"Wild with {_ctx_phrase(data) or 'the default options'}: ",
                                    Cards(w["cards"]), ", standing for ", *stands]))
        else:
            blocks.append(Para(["No card is wild with the default options."]))
    else:
        blocks.append(Para(["No wilds."]))
    return Section("trumps", "主牌与百搭", "Trumps and wilds", blocks)


def _flow(value: Any) -> str:
    """A value as YAML flow style, as the rule file writes it."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rule_text(rule: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {_flow(v)}" for k, v in rule.items())


def _pattern_section(r: Ruleset, data: dict[str, Any]) -> Section:
    blocks: list[Block] = []
    if data["patterns"]:
        same = "Cards of one rank are the same, whatever their suits" if r.sameness == "rank" \
            else "Cards are the same only when they are identical (suit and rank)"
        if r.sameness == "rank" and r.reads_suits:
            same = "Patterns group cards by rank; suits count where a pattern says so"
            if r.suit_order:
                same += (": equal plays compare by suit, lowest first "
                         + ", ".join(nt.SUIT_PICTURES[x] for x in r.suit_order))
        blocks.append(Para([f"{same}. Each pattern with its lowest example in the typical "
                            "hand above and how the rules read it."]))
        for row in r.classes:
            blocks.append(Para(["Of the same number of cards, each of these beats those "
                                "before it (weakest first): " + ", ".join(row) + "."]))
        rows = []
        for p in data["patterns"]:
            example: Inline = [Cards(p["example"])] if p["example"] else \
                [p.get("note") or "—"]
            rows.append([[Code(p["name"])], [Code(_rule_text(p["rule"]))], example,
                         ["; ".join(p["readings"])]])
        blocks.append(Table(["pattern", "rule", "example", "reading"], rows))
    if data.get("win"):
        win = data["win"]
        blocks.append(Heading("Winning hand"))
        blocks.append(Para([f"{win.get('sets')} sets ({', '.join(win.get('set_kinds', []))}) "
                            f"and {win.get('pairs')} pair(s); wilds may stand in."]))
        if data.get("limit_hands"):
            blocks.append(Heading("Limit hands"))
            blocks.append(Table(["name", "when"], [[[Code(h["name"])], [Code(h["when"])]]
                                                   for h in data["limit_hands"]]))
    return Section("patterns", "牌型", "Patterns", blocks)


def _play_section(r: Ruleset) -> Section:
    play = r.resolved.get("play") or {}
    blocks: list[Block] = [Bullets(_play_items(r, play))] if play else \
        [Para(["The rule file has no play section; the engine's defaults apply."])]
    return Section("play", "打法", "Play", blocks)


def _scoring_section(r: Ruleset, data: dict[str, Any]) -> Section:
    blocks: list[Block] = []
    pts = data["points"]
    if pts["by_rank"]:
        blocks.append(Heading("Card points"))
        blocks.append(Table(["rank", "points"], [[[k], [str(v)]]
                                                 for k, v in pts["by_rank"].items()]))
        blocks.append(Para([f"All cards together: {pts['total']} points."]))
    levels = r.resolved.get("levels")
    if isinstance(levels, dict):
        blocks.append(Heading("Levels (升级)"))
        blocks.append(Bullets([Item([f"{k.replace('_', ' ')}: ", *_value(r, v)])
                               for k, v in levels.items()]))
    for t in data["tables"]:
        blocks.append(Heading(f"Table {t['name']} ({', '.join(t['inputs'])})"))
        outs = list(t["outputs"])
        rows = [[[Code(row.get("when", "true"))], *[[Code(row.get(o, ""))] for o in outs]]
                for row in t["rows"]]
        blocks.append(Table(["when", *outs], rows))
    if data["formulas"]:
        blocks.append(Heading("Formulas"))
        blocks.append(Table(["name", "inputs", "value"],
                            [[[Code(f["name"])], [", ".join(f["inputs"])], [Code(f["expr"])]]
                             for f in data["formulas"]]))
    if data.get("scoring_items"):
        blocks.append(Heading("Scoring items"))
        rows = []
        for it in data["scoring_items"]:
            value = f"{it['points']} points" if "points" in it else f"{it.get('fan', 0)} fan"
            cond = it.get("where") or it.get("when") or "always"
            each = " ".join(x for x in (it.get("each") and f"each {it['each']}",
                                        it.get("zone") and f"in {it['zone']}") if x)
            rows.append([[Code(str(it["name"]))], [value], ["/".join(it.get("for", []))],
                         [each], [Code(str(cond))]])
        blocks.append(Table(["item", "value", "for", "counted", "when"], rows))
    if not blocks:
        blocks.append(Para(["No scoring tables."]))
    return Section("scoring", "计分", "Scoring", blocks)


def _options_section(r: Ruleset) -> Section:
    opts = r.resolved.get("options") or {}
    if not opts:
        return Section("options", "选项", "Options", [Para(["No options."])])
    rows = []
    for name, spec in opts.items():
        spec = spec if isinstance(spec, dict) else {"default": spec}
        rows.append([[Code(name)], [str(spec.get("default"))],
                     [", ".join(map(str, spec.get("choices") or []))],
                     [str(spec.get("doc", ""))]])
    return Section("options", "选项", "Options",
                   [Table(["option", "default", "choices", "meaning"], rows)])


KIND_TITLES = {"order": "Order", "trump": "Trumps", "pattern": "Patterns", "beats": "Beats",
               "points": "Points", "table": "Tables", "formula": "Formulas", "hand": "Hands"}


def _expect_text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _card_line(r: Ruleset, text: str) -> Inline:
    """Card notation as pictures, when it parses (an order's `>`/`=` kept)."""
    out: Inline = []
    for token in re.split(r"(\s*[>=]\s*)", text):
        if not token.strip():
            continue
        if token.strip() in (">", "="):
            out.append(f" {token.strip()} ")
            continue
        try:
            kinds = nt.parse_tiles(token) if r.family == "tiles" else nt.parse_cards(token)
        except nt.NotationError:
            return []
        out.append(Cards([nt.format_tile(k) if r.family == "tiles" else nt.format_card(k)
                          for k in kinds]))
    return out


def _examples_section(r: Ruleset) -> Section:
    blocks: list[Block] = [Para([f"{len(r.examples)} examples from the rule file, each checked "
                                 "by ", Code("rulesdsl validate"), "."])]
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in r.examples:
        groups.setdefault(e["kind"], []).append(e)
    for kind, items in groups.items():
        blocks.append(Heading(KIND_TITLES.get(kind, kind.capitalize())))
        bullets = []
        for e in items:
            raw = e["raw"]
            main = str(raw.get(kind, ""))
            line: Inline = [Code(main)]
            if kind in ("order", "trump", "pattern", "beats", "points", "hand"):
                pics = _card_line(r, main)
                if pics:
                    line += [" ", *pics]
            if kind == "beats":
                line += [" over ", Code(str(raw.get("over", "")))]
                line += [" ", *_card_line(r, str(raw.get("over", "")))]
            for key in ("win_tile", "melds", "flowers", "self_drawn", "seat_wind", "as"):
                if key in raw:
                    line += [f"; {key.replace('_', ' ')} ", Code(_expect_text(raw[key]))]
            if "input" in raw:
                line += [" with ", Code(_expect_text(raw["input"]))]
            if "expect" in raw:
                line += [" → ", Code(_expect_text(raw["expect"]))]
            if raw.get("context"):
                line += [" (", _expect_text(raw["context"]), ")"]
            if raw.get("options"):
                line += [" (options ", _expect_text(raw["options"]), ")"]
            children = []
            if raw.get("cite"):
                children.append(Item([f"「{raw['cite']}」"]))
            if raw.get("note"):
                children.append(Item([str(raw["note"])]))
            bullets.append(Item(line, children))
        blocks.append(Bullets(bullets))
    return Section("examples", "例子", "Examples", blocks)


def build_book(ruleset: Ruleset) -> Book:
    r = ruleset
    values, shown = resolve_context(r)
    data = explain_data(r, values, shown)
    name = r.name or {}
    title = " ".join(x for x in (name.get("zh"), name.get("en")) if x) or r.id
    counts = "/".join(map(str, r.player_counts))
    subtitle: Inline = [Code(r.id), f" · version {r.version} · {r.family} family · "
                        f"{counts} players"]
    if r.source:
        subtitle += [" · source ", Code(str(r.source))]
    sections = [_deck_section(r, data), _deal_section(r), _ladder_section(r, data),
                _trump_section(r, data), _pattern_section(r, data), _play_section(r),
                _scoring_section(r, data), _options_section(r), _examples_section(r)]
    return Book(title, subtitle, header_comment(r), sections)


# ---------------------------------------------------------------- markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")


def _md_text(text: str) -> str:
    # No raw HTML from the rule file (`>` stays: it is only markup at a line's start).
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def _md_code(text: str, in_table: bool) -> str:
    text = text.replace("\n", " ")
    fence = "`"
    while fence in text:
        fence += "`"
    if in_table:
        text = text.replace("|", "\\|")
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _picture(token: str) -> str:
    if token[:1] in nt.SUITS and len(token) > 1:
        return nt.SUIT_PICTURES[token[0]] + token[1:]
    return token


def _md_inline(content: Inline, in_table: bool = False) -> str:
    out = []
    for part in content:
        if isinstance(part, Cards):
            out.append(" ".join(_md_text(_picture(t)) for t in part.tokens))
        elif isinstance(part, Code):
            out.append(_md_code(part.text, in_table))
        else:
            out.append(_md_text(part))
    return "".join(out)


def _md_items(items: list[Item], depth: int) -> list[str]:
    lines = []
    for it in items:
        lines.append("  " * depth + "- " + _md_inline(it.content))
        lines.extend(_md_items(it.children, depth + 1))
    return lines


def render_markdown(book: Book) -> str:
    lines = [f"# {_md_text(book.title)}", "", _md_inline(book.subtitle), ""]
    if book.intro:
        lines += ["> " + _md_text(line) if line else ">" for line in book.intro.splitlines()]
        lines.append("")
    lines.append(" · ".join(f"[{s.zh} {s.en}](#{s.key})" for s in book.sections))
    lines.append("")
    for s in book.sections:
        lines += [f'<a id="{s.key}"></a>', "", f"## {s.zh} {s.en}", ""]
        for b in s.blocks:
            if isinstance(b, Para):
                lines += [_md_inline(b.content), ""]
            elif isinstance(b, Pre):
                lines += ["```", b.text.replace("```", "'''"), "```", ""]
            elif isinstance(b, Heading):
                lines += [f"### {_md_text(b.text)}", ""]
            elif isinstance(b, Bullets):
                lines += _md_items(b.items, 0) + [""]
            elif isinstance(b, Table):
                lines.append("| " + " | ".join(_md_text(h) or " " for h in b.headers) + " |")
                lines.append("|" + "---|" * len(b.headers))
                for row in b.rows:
                    lines.append("| " + " | ".join(_md_inline(c, True) for c in row) + " |")
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------- HTML

# Unicode mahjong tiles (U+1F000 block) for the notation's suits.
_TILE_BASE = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_HONOURS = {1: 0x1F000, 2: 0x1F001, 3: 0x1F002, 4: 0x1F003, 5: 0x1F006, 6: 0x1F005,
            7: 0x1F004}
_FLOWERS = {1: 0x1F026, 2: 0x1F027, 3: 0x1F028, 4: 0x1F029, 5: 0x1F022, 6: 0x1F023,
            7: 0x1F024, 8: 0x1F025}


def tile_picture(token: str) -> str | None:
    m = re.fullmatch(r"([1-9])([mpszf])", token)
    if not m:
        return None
    number, suit = int(m.group(1)), m.group(2)
    if suit in _TILE_BASE:
        return chr(_TILE_BASE[suit] + number - 1)
    table = _HONOURS if suit == "z" else _FLOWERS
    return chr(table[number]) if number in table else None


def _html_card(token: str) -> str:
    esc = html.escape
    glyph = tile_picture(token)
    if glyph is not None:
        red = " red" if token == "7z" else ""
        return (f'<span class="tile{red}" title="{esc(token)}"><span class="glyph">{glyph}'
                f"</span>{esc(token)}</span>")
    red = token[:1] in ("H", "D") or token == "BJ"
    return f'<span class="card{" red" if red else ""}">{esc(_picture(token))}</span>'


def _html_inline(content: Inline) -> str:
    out = []
    for part in content:
        if isinstance(part, Cards):
            out.append('<span class="cards">' + "".join(_html_card(t) for t in part.tokens)
                       + "</span>")
        elif isinstance(part, Code):
            out.append(f"<code>{html.escape(part.text)}</code>")
        else:
            out.append(html.escape(part))
    return "".join(out)


def _html_items(items: list[Item]) -> str:
    out = ["<ul>"]
    for it in items:
        out.append("<li>" + _html_inline(it.content))
        if it.children:
            out.append(_html_items(it.children))
        out.append("</li>")
    out.append("</ul>")
    return "".join(out)


CSS = """
body{font-family:system-ui,"Noto Sans CJK SC","PingFang SC",sans-serif;max-width:64rem;
margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d1d1f;background:#fff}
h1{margin-bottom:.2rem}h2{border-bottom:2px solid #c33;padding-bottom:.2rem;margin-top:2.5rem}
h3{margin-bottom:.3rem}.sub{color:#555}nav a{margin-right:1rem}
.intro{white-space:pre-wrap;background:#f6f6f6;border-left:4px solid #c33;padding:.6rem 1rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.25rem .5rem;
vertical-align:top;text-align:left}th{background:#f0f0f0}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;font-size:.9em}
.card{display:inline-block;min-width:1.6em;margin:1px;padding:0 .2rem;border:1px solid #999;
border-radius:4px;background:#fff;text-align:center;font-weight:600;color:#111}
.card.red{color:#c00}
.tile{display:inline-block;margin:1px;padding:0 .2rem;border:1px solid #999;border-radius:4px;
background:#fffdf4;font-size:.85em}.tile .glyph{font-size:1.6em;margin-right:.1rem}
.tile.red{color:#c00}
"""


def render_html(book: Book) -> str:
    esc = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="zh">', "<head>", '<meta charset="utf-8">',
             f"<title>{esc(book.title)} — rulebook</title>", f"<style>{CSS}</style>",
             "</head>", "<body>", f"<h1>{esc(book.title)}</h1>",
             f'<p class="sub">{_html_inline(book.subtitle)}</p>']
    if book.intro:
        parts.append(f'<div class="intro">{esc(book.intro)}</div>')
    parts.append("<nav>" + "".join(f'<a href="#{s.key}">{esc(s.zh)} {esc(s.en)}</a>'
                                   for s in book.sections) + "</nav>")
    for s in book.sections:
        parts.append(f'<section id="{s.key}"><h2>{esc(s.zh)} {esc(s.en)}</h2>')
        for b in s.blocks:
            if isinstance(b, Para):
                parts.append(f"<p>{_html_inline(b.content)}</p>")
            elif isinstance(b, Pre):
                parts.append(f"<pre>{esc(b.text)}</pre>")
            elif isinstance(b, Heading):
                parts.append(f"<h3>{esc(b.text)}</h3>")
            elif isinstance(b, Bullets):
                parts.append(_html_items(b.items))
            elif isinstance(b, Table):
                head = "".join(f"<th>{esc(h)}</th>" for h in b.headers)
                body = "".join("<tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row)
                               + "</tr>" for row in b.rows)
                parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
                             "</table>")
        parts.append("</section>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def render(ruleset: Ruleset, fmt: str) -> str:
    """The rulebook of a ruleset as 'md' or 'html'."""
    book = build_book(ruleset)
    return render_html(book) if fmt == "html" else render_markdown(book)
