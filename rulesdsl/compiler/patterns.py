"""Compiling the `patterns:` section: each pattern's shape (a group, a run, named cards,
any cards, parts), its common keys (ties, suits, wilds, bombs, grades) and the classes
that beat each other whatever their keys. Mixed into the compiler (compiler/core.py),
whose problem helpers, scopes and sections it reads."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import notation as nt
from ..engine.contract import option_choice
from ..errors import NotationError, did_you_mean
from ..model.ruleset import PatternDef, RunSpec
from ..runtime.expressions import BOOL, INT, TILE, Env, EvaluationError, Fn, Scope
from .limits import MAX_PATTERNS, MAX_REPEAT_STEPS, MAX_REPEATING_PARTS

TIE_RULES = ("suit", "suit_first")  # `ties:` on a pattern
MAX_GRADED_SHAPES = 20_000  # (length, step, size) shapes a bomb's grade is tabulated for


class PatternSection:
    """Mixed into the compiler: these read its `data`, `options`, `contract`, `ranks`,
    `element`, `values_types` and `card_scope`, and report with `error` and `warn`."""

    data: dict[str, Any]
    options: dict[str, Any]
    contract: Any
    ranks: dict[str, list[int]]
    element: str
    values_types: dict[str, str]
    card_scope: Scope

    def error(self, path: tuple, message: str, **kw: Any) -> None:
        raise NotImplementedError

    def warn(self, path: tuple, message: str, **kw: Any) -> None:
        raise NotImplementedError

    def expr(self, path: tuple, value: Any, scope: Scope, want: str | None = None) \
            -> tuple[str, Fn] | None:
        raise NotImplementedError

    def _where(self, path: tuple, key: bool = True) -> str:
        raise NotImplementedError

    def _patterns(self, pats: dict) -> list[PatternDef]:
        items = pats.get("list", [])
        if len(items) > MAX_PATTERNS:
            self.error(("patterns", "list"), f"{len(items)} patterns is over the limit of "
                       f"{MAX_PATTERNS} (max patterns)")
            return []
        if self.element == TILE and items:
            self.warn(("patterns",), "the tiles family reads sets from win:, not patterns",
                      key=True)
        by_name: dict[str, int] = {}
        for i, p in enumerate(items):
            if p["name"] in by_name:
                self.error(("patterns", "list", i, "name"), f"pattern {p['name']!r} is "
                           f"defined twice (first at patterns.list[{by_name[p['name']]}])")
            by_name.setdefault(p["name"], i)
        built: dict[str, PatternDef | None] = {}

        def build(i: int, active: tuple[str, ...]) -> PatternDef | None:
            p = items[i]
            name = p["name"]
            if name in built:
                return built[name]
            path = ("patterns", "list", i)
            pd = self._shape(p, path, lambda ref, where: ref_pattern(ref, where, active + (name,)))
            if pd is None:
                built[name] = None
                return None
            pd.name = name
            pd.located = self._where(path, key=False)  # a list item has no key
            self._pattern_common(pd, p, path)
            built[name] = pd
            return pd

        def ref_pattern(ref: str, where: tuple, active: tuple[str, ...]) -> PatternDef | None:
            if ref in active:
                self.error(where, f"pattern {ref!r} refers to itself",
                           expected="parts that end in shapes")
                return None
            if ref not in by_name:
                self.error(where, f"no pattern named {ref!r}", expected="a pattern name",
                           suggestion=did_you_mean(ref, by_name))
                return None
            return build(by_name[ref], active)

        out = []
        for i in range(len(items)):
            pd = build(i, ())
            if pd is None:
                continue
            if "enabled" in items[i] and not self._option_flag(
                    ("patterns", "list", i, "enabled"), items[i]["enabled"]):
                continue  # switched off by an option
            out.append(pd)
        return out

    def _option_scope(self, **extra: str) -> Scope:
        """The names an expression over options (and these inputs) may read."""
        values = {n: t for n, t in self.values_types.items() if n in self.options}
        values.update(extra)
        return Scope(element=None, values=values)

    def _option_flag(self, path: tuple, value: Any) -> bool:
        """A true/false setting written as an expression over options, decided now (true
        when it cannot be read: the problem is reported)."""
        c = self.expr(path, value, self._option_scope(), BOOL)
        try:
            return bool(c[1](Env(None, dict(self.options)))) if c else True
        except EvaluationError as exc:
            self.error(path, str(exc))
            return True

    def _shape(self, p: dict, path: tuple, ref) -> PatternDef | None:
        shapes = [k for k in ("group", "run", "parts", "cards", "pattern", "any") if k in p]
        if len(shapes) != 1:
            known = "one of group, run, parts, cards" + (
                ", any" if self.contract.honours("suit_patterns") else "")
            if not shapes:
                self.error(path, "a pattern needs a shape", expected=known)
            else:
                self.error(path + (shapes[1],), f"a pattern has one shape, not "
                           f"{' and '.join(shapes)}", key=True, expected=known)
            return None
        shape = shapes[0]
        if shape == "any":
            if not self._suit_feature(path + ("any",), "an 'any' pattern"):
                return None
            g = p["any"]
            lo, hi = (g, g) if isinstance(g, int) else (g.get("min", 1), g.get("max", 64))
            if lo > hi:
                self.error(path + ("any",), f"min {lo} is above max {hi}")
            return PatternDef(name="", shape="any", group=(lo, hi), path=path)
        if shape == "pattern":
            target = ref(p["pattern"], path + ("pattern",))
            if target is None:
                return None
            import copy as _copy
            return _copy.copy(target)
        if shape == "group":
            g = p["group"]
            lo, hi = (g, g) if isinstance(g, int) else (g.get("min", 1), g.get("max", 64))
            if lo > hi:
                self.error(path + ("group",), f"min {lo} is above max {hi}")
            return PatternDef(name="", shape="group", group=(lo, hi), path=path)
        if shape == "run":
            r = p["run"]
            group, group_max = r["group"], None
            if isinstance(group, dict):  # steps of any number of cards in a range
                group, group_max = group.get("min", 1), group.get("max", 64)
                if group > group_max:
                    self.error(path + ("run", "group"), f"min {group} is above max "
                               f"{group_max}")
                if not self.contract.honours("varying_runs"):
                    self.error(path + ("run", "group"), f"{self.contract.engine} plays runs "
                               "of equal steps only", expected="group: a number of cards")
                    return None
            elif "steps" in r:
                self.error(path + ("run", "steps"), "steps: says how steps of a range of "
                           "cards compare; this run's steps hold one number", key=True,
                           expected="group: {min: N, max: M} with steps")
            length = r["length"]
            lo, hi = (length, length) if isinstance(length, int) else \
                (length.get("min", 2), length.get("max", 64))
            if lo > hi:
                self.error(path + ("run", "length"), f"min {lo} is above max {hi}")
            over = r.get("over")
            if over is not None and over not in self.ranks:
                self.error(path + ("run", "over"), f"no ladder named {over!r}",
                           expected="a ladder defined under ranks",
                           suggestion=did_you_mean(over, self.ranks))
                return None
            if over is None and not self.contract.honours("runs_over_the_hand_order"):
                self.error(path + ("run",), f"a run needs 'over: LADDER': "
                           f"{self.contract.engine} reads runs over a ladder only",
                           expected="over: the name of a ladder in ranks")
                return None
            return PatternDef(name="", shape="run",
                              run=RunSpec(group, (lo, hi), over, group_max,
                                          r.get("steps") == "equal"), path=path)
        if shape == "cards":
            try:
                kinds = nt.parse_cards(p["cards"])
            except NotationError as exc:
                self.error(path + ("cards",), str(exc))
                return None
            if not kinds:
                self.error(path + ("cards",), "no cards given", expected="cards such as 'LJ LJ'")
                return None
            return PatternDef(name="", shape="cards", cards=dict(Counter(kinds)), path=path)
        parts = []
        for j, part in enumerate(p["parts"]):
            sub = self._shape(part, path + ("parts", j), ref)
            if sub is None:
                return None
            if sub.run is not None and sub.run.group_max is not None:
                self.error(path + ("parts", j, "run", "group"), "a run whose steps hold a "
                           "range of cards cannot be a part of a composite",
                           expected="group: a number of cards")
                return None
            if "pattern" not in part:
                sub.name = f"part{j}"
            if "where" in part:
                w = self.expr(path + ("parts", j, "where"), part["where"], self.card_scope,
                              BOOL)
                sub.where = w[1] if w else None
            sub.repeat = part.get("repeat") == "per_step"
            parts.append(sub)
        key = p.get("key", 0)
        if key >= len(parts):
            self.error(path + ("key",), f"part {key} does not exist",
                       expected=f"0..{len(parts) - 1}")
            key = 0
        if any(part.repeat for part in parts):
            if parts[key].shape != "run" or parts[key].repeat:
                self.error(path + ("parts",), "a part that repeats per_step needs a key part "
                           "that is a run", expected="key: the index of a run part")
            elif self._repeat_bounds(p, parts, key, path):
                return None
        maximal = p.get("maximal", False)
        if maximal and (parts[key].shape != "run" or parts[key].run is None
                        or parts[key].run.over is None):
            self.error(path + ("maximal",), "maximal needs a key part that is a run over a "
                       "ladder", key=True, expected="key: the index of a run part with over")
            maximal = False
        return PatternDef(name="", shape="parts", parts=parts, key=key,
                          same_length=p.get("same_length", False),
                          distinct=p.get("distinct", False),
                          bomb_free=p.get("bomb_free", False), maximal=maximal, path=path)

    def _pattern_common(self, pd: PatternDef, p: dict, path: tuple) -> None:
        if "where" in p:
            w = self.expr(path + ("where",), p["where"], self.card_scope, BOOL)
            pd.where = w[1] if w else None
        by = p.get("by")
        if by is not None and by not in self.ranks:
            self.error(path + ("by",), f"no ladder named {by!r}", expected="a ladder in ranks",
                       suggestion=did_you_mean(by, self.ranks))
            by = None
        pd.by = by
        pd.bomb = p.get("bomb", False)
        pd.counts_as_size = p.get("counts_as_size")
        exclusive = p.get("exclusive", False)
        pd.exclusive = exclusive is True or isinstance(exclusive, list)
        if isinstance(exclusive, list):
            written = {q["name"] for q in self.data.get("patterns", {}).get("list", [])}
            for j, name in enumerate(exclusive):
                if name not in written:
                    self.error(path + ("exclusive", j), f"no pattern named {name!r}",
                               expected="a pattern name",
                               suggestion=did_you_mean(name, sorted(written)))
            pd.excludes = frozenset(exclusive)
        for k in ("suit", "ties"):
            if k in p and self._suit_feature(path + (k,), f"'{k}:'"):
                setattr(pd, k, p[k])
        if isinstance(pd.ties, dict):  # left to an option
            pd.ties = option_choice(self, path + ("ties", "option"), pd.ties.get("option"),
                                    None, lambda c: c in TIE_RULES, "is not a tie rule",
                                    " or ".join(TIE_RULES))
        if "wilds" in p:
            pd.wilds = self._pattern_wilds(p["wilds"], path + ("wilds",))
        varying = pd.run is not None and pd.run.group_max is not None
        if varying and self.data.get("wilds"):
            # Plays of such runs are built from the naturals held: refused, not half-played.
            self.error(path + ("run", "group"), "a run whose steps hold a range of cards is "
                       "played only in a ruleset without wild cards",
                       expected="no `wilds:` section, or steps of one number of cards")
        if "grade" in p:
            pd.grade = self._grade(pd, p["grade"], path + ("grade",))
        if p.get("last_play_only"):
            if self.contract.honours("last_plays"):
                pd.last_only = True
            else:
                self.error(path + ("last_play_only",), f"{self.contract.engine} does not "
                           "play patterns kept for a last play", key=True,
                           expected="patterns without last_play_only")
        if pd.suit is not None and pd.exclusive:
            # An exclusive reading drops the others before suits are read: refused together.
            self.error(path + ("exclusive",), "an exclusive pattern cannot also require one "
                       "suit", key=True, expected="exclusive on patterns without 'suit:'")
        if pd.ties is not None and not self.data.get("patterns", {}).get("suit_order"):
            self.error(path + ("ties",), f"ties: {pd.ties} needs the suits' order", key=True,
                       expected="patterns.suit_order: [D, C, H, S] (lowest first)")
        if pd.shape == "any" and pd.bomb:
            self.error(path + ("bomb",), "an 'any' set cannot be a bomb", key=True,
                       expected="bombs of group, run, parts or cards")
        for k in ("bomb_free", "maximal", "distinct", "same_length", "key"):
            if k in p and pd.shape != "parts":
                self.error(path + (k,), f"{k} only applies to a composite (parts)", key=True,
                           expected="parts: [...]")
        if pd.counts_as_size is not None and not pd.bomb:
            self.error(path + ("counts_as_size",), "counts_as_size only applies to bombs",
                       key=True, suggestion="add 'bomb: true'")

    def _grade(self, pd: PatternDef, value: Any,
               path: tuple) -> dict[tuple[int, int, int], float] | None:
        """A bomb's grade for every (length, step, size) its plays can have, tabulated."""
        if not pd.bomb or pd.shape not in ("group", "run") or pd.counts_as_size is not None:
            self.error(path, "a grade ranks bombs of a group or a run (without "
                       "counts_as_size)", key=True, expected="bomb: true on a group or run")
            return None
        c = self.expr(path, value, self._option_scope(size=INT, length=INT, step=INT), INT)
        if c is None:
            return None
        deal = self.data.get("deal") or {}
        most = int(deal.get("hand_size", 64)) + int(deal.get("kitty", 0) or 0)
        shapes: list[tuple[int, int, int]] = []
        if pd.group is not None:
            shapes = [(1, n, n) for n in range(pd.group[0], min(pd.group[1], most) + 1)]
        elif pd.run is not None:
            lo, hi = pd.run.length
            hi = min(hi, len(self.ranks.get(pd.run.over or "", [])) or hi)  # runs fit a ladder
            g_hi = pd.run.group if pd.run.group_max is None else pd.run.group_max
            for length in range(lo, hi + 1):
                for step in range(pd.run.group, g_hi + 1):
                    if length * step > most:
                        break
                    top = step if pd.run.group_max is None or pd.run.equal_steps else g_hi
                    for size in range(length * step, min(length * top, most) + 1):
                        shapes.append((length, step, size))
                        if len(shapes) > MAX_GRADED_SHAPES:
                            self.error(path, f"more than {MAX_GRADED_SHAPES} shapes of play "
                                       "to grade", expected="narrower group or length ranges")
                            return None
        table: dict[tuple[int, int, int], float] = {}
        for length, step, size in shapes:
            env = Env(None, {**self.options, "size": size, "length": length, "step": step})
            try:
                table[length, step, size] = float(c[1](env))
            except (EvaluationError, OverflowError, ZeroDivisionError) as exc:
                self.error(path, f"the grade of {size} cards in {length} step(s) of at least "
                           f"{step}: {exc}")
                return None
        return table

    def _pattern_wilds(self, value: Any, path: tuple) -> bool:
        """`wilds:` on a pattern: true, false, or an expression over options."""
        if not self.data.get("wilds"):
            # Nothing to restrict: a setting no play reads.
            self.error(path, "the ruleset has no wild cards for this to restrict", key=True,
                       expected="a `wilds:` section, or no `wilds:` on the pattern")
            return True
        return self._option_flag(path, value)

    def _suit_feature(self, path: tuple, what: str) -> bool:
        """Patterns that read suits need an engine that plays them: refuse them elsewhere."""
        if self.contract.honours("suit_patterns"):
            return True
        self.error(path, f"{what} reads suits, which {self.contract.engine} does not play",
                   key=True, expected="patterns by rank (group, run, parts, cards)")
        return False

    def _classes(self, pats: dict, patterns: list[PatternDef]) -> list[list[str]]:
        """patterns.classes: names of defined, non-bomb patterns, each in one class."""
        graded = [p for p in patterns if p.grade is not None]
        if graded and len({p.by for p in patterns if p.bomb}) > 1:
            # Bombs of equal grade compare by key: on one ladder, so the key is the rank.
            first = graded[0]
            self.error(first.path + ("grade",), "bombs of equal grade compare by rank, "
                       "so every bomb pattern ranks its key on one ladder", key=True,
                       expected="the same `by:` on every bomb pattern")
        if "suit_order" in pats and self._suit_feature(("patterns", "suit_order"),
                                                         "'suit_order:'"):
            if not any(p.ties is not None for p in patterns):
                # An order nothing reads would be a rule the engine never plays.
                self.error(("patterns", "suit_order"), "no pattern breaks ties by suit, so "
                           "nothing reads this order", key=True,
                           expected="ties: suit on a pattern, or no suit_order")
        rows = pats.get("classes") or []
        if rows and not self._suit_feature(("patterns", "classes"), "'classes:'"):
            return []
        by_name = {p.name: p for p in patterns}
        written = {p["name"] for p in pats.get("list", [])}
        seen: dict[str, int] = {}
        out = []
        for i, row in enumerate(rows):
            kept = []
            for j, name in enumerate(row):
                where = ("patterns", "classes", i, j)
                if name not in written:
                    self.error(where, f"no pattern named {name!r}", expected="a pattern name",
                               suggestion=did_you_mean(name, sorted(written)))
                    continue
                if name in seen:
                    self.error(where, f"pattern {name!r} is already in class {seen[name]}",
                               expected="each pattern in one class at most")
                    continue
                seen[name] = i
                pd = by_name.get(name)
                if pd is None:
                    continue  # switched off by an option: its class skips it
                if pd.bomb:
                    self.error(where, f"{name!r} is a bomb: bombs rank by bomb size, not by "
                               "class", expected="patterns that are not bombs")
                    continue
                kept.append(name)
            out.append(kept)
        return out

    def _repeat_bounds(self, p: dict, parts: list[PatternDef], key: int, path: tuple) -> bool:
        """Report a composite whose per-step parts exceed the bounds; True when one did."""
        repeating = [j for j, part in enumerate(parts) if part.repeat]
        if len(repeating) > MAX_REPEATING_PARTS:
            self.error(path + ("parts", repeating[-1], "repeat"), f"{len(repeating)} parts "
                       f"repeat per_step, over the limit of {MAX_REPEATING_PARTS} (max "
                       "repeating parts)", expected="one part that repeats per_step")
            return True
        j = repeating[0]
        group = p["parts"][j].get("group")
        if parts[j].shape != "group" or not isinstance(group, int):
            self.error(path + ("parts", j), "a part that repeats per_step has a fixed size",
                       expected="group: N (a number, not a range) (max repeating parts)")
            return True
        run = parts[key].run
        steps = run.length[1] if run is not None else 0
        if steps > MAX_REPEAT_STEPS:
            self.error(path + ("parts", key, "run", "length"), f"a run whose steps carry a "
                       f"part repeating per_step may have {steps} steps, over the limit of "
                       f"{MAX_REPEAT_STEPS} (max repeat steps)",
                       expected=f"length: {{max: {MAX_REPEAT_STEPS}}} or less")
            return True
        return False
