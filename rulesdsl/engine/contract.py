"""How a family declares what its engine plays: its `play:` section, once, as data.

A family's contract (engine/<family>/contract.py) lists every key of its play section
with its schema, default, words and how it compiles; every hook (a table or formula the
engine calls) with the values the engine gives it and the outputs it reads; the context
values the engine sets for each hand; the top-level sections only it reads; and the
language features its engine honours. From that one declaration come the schema
fragment (`schema()`), the compiler's checks with their locations (`read_play`), and the
words `doc` uses (`words()`). The compiler knows no family's keys by name.

Anything a rule file says that the engine would not honour is an error at its location,
naming what the engine does play: a choice outside `supported`, a hook input the engine
never gives, a context the engine never sets, or what a family's `check` refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import did_you_mean
from ..language import schema as sc
from ..runtime.expressions import BOOL, Fn, Scope

MISSING = object()


class PlayReader(Protocol):
    """What the compiler lends a contract while it reads a play section."""

    family: str
    tables: dict[str, Any]
    formulas: dict[str, Any]
    card_scope: Scope
    deck: list[int]  # copies of each card or tile kind in play
    data: dict[str, Any]  # the whole rule file (a contract may read its other sections)

    def error(self, path: tuple, message: str, **kw: Any) -> None: ...

    def warn(self, path: tuple, message: str, **kw: Any) -> None: ...

    def expr(self, path: tuple, value: Any, scope: Scope, want: str | None = None) \
            -> tuple[str, Fn] | None: ...

    def value_scope(self, names: dict[str, str]) -> Scope: ...

    def card(self, path: tuple, text: Any) -> int | None: ...

    def option_value(self, path: tuple, name: Any) -> tuple[Any, list[Any]] | None:
        """An option's compiled value and its choices (None, reported, when there is no
        such option)."""
        ...


def option_choice(reader: PlayReader, path: tuple, name: Any, default: Any,
                  offers: Callable[[Any], bool], refusal: str, expected: str) -> Any:
    """A setting left to an option (`{option: NAME}` at `path`): the option's compiled
    value, or `default` when there is no such option (reported). Every choice the option
    offers must be one the engine plays (`offers`); any other is reported as
    "option NAME offers CHOICE, which <refusal>"."""
    found = reader.option_value(path, name)
    if found is None:
        return default
    value, choices = found
    for choice in choices:
        if not offers(choice):
            reader.error(path, f"option {name!r} offers {choice!r}, which {refusal}",
                         expected=expected)
    return value


# ---------------------------------------------------------------- keys


@dataclass(frozen=True)
class Key:
    """One key of a play section. `attr` names the compiled play model's attribute
    (default: the key's name); None keeps nothing (a note, a section's own name)."""

    name: str
    description: str
    words: str
    attr: str | None = ""

    def attribute(self) -> str | None:
        return self.name if self.attr == "" else self.attr

    def schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def read(self, reader: PlayReader, value: Any, path: tuple, model: Any,
             contract: Contract) -> None:
        raise NotImplementedError

    def walk(self, prefix: tuple) -> Iterator[tuple[tuple, Key]]:
        yield prefix + (self.name,), self


@dataclass(frozen=True)
class Value(Key):
    """A literal: a choice, a number, a flag. `supported` lists, of the language's
    values, those this engine plays; the others are refused, not played another way."""

    fragment: dict[str, Any] = field(default_factory=dict)
    default: Any = None
    supported: tuple[Any, ...] | None = None

    def schema(self) -> dict[str, Any]:
        own = {**self.fragment, "description": self.description}
        flag = self.fragment.get("type") == "boolean"
        number = self.fragment.get("type") == "integer"
        if ("enum" not in self.fragment and not flag and not number) or self.attr is None:
            return own  # (a part its section reads itself takes its values as written)
        # A choice may be left to an option: `then_lead: {option: later_lead}`.
        examples = ({"examples": [*self.fragment["examples"], {"option": self.name}]}
                    if number and self.fragment.get("examples") else {})
        return {"description": self.description, **examples,
                "anyOf": [own, sc.obj_schema(
                    "The value of an option, whose every choice is " + self._choices() + ".",
                    {"option": sc.name_schema("An option's name.", "later_lead")},
                    ["option"])]}

    def _choices(self) -> str:
        if self.fragment.get("type") == "integer":
            return (f"a whole number from {self.fragment.get('minimum', 0)} to "
                    f"{self.fragment.get('maximum', 'any')}")
        return "one of " + ", ".join(map(str, self.fragment.get("enum", [True, False])))

    def _offers(self, choice: Any) -> bool:
        """Is an option's choice a value of this key the engine plays?"""
        if self.fragment.get("type") == "integer":
            return type(choice) is int and self.fragment.get("minimum", choice) <= choice \
                <= self.fragment.get("maximum", choice)
        return choice in self.fragment.get("enum", [True, False]) and (
            self.supported is None or choice in self.supported)

    def read(self, reader, value, path, model, contract) -> None:
        if isinstance(value, dict) and "option" in value:
            known = self.fragment.get("enum", [True, False])
            expected = self._choices() if self.fragment.get("type") == "integer" else \
                "choices among " + ", ".join(map(str, self.supported or known))
            _set(model, self, option_choice(
                reader, path + ("option",), value["option"], self.default, self._offers,
                f"{contract.engine} does not play as {self.name}", expected))
            return
        if value is MISSING:
            value = self.default
        elif self.supported is not None and value not in self.supported:
            reader.error(path, f"{contract.engine} does not play {self.name}: {value!r}",
                         expected="one of " + ", ".join(map(str, self.supported)))
        _set(model, self, value)


