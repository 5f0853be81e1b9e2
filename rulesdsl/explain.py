"""`rulesdsl explain`: the compiled view of a ruleset for one hand's context.

Everything here is read from the compiled Ruleset and its HandContext tables (the same
tables the engines use), so what it prints is what the engines do: the ladder of
suit-systems strongest first, which cards are trump or wild, one concrete example of
every pattern with the readings `patterns.readings` gives it, the points per card, and
the tables, formulas and scoring items. `explain_data` builds a plain, JSON-ready dict;
`render_text` prints it (colour only on a terminal). The rulebook (rulesdsl.rulebook)
renders the same dict.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import yaml

from . import notation as nt
from .errors import RulesdslError
from .model.hand import TRUMP, HandContext
from .model.patterns import _RankMatcher, readings
from .model.ruleset import PatternDef, Ruleset
from .runtime.expressions import Env

# Which context type each shorthand flag sets.
FLAG_TYPES = {"trump": "suit", "level": "rank", "wild": "tile"}
# Cards per candidate search: beyond this a pattern's example is left out (never slow).
MAX_EXAMPLE_SIZE = 20
# Instances a pattern's example search may walk, and all patterns' searches together: a
# composite within its own bound can still have hundreds of thousands per size, for every
# size (the search then says it stopped, instead of taking minutes and gigabytes).
MAX_EXAMPLE_SEARCH = 50_000
MAX_EXAMPLE_SEARCHES = 500_000
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class ExplainError(RulesdslError):
    """A context or option value the ruleset does not allow (exit 2)."""


class _SearchStopped(Exception):
    """An example search reached MAX_EXAMPLE_SEARCH (or the whole budget)."""


class _Budget:
    """Instances the example searches may still walk: per pattern and in all."""

    def __init__(self) -> None:
        self.total = MAX_EXAMPLE_SEARCHES
        self.pattern = MAX_EXAMPLE_SEARCH

    def spend(self) -> None:
        self.total -= 1
        self.pattern -= 1
        if self.total < 0 or self.pattern < 0:
            raise _SearchStopped


# ---------------------------------------------------------------- notation helpers


def is_tiles(ruleset: Ruleset) -> bool:
    return ruleset.family == "tiles"


def kind_text(ruleset: Ruleset, kind: int) -> str:
    """A card or tile kind in the project's notation (what a user types)."""
    return nt.format_tile(kind) if is_tiles(ruleset) else nt.format_card(kind)


def parse_kinds(ruleset: Ruleset, text: str) -> list[int]:
    return nt.parse_tiles(text) if is_tiles(ruleset) else nt.parse_cards(text)


def value_text(decl_type: str, value: Any) -> str:
    """A context value as the rule file writes it."""
    if value is None:
        return "none"
    if decl_type == "rank":
        return nt.rank_name(value)
    if decl_type == "tile":
        return nt.format_tile(value)
    if decl_type == "card":
        return nt.format_card(value)
    return str(value)


def _parse_value(decl_type: str, text: str) -> Any:
    if decl_type == "suit":
        t = text.strip()
        t = nt.SUIT_SYMBOLS.get(t, t).upper()
        if t not in nt.SUITS:
            raise nt.NotationError(f"{text!r} is not a suit")
        return t
    if decl_type == "rank":
        return nt.rank_value(text)
    if decl_type == "tile":
        return nt.tile_kind(text)
    if decl_type == "card":
        return nt.parse_card(text)
    return yaml.safe_load(text) if text.strip() else text


# ---------------------------------------------------------------- the context


def _example_favourite(ruleset: Ruleset, name: str) -> Any:
    """The value of a context name that the file's examples use most (None if unused)."""
    used = Counter(e["context"][name] for e in ruleset.examples
                   if name in (e.get("context") or {}))
    if not used:
        return None
    domain = ruleset.context[name].domain
    # Most used first; ties by the domain's order.
    return min(used, key=lambda v: (-used[v], domain.index(v) if v in domain else 0))


