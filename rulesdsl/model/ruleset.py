"""A compiled ruleset: everything the engines need, resolved and type-checked.

Built by rulesdsl.compiler from a rule file. Expressions are closures
here; `specialise()` (rulesdsl.model.hand) turns them into integer tables for
one hand's context.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import notation as nt
from ..errors import RulesdslError
from ..runtime.expressions import DefineTable, Env, EvaluationError, Fn

if TYPE_CHECKING:
    from ..language.yamlio import Document


class LookupError_(RulesdslError):
    """A table or formula could not be evaluated for the given inputs."""


@dataclass
class ContextDecl:
    name: str
    type: str
    domain: list[Any]  # every value the static checks try


@dataclass
class Tier:
    name: str
    select: Fn
    ladder: str | None
    path: tuple


@dataclass
class Alternate:
    name: str
    select: Fn
    rank: Fn | None
    tiers: list[int]
    patterns: frozenset[str]


@dataclass
class Wild:
    name: str
    select: Fn
    stands_for: Fn


@dataclass
class RunSpec:
    group: int  # cards per step (with group_max: the fewest)
    length: tuple[int, int]
    over: str | None  # a ladder name, or None for the per-hand order
    group_max: int | None = None  # steps of group..group_max cards each (a run of bombs)
    equal_steps: bool = False  # with group_max: every step holds as many cards


@dataclass
class PatternDef:
    name: str
    shape: str  # group | run | parts | cards | any
    group: tuple[int, int] | None = None
    run: RunSpec | None = None
    parts: list[PatternDef] = field(default_factory=list)
    key: int = 0
    same_length: bool = False
    distinct: bool | str = False  # True: parts pairwise; "key": others vs the key part
    repeat: bool = False  # a part that appears once per step of the key part's run
    bomb_free: bool = False  # the parts other than the key part hold no bomb together
    maximal: bool = False  # the key run cannot be lengthened by the play's other cards
    cards: dict[int, int] | None = None
    where: Fn | None = None
    by: str | None = None
    bomb: bool = False
    counts_as_size: float | None = None  # a half ranks a bomb between two sizes
    grade: dict[tuple[int, int, int], float] | None = None  # (length, step, size) -> grade
    exclusive: bool = False
    excludes: frozenset[str] | None = None  # exclusive over these patterns only (None: all)
    suit: str | None = None  # "same": every natural card of the play is of one suit
    ties: str | None = None  # "suit" | "suit_first": the top card's suit after or before rank
    wilds: bool = True  # False: a wild card plays only as itself in this pattern
    last_only: bool = False  # played only as the player's last play (all the cards left)
    path: tuple = ()
    located: str = ""  # `file:line:column: ` of its definition, for play-time errors


MISSING: Any = object()  # an argument not given

# A table's or formula's number beyond this is an error at play time: engines turn totals
# into floats, and no game scores anywhere near it.
MAX_VALUE = 10**15


def _bounded(value: Any, what: str) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and \
            not -MAX_VALUE <= value <= MAX_VALUE:
        raise LookupError_(f"{what} gives {value:.3g}, out of range (|value| <= 10^15)")
    return value


@dataclass
class Table:
    name: str
    inputs: list[str]
    outputs: dict[str, Any]  # "int" | "bool" | list of words
    rows: list[tuple[Fn, dict[str, Any]]]  # (when, {field: Fn | word})
    options: dict[str, Any]
    where: str = ""  # file:line:column of its definition, for play-time errors

    def lookup(self, inputs: dict[str, Any],
               options: dict[str, Any] | None = None) -> dict[str, Any]:
        missing = [n for n in self.inputs if n not in inputs]
        if missing:
            raise LookupError_(f"table {self.name!r} needs input(s) {', '.join(missing)}")
        env = Env(None, {**self.options, **(options or {}), **inputs})
        for when, fields in self.rows:
            try:
                hit = when(env)
            except EvaluationError as exc:
                raise LookupError_(f"{self.where}table {self.name!r}: {exc}") from None
            if hit:
                out: dict[str, Any] = {}
                for name, value in fields.items():
                    try:
                        out[name] = _bounded(value(env) if callable(value) else value,
                                             f"{self.where}table {self.name!r}, field "
                                             f"{name!r}")
                    except EvaluationError as exc:
                        raise LookupError_(f"{self.where}table {self.name!r}, field "
                                           f"{name!r}: {exc}") from None
                return out
        raise LookupError_(f"{self.where}no row of table {self.name!r} matches {inputs}")


@dataclass
class Formula:
    name: str
    inputs: list[str]
    fn: Fn
    options: dict[str, Any]
    where: str = ""  # file:line:column of its definition, for play-time errors

    def evaluate(self, inputs: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
        missing = [n for n in self.inputs if n not in inputs]
        if missing:
            raise LookupError_(f"{self.where}formula {self.name!r} needs input(s) "
                               f"{', '.join(missing)}")
        try:
            value = self.fn(Env(None, {**self.options, **(options or {}), **inputs}))
        except EvaluationError as exc:
            raise LookupError_(f"{self.where}formula {self.name!r}: {exc}") from None
        return _bounded(value, f"{self.where}formula {self.name!r}")


@dataclass
class ScoringItem:
    name: str
    kind: str  # base | fan
    for_: frozenset[str]
    each: str | None
    zone: str | None
    where: Fn | None
    when: Fn | None
    points: int
    fan: int
    limit: bool
    times: Fn | None = None  # an item without each: how many times it applies


@dataclass
class LimitHand:
    name: str
    when: Fn
    for_: frozenset[str]


def _short(value: Any) -> str:
    """A value for a message, however long (a 5,000-digit int cannot even be printed)."""
    try:
        text = repr(value)
    except ValueError:
        return "a number too long to print"
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Ruleset:
    """The compiled, fully resolved ruleset."""

    id: str
    name: dict[str, str]
    family: str
    version: str
    source: str | None
    resolved: dict[str, Any]
    hash: str
    document: Document | None
    player_counts: list[int]
    direction: str
    teams: list[list[int]]
    deck: list[int]  # count of each card or tile kind in play
    deal: dict[str, Any]
    context: dict[str, ContextDecl]
    options: dict[str, Any]
    defines: DefineTable | None
    ranks: dict[str, list[int]]
    trump: Fn | None
    tiers: list[Tier]
    alternates: list[Alternate]
    wilds: list[Wild]
    patterns: list[PatternDef]
    sameness: str
    hollow: str
    demoted: str
    points: dict[int, int]  # rank -> points
    points_total: int | None
    levels: dict[str, Any] | None
    tables: dict[str, Table]
    formulas: dict[str, Formula]
    win: dict[str, Any] | None
    limit_hands: list[LimitHand]
    scoring_items: list[ScoringItem]
    totals: dict[str, str]
    examples: list[dict[str, Any]]
    # Trumps and each plain suit are suit-systems (plays compare within one, a trump
    # play beats a plain one): the family contract's `suit_systems` feature.
    suit_systems: bool = False
    # Suits from lowest to highest, for patterns that break ties by suit (as
    # ♦ < ♣ < ♥ < ♠), and the classes of equal-size patterns that beat each other (a later
    # pattern of a class beats an earlier one of the same size: straight < flush < ...).
    suit_order: list[str] = field(default_factory=list)
    classes: list[list[str]] = field(default_factory=list)
    # Can a rule fail while a hand is played (a division by a value that may be 0, a table
    # without a catch-all row)? The compiler decides; engines snapshot before actions then.
    play_can_fail: bool = True
    # The tables and formulas that can fail, by name (None: any rule may).
    failing_rules: frozenset[str] | None = None
    play: Any = None  # the family's compiled play model (engine/<family>/play.py)
    contract: Any = None  # the family's contract (engine/<family>/contract.py)
    # (ruleset, players=, options=) -> the ruleset for another player count and options,
    # attached by the compiler (the model never imports it).
    variant: Any = None

    def game(self) -> Any:
        """The engine that runs this ruleset's family, built once per ruleset (the per-hand
        tables and pattern caches it holds are reused by every game). The contract the
        compiler attached builds it, so the model never imports an engine."""
        cached = self.__dict__.get("_engine_game")
        if cached is None:
            if self.contract is None:
                raise RulesdslError(f"{self.id}: no engine for the {self.family} family")
            cached = self.__dict__["_engine_game"] = self.contract.game(self)
        return cached

    def new_game(self, seed: int = 0, hands: Any = MISSING, players: int | None = None,
                 options: dict[str, Any] | None = None):
        """A new match (or `hands=N` hands) of this ruleset, deterministic given the seed;
        `players` one of its player counts, `options` values for its named options."""
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise RulesdslError(f"the seed is a whole number from 0 to 2^63 - 1, not "
                                f"{_short(seed)}")
        if hands is not MISSING and hands is not None and (
                type(hands) is not int or not 1 <= hands <= 10_000):
            raise RulesdslError(f"hands is a whole number from 1 to 10000, not "
                                f"{_short(hands)}")
        if players is not None and type(players) is not int:
            raise RulesdslError(f"players is a whole number, not {_short(players)}")
        if options is not None and not isinstance(options, dict):
            raise RulesdslError(f"options is a mapping of option names to values, not "
                                f"{_short(options)}")
        ruleset = self
        if players is not None or options:
            if self.variant is None:
                raise RulesdslError(f"{self.id} cannot be compiled again for other players "
                                    "or options")
            ruleset = self.variant(self, players=players, options=options)
        kw = {} if hands is MISSING else {"hands": hands}  # the engine's own default
        return ruleset.game().new_game(seed=seed, **kw)

    def state_from_json(self, text: str):
        return self.game().state_from_json(text)

    @property
    def is_tiles(self) -> bool:
        """Does the deck hold tiles (the contract's element), not cards?"""
        return self.contract is not None and self.contract.element == "tile"

    @property
    def players(self) -> int:
        return self.player_counts[0]

    @property
    def reads_suits(self) -> bool:
        """Does some pattern tell cards of one rank apart by suit? Then a play is its cards,
        not its ranks (engines keep one interchangeable kind per rank otherwise)."""
        return any(p.suit is not None or p.ties is not None for p in self.patterns)

    def classes_above(self, pattern: str) -> tuple[str, ...]:
        """The patterns of `pattern`'s class that beat it at equal size."""
        memo = self.__dict__.setdefault("_classes_above", {})
        out = memo.get(pattern)
        if out is None:
            out = ()
            for row in self.classes:
                if pattern in row:
                    out = tuple(row[row.index(pattern) + 1:])
            memo[pattern] = out
        return out

    def pattern(self, name: str) -> PatternDef | None:
        for p in self.patterns:
            if p.name == name:
                return p
        return None

    def every_card(self) -> list[int]:
        """Every card or tile in play, one entry per physical copy (what a shuffle deals)."""
        return [k for k, n in enumerate(self.deck) for _ in range(n)]

    def team_of(self) -> list[int]:
        """For each seat of the default player count, the index of its team."""
        out = [0] * self.players
        for t, seats in enumerate(self.teams):
            for s in seats:
                if s < self.players:
                    out[s] = t
        return out

    def kinds(self) -> list[int]:
        """Card or tile kinds present in the deck."""
        return [k for k, n in enumerate(self.deck) if n]

    def context_values(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Options plus context values (given ones, else each context's first value)."""
        values: dict[str, Any] = dict(self.options)
        for name, decl in self.context.items():
            values[name] = decl.domain[0] if decl.domain else None
        if given:
            values.update(given)
        return values

    def all_contexts(self, limit: int = 4096):
        """Every combination of context values (bounded)."""
        names = list(self.context)
        domains = [self.context[n].domain or [None] for n in names]
        for i, combo in enumerate(itertools.product(*domains)):
            if i >= limit:
                return
            yield dict(zip(names, combo))

    def card_points(self, kind: int) -> int:
        if self.is_tiles:
            return 0
        return self.points.get(nt.card_rank(kind), 0)

    def total_points(self) -> int:
        return sum(n * self.card_points(k) for k, n in enumerate(self.deck))
