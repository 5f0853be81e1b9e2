"""The examples of a rule file: each one's form checked at compile time (its cards read,
its references resolved); rulesdsl/examples.py runs them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import notation as nt
from ..errors import NotationError, did_you_mean, spell, spell_choice
from ..language.schema_examples import EXAMPLE_KINDS
from ..runtime.expressions import TILE, a
from .limits import MAX_OPTION_VARIANTS
from .scenarios import check_scenario
from .static_checks import card_hint

if TYPE_CHECKING:
    from .core import _Compiler


def check_examples(compiler: _Compiler, examples: list, base: tuple, tables, formulas,
                   patterns) -> list[dict[str, Any]]:
    """Check each example's form; return them annotated with parsed cards and paths."""
    out = []
    variants: set[tuple] = set()
    # Every declared pattern: one switched off by default may be on under an example's options.
    declared = ((compiler.data or {}).get("patterns") or {}).get("list") or []
    pattern_names = {p.name for p in patterns} | {p["name"] for p in declared
                                                  if isinstance(p, dict) and "name" in p}
    for i, ex in enumerate(examples):
        path = base + (i,)
        kinds = [k for k in EXAMPLE_KINDS if k in ex]
        if len(kinds) != 1:
            if not kinds:
                compiler.error(path, "an example needs one kind key",
                               expected="one of " + ", ".join(EXAMPLE_KINDS))
            else:
                compiler.error(path + (kinds[1],), f"an example has one kind, not "
                               f"{' and '.join(kinds)}", key=True,
                               expected="one of " + ", ".join(EXAMPLE_KINDS) + " per example")
            continue
        kind = kinds[0]
        item: dict[str, Any] = {"kind": kind, "path": path, "raw": ex}
        ok = True
        ctx = {}
        for name, value in (ex.get("context") or {}).items():
            if name not in compiler.context:
                compiler.error(path + ("context", name), f"unknown context value {name!r}",
                               key=True, expected="a name declared under context",
                               suggestion=did_you_mean(name, compiler.context))
                ok = False
                continue
            try:
                ctx[name] = _context_value(compiler.context[name].type, value)
            except NotationError as exc:
                compiler.error(path + ("context", name), str(exc))
                ok = False
        item["context"] = ctx
        overrides = {}
        for name, value in (ex.get("options") or {}).items():
            spec = compiler.data.get("options", {}).get(name) if compiler.data else None
            if spec is None:
                compiler.error(path + ("options", name), f"unknown option {name!r}", key=True,
                               expected="an option declared under options",
                               suggestion=did_you_mean(name, compiler.options))
                ok = False
                continue
            if spec.get("choices") is not None and value not in spec["choices"]:
                compiler.error(path + ("options", name), f"{spell(value)} is not a choice of "
                               f"{name!r}", expected="one of " + ", ".join(map(
                                   spell_choice, spec["choices"])))
                ok = False
                continue
            overrides[name] = value
        item["options"] = overrides
        if overrides:
            variants.add(tuple(sorted(overrides.items(), key=str)))
            if len(variants) > MAX_OPTION_VARIANTS:
                # each distinct set of options compiles the ruleset once more
                compiler.error(path + ("options",), f"more than {MAX_OPTION_VARIANTS} "
                               "different option sets among the examples (max option "
                               "variants)", expected="examples grouped under fewer option "
                               "sets")
                ok = False
        if compiler.element == TILE and kind in ("pattern", "beats", "order", "trump",
                                                   "points"):
            compiler.error(path + (kind,), f"'{kind}' examples are for card games", key=True,
                           expected="hand, table or formula examples in the tiles family")
            continue
        if kind in ("pattern", "beats", "order", "trump", "points"):
            fields = ["beats", "over"] if kind == "beats" else [kind]
            for f in fields:
                if f not in ex:
                    compiler.error(path, f"{a(kind)} example needs {f!r}")
                    ok = False
                    continue
                text = ex[f]
                if kind == "order":
                    text = text.replace(">", " ").replace("=", " ")
                try:
                    cards = nt.parse_cards(str(text))
                except NotationError as exc:
                    compiler.error(path + (f,), str(exc), offset=getattr(exc, "offset", None),
                                   suggestion=card_hint(getattr(exc, "token", "")))
                    ok = False
                    continue
                if not cards:
                    compiler.error(path + (f,), "no cards given", expected="cards such as 'H6 H6'")
                    ok = False
                item[f] = cards
            if kind == "order" and ok:
                try:
                    item["steps"] = _order_steps(ex["order"])
                except NotationError as exc:
                    compiler.error(path + ("order",), str(exc))
                    ok = False
            if kind == "pattern" and "expect" in ex:
                expected = ex["expect"]
                names = expected if isinstance(expected, list) else [expected]
                for n in names:
                    # `expect` is free-form in the schema: a list or mapping here is no name.
                    if not isinstance(n, (str, int, float, bool, type(None))):
                        compiler.error(path + ("expect",), "a pattern example expects a "
                                       "pattern name", expected="a pattern name, a list of "
                                       "names, or none")
                        ok = False
                        continue
                    if n not in pattern_names and n != "none" and n is not None:
                        compiler.error(path + ("expect",), f"no pattern named {n!r}",
                                       expected="a pattern name or none",
                                       suggestion=did_you_mean(str(n), pattern_names))
                        ok = False
            for key in ("includes", "excludes"):
                if key in ex and kind != "pattern":
                    compiler.error(path + (key,), f"{key!r} is for pattern examples", key=True)
                    ok = False
                for j, entry in enumerate(ex.get(key) or []):
                    n = entry.get("name") if isinstance(entry, dict) else entry
                    if n not in pattern_names:
                        compiler.error(path + (key, j), f"no pattern named {n!r}",
                                       suggestion=did_you_mean(str(n), pattern_names))
                        ok = False
            if "as" in ex:
                for j, n in enumerate(ex["as"]):
                    if n not in pattern_names:
                        compiler.error(path + ("as", j), f"no pattern named {n!r}",
                                       suggestion=did_you_mean(n, pattern_names))
                        ok = False
        elif kind == "table":
            if ex["table"] not in tables:
                compiler.error(path + ("table",), f"no table named {ex['table']!r}",
                               expected="a table under tables",
                               suggestion=did_you_mean(ex["table"], tables))
                ok = False
        elif kind == "formula":
            if ex["formula"] not in formulas:
                compiler.error(path + ("formula",), f"no formula named {ex['formula']!r}",
                               expected="a formula under formulas",
                               suggestion=did_you_mean(ex["formula"], formulas))
                ok = False
        elif kind == "deck":
            spec = ex["deck"]
            try:
                item["absent"] = (nt.parse_tiles if compiler.element == TILE else
                                  nt.parse_cards)(str(spec.get("absent", "")))
            except NotationError as exc:
                compiler.error(path + ("deck", "absent"), str(exc))
                ok = False
        elif kind == "scenario":
            ok = check_scenario(compiler, ex, path, item) and ok
        elif kind == "hand":
            if compiler.element != TILE:
                compiler.error(path + ("hand",), "'hand' examples are for the tiles family",
                               key=True)
                ok = False
            else:
                try:
                    item["hand"] = nt.parse_tiles(ex["hand"])
                    if "win_tile" in ex:
                        item["win_tile"] = nt.tile_kind(ex["win_tile"])
                except NotationError as exc:
                    compiler.error(path + ("hand",), str(exc))
                    ok = False
        asserts = "expect" in ex or (kind == "pattern" and ("includes" in ex or "excludes" in ex))
        if kind not in ("order", "scenario", "deck") and not asserts:
            compiler.error(path, "an example needs 'expect'", expected="expect: the asserted "
                           "result" + (" (or includes/excludes)" if kind == "pattern" else ""))
            ok = False
        if ok:
            out.append(item)
    return out