@dataclass(frozen=True)
class Expr(Key):
    """An expression: over cards (`names` None: the card scope with defines) or over the
    values the engine gives (`names`: name -> type, beside options and context)."""

    examples: tuple[str, ...] = ()
    names: tuple[tuple[str, str], ...] | None = None
    want: str = BOOL
    default: str | None = None

    def schema(self) -> dict[str, Any]:
        return sc.expr_schema(self.description, *self.examples)

    def read(self, reader, value, path, model, contract) -> None:
        if value is MISSING:
            value = self.default
        if value is None:
            _set(model, self, None)
            return
        scope = reader.card_scope if self.names is None else \
            reader.value_scope(dict(self.names))
        compiled = reader.expr(path, value, scope, self.want)
        _set(model, self, compiled[1] if compiled else None)


@dataclass(frozen=True)
class Hook(Key):
    """A table or formula the engine calls. `gives`: the values the engine passes (or a
    function of the model read so far); `reads`: outputs the engine reads, each "int",
    "bool" or the words it understands (a table's output must be among them)."""

    kinds: tuple[str, ...] = ("formula",)  # table and/or formula
    gives: tuple[str, ...] | Callable[[Any], list[str]] = ()
    reads: tuple[tuple[str, Any], ...] = ()
    examples: tuple[str, ...] = ()

    def schema(self) -> dict[str, Any]:
        return sc.name_schema(self.description, *self.examples)

    def given(self, model: Any) -> list[str]:
        return list(self.gives(model) if callable(self.gives) else self.gives)

    def read(self, reader, value, path, model, contract) -> None:
        if value is MISSING:
            _set(model, self, None)
            return
        found = {**({} if "formula" not in self.kinds else reader.formulas),
                 **({} if "table" not in self.kinds else reader.tables)}
        what = " or ".join(f"a {k}" for k in self.kinds)
        if value not in found:
            reader.error(path, f"no {' or '.join(self.kinds)} named {value!r}",
                         expected=what + " of this ruleset",
                         suggestion=did_you_mean(value, found))
            _set(model, self, None)
            return
        target = found[value]
        where = "tables" if value in reader.tables and "table" in self.kinds else "formulas"
        given = self.given(model)
        for j, name in enumerate(target.inputs):
            if name not in given:
                reader.error((where, value, "input", j),
                             f"{contract.engine} gives {self.words} no value {name!r}",
                             expected="one of " + ", ".join(given) if given else "no inputs",
                             suggestion=did_you_mean(name, given))
        outputs = getattr(target, "outputs", None)
        if outputs is not None:
            for out, kind in self.reads:
                have = outputs.get(out)
                ok = have == kind if isinstance(kind, str) else \
                    isinstance(have, list) and set(have) <= set(kind)
                if not ok:
                    shown = kind if isinstance(kind, str) else "words from " + ", ".join(kind)
                    reader.error((where, value, "output"),
                                 f"{contract.engine} reads output {out!r} of {self.words}",
                                 expected=f"{out}: {shown}")
        _set(model, self, value)


@dataclass(frozen=True)
class Cards(Key):
    """A list of cards, in order."""

    examples: tuple[tuple[str, ...], ...] = ()

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "minItems": 1, "description": self.description,
                "items": {**sc.CARD, "description": "A card."},
                "examples": [list(e) for e in self.examples]}

    def read(self, reader, value, path, model, contract) -> None:
        cards = []
        for i, text in enumerate([] if value is MISSING else value):
            card = reader.card(path + (i,), text)
            if card is not None:
                cards.append(card)
        _set(model, self, cards)


