"""Running a ruleset's executable examples.

Each example asserts one fact of the rules in one hand's context: how cards read
as patterns, whether one play beats another, single-card order, trump membership,
card points, a table lookup or a formula; a mahjong `hand` example is scored by the
tile engine (rulesdsl.engine.tiles.scoring).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import notation as nt
from .compiler.core import _Compiler
from .compiler.examples import check_examples
from .compiler.files import compile_with_options, read_document
from .compiler.schema import examples_file_schema
from .errors import Problem, RulesetError, spell
from .language.structure import check_structure
from .language.yamlio import Document
from .model.hand import TRUMP, HandContext
from .model.patterns import Reading, beats, readings
from .model.ruleset import LookupError_, Ruleset
from .scenarios import run_scenario


@dataclass
class ExampleReport:
    passed: int = 0
    failed: list[Problem] = field(default_factory=list)
    deferred: int = 0  # examples another engine evaluates (mahjong hands)

    @property
    def ok(self) -> bool:
        return not self.failed


def _names(rs: Iterable[Reading]) -> list[str]:
    return sorted({r.pattern for r in rs})


def _expected_names(expect: Any) -> list[str]:
    if expect is None or expect == "none" or expect == []:
        return []
    if isinstance(expect, list):
        return sorted(set(map(str, expect)))
    return [str(expect)]


class _Runner:
    def __init__(self, ruleset: Ruleset, doc: Document | None):
        self.ruleset = ruleset
        self.doc = doc
        self.contexts: dict[tuple, HandContext] = {}
        self.variants: dict[tuple, Ruleset] = {}
        # The same cards are read in several examples (a play beaten by many): read once.
        self.known_readings: dict[tuple, list[Reading]] = {}

    def hand(self, context: dict[str, Any], ruleset: Ruleset | None = None) -> HandContext:
        rs = self.ruleset if ruleset is None else ruleset
        key = (id(rs),) + tuple(sorted(context.items()))
        if key not in self.contexts:
            self.contexts[key] = HandContext(rs, context)
        return self.contexts[key]

    def readings(self, hc: HandContext, cards: list[int]) -> list[Reading]:
        key = (id(hc), tuple(cards))  # hc stays alive in self.contexts
        found = self.known_readings.get(key)
        if found is None:
            found = self.known_readings[key] = readings(hc, cards)
        return list(found)

    def problem(self, item: dict[str, Any], message: str, expected: str | None = None,
                where: tuple | None = None) -> Problem:
        path = item["path"] + ((item["kind"],) if where is None else where)
        if self.doc is not None:
            return self.doc.problem(path, message, expected=expected)
        from .errors import format_path

        return Problem(self.ruleset.id, 1, 1, format_path(path), message, expected)

    def ruleset_for(self, options: dict[str, Any]) -> Ruleset:
        """The ruleset compiled under these option values (a pattern or a play rule that an
        option switches on is then really on); the ruleset itself when they change nothing."""
        if all(self.ruleset.options.get(k) == v for k, v in options.items()):
            return self.ruleset
        key = tuple(sorted(options.items()))
        if key not in self.variants:
            self.variants[key] = compile_with_options(self.ruleset, options)
        return self.variants[key]

    def run(self, item: dict[str, Any]) -> str | tuple[str, tuple] | None:
        """None when the example holds, else what went wrong (and where, for a scenario)."""
        ex = item["raw"]
        kind = item["kind"]
        if kind == "scenario":
            return run_scenario(self.ruleset_for(item.get("options") or {}), item)
        options = item.get("options") or {}
        # Static examples with options that change the compiled rules (a pattern switched
        # on) read the variant; option values alone also reach tables and formulas below.
        r = self.ruleset if kind in ("table", "formula", "hand") else self.ruleset_for(options)
        if kind in ("pattern", "beats", "order", "trump", "points"):
            for f in ("pattern", "beats", "over", "order", "trump", "points"):
                for k in item.get(f, []):
                    if not r.deck[k]:
                        return f"{nt.format_card(k)} is not in this deck"
        hc = self.hand({**item["context"], **options}, r) if kind != "hand" else None
        if kind == "deck":
            return _deck(r, ex["deck"], item["absent"])
        if kind == "pattern" and ("includes" in ex or "excludes" in ex):
            assert hc is not None
            found = self.readings(hc, item["pattern"])
            for entry in ex.get("includes") or []:
                if not any(_matches(x, entry) for x in found):
                    return (f"{ex['pattern']} has no reading {_show(entry)} (it reads as "
                            f"{', '.join(_shown(found)) or 'none'})")
            for entry in ex.get("excludes") or []:
                if any(_matches(x, entry) for x in found):
                    return f"{ex['pattern']} reads as {_show(entry)}; expected it not to"
            if "expect" not in ex:
                return None
        if kind == "pattern":
            assert hc is not None
            got = _names(self.readings(hc, item["pattern"]))
            want = _expected_names(ex.get("expect"))
            if got != want:
                shown = ", ".join(got) if got else "none"
                return f"{ex['pattern']} reads as {shown}; expected {', '.join(want) or 'none'}"
            return None
        if kind == "beats":
            assert hc is not None
            a = self.readings(hc, item["beats"])
            b = self.readings(hc, item["over"])
            if "as" in ex:
                a = [x for x in a if x.pattern == ex["as"][0]]
                b = [x for x in b if x.pattern == ex["as"][1]]
            if not b:
                return f"{ex['over']} is not a pattern of this ruleset" + \
                    (f" read as {ex['as'][1]}" if "as" in ex else "")
            if len({x.pattern for x in b}) > 1:
                return (f"{ex['over']} reads as {', '.join(_names(b))}; name the readings "
                        "with as: [PATTERN, PATTERN]")
            result = any(all(beats(hc, x, y) for y in b) for x in a)
            if result != bool(ex["expect"]):
                verb = "beats" if result else "does not beat"
                return f"{ex['beats']} {verb} {ex['over']}; expected {spell(bool(ex['expect']))}"
            return None
        if kind == "order":
            assert hc is not None
            holds, why = self._order(hc, item["steps"])
            want = ex.get("expect", True)
            if holds != bool(want):
                return why if holds is False else "the order holds; expected it not to"
            return None
        if kind == "trump":
            assert hc is not None
            flags = [hc.is_trump[k] for k in item["trump"]]
            want = bool(ex["expect"])
            wrong = [nt.format_card(k) for k, f in zip(item["trump"], flags) if f != want]
            if wrong:
                what = "not trumps" if want else "trumps"
                return f"{' '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} {what}"
            return None
        if kind == "points":
            assert hc is not None
            total = sum(hc.points[k] for k in item["points"])
            if total != ex["expect"]:
                return f"{ex['points']} carry {total} points; expected {spell(ex['expect'])}"
            return None
        if kind == "table":
            try:
                got = r.tables[ex["table"]].lookup(dict(ex.get("input") or {}), options)
            except LookupError_ as exc:
                return str(exc)
            want = ex["expect"]
            if not isinstance(want, dict):
                return "a table example's expect must be a mapping of output fields"
            diff = {k: got.get(k) for k in want if got.get(k) != want[k]}
            if diff:
                shown = ", ".join(f"{k}: {spell(got.get(k))} (expected {spell(want[k])})"
                                  for k in diff)
                return f"table {ex['table']} gives {shown}"
            return None
        if kind == "formula":
            try:
                got = r.formulas[ex["formula"]].evaluate(dict(ex.get("input") or {}), options)
            except LookupError_ as exc:
                return str(exc)
            if got != ex["expect"]:
                return f"formula {ex['formula']} gives {spell(got)}; expected {spell(ex['expect'])}"
            return None
        if kind == "hand":
            return self._hand(item, options)
        return None

    def _hand(self, item: dict[str, Any], options: dict[str, Any]) -> str | None:
        """A mahjong hand scored by the tile engine, compared with `expect`: `wins`,
        `items` (the names that apply; for a limit hand, the limit hands), `base`, `fan`,
        `total`, `limit` (a limit hand's name, or null) and `wait`."""
        from .engine.tiles.hand import ScoringHand
        from .engine.tiles.scoring import parse_melds, score_hand

        ex = item["raw"]
        try:
            melds = parse_melds(ex.get("melds"))
            flowers = nt.parse_tiles(str(ex["flowers"])) if ex.get("flowers") else []
            seat = nt.tile_kind(str(ex.get("seat_wind", "1z")))
        except nt.NotationError as exc:
            return str(exc)
        hand = ScoringHand(
            concealed=list(item["hand"]), melds=melds, exposed_flowers=flowers,
            winner=bool(ex.get("winner", "win_tile" in ex)), win_tile=item.get("win_tile"),
            self_drawn=bool(ex.get("self_drawn", False)),
            kong_replacement=bool(ex.get("kong_replacement", False)),
            flower_replacement=bool(ex.get("flower_replacement", False)),
            robbed_kong=bool(ex.get("robbed_kong", False)),
            last_tile=bool(ex.get("last_tile", False)),
            first_turn=bool(ex.get("first_turn", False)),
            kong_discard=bool(ex.get("kong_discard", False)), seat_wind=seat)
        missing = [n for n in self.ruleset.context if n not in item["context"]]
        if missing:
            return f"a hand example needs context: {', '.join(missing)}"
        score = score_hand(self.ruleset, hand, {**item["context"], **options}, None)
        want = ex["expect"]
        if not isinstance(want, dict):
            return "a hand example's expect must be a mapping (wins, items, base, fan, total, " \
                "limit, wait)"
        got: dict[str, Any] = {"wins": score.wins, "base": score.base, "fan": score.fan,
                               "total": score.total, "limit": score.limit, "wait": score.wait}
        wrong: list[str] = []
        for key, value in want.items():
            if key == "items":
                names = set(score.item_names())
                wanted = set(value or [])
                if names != wanted:
                    extra, lacking = sorted(names - wanted), sorted(wanted - names)
                    parts = ([f"also {', '.join(extra)}"] if extra else []) + \
                        ([f"not {', '.join(lacking)}"] if lacking else [])
                    wrong.append(f"items {', '.join(sorted(names)) or 'none'} "
                                 f"({'; '.join(parts)})")
            elif key in got:
                if got[key] != value:
                    wrong.append(f"{key} {spell(got[key])} (expected {spell(value)})")
            else:
                wrong.append(f"unknown expect key {key!r}")
        if wrong:
            return f"the hand scores {'; '.join(wrong)} — reading {score.reading_text()}"
        return None

    def _order(self, hc: HandContext, steps: list[tuple[str, int]]) -> tuple[bool, str]:
        for (_, prev), (rel, cur) in zip(steps, steps[1:]):
            a, b = nt.format_card(prev), nt.format_card(cur)
            if hc.system[prev] != hc.system[cur]:
                # Across suit-systems only a trump and a plain card compare: the trump is
                # above (it beats the plain card when ruffing); two plain suits do not.
                trumps = (hc.system[prev] == TRUMP, hc.system[cur] == TRUMP)
                if rel == ">" and trumps == (True, False):
                    continue
                if trumps == (False, True):
                    return False, f"{a} is a plain card, below every trump such as {b}"
                return False, f"{a} and {b} are in different suit-systems"
            sa, sb = hc.strength[prev], hc.strength[cur]
            if rel == ">" and not sa > sb:
                return False, f"{a} is not above {b}" + (" (they are equal)" if sa == sb else "")
            if rel == "=" and sa != sb:
                side = "above" if sa > sb else "below"
                return False, f"{a} and {b} are not equal ({a} is {side})"
        return True, ""


def _matches(reading: Reading, entry: Any) -> bool:
    if isinstance(entry, str):
        return reading.pattern == entry
    return reading.pattern == entry["name"] and all(
        getattr(reading, k) == v for k, v in entry.items() if k in ("size", "bomb_size"))


def _show(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    extra = ", ".join(f"{k} {v}" for k, v in entry.items() if k != "name")
    return f"{entry['name']} ({extra})" if extra else entry["name"]


def _shown(found: Iterable[Reading]) -> list[str]:
    return sorted({f"{x.pattern} (size {x.size}" + (f", bomb size {x.bomb_size})" if x.bomb
                                                     else ")") for x in found})


def _deck(r: Ruleset, spec: dict[str, Any], absent: list[int]) -> str | None:
    show = nt.format_tile if r.is_tiles else nt.format_card
    size = sum(r.deck)
    if "size" in spec and size != spec["size"]:
        return f"the deck holds {size}, not {spec['size']}"
    there = [show(k) for k in absent if r.deck[k]]
    if there:
        return f"the deck holds {' '.join(there)}"
    if "points" in spec and r.total_points() != spec["points"]:
        return f"the deck's points add up to {r.total_points()}, not {spec['points']}"
    return None


def _tile_scoring_available() -> bool:
    try:
        from .engine.tiles import scoring  # noqa: F401
    except ImportError:
        return False
    return True


def run_examples(ruleset: Ruleset, items: list[dict[str, Any]] | None = None,
                 doc: Document | None = None) -> ExampleReport:
    runner = _Runner(ruleset, doc if doc is not None else ruleset.document)
    report = ExampleReport()
    for item in ruleset.examples if items is None else items:
        if item["kind"] == "hand" and not _tile_scoring_available():
            report.deferred += 1
            continue
        try:
            failure = runner.run(item)
        except RulesetError:
            raise
        except Exception as exc:  # an example must never crash the validator
            failure = f"could not be evaluated: {type(exc).__name__}: {exc}"
        if failure is None:
            report.passed += 1
        elif isinstance(failure, tuple):
            message, where = failure
            report.failed.append(runner.problem(item, f"scenario fails: {message}", where=where))
        else:
            report.failed.append(runner.problem(item, f"example fails: {failure}"))
    return report


def load_examples_file(ruleset: Ruleset, path: str) -> tuple[list[dict[str, Any]], Document]:
    """Read and check an examples file (top-level `examples:`) against a ruleset."""
    doc = read_document(path)
    if not isinstance(doc.data, dict):
        raise RulesetError([doc.problem((), "an examples file holds a mapping",
                                        expected="a mapping with an 'examples' list")])
    problems = check_structure(doc, examples_file_schema())
    if problems:
        raise RulesetError(problems)
    compiler = _Compiler(doc)
    compiler.family = ruleset.family
    compiler.contract = ruleset.contract
    compiler.element = "tile" if ruleset.is_tiles else "card"
    compiler.context = ruleset.context
    compiler.options = ruleset.options
    compiler.data = ruleset.resolved
    items = check_examples(compiler, doc.data["examples"], ("examples",), ruleset.tables,
                           ruleset.formulas, ruleset.patterns)
    if compiler.problems:
        raise RulesetError(compiler.problems)
    return items, doc
