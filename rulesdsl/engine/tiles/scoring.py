"""Scoring a tile hand against a ruleset's `scoring:` items, limit hands and totals.

`score_hand(ruleset, hand, context, decompositions)` reads one player's hand every way
it can be read and keeps the reading with the highest total:

- a reading is a Decomposition (the concealed sets; the melds are added to them) and,
  for a winner, the set the winning tile completes, which fixes the wait: `closed` (the
  middle tile of a chow), `edge` (the 3 of a 1-2-3 chow or the 7 of a 7-8-9 chow),
  `pair` (it completes the pair) or `other`. Where the winning tile could complete more
  than one set, each is a reading;
- each reading gives the hand scope (`sets`, `tiles`, `wait`, `wilds` …) the `when`
  and `where` expressions see; every item whose `for` names the player's role (`winner`
  or `others`) is applied: `each: set` counts the sets satisfying `where`, `each: tile`
  the tiles of `zone` satisfying it, an item without `each` applies once when its `when`
  holds; a base item adds count × points, a fan item count × fan;
- a limit hand (a `win.limit_hands` entry, or an item with `limit: true`) totals the cap:
  `scoring.limit`, or else the ceiling of the role's total formula; otherwise the total is
  the formula named in `scoring.totals` for the role, fed `base` and `fan` (and any hand
  value it declares as an input). A player who discarded a wild scores 0.
- the best reading is the highest total, then a limit hand, then more fan, then more base.
- a limit hand whose `when` reads nothing of the reading (no sets, tiles, wait, first
  suit: e.g. three wilds) makes every reading total the cap; no reading can change what
  anyone pays, so the search stops at its first reading, which is the one explained.

Non-winners (and a "winner" whose tiles hold no complete reading) are scored on partial
readings: any choice of disjoint pairs, pungs and chows (wilds included) from the
concealed tiles, the rest unused. Only *maximal* readings are tried — ones whose unused
tiles could not make one more set — since an extra set never lowers a non-winner's score
in any ruleset written so far; the search is bounded (MAX_READINGS readings, MAX_STEPS
search steps) and tries pungs before pairs before chows, so the bound cuts the least
promising readings.

The decomposer here is a plain recursive search over the 34 tile kinds with wilds; the
function `find_readings` is the one place to swap in a faster shape module.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ... import notation as nt
from ...errors import RulesdslError
from ...model.ruleset import LookupError_, Ruleset
from ...runtime.expressions import Env, EvaluationError
from .hand import Decomposition, ScoringHand, TileSet
from .readings import (
    MAX_READINGS,
    PLAYABLE,
    _Wilds,
    brute_force_readings,
    find_readings,
    wait_of,
    wins_for,
)


class ItemScore(NamedTuple):
    """One item that applied: `value` is the points (base) or fan per occurrence."""

    name: str
    kind: str  # base | fan
    count: int
    value: int

    @property
    def amount(self) -> int:
        return self.count * self.value


@dataclass
class HandScore:
    """One player's scored hand: the items of the best reading and its total."""

    role: str  # winner | others
    wins: bool
    items: list[ItemScore]
    base: int
    fan: int
    total: Any
    limit: str | None
    decomposition: Decomposition | None
    limits: list[str] = field(default_factory=list)  # every limit hand that holds
    wait: str | None = None
    melds: list[TileSet] = field(default_factory=list)
    formula: str | None = None
    readings: int = 0  # readings evaluated
    truncated: bool = False  # the reading search hit its bound
    notes: list[str] = field(default_factory=list)

    def item_names(self) -> list[str]:
        """Names of what applied: the limit hands for a limit hand, else the items."""
        if self.limit is not None:
            return list(self.limits)
        return [i.name for i in self.items]

    def reading_text(self) -> str:
        parts = [format_set(s, exposed=not s.concealed) for s in self.melds]
        if self.decomposition is not None:
            parts += [format_set(s) for s in self.decomposition.sets]
        return " ".join(parts) if parts else "(no sets)"

    def explain(self) -> str:
        who = "winner" if self.role == "winner" else (
            "winner (a limit hand without a complete shape)" if self.wins else "non-winner")
        lines = [f"{who}: {self.reading_text()}"]
        if self.wait is not None:
            lines.append(f"  wait: {self.wait}")
        wild_sets = [format_set(s) for s in (self.decomposition.sets if self.decomposition
                                              else ()) if s.wilds]
        if wild_sets:
            lines.append(f"  wilds read as: {', '.join(wild_sets)} (best of {self.readings} "
                         "readings)")
        elif self.readings > 1:
            lines.append(f"  best of {self.readings} readings")
        for it in self.items:
            unit = "fan" if it.kind == "fan" else "base"
            lines.append(f"  {it.name:<24} {unit:<4} {it.count} × {it.value} = {it.amount}")
        lines.extend(f"  note: {n}" for n in self.notes)
        if self.limit is not None:
            lines.append(f"limit hand: {', '.join(self.limits)} → total {self.total}")
        else:
            via = f" ({self.formula})" if self.formula else ""
            lines.append(f"base {self.base}, fan {self.fan} → total {self.total}{via}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role, "wins": self.wins,
            "items": [{"name": i.name, "kind": i.kind, "count": i.count, "value": i.value,
                       "amount": i.amount} for i in self.items],
            "base": self.base, "fan": self.fan, "total": self.total, "limit": self.limit,
            "limits": self.limits, "wait": self.wait, "reading": self.reading_text(),
            "sets": [{**s.as_scope(), "tile": nt.format_tile(s.tile)}
                     for s in list(self.melds) + list(self.decomposition.sets
                                                      if self.decomposition else [])],
            "readings": self.readings, "truncated": self.truncated, "notes": self.notes,
        }