def _context_value(t: str, value: Any) -> Any:
    if t == "suit":
        text = str(value)
        if text == "none":  # no suit: a hand with no trump suit (无主)
            return None
        text = nt.SUIT_SYMBOLS.get(text, text)
        if text not in nt.SUITS:
            raise NotationError(f"{value!r} is not a suit; write S, H, D, C or none")
        return text
    if t == "rank":
        return nt.rank_value(value)
    if t == "tile":
        return nt.tile_kind(str(value))
    if t == "card":
        return nt.parse_card(str(value))
    if t == "bool":
        if not isinstance(value, bool):
            raise NotationError(f"{value!r} is not true or false")
        return value
    if t == "int":
        if not isinstance(value, int):
            raise NotationError(f"{value!r} is not a whole number")
        return value
    return value


def _order_steps(text: str) -> list[tuple[str, int]]:
    """'H5 > BJ = LJ' → [(None, H5), ('>', BJ), ('=', LJ)]."""
    tokens = text.replace(">", " > ").replace("=", " = ").split()
    steps: list[tuple[str, int]] = []
    relation = None
    for tok in tokens:
        if tok in (">", "="):
            if relation is not None or not steps:
                raise NotationError(f"misplaced {tok!r} in order {text!r}")
            relation = tok
            continue
        if steps and relation is None:
            relation = "="  # cards written side by side are asserted equal? no: require a sign
            raise NotationError(f"put '>' or '=' between cards in order {text!r}")
        steps.append((relation or "", nt.parse_card(tok)))
        relation = None
    if relation is not None:
        raise NotationError(f"order {text!r} ends with {relation!r}")
    return steps