def resolve_context(ruleset: Ruleset, flags: dict[str, str | None] | None = None,
                    sets: list[str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Context and option values from the command line: (values for HandContext, a row
    per context value / changed option saying where it came from). ExplainError names the
    allowed values of anything that does not fit."""
    given: dict[str, tuple[str, str]] = {}  # name -> (text, flag)
    for flag, text in (flags or {}).items():
        if text is None:
            continue
        wanted = FLAG_TYPES[flag]
        names = [n for n, d in ruleset.context.items() if d.type == wanted]
        if not names:
            have = ", ".join(f"{n} ({d.type})" for n, d in ruleset.context.items()) or "none"
            raise ExplainError(f"--{flag}: {ruleset.id} has no {wanted}-typed context value "
                               f"(its context values: {have})")
        given[names[0]] = (text, f"--{flag}")
    options: dict[str, Any] = {}
    for item in sets or []:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ExplainError(f"--set takes NAME=VALUE, not {item!r}")
        if name in ruleset.context:
            given[name] = (text.strip(), "--set")
        elif name in ruleset.options:
            options[name] = _option_value(ruleset, name, text.strip())
        else:
            known = list(ruleset.context) + list(ruleset.options)
            raise ExplainError(f"--set {name}: not a context value or option of {ruleset.id}; "
                               f"allowed names: {', '.join(known) or 'none'}")
    values: dict[str, Any] = dict(options)
    shown: list[dict[str, Any]] = []
    for name, decl in ruleset.context.items():
        allowed = ", ".join(value_text(decl.type, v) for v in decl.domain)
        if name in given:
            text, flag = given[name]
            try:
                value = _parse_value(decl.type, text)
            except RulesdslError:
                raise ExplainError(f"{flag} {text!r}: not a {decl.type}; allowed values of "
                                   f"{name}: {allowed}") from None
            if decl.domain and value not in decl.domain:
                raise ExplainError(f"{flag} {text!r}: not allowed for {name}; allowed values: "
                                   f"{allowed}")
            source = f"given ({flag})"
        else:
            value = _example_favourite(ruleset, name)
            source = "default: the value the file's examples use most"
            if value is None:
                value = decl.domain[0] if decl.domain else None
                source = "default: the first allowed value"
        values[name] = value
        shown.append({"name": name, "type": decl.type, "value": value_text(decl.type, value),
                      "source": source, "allowed": [value_text(decl.type, v)
                                                    for v in decl.domain]})
    for name, value in options.items():
        shown.append({"name": name, "type": "option", "value": value, "source": "given (--set)",
                      "allowed": list(_choices(ruleset, name) or [])})
    return values, shown


def _choices(ruleset: Ruleset, name: str) -> list[Any] | None:
    spec = (ruleset.resolved.get("options") or {}).get(name)
    return spec.get("choices") if isinstance(spec, dict) else None


def _option_value(ruleset: Ruleset, name: str, text: str) -> Any:
    value = yaml.safe_load(text) if text else text
    choices = _choices(ruleset, name)
    if choices is not None and value not in choices:
        shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in choices)
        raise ExplainError(f"--set {name}={text}: allowed values: {shown}")
    return value


# ---------------------------------------------------------------- the ladder


def _system_label(system: str) -> str:
    if system == TRUMP:
        return "trumps"
    if system in SUIT_NAMES:
        return f"plain {SUIT_NAMES[system]}"
    return "all cards"


def ladder(hc: HandContext) -> list[dict[str, Any]]:
    """Suit-systems, trumps first then plain suits; in each, steps strongest first,
    equal cards (same place) grouped."""
    r = hc.ruleset
    order = [TRUMP, *nt.SUITS, "*"]
    systems = sorted({s for s in hc.system if s is not None},
                     key=lambda s: order.index(s) if s in order else len(order))
    out = []
    for system in systems:
        by_place: dict[Any, list[int]] = {}
        for kind in r.kinds():
            if hc.system[kind] == system:
                by_place.setdefault(hc.place[kind], []).append(kind)
        steps = []
        for place in sorted(by_place, reverse=True):
            kinds = by_place[place]
            tier = r.tiers[-place[0]]
            steps.append({"tier": tier.name, "cards": [kind_text(r, k) for k in kinds],
                          "trump": hc.is_trump[kinds[0]],
                          "wild": any(k in hc.wild_of for k in kinds),
                          "points": hc.points[kinds[0]]})
        out.append({"system": system, "label": _system_label(system), "steps": steps})
    return out


def unranked(hc: HandContext) -> list[str]:
    r = hc.ruleset
    return [kind_text(r, k) for k in r.kinds() if hc.place[k] is None]


# ---------------------------------------------------------------- trumps and wilds


def wilds(hc: HandContext) -> list[dict[str, Any]]:
    r = hc.ruleset
    out = []
    kinds = r.kinds()
    for wi, wild in enumerate(r.wilds):
        cards = [k for k in kinds if hc.wild_of.get(k) == wi]
        if not cards:
            continue
        stands = [k for k in kinds if wild.stands_for(Env(k, hc.values))]
        not_for = [k for k in kinds if k not in stands]
        out.append({"name": wild.name, "cards": [kind_text(r, k) for k in cards],
                    "stands_for": [kind_text(r, k) for k in stands],
                    "not_for": [kind_text(r, k) for k in not_for],
                    "select": _wild_source(r, wi, "select"),
                    "stands_for_rule": _wild_source(r, wi, "stands_for")})
    return out


def _wild_source(r: Ruleset, index: int, key: str) -> str | None:
    items = r.resolved.get("wilds") or []
    if index < len(items) and isinstance(items[index], dict):
        value = items[index].get(key)
        return None if value is None else str(value)
    return None


# ---------------------------------------------------------------- pattern examples


def _deal_from(r: Ruleset, demand: list[tuple[list[int], int]]) -> list[int] | None:
    """Cards for a rank demand: for each (kinds of one rank, count), `count` cards spread
    over those kinds (within the deck's copies); None when the deck is too small."""
    cards: list[int] = []
    for kinds, count in demand:
        left = {k: r.deck[k] for k in kinds}
        taken = 0
        while taken < count:
            progress = False
            for k in kinds:
                if taken < count and left[k] > 0:
                    cards.append(k)
                    left[k] -= 1
                    taken += 1
                    progress = True
            if not progress:
                return None
    return cards


def _rank_candidates(hc: HandContext, pd: PatternDef, budget: _Budget):
    """Card multisets for a rank-sameness pattern, lowest first, from its instances."""
    r = hc.ruleset
    matcher = _RankMatcher(hc)
    by_rank: dict[int, list[int]] = {}
    for k in r.kinds():
        if k not in hc.wild_of:
            by_rank.setdefault(nt.card_rank(k), []).append(k)
    if pd.shape == "cards" and pd.cards:
        yield [k for k, n in pd.cards.items() for _ in range(n)]
        return
    if pd.shape == "any" and pd.group is not None:
        yield from _any_candidates(hc, pd, by_rank)
        return
    suits = [s for s in nt.SUITS if any(nt.card_suit(k) == s for k in r.kinds())]
    for n in range(1, min(MAX_EXAMPLE_SIZE, len(r.every_card())) + 1):
        found = False
        walked = []
        for inst in matcher._instances(pd, n):  # not kept: explain looks once
            budget.spend()
            walked.append(inst)
        for inst in sorted(walked, key=lambda i: i.key):
            if pd.suit == "same":  # every card of one suit
                for suit in suits:
                    demand = [([k for k in by_rank.get(rank, []) if nt.card_suit(k) == suit],
                               cnt) for rank, cnt in inst.demand]
                    cards = _deal_from(r, demand)
                    if cards is not None:
                        found = True
                        yield cards
                continue
            demand = [(by_rank.get(rank, []), cnt) for rank, cnt in inst.demand]
            if r.reads_suits:  # suits spread, so a straight does not look like a flush
                demand = [(kinds[i % len(kinds):] + kinds[:i % len(kinds)] if kinds else kinds,
                           cnt) for i, (kinds, cnt) in enumerate(demand)]
            cards = _deal_from(r, demand)
            if cards is not None:
                found = True
                yield cards
        if found:
            return


def _any_candidates(hc: HandContext, pd: PatternDef, by_rank: dict[int, list[int]]):
    """Sets for an `any` pattern: its fewest cards, of one suit when it asks for one, the
    lowest ranks but for a gap before the last (so a flush does not look like a straight)."""
    assert pd.group is not None
    n = pd.group[0]
    ranks = sorted(by_rank, key=lambda rk: hc.strength[by_rank[rk][0]])
    picks = ranks[:n - 1] + ranks[n:n + 1] if len(ranks) > n else ranks[:n]
    for suit in (nt.SUITS if pd.suit == "same" else (None,)):
        cards = []
        for i, rank in enumerate(picks):
            kinds = [k for k in by_rank[rank] if suit is None or nt.card_suit(k) == suit]
            if not kinds:
                break
            cards.append(kinds[i % len(kinds)] if suit is None else kinds[0])
        if len(cards) == n:
            yield cards


def _card_candidates(hc: HandContext, pd: PatternDef):
    """Card multisets for a card-sameness pattern: plain suits before trumps, lowest first."""
    r = hc.ruleset
    if pd.shape == "cards" and pd.cards:
        yield [k for k, n in pd.cards.items() for _ in range(n)]
        return
    order = [*nt.SUITS, "*", TRUMP]
    systems = sorted({s for s in hc.system if s is not None},
                     key=lambda s: order.index(s) if s in order else -1)
    for system in systems:
        kinds = sorted((k for k in r.kinds() if hc.system[k] == system),
                       key=lambda k: hc.strength[k])
        if pd.shape == "group" and pd.group is not None:
            for k in kinds:
                if r.deck[k] >= pd.group[0]:
                    yield [k] * pd.group[0]
        elif pd.shape == "run" and pd.run is not None:
            g, steps = pd.run.group, pd.run.length[0]
            # One kind per place, lowest places first.
            reps: dict[int, int] = {}
            for k in kinds:
                if r.deck[k] >= g:
                    reps.setdefault(hc.strength[k], k)
            ladder_kinds = [reps[s] for s in sorted(reps)]
            for i in range(len(ladder_kinds) - steps + 1):
                yield [k for k in ladder_kinds[i:i + steps] for _ in range(g)]


def pattern_example(hc: HandContext, pd: PatternDef, limit: int = 400,
                    budget: _Budget | None = None) -> list[int] | None:
    """The first candidate (lowest) whose readings include the pattern, or None. Raises
    _SearchStopped when the search reaches its bound (MAX_EXAMPLE_SEARCH)."""
    budget = budget or _Budget()
    gen = _card_candidates(hc, pd) if hc.ruleset.sameness == "card" \
        else _rank_candidates(hc, pd, budget)
    for cards in itertools.islice(gen, limit):
        if any(x.pattern == pd.name for x in readings(hc, cards)):
            return cards
    return None


def _pattern_rule(r: Ruleset, name: str) -> dict[str, Any]:
    for item in (r.resolved.get("patterns") or {}).get("list") or []:
        if isinstance(item, dict) and item.get("name") == name:
            return {k: v for k, v in item.items() if k != "name"}
    return {}


def describe_reading(hc: HandContext, x: Any) -> str:
    parts = [x.pattern, f"{x.size} card{'s' if x.size != 1 else ''}", f"key {x.key:g}"]
    if x.system is not None:
        parts.append(_system_label(x.system))
    if x.bomb:
        parts.append(f"bomb of size {x.bomb_size}")
    if x.demoted:
        parts.append("demoted")
    return ", ".join(parts)


def patterns(hc: HandContext) -> list[dict[str, Any]]:
    r = hc.ruleset
    out = []
    budget = _Budget()
    for pd in r.patterns:
        budget.pattern = MAX_EXAMPLE_SEARCH
        stopped = False
        try:
            cards = pattern_example(hc, pd, budget=budget)
        except _SearchStopped:
            cards, stopped = None, True
        entry: dict[str, Any] = {"name": pd.name, "shape": pd.shape, "bomb": pd.bomb,
                                 "rule": _pattern_rule(r, pd.name), "example": None,
                                 "readings": []}
        if stopped:
            entry["note"] = (f"no example: the search stopped at {MAX_EXAMPLE_SEARCH} "
                             f"instances of this pattern, or {MAX_EXAMPLE_SEARCHES} in all "
                             "(max example search)")
        if cards is not None:
            # Groups before kickers, each low to high: how players lay a play down.
            count = Counter(nt.card_rank(k) if r.sameness == "rank" else k for k in cards)
            cards.sort(key=lambda k: (-count[nt.card_rank(k) if r.sameness == "rank" else k],
                                      hc.strength[k], k))
            entry["example"] = [kind_text(r, k) for k in cards]
            entry["readings"] = [describe_reading(hc, x) for x in readings(hc, cards)]
        out.append(entry)
    return out


# ---------------------------------------------------------------- points and scoring


def points(r: Ruleset) -> dict[str, Any]:
    by_rank = {nt.rank_name(rank): p for rank, p in sorted(r.points.items())}
    return {"by_rank": by_rank, "total": r.total_points() if by_rank else 0,
            "declared_total": r.points_total}


def tables(r: Ruleset) -> list[dict[str, Any]]:
    source = r.resolved.get("tables") or {}
    out = []
    for name, table in r.tables.items():
        spec = source.get(name) or {}
        rows = []
        for row in spec.get("rows") or []:
            rows.append({k: str(v) for k, v in row.items()})
        out.append({"name": name, "inputs": list(table.inputs),
                    "outputs": {k: v if isinstance(v, str) else list(v)
                                for k, v in table.outputs.items()},
                    "rows": rows})
    return out


def formulas(r: Ruleset) -> list[dict[str, Any]]:
    source = r.resolved.get("formulas") or {}
    return [{"name": name, "inputs": list(f.inputs),
             "expr": str((source.get(name) or {}).get("expr", ""))}
            for name, f in r.formulas.items()]


def scoring_items(r: Ruleset) -> list[dict[str, Any]]:
    items = ((r.resolved.get("scoring") or {}).get("items")) or []
    return [{k: (list(v) if isinstance(v, list) else v) for k, v in item.items()}
            for item in items if isinstance(item, dict)]


def limit_hands(r: Ruleset) -> list[dict[str, Any]]:
    hands = ((r.resolved.get("win") or {}).get("limit_hands")) or []
    return [{"name": h.get("name"), "when": str(h.get("when"))} for h in hands
            if isinstance(h, dict)]


def tiles_by_suit(r: Ruleset, hc: HandContext) -> list[dict[str, Any]]:
    groups: dict[str, list[int]] = {}
    for k in r.kinds():
        groups.setdefault(nt.tile_suit(k), []).append(k)
    return [{"suit": s, "tiles": [nt.format_tile(k) for k in ks],
             "copies": sorted({r.deck[k] for k in ks}),
             "wild": [nt.format_tile(k) for k in ks if k in hc.wild_of]}
            for s, ks in groups.items()]


# ---------------------------------------------------------------- everything


def explain_data(ruleset: Ruleset, values: dict[str, Any],
                 shown: list[dict[str, Any]]) -> dict[str, Any]:
    """The compiled view of a ruleset for one context, as plain JSON-ready data."""
    r = ruleset
    hc = HandContext(r, values)
    data: dict[str, Any] = {
        "ruleset": r.id, "name": dict(r.name), "family": r.family, "version": r.version,
        "players": list(r.player_counts),
        "context": shown,
        "cards": sum(r.deck),
    }
    if is_tiles(r):
        data["tiles"] = tiles_by_suit(r, hc)
        data["ladder"] = ladder(hc) if any(p is not None for p in hc.place) else []
    else:
        data["ladder"] = ladder(hc)
        data["unranked"] = unranked(hc)
    # Trumps in ladder order (strongest first), then any trump the ladder does not rank.
    ranked = [c for s in data["ladder"] for step in s["steps"] if step["trump"]
              for c in step["cards"]]
    data["trumps"] = ranked + [kind_text(r, k) for k in r.kinds()
                               if hc.is_trump[k] and kind_text(r, k) not in ranked]
    data["wilds"] = wilds(hc)
    data["patterns"] = patterns(hc)
    data["suit_order"] = list(r.suit_order)
    data["classes"] = [list(row) for row in r.classes]
    data["points"] = points(r)
    data["tables"] = tables(r)
    data["formulas"] = formulas(r)
    data["play"] = play_rules(r)
    if is_tiles(r):
        win = r.resolved.get("win") or {}
        data["win"] = {k: v for k, v in win.items() if k != "limit_hands"}
        data["limit_hands"] = limit_hands(r)
        data["scoring_items"] = scoring_items(r)
    return data


def play_rules(r: Ruleset) -> list[dict[str, Any]]:
    """The play section in the contract's words: each key the file writes, and each plain
    choice it leaves at the engine's default (marked so)."""
    if r.contract is None or r.resolved.get("play") is None:
        return []
    written = r.resolved["play"]
    out: list[dict[str, Any]] = []
    for path, key in r.contract.walk():
        value: Any = written
        for step in path:
            value = value.get(step) if isinstance(value, dict) else None
        default = getattr(key, "default", None)
        if isinstance(value, dict):
            continue  # a section: its keys follow
        if value is None and (default is None or isinstance(default, (list, dict))):
            continue
        words = r.contract.words()
        said = " — ".join(words.get(path[:i + 1], path[i]) for i in range(len(path)))
        out.append({"key": ".".join(path), "words": said,
                    "value": default if value is None else value,
                    "default": value is None})
    return out


# ---------------------------------------------------------------- text output


def _card_text(token: str):
    """A rich Text for one card token: suit symbol, red suits red; tiles as they are."""
    from rich.text import Text

    if token[:1] in nt.SUITS and len(token) > 1:
        suit = token[0]
        style = "red" if nt.SUIT_COLORS[suit] == "red" else "bold"
        return Text(nt.SUIT_PICTURES[suit] + token[1:], style=style)
    if token == "BJ":
        return Text(token, style="red")
    return Text(token)


def _cards_text(tokens: list[str]):
    from rich.text import Text

    out = Text()
    for i, t in enumerate(tokens):
        if i:
            out.append(" ")
        out.append_text(_card_text(t))
    return out


def render_text(data: dict[str, Any], console: Any) -> None:
    """Print the explain data: rich styles, which rich drops when not on a terminal."""
    from rich.text import Text

    def line(*parts: Any, style: str | None = None) -> None:
        t = Text(style=style or "")
        for p in parts:
            t.append_text(p) if isinstance(p, Text) else t.append(str(p))
        console.print(t, soft_wrap=True)

    def head(title: str) -> None:
        console.print()
        line(title, style="bold underline")

    name = data["name"]
    players = "/".join(map(str, data["players"]))
    line(f"{name.get('zh', '')} {name.get('en', '')}".strip() + f"  ({data['ruleset']} "
         f"{data['version']}, {data['family']}, {players} players, {data['cards']} "
         f"{'tiles' if data['family'] == 'tiles' else 'cards'})", style="bold")
    if data["context"]:
        head("Context")
        for c in data["context"]:
            allowed = ", ".join(map(str, c["allowed"]))
            line(f"  {c['name']} = ", Text(str(c["value"]), style="bold"),
                 f"  ({c['source']}; allowed: {allowed})")
    else:
        line("No per-hand context: the same ladder every hand.")
    if data.get("play"):
        head("Play")
        for rule in data["play"]:
            value = rule["value"]
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            line(f"  {rule['words']}: ", Text(shown, style="bold"),
                 "  (default)" if rule["default"] else "")
    if data.get("tiles"):
        head("Tiles")
        for g in data["tiles"]:
            copies = "/".join(map(str, g["copies"]))
            line(f"  {g['suit']}: ", " ".join(g["tiles"]), f"  (×{copies})")
    if data["ladder"]:
        head("Ladder (strongest first; '=' joins equal cards)")
        for system in data["ladder"]:
            line(f"  {system['label']}:", style="bold")
            last = None
            for step in system["steps"]:
                tier, last = ("" if step["tier"] == last else step["tier"]), step["tier"]
                flags = [f for f, on in (("trump", step["trump"]), ("wild", step["wild"])) if on]
                extra = f" [{', '.join(flags)}]" if flags else ""
                pts = f" {step['points']} pts" if step["points"] else ""
                cards = Text(" = ").join(_card_text(c) for c in step["cards"])
                line(f"    {tier:<16} ", cards, Text(extra + pts, style="dim"))
    if data.get("unranked"):
        line("  not ranked: ", " ".join(data["unranked"]))
    head("Trumps")
    line("  ", _cards_text(data["trumps"]) if data["trumps"] else "none")
    head("Wilds")
    if not data["wilds"]:
        line("  none in this context")
    for w in data["wilds"]:
        line("  ", _cards_text(w["cards"]), f"  ({w['name']}: {w['select']})")
        if len(w["not_for"]) <= len(w["stands_for"]):
            others = ", ".join(w["not_for"]) or "nothing"
            what = "tile" if data["family"] == "tiles" else "card"
            line(f"    may stand for any {what} except {others}")
        else:
            line("    may stand for ", _cards_text(w["stands_for"]))
    if data["patterns"]:
        head("Patterns (one example each, with its readings)")
        if data.get("suit_order"):
            line("  equal ranks compare by suit (ties: suit): "
                 + " < ".join(nt.SUIT_PICTURES[s] for s in data["suit_order"]))
        for row in data.get("classes", []):
            line("  at equal size each beats those before it: " + " < ".join(row))
        for p in data["patterns"]:
            if p["example"] is None:
                line(f"  {p['name']:<22} ({p.get('note') or 'no example in this context'})")
                continue
            line(f"  {p['name']:<22} ", _cards_text(p["example"]),
                 Text("  → " + "; ".join(p["readings"]), style="dim"))
    if data.get("win"):
        head("Winning hand")
        win = data["win"]
        line(f"  {win.get('sets')} sets ({', '.join(win.get('set_kinds', []))}) and "
             f"{win.get('pairs')} pair(s)")
        for h in data.get("limit_hands", []):
            line(f"  limit hand {h['name']}: {h['when']}")
    if data["points"]["by_rank"]:
        head("Points")
        pts = ", ".join(f"{k}: {v}" for k, v in data["points"]["by_rank"].items())
        line(f"  {pts}  (all cards together: {data['points']['total']})")
    for t in data["tables"]:
        head(f"Table {t['name']}({', '.join(t['inputs'])})")
        for row in t["rows"]:
            when = row.get("when", "true")
            rest = ", ".join(f"{k}: {v}" for k, v in row.items() if k != "when")
            line(f"  when {when}: {rest}")
    if data["formulas"]:
        head("Formulas")
        for f in data["formulas"]:
            line(f"  {f['name']}({', '.join(f['inputs'])}) = {f['expr']}")
    if data.get("scoring_items"):
        head("Scoring items")
        for item in data["scoring_items"]:
            value = f"{item['points']} points" if "points" in item else f"{item.get('fan')} fan"
            cond = item.get("where") or item.get("when") or ""
            each = f" each {item['each']}" if item.get("each") else ""
            who = "/".join(item.get("for", []))
            line(f"  {item['name']:<26} {value}{each} ({who}) {cond}")