def format_set(s: TileSet, exposed: bool = False) -> str:
    text = nt.format_tiles(s.tiles()).replace(" ", "")
    text = re.sub(r"(\d)[mpszf](?=\d)", r"\1", text)  # 1p2p3p → 123p
    if s.kind == "kong" and s.concealed:
        text += "(concealed)"
    if s.wilds:
        home = f", {s.home_wilds} as itself" if s.home_wilds else ""
        text += f"({s.wilds} wild{'s' if s.wilds > 1 else ''}{home})"
    return f"[{text}]" if exposed else text


# ------------------------------------------------------------------ hand input

_MELD_KINDS = {"c": ("chow", False), "p": ("pung", False), "k": ("kong", False),
               "ck": ("kong", True), "chow": ("chow", False), "pung": ("pung", False),
               "kong": ("kong", False), "concealed_kong": ("kong", True)}


def parse_meld(text: str) -> TileSet:
    """'c:123m' chow, 'p:555z' pung, 'k:1111m' exposed kong, 'ck:1111m' concealed kong."""
    prefix, sep, rest = str(text).strip().partition(":")
    if not sep or prefix.lower() not in _MELD_KINDS:
        raise nt.NotationError(f"{text!r} is not a meld; write c:123m (chow), p:555z (pung), "
                               "k:1111m (kong) or ck:1111m (concealed kong)")
    kind, concealed = _MELD_KINDS[prefix.lower()]
    tiles = sorted(nt.parse_tiles(rest))
    size = {"chow": 3, "pung": 3, "kong": 4}[kind]
    ok = len(tiles) == size and tiles[0] < PLAYABLE
    if ok and kind == "chow":
        ok = tiles[0] < 27 and tiles[0] % 9 <= 6 and tiles == [tiles[0] + i for i in range(3)]
    elif ok:
        ok = len(set(tiles)) == 1
    if not ok:
        raise nt.NotationError(f"{text!r}: {rest!r} is not a {kind}")
    return TileSet(kind, tiles[0], concealed=concealed)


def parse_melds(text: str | Iterable[str] | None) -> list[TileSet]:
    if text is None:
        return []
    chunks = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_meld(c) for c in chunks]


# ------------------------------------------------------------------ scoring