@dataclass(frozen=True)
class Section(Key):
    """A nested mapping. Its keys set attributes of the same play model; `required`
    keys must be written when the section is."""

    keys: tuple[Key, ...] = ()
    required: tuple[str, ...] = ()
    attr: str | None = None

    def schema(self) -> dict[str, Any]:
        props = {k.name: k.schema() for k in self.keys}
        props.setdefault("doc", sc.doc_schema("The seed's words."))
        return sc.obj_schema(self.description, props, list(self.required) or None)

    def read(self, reader, value, path, model, contract) -> None:
        data = {} if value is MISSING else value
        if self.attribute() is not None:
            _set(model, self, value is not MISSING)
        read_keys(reader, self.keys, data, path, model, contract)

    def walk(self, prefix: tuple) -> Iterator[tuple[tuple, Key]]:
        yield prefix + (self.name,), self
        for k in self.keys:
            yield from k.walk(prefix + (self.name,))


@dataclass(frozen=True)
class Custom(Key):
    """A key whose reading is the family's own (a list of alternatives, a section that
    compiles to one value): `reading(reader, value or MISSING, path, model)`."""

    fragment: dict[str, Any] = field(default_factory=dict)
    reading: Callable[..., None] | None = None
    parts: tuple[Key, ...] = ()  # keys inside it, for words and walks

    def schema(self) -> dict[str, Any]:
        return {**self.fragment, "description": self.description}

    def read(self, reader, value, path, model, contract) -> None:
        assert self.reading is not None
        self.reading(reader, value, path, model)

    def walk(self, prefix: tuple) -> Iterator[tuple[tuple, Key]]:
        yield prefix + (self.name,), self
        for k in self.parts:
            yield from k.walk(prefix + (self.name,))


def _set(model: Any, key: Key, value: Any) -> None:
    attr = key.attribute()
    if attr is not None:
        setattr(model, attr, value)


def read_keys(reader: PlayReader, keys: tuple[Key, ...], data: dict[str, Any], path: tuple,
              model: Any, contract: Contract) -> None:
    for key in keys:
        key.read(reader, data.get(key.name, MISSING), path + (key.name,), model, contract)


# ---------------------------------------------------------------- contracts


@dataclass(frozen=True)
class Contract:
    """What one family's engine plays, declared once."""

    family: str
    engine: str  # how messages name it: "the trick engine"
    description: str  # the play section, in one sentence
    keys: tuple[Key, ...]
    model: Callable[[], Any]  # a fresh compiled play model with every default
    game: Callable[[Any], Any]  # ruleset -> the family's game (imports its engine)
    contexts: tuple[tuple[str, str], ...] = ()  # context values the engine sets: name, type
    # scenario phases that decide context values themselves: phase -> those values' names
    phase_sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    sections: tuple[str, ...] = ()  # top-level sections only this family reads
    features: tuple[tuple[str, str], ...] = ()  # language features honoured: name, words
    finish: Callable[[PlayReader, dict[str, Any], Any], None] | None = None  # cross-key rules
    element: str = "card"  # what the deck holds: card or tile
    sameness: str = "rank"  # the default of patterns.sameness
    # The family's own top-level sections (`sections`), compiled: reader -> model fields.
    read_sections: Callable[[Any], dict[str, Any]] | None = None

    def honours(self, feature: str) -> bool:
        return feature in dict(self.features)

    def read_play(self, reader: PlayReader, data: dict[str, Any] | None) -> Any:
        """The compiled play model of a play section (every default when there is none)."""
        model = self.model()
        section = data or {}
        read_keys(reader, self.keys, section, ("play",), model, self)
        if self.finish is not None:
            self.finish(reader, section, model)
        return model

    def key_names(self) -> list[str]:
        return [k.name for k in self.keys]

    def walk(self) -> Iterator[tuple[tuple, Key]]:
        for k in self.keys:
            yield from k.walk(())

    def words(self) -> dict[tuple, str]:
        """Each key path's words, for rulebooks."""
        return {path: key.words for path, key in self.walk()}

    def play_properties(self) -> dict[str, Any]:
        return {k.name: k.schema() for k in self.keys}


def play_schema(contracts: list[Contract]) -> dict[str, Any]:
    """The `play:` section's schema: every family's keys (the compiler refuses, at its
    location, a key that belongs to another family)."""
    props: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for c in contracts:
        for name, fragment in c.play_properties().items():
            if name in props and props[name] != fragment:
                raise AssertionError(f"play key {name!r} is declared differently by the "
                                     f"{owner[name]} and {c.family} contracts")
            props[name] = fragment
            owner.setdefault(name, c.family)
    props["doc"] = sc.doc_schema()
    words = "; ".join(f"{c.family}: {c.description}" for c in contracts)
    return sc.obj_schema(f"How a hand is played ({words}).", props)
