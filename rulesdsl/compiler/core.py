"""The compiler proper: a schema-checked document → a typed Ruleset.

Each section of the language is compiled here (deck, ranks, context, defines, order,
wilds, tables, formulas, tile scoring, levels; the patterns in compiler/patterns.py); the
`play:` section is read through the family's contract (engine/<family>/contract.py),
whose keys this module never names. Everything found wrong is collected as located
problems; `compile_file` (compiler/files.py) raises them together in a RulesetError.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from .. import notation as nt
from ..engine.families import CONTRACTS
from ..errors import NotationError, Problem, did_you_mean, spell, spell_choice
from ..language import ast
from ..language.parser import ExpressionSyntaxError, parse_expression
from ..language.yamlio import Document
from ..model.ruleset import (
    Alternate,
    ContextDecl,
    Formula,
    PatternDef,
    Ruleset,
    Table,
    Tier,
    Wild,
)
from ..runtime.expressions import (
    BOOL,
    CARD,
    DECLARABLE_TYPES,
    INT,
    TILE,
    DefineTable,
    ExpressionError,
    Fn,
    Scope,
    a,
    compile_expression,
)
from .examples import check_examples
from .limits import (
    MAX_DECK_CARDS,
    MAX_TIERS,
)
from .patterns import PatternSection
from .play_safety import check_finite, failing_rules, play_can_fail
from .soundness import check_soundness
from .static_checks import StaticChecks, card_hint

FORMAT_VERSION = 1
LANGUAGE_VERSION = 1


# ---------------------------------------------------------------- the compiler


def _expr_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Compiler(PatternSection, StaticChecks):
    def __init__(self, doc: Document):
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.problems: list[Problem] = []
        self.deck_ok = True  # when false, checks that count the deck stay quiet
        self.normalised: dict[tuple, str] = {}

    # -- problem helpers

    def error(self, path: tuple, message: str, **kw: Any) -> None:
        self.problems.append(self.doc.problem(path, message, **kw))

    def warn(self, path: tuple, message: str, **kw: Any) -> None:
        self.problems.append(self.doc.problem(path, message, severity="warning", **kw))

    def expr(self, path: tuple, value: Any, scope: Scope, want: str | None = None) \
            -> tuple[str, Fn] | None:
        """Parse and type-check one expression at a YAML path; report problems there."""
        text = _expr_text(value)
        try:
            node = parse_expression(text)
        except ExpressionSyntaxError as exc:
            self.error(path, f"expression {text!r}: {exc.message}", expected=exc.expected,
                       offset=exc.offset, length=_token_length(text, exc.offset))
            return None
        self.normalised[path] = ast.unparse(node)
        try:
            t, fn = compile_expression(node, scope)
        except ExpressionError as exc:
            if not exc.quiet:
                self.error(path, f"expression {text!r}: {exc.message}", expected=exc.expected,
                           suggestion=exc.suggestion, offset=exc.offset,
                           length=_token_length(text, exc.offset))
            return None
        except NotationError as exc:
            self.error(path, f"expression {text!r}: {exc}")
            return None
        if want is not None and t != want and t != "any":
            self.error(path, f"expression {text!r} gives {a(t)}", expected=a(want))
            return None
        return t, fn

    # -- the whole file

    def compile(self) -> Ruleset:
        d = self.data
        family = d["family"]
        self.family = family
        self.contract = CONTRACTS[family]
        self.element = TILE if self.contract.element == "tile" else CARD
        self.options = {k: v["default"] for k, v in d.get("options", {}).items()}
        self._check_options()
        players = d.get("players", {"count": 4})
        counts = players["count"] if isinstance(players["count"], list) else [players["count"]]
        teams = self._teams(players, counts[0])
        deck = self.deck = self._deck()
        self.ranks = self._ranks()
        context = self._context(deck)
        self.context = context
        values_types = {n: c.type for n, c in context.items()}
        values_types.update({n: _option_type(v) for n, v in self.options.items()})
        self.values_types = values_types
        self.defines = DefineTable(self.element, {}, values_types, self._define_error)
        self._defines()
        self.card_scope = Scope(element=self.element, values=values_types, defines=self.defines)
        self._check_deal(counts, deck)
        self._check_family_sections()
        self._check_contexts()
        trump = None
        if "trump" in d:
            compiled = self.expr(("trump",), d["trump"], self.card_scope, BOOL)
            trump = compiled[1] if compiled else None
        tiers = self._tiers()
        alternates = self._alternates(tiers)
        wilds = self._wilds()
        pats = d.get("patterns", {})
        patterns = self._patterns(pats)
        self._check_alternate_patterns(alternates, patterns)
        points = self._points()
        tables = self._tables()
        formulas = self._formulas()
        self.tables, self.formulas = tables, formulas
        sections = self._family_sections()
        levels = self._levels()
        play = self._play()
        examples = self._examples(tables, formulas, patterns)
        resolved = self._resolved()
        digest = hashlib.sha256(
            json.dumps(resolved, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            .encode("utf-8")).hexdigest()
        sameness = pats.get("sameness", self.contract.sameness)
        ruleset = Ruleset(
            id=d["id"], name=d.get("name", {}), family=family, version=str(d.get("version", "0")),
            source=d.get("source"), resolved=resolved, hash=digest, document=self.doc,
            player_counts=counts, direction=players.get("direction", "counter-clockwise"),
            teams=teams, deck=deck, deal=dict(d.get("deal", {})), context=context,
            options=self.options, defines=self.defines, ranks=self.ranks, trump=trump,
            tiers=tiers, alternates=alternates, wilds=wilds, patterns=patterns,
            sameness=sameness, hollow=pats.get("hollow", "allowed"),
            suit_order=list(pats.get("suit_order") or []),
            classes=self._classes(pats, patterns),
            demoted=pats.get("demoted", "normal"), points=points,
            points_total=d.get("points_total"), levels=levels, tables=tables,
            formulas=formulas, examples=examples, play=play, contract=self.contract,
            suit_systems=self.contract.honours("suit_systems"), **sections,
        )
        check_finite(self, self.data)
        if not any(p.severity == "error" for p in self.problems):
            self._static_checks(ruleset)
            self._check_wild_count(ruleset)
            self._check_composite_bounds(ruleset)
            check_soundness(self, ruleset)
            ruleset.failing_rules = failing_rules(self)
            ruleset.play_can_fail = play_can_fail(self)
        return ruleset

    def _resolved(self) -> dict[str, Any]:
        """The resolved document with every expression in canonical form."""

        def walk(value: Any, path: tuple) -> Any:
            if path in self.normalised:
                return self.normalised[path]
            if isinstance(value, dict):
                return {k: walk(v, path + (k,)) for k, v in value.items()}
            if isinstance(value, list):
                return [walk(v, path + (i,)) for i, v in enumerate(value)]
            return value

        out = walk(self.data, ())
        out.pop("extends", None)
        out["language"] = LANGUAGE_VERSION
        return out

    # -- sections

    def _check_options(self) -> None:
        for name, spec in self.data.get("options", {}).items():
            choices = spec.get("choices")
            if choices is not None and spec["default"] not in choices:
                self.error(("options", name, "default"),
                           f"default {spell(spec['default'])} is not among the choices",
                           expected="one of " + ", ".join(map(spell_choice, choices)))

    def _teams(self, players: dict, count: int) -> list[list[int]]:
        teams = players.get("teams", "none")
        if teams == "none":
            return [[i] for i in range(count)]
        if teams == "opposite":
            if count % 2:
                self.error(("players", "teams"), f"'opposite' needs an even player count, "
                           f"not {count}", expected="an even count, or teams as seat lists "
                           "such as [[0, 2], [1, 3, 4]]")
                return [[i] for i in range(count)]
            return [list(range(0, count, 2)), list(range(1, count, 2))]
        seats = [s for team in teams for s in team]
        if sorted(seats) != list(range(count)):
            self.error(("players", "teams"), "teams must list every seat exactly once",
                       expected=f"seats 0..{count - 1}")
        return [list(t) for t in teams]

    def _deck(self) -> list[int]:
        d = self.data
        if self.element == TILE:
            if "deck" in d:
                self.error(("deck",), "the tiles family uses tileset, not deck", key=True,
                           suggestion="rename it to 'tileset'")
            ts = d.get("tileset")
            if ts is None:
                self.error((), "missing key 'tileset'", expected="a tileset for the tiles family")
                self.deck_ok = False
                return [0] * nt.TILE_KINDS
            counts = [0] * nt.TILE_KINDS
            copies = ts.get("copies", 4)
            for suit in ts["suits"]:
                for n in range(1, 10):
                    counts[nt.tile_kind(f"{n}{suit}")] = copies
            if ts.get("honors", True):
                for n in range(1, 8):
                    counts[nt.tile_kind(f"{n}z")] = copies
            for n in range(1, ts.get("flowers", 0) + 1):
                counts[nt.tile_kind(f"{n}f")] = 1
            return counts
        if "tileset" in d:
            self.error(("tileset",), "card families use deck, not tileset", key=True,
                       suggestion="rename it to 'deck'")
        deck = d.get("deck")
        if deck is None:
            self.error((), "missing key 'deck'", expected="a deck for a card family")
            self.deck_ok = False
            return [0] * nt.CARD_KINDS
        per_pack = [1] * nt.CARD_KINDS
        if not deck.get("jokers", True):
            per_pack[nt.LITTLE_JOKER] = per_pack[nt.BIG_JOKER] = 0
        for i, text in enumerate(deck.get("remove", [])):
            try:
                kind = nt.parse_card(text)
            except NotationError as exc:
                self.error(("deck", "remove", i), str(exc), suggestion=card_hint(text))
                self.deck_ok = False
                continue
            if per_pack[kind] == 0:
                self.warn(("deck", "remove", i), f"{text} is already out of the pack")
            per_pack[kind] = 0
        return [n * deck["decks"] for n in per_pack]

    def _ranks(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for name, ladder in self.data.get("ranks", {}).items():
            values = [nt.rank_value(r) for r in ladder]
            seen: dict[int, int] = {}
            for i, v in enumerate(values):
                if v in seen:
                    self.error(("ranks", name, i), f"rank {nt.rank_name(v)} appears twice in "
                               f"ladder {name!r}", expected="each rank once (1 is the low ace)")
                seen[v] = i
            out[name] = values
        return out

    def _context(self, deck: list[int]) -> dict[str, ContextDecl]:
        out: dict[str, ContextDecl] = {}
        for name, spec in self.data.get("context", {}).items():
            t = DECLARABLE_TYPES[spec["type"]]
            if name in self.options:
                self.error(("context", name), f"{name!r} is both an option and a context value",
                           key=True)
            domain: list[Any]
            if t == "suit":
                domain = list(nt.SUITS)
            elif t == "rank":
                ladder = spec.get("ladder")
                if ladder is not None:
                    if ladder not in self.ranks:
                        self.error(("context", name, "ladder"), f"no ladder named {ladder!r}",
                                   expected="a ladder defined under ranks",
                                   suggestion=did_you_mean(ladder, self.ranks))
                        domain = list(range(2, 15))
                    else:
                        domain = list(dict.fromkeys(self.ranks[ladder]))
                else:
                    domain = list(range(2, 15))
            elif t in ("tile", "card"):
                domain = [k for k, n in enumerate(deck) if n]
            elif t == "bool":
                domain = [False, True]
            elif t == "int":
                domain = [0]
            else:
                domain = [""]
            out[name] = ContextDecl(name, t, domain)
        return out

    def _define_error(self, name: str, exc: ExpressionError) -> None:
        text = _expr_text(self.data.get("define", {}).get(name, ""))
        self.error(("define", name), f"expression {text!r}: {exc.message}",
                   expected=exc.expected, suggestion=exc.suggestion, offset=exc.offset)

    def _defines(self) -> None:
        raw: dict[str, ast.Node] = {}
        for name, value in self.data.get("define", {}).items():
            if name in self.context or name in self.options:
                self.error(("define", name), f"{name!r} is already a context value or option",
                           key=True)
                continue
            text = _expr_text(value)
            try:
                raw[name] = parse_expression(text)
                self.normalised[("define", name)] = ast.unparse(raw[name])
            except ExpressionSyntaxError as exc:
                self.error(("define", name), f"expression {text!r}: {exc.message}",
                           expected=exc.expected, offset=exc.offset)
        self.defines.raw = raw
        self.defines.check_all()

    def _check_deal(self, counts: list[int], deck: list[int]) -> None:
        deal = self.data.get("deal")
        if deal is None:
            self.error((), "missing key 'deal'", expected="the deal: hand_size, kitty ...")
            return
        if not self.deck_ok:
            return
        total = sum(deck)
        if self.element != TILE and total > MAX_DECK_CARDS:
            self.error(("deck", "decks"), f"{total} cards is over the limit of "
                       f"{MAX_DECK_CARDS} (max deck size)")
        hands = deal.get("hands", counts[0])
        if hands < max(counts):
            self.error(("deal", "hands"), f"{hands} hands cannot seat {max(counts)} players",
                       expected=f"at least {max(counts)}")
        need = hands * deal["hand_size"] + deal.get("kitty", 0) + deal.get("dealer_extra", 0)
        if self.element == TILE:
            if need > total:
                self.error(("deal", "hand_size"), f"the deal needs {need} tiles but the tile set "
                           f"has {total}", expected=f"at most {total}")
        elif need != total:
            self.error(("deal", "hand_size"), f"the deal uses {need} cards "
                       f"({hands} hands × {deal['hand_size']} + kitty {deal.get('kitty', 0)}) "
                       f"but the deck has {total}", expected=f"a deal of exactly {total} cards")

    def _tiers(self) -> list[Tier]:
        out: list[Tier] = []
        order = self.data.get("order", [])
        if len(order) > MAX_TIERS:
            self.error(("order",), f"{len(order)} tiers is over the limit of {MAX_TIERS} "
                       "(max order tiers)")
            return out
        names: set[str] = set()
        for i, tier in enumerate(order):
            name = tier.get("name", f"tier{i}")
            if name in names:
                self.error(("order", i, "name"), f"tier name {name!r} is used twice")
            names.add(name)
            compiled = self.expr(("order", i, "select"), tier["select"], self.card_scope, BOOL)
            ladder = tier.get("by")
            if ladder is not None and ladder not in self.ranks:
                self.error(("order", i, "by"), f"no ladder named {ladder!r}",
                           expected="a ladder defined under ranks",
                           suggestion=did_you_mean(ladder, self.ranks))
                ladder = None
            if compiled:
                out.append(Tier(name, compiled[1], ladder, ("order", i)))
        return out

    def _alternates(self, tiers: list[Tier]) -> list[Alternate]:
        out = []
        tier_index = {t.name: i for i, t in enumerate(tiers)}
        for i, alt in enumerate(self.data.get("alternates", [])):
            sel = self.expr(("alternates", i, "select"), alt["select"], self.card_scope, BOOL)
            rank_fn = None
            if "rank" in alt:
                r = self.expr(("alternates", i, "rank"), alt["rank"], self.card_scope)
                if r and r[0] not in ("rank", "int"):
                    self.error(("alternates", i, "rank"), f"this is a {r[0]}", expected="a rank")
                elif r:
                    fn = r[1]
                    rank_fn = (lambda f: (lambda env: nt.rank_value(f(env))
                                          if isinstance(f(env), int) else f(env)))(fn)
            idx = []
            for j, tname in enumerate(alt["tiers"]):
                if tname not in tier_index:
                    self.error(("alternates", i, "tiers", j), f"no tier named {tname!r}",
                               expected="a tier name from order",
                               suggestion=did_you_mean(tname, tier_index))
                else:
                    idx.append(tier_index[tname])
            if sel:
                out.append(Alternate(alt["name"], sel[1], rank_fn, idx,
                                     frozenset(alt["patterns"])))
        self._alternate_paths = {a["name"]: i for i, a in
                                 enumerate(self.data.get("alternates", []))}
        return out

    def _check_alternate_patterns(self, alternates: list[Alternate],
                                  patterns: list[PatternDef]) -> None:
        names = {p.name for p in patterns}
        for alt in alternates:
            i = self._alternate_paths[alt.name]
            for j, pname in enumerate(self.data["alternates"][i]["patterns"]):
                if pname not in names:
                    self.error(("alternates", i, "patterns", j), f"no pattern named {pname!r}",
                               expected="a pattern from patterns.list",
                               suggestion=did_you_mean(pname, names))

    def _wilds(self) -> list[Wild]:
        out = []
        for i, w in enumerate(self.data.get("wilds", [])):
            sel = self.expr(("wilds", i, "select"), w["select"], self.card_scope, BOOL)
            stands = self.expr(("wilds", i, "stands_for"), w.get("stands_for", True),
                               self.card_scope, BOOL)
            if sel and stands:
                out.append(Wild(w.get("name", f"wild{i}"), sel[1], stands[1]))
        return out

    def _points(self) -> dict[int, int]:
        out = {}
        for token, value in self.data.get("points", {}).items():
            if token == "BJ":
                out[nt.BJ_RANK] = value
            elif token == "LJ":
                out[nt.LJ_RANK] = value
            else:
                out[nt.rank_value(token)] = value
        return out

    def _value_scope(self, inputs: list[str], path: tuple) -> Scope:
        values = {n: t for n, t in self.values_types.items()}
        for j, name in enumerate(inputs):
            if name in values:
                self.warn(path + (j,), f"input {name!r} hides a context value or option")
            values[name] = INT
        return Scope(element=None, values=values)

    def _tables(self) -> dict[str, Table]:
        out = {}
        for name, spec in self.data.get("tables", {}).items():
            path = ("tables", name)
            scope = self._value_scope(spec["input"], path + ("input",))
            rows = []
            for i, row in enumerate(spec["rows"]):
                rpath = path + ("rows", i)
                when = self.expr(rpath + ("when",), row.get("when", True), scope, BOOL)
                fields: dict[str, Any] = {}
                for field_name, ftype in spec["output"].items():
                    if field_name not in row:
                        self.error(rpath, f"row lacks output field {field_name!r}",
                                   expected=f"a value for {field_name!r}")
                        continue
                    value = row[field_name]
                    if isinstance(ftype, list):
                        if value not in ftype:
                            self.error(rpath + (field_name,), f"{spell(value)} is not an allowed "
                                       f"value of {field_name!r}",
                                       expected="one of " + ", ".join(ftype),
                                       suggestion=did_you_mean(str(value), ftype))
                        fields[field_name] = value
                    else:
                        want = INT if ftype == "int" else BOOL
                        c = self.expr(rpath + (field_name,), value, scope, want)
                        if c:
                            fields[field_name] = c[1]
                for extra in row:
                    if extra != "when" and extra not in spec["output"]:
                        self.error(rpath + (extra,), f"unknown output field {extra!r}", key=True,
                                   expected="a field declared under output",
                                   suggestion=did_you_mean(extra, spec["output"]))
                if when:
                    rows.append((when[1], fields))
            out[name] = Table(name, list(spec["input"]), dict(spec["output"]), rows,
                              self.options, where=self._where(("tables", name)))
        return out

    def _formulas(self) -> dict[str, Formula]:
        out = {}
        for name, spec in self.data.get("formulas", {}).items():
            path = ("formulas", name)
            scope = self._value_scope(spec["input"], path + ("input",))
            c = self.expr(path + ("expr",), spec["expr"], scope, INT)
            if c:
                out[name] = Formula(name, list(spec["input"]), c[1], self.options,
                                    where=self._where(("formulas", name)))
        return out

    def _family_sections(self) -> dict[str, Any]:
        """The family's own top-level sections, compiled by its contract."""
        empty: dict[str, Any] = {"win": None, "limit_hands": [], "scoring_items": [],
                                 "totals": {}}
        if self.contract.read_sections is None:
            return empty
        return {**empty, **self.contract.read_sections(self)}


    def _where(self, path: tuple, key: bool = True) -> str:
        """`file:line:column: ` of a definition, for messages raised at play time."""
        mark = self.doc.mark(path, key=key)
        return f"{mark.file or self.doc.file}:{mark.line}:{mark.column}: "

        # -- what the family's contract reads

    def _play(self) -> Any:
        """The play section, read through the family's contract."""
        pl = self.data.get("play")
        if pl is None:
            return None
        mine = set(self.contract.key_names()) | {"doc"}
        foreign = []
        for key in pl:
            if key in mine:
                continue
            owner = next((c.family for c in CONTRACTS.values() if key in c.key_names()), None)
            self.error(("play", key), f"{key!r} belongs to the {owner} family's play section",
                       key=True, expected=self.contract.engine + " reads "
                       + ", ".join(self.contract.key_names()))
            foreign.append(key)
        section = {k: v for k, v in pl.items() if k not in foreign}
        return self.contract.read_play(self, section)

    def _check_family_sections(self) -> None:
        """A top-level section only another family's engine reads is refused."""
        readers: dict[str, list[Any]] = {}
        for c in CONTRACTS.values():
            if c is not self.contract:
                for key in c.sections:
                    if key in self.data and key not in self.contract.sections:
                        readers.setdefault(key, []).append(c)
        for key, cs in readers.items():
            self.error((key,), f"{key!r} is read only by "
                       f"{' and '.join(c.engine for c in cs)}; "
                       f"{self.contract.engine} would ignore it", key=True,
                       expected=f"a {' or '.join(c.family for c in cs)} ruleset, or no "
                                f"{key!r}")

    def _check_contexts(self) -> None:
        """Every context value is one the engine sets for each hand: a context it never
        sets would silently stay its first value in every hand."""
        sets = dict(self.contract.contexts)
        offered = ", ".join(f"{n} (a {t})" for n, t in sets.items()) or "none"
        for name, decl in self.data.get("context", {}).items():
            kind = decl.get("type") if isinstance(decl, dict) else None
            if name in sets and sets[name] != kind:
                self.error(("context", name), f"{self.contract.engine} sets {name!r} as "
                           f"{a(sets[name])}, not {a(str(kind))}", key=True,
                           expected=f"{name}: {{type: {sets[name]}}}")
            elif name not in sets:
                self.error(("context", name), f"{self.contract.engine} sets no context "
                           f"value {name!r} of type {kind} for a hand (it would be its first "
                           "value in every hand)", key=True,
                           expected=f"the context values it sets: {offered}",
                           suggestion=did_you_mean(name, sets))

    # -- PlayReader: what a contract borrows while it reads

    def value_scope(self, names: dict[str, str]) -> Scope:
        return Scope(element=None, values={**self.values_types, **names},
                     defines=self.defines)

    def card(self, path: tuple, text: Any) -> int | None:
        try:
            return nt.parse_card(text)
        except NotationError as exc:
            self.error(path, str(exc), suggestion=card_hint(text))
            return None

    def option_value(self, path: tuple, name: Any) -> tuple[Any, list[Any]] | None:
        declared = self.data.get("options", {})
        if not isinstance(name, str) or name not in declared:
            self.error(path, f"no option named {name!r}", expected="a name under options",
                       suggestion=did_you_mean(str(name), sorted(declared)))
            return None
        spec = declared[name]
        choices = spec.get("choices")
        if choices is None:
            self.error(path, f"option {name!r} lists no choices", expected="choices: [...] "
                       "naming every value the setting may take")
            return None
        return self.options[name], list(choices)

    def _levels(self) -> dict[str, Any] | None:
        lv = self.data.get("levels")
        if lv is None:
            return None
        ladder = [nt.rank_value(r) for r in lv["ladder"]]
        start = nt.rank_value(lv.get("start", lv["ladder"][0]))
        if start not in ladder:
            self.error(("levels", "start"), f"start {nt.rank_name(start)} is not on the ladder")
        stops = []
        for i, r in enumerate(lv.get("must_stop", [])):
            v = nt.rank_value(r)
            if v not in ladder:
                self.error(("levels", "must_stop", i), f"{nt.rank_name(v)} is not on the ladder")
            stops.append(v)
        return {"ladder": ladder, "start": start, "must_stop": stops}

    # -- examples (checked here, run by rulesdsl.examples)

    def _examples(self, tables, formulas, patterns) -> list[dict[str, Any]]:
        return check_examples(self, self.data.get("examples", []), ("examples",), tables,
                              formulas, patterns)

    # -- static checks over every context


def _option_type(value: Any) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return INT
    return "string"


_TOKEN = re.compile(r"[\w.]+|\S")


def _token_length(text: str, offset: int) -> int:
    """The length of the token an expression problem points at (a name, a number, or
    one character), for the problem's range."""
    found = _TOKEN.match(text, offset) if 0 <= offset < len(text) else None
    return len(found.group()) if found else 1