def _cap(ruleset: Ruleset, formula: str | None) -> Any:
    limit = (ruleset.resolved.get("scoring") or {}).get("limit")
    if limit is not None:
        return limit
    if formula is not None and formula in ruleset.formulas:
        f = ruleset.formulas[formula]
        try:
            big = [f.evaluate({"base": b, "fan": 64}) for b in (10**6, 10**7)]
        except LookupError_:
            big = [None, 0]
        if big[0] == big[1]:
            return big[0]
    raise RulesdslError(f"{ruleset.id}: a limit hand needs the cap; set scoring.limit")


# Hand-scope names whose value depends on the reading; every other name an expression
# can see (the player's flags, held wilds, flowers, seat wind, options, context) is the
# same for all readings of one hand.
_READING_NAMES = frozenset({"sets", "tiles", "wait", "first_suit", "seven_pairs"})
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_PLANS: dict[int, tuple[Ruleset, dict[str, tuple[bool, bool]]]] = {}


def _source_names(text: Any, defines: dict[str, Any], seen: set[str]) -> set[str]:
    """The identifiers in an expression's source, through the defines it uses."""
    names = set(_WORD.findall(str(text)))
    for name in list(names):
        if name in defines and name not in seen:
            seen.add(name)
            names |= _source_names(defines[name], defines, seen)
    return names


def _plan(ruleset: Ruleset) -> dict[str, tuple[bool, bool]]:
    """Per item or limit hand name: (its `when` is the same for every reading, its
    `where` depends only on the set or tile it is evaluated on). Read off the source
    text; anything not found there counts as depending on the reading."""
    hit = _PLANS.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    doc = ruleset.resolved
    defines = doc.get("define") or {}
    sources = list((doc.get("scoring") or {}).get("items") or [])
    sources += list((doc.get("win") or {}).get("limit_hands") or [])
    plan: dict[str, tuple[bool, bool]] = {}
    for src in sources:
        if not isinstance(src, dict) or "name" not in src:
            continue

        def fixed(key: str, src: dict = src) -> bool:
            return not (_source_names(src.get(key, ""), defines, set()) & _READING_NAMES)

        fixed_where = fixed("where") and src.get("zone") not in ("tiles",)
        entry = (fixed("when"), fixed_where)
        # a name given twice: keep the stricter reading
        old = plan.get(src["name"], entry)
        plan[src["name"]] = (old[0] and entry[0], old[1] and entry[1])
    _PLANS[id(ruleset)] = (ruleset, plan)
    return plan


class _Scorer:
    """Evaluates readings of one hand. What cannot change between readings (an item's
    `when` that reads no set, a count over held tiles or flowers, a set's `where`) is
    evaluated once per hand, or once per distinct set, and reused."""

    def __init__(self, ruleset: Ruleset, hand: ScoringHand, values: dict[str, Any],
                 role: str, wilds: _Wilds):
        self.ruleset = ruleset
        self.hand = hand
        self.values = values
        self.role = role
        self.items = [i for i in ruleset.scoring_items if role in i.for_]
        self.limit_hands = [lh for lh in ruleset.limit_hands if role in lh.for_]
        self.formula = ruleset.totals.get(role)
        self.wilds = wilds
        plan = _plan(ruleset)
        self._fixed = [plan.get(i.name, (False, False)) for i in self.items]
        self._fixed_limits = [plan.get(lh.name, (False, False))[0] for lh in self.limit_hands]
        self._memo: dict[tuple[bool, str, int], Any] = {}  # (winner, what, index) -> value
        self._set_rows: dict[tuple, list[Any]] = {}  # per distinct set: where results

    def _once(self, key: tuple[bool, str, int], fn: Any, env: Env) -> Any:
        memo = self._memo
        if key in memo:
            return memo[key]
        value = memo[key] = fn(env)
        return value

    def _rows(self, sets: list[TileSet], winner: bool, scopes: list[dict]) -> list[list[Any]]:
        """Per set of this reading, its row of memoised `where` results (None: not yet
        evaluated), shared by every reading holding an equal set."""
        rows = self._set_rows
        out = []
        for ts, sc in zip(sets, scopes):
            key = (winner, ts.kind, ts.tile, ts.concealed, ts.wilds, ts.home_wilds,
                   sc["completed"])
            row = rows.get(key)
            if row is None:
                row = rows[key] = [None] * len(self.items)
            out.append(row)
        return out

    def _count_sets(self, j: int, item: Any, rows: list[list[Any]], scopes: list[dict],
                    hand_env: Env) -> int:
        """How many sets satisfy item j's `where` (set-local): one evaluation per set."""
        count = 0
        for row, sc in zip(rows, scopes):
            hit = row[j]
            if hit is None:
                hit = row[j] = bool(item.where(Env(sc, self.values, hand_env)))
            count += hit
        return count

    def fixed_limit(self, held: list[int], winner: bool) -> bool:
        """Does a limit hand hold whose condition reads nothing of the reading (e.g.
        "wilds >= 3")? Then every reading totals the cap, and no reading can change
        what anyone pays."""
        scope = self._scope(None, None, held, winner)
        hand_env = Env(scope, self.values, Env(None, self.values))
        try:
            for j, item in enumerate(self.items):
                if (item.limit and item.each is None and item.when is not None
                        and self._fixed[j][0]
                        and self._once((winner, "when", j), item.when, hand_env)):
                    return True
            for j, lh in enumerate(self.limit_hands):
                if self._fixed_limits[j] and self._once((winner, "limit", j), lh.when,
                                                        hand_env):
                    return True
        except (EvaluationError, KeyError, TypeError):
            return False  # evaluate() reports it, on the first reading
        return False

    def _scope(self, dec: Decomposition | None, wait: str | None, held: list[int],
               winner: bool, completed: int | None = None) -> dict[str, Any]:
        h = self.hand
        done = None if completed is None else len(h.melds) + completed
        sets = list(h.melds) + list(dec.sets if dec is not None else ())
        tiles = [t for s in sets for t in s.tiles()]
        first = next((t for t in tiles if t < 27), None)
        return {
            "winner": winner,
            "self_drawn": h.self_drawn and winner,
            "kong_replacement": h.kong_replacement and winner,
            "flower_replacement": h.flower_replacement and winner,
            "robbed_kong": h.robbed_kong and winner,
            "last_tile": h.last_tile and winner,
            "first_turn": h.first_turn and winner,
            "kong_discard": h.kong_discard and winner,
            "wait": wait if wait is not None else "none",
            "wilds": sum(1 for t in held if self.wilds.wild[t]),
            "flowers": len(h.exposed_flowers),
            "seat_wind": h.seat_wind,
            "win_tile": h.win_tile if winner else None,
            "sets": [{**s.as_scope(), "completed": i == done} for i, s in enumerate(sets)],
            "tiles": tiles,
            "exposed_flowers": list(h.exposed_flowers),
            "first_suit": nt.tile_suit(first) if first is not None else None,
            # a reading of pairs only beyond the shape's own pairs: seven pairs (七对)
            "seven_pairs": dec is not None and bool(dec.sets) and not h.melds
            and all(s.kind == "pair" for s in dec.sets)
            and len(dec.sets) > (self.ruleset.win or {}).get("pairs", 1),
        }

    def evaluate(self, dec: Decomposition | None, wait: str | None, held: list[int],
                 winner: bool, completed: int | None = None
                 ) -> tuple[list[ItemScore], list[str], dict[str, Any]]:
        """Items and limit hands of one reading; `completed`: the index in `dec.sets` of
        the set the winning tile completed (the set scope's `completed`)."""
        h = self.hand
        scope = self._scope(dec, wait, held, winner, completed)
        sets = list(h.melds) + list(dec.sets if dec is not None else ())
        tiles = scope["tiles"]
        set_scopes = scope["sets"]
        values = self.values
        hand_env = Env(scope, values, Env(None, values))
        zones = {"hand": held, "tiles": tiles, "flowers": list(h.exposed_flowers),
                 "exposed_flowers": list(h.exposed_flowers)}
        out: list[ItemScore] = []
        limits: list[str] = []
        rows: list[list[Any]] | None = None
        for j, item in enumerate(self.items):
            fixed_when, fixed_where = self._fixed[j]
            try:
                if item.when is not None:
                    holds = (self._once((winner, "when", j), item.when, hand_env) if fixed_when
                             else item.when(hand_env))
                    if not holds:
                        continue
                if item.each == "set":
                    assert item.where is not None
                    if fixed_where:
                        if rows is None:
                            rows = self._rows(sets, winner, set_scopes)
                        count = self._count_sets(j, item, rows, set_scopes, hand_env)
                    else:
                        count = sum(1 for s in set_scopes
                                    if item.where(Env(s, values, hand_env)))
                elif item.each == "tile":
                    assert item.where is not None
                    zone = zones.get(item.zone or "hand", held)
                    where = item.where
                    if fixed_where:
                        count = self._once((winner, "tiles", j), lambda env, z=zone, w=where:
                                           sum(1 for t in z if w(Env(t, values, env))),
                                           hand_env)
                    else:
                        count = sum(1 for t in zone if where(Env(t, values, hand_env)))
                elif item.times is not None:
                    count = max(0, int(item.times(hand_env)))
                else:
                    count = 1
            except (EvaluationError, KeyError, TypeError) as exc:
                raise RulesdslError(f"scoring item {item.name!r} could not be evaluated: "
                                    f"{exc}") from None
            if not count:
                continue
            if item.limit:
                limits.append(item.name)
            value = item.points if item.kind == "base" else item.fan
            out.append(ItemScore(item.name, item.kind, count, value))
        for j, lh in enumerate(self.limit_hands):
            try:
                holds = (self._once((winner, "limit", j), lh.when, hand_env)
                         if self._fixed_limits[j] else lh.when(hand_env))
                if holds:
                    limits.append(lh.name)
            except (EvaluationError, KeyError, TypeError) as exc:
                raise RulesdslError(f"limit hand {lh.name!r} could not be evaluated: "
                                    f"{exc}") from None
        return out, limits, scope

    def total(self, base: int, fan: int, scope: dict[str, Any]) -> Any:
        if self.formula is None:
            return base
        f = self.ruleset.formulas[self.formula]
        inputs = {k: v for k, v in scope.items() if isinstance(v, (int, str, bool))}
        inputs.update(base=base, fan=fan)
        return f.evaluate(inputs, self.values)


def _held_tiles(ruleset: Ruleset, hand: ScoringHand) -> list[int]:
    """The concealed tiles, the winning tile added unless it is already among them."""
    held = list(hand.concealed)
    if not hand.winner or hand.win_tile is None:
        return held
    win = ruleset.win or {}
    full = 3 * win.get("sets", 4) + 2 * win.get("pairs", 1)
    if len(held) + 3 * len(hand.melds) < full:
        held.append(hand.win_tile)
    return held


def _seven_pairs_readings(win: dict[str, Any], counts: list[int], wild_faces: list[int],
                          melds: list[TileSet]) -> list[Decomposition]:
    """The seven-pairs reading (win.seven_pairs, 七对) of a hand of pairs only: four
    identical tiles are two pairs."""
    if not win.get("seven_pairs") or melds or wild_faces or any(c % 2 for c in counts):
        return []
    if sum(counts) != 3 * win.get("sets", 4) + 2 * win.get("pairs", 1):
        return []
    return [Decomposition(tuple(TileSet("pair", k) for k, c in enumerate(counts)
                                for _ in range(c // 2)))]


def score_hand(ruleset: Ruleset, hand: ScoringHand, context: dict[str, Any],
               decompositions: Iterable[Decomposition] | None = None) -> HandScore:
    """Score one player's hand: the best reading's items, base, fan and total.

    `hand.concealed` may or may not include the winning tile (it is added when the
    concealed tiles and melds fall one tile short of a complete hand). `decompositions`
    are the concealed readings to consider (complete ones for a winner, partial ones for
    the others); None: the engine finds them. `context` holds the hand's context values
    (e.g. the turned tile) and any option overrides.
    """
    if ruleset.family != "tiles":
        raise RulesdslError(f"{ruleset.id} is a {ruleset.family} ruleset, not tiles")
    missing = [n for n in ruleset.context if n not in context]
    if missing:
        raise RulesdslError(f"scoring needs the context value(s) {', '.join(missing)}")
    values = {**ruleset.options, **context}
    wilds = _Wilds.of(ruleset, values)
    held = _held_tiles(ruleset, hand)
    counts, wild_faces, stray = wilds.split(held)
    win = ruleset.win or {}
    chows = "chow" in win.get("set_kinds", ["chow", "pung", "kong"])
    given = list(decompositions) if decompositions is not None else None
    truncated = False

    # A limit hand whose condition reads nothing of the reading (three wilds, four
    # flowers …) makes every reading total the cap: the reading cannot change what anyone
    # pays, so the search stops at the first reading it finds (the one explained).
    role = "winner" if hand.winner else "others"
    candidates: list[Decomposition] = []
    partial = not hand.winner
    scorer = _Scorer(ruleset, hand, values, role, wilds)
    capped = False
    if hand.winner:
        if given is not None:
            candidates = given
        elif not stray:
            need = win.get("sets", 4) - len(hand.melds)
            capped = scorer.fixed_limit(held, winner=True)
            candidates, truncated = find_readings(counts, wild_faces, wilds.stands,
                                                  need, win.get("pairs", 1), chows,
                                                  limit=1 if capped else MAX_READINGS)
            candidates = candidates + _seven_pairs_readings(win, counts, wild_faces,
                                                            hand.melds)
        partial = not candidates
    if partial:
        if hand.winner:
            # no complete hand: scored as the others are (a limit hand still wins)
            role = "others"
            scorer = _Scorer(ruleset, hand, values, role, wilds)
        if given is not None and not hand.winner:
            candidates = given
        else:
            capped = scorer.fixed_limit(held, winner=False)
            candidates, more = find_readings(counts, wild_faces, wilds.stands, None, None,
                                             chows, limit=1 if capped else MAX_READINGS)
            truncated = truncated or more
        candidates = candidates or [Decomposition(())]
    truncated = truncated and not capped  # a capped search stops on purpose
    win_is_wild = hand.win_tile is not None and wilds.wild[hand.win_tile]
    best: tuple | None = None
    best_score: HandScore | None = None
    evaluated = 0
    cap: Any = None
    for dec in candidates:
        wins: list[tuple[str | None, int | None]] = [(None, None)]
        if not partial:
            wins = list(wins_for(dec, counts, hand.win_tile, win_is_wild))
        for wait, completed in wins:
            evaluated += 1
            items, limits, scope = scorer.evaluate(dec, wait, held, winner=not partial,
                                                   completed=completed)
            base = sum(i.amount for i in items if i.kind == "base")
            fan = sum(i.amount for i in items if i.kind == "fan")
            if limits:
                if cap is None:
                    cap = _cap(ruleset, scorer.formula)
                total = cap
            else:
                total = scorer.total(base, fan, scope)
            key = (total, bool(limits), fan, base)
            if best is None or key > best:
                best = key
                best_score = HandScore(
                    role=role, wins=hand.winner and (not partial or bool(limits)),
                    items=items, base=base, fan=fan, total=total,
                    limit=limits[0] if limits else None, decomposition=dec, limits=limits,
                    wait=wait, melds=list(hand.melds), formula=scorer.formula)
    assert best_score is not None
    best_score.readings = evaluated
    best_score.truncated = truncated
    if hand.winner and partial:
        best_score.notes.append("no complete reading of the hand" + (
            "; a limit hand wins at once" if best_score.limit else ": scored as a non-winner"))
    if stray:
        best_score.notes.append(f"held tiles that form no set: {nt.format_tiles(stray)}")
    if truncated:
        best_score.notes.append(f"the reading search stopped at its bound ({evaluated} "
                                "readings)")
    if hand.discarded_wild:
        best_score.total = 0
        best_score.wins = False
        best_score.notes.append("discarded a wild: scores 0")
    return best_score


__all__ = ["HandScore", "ItemScore", "score_hand", "find_readings", "brute_force_readings",
           "parse_meld", "parse_melds", "wait_of", "format_set"]
