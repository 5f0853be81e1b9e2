"""The form of a play scenario (`scenario:` examples), checked when the rule file compiles:
its seats, cards or tiles, actions and expectations are read here, located; running it is
rulesdsl/scenarios.py's work."""

from __future__ import annotations

from typing import Any

from .. import notation as nt
from ..engine.base import VOID_SUITS, Action, Position
from ..errors import NotationError, RulesdslError
from ..runtime.expressions import TILE

# What `expect:` of a scenario may assert (docs/language.md, "Play scenarios").
EXPECT_KEYS = ("to_act", "winner", "points", "result", "returns", "terminal", "phase",
               "actions", "context", "events")


def check_scenario(compiler: Any, ex: dict[str, Any], path: tuple, item: dict[str, Any]) -> bool:
    """Read a scenario into `item` (position, steps); report what is malformed."""
    tiles = compiler.element == TILE
    count = (compiler.data or {}).get("players", {}).get("count", 4)
    players = count[0] if isinstance(count, list) else count
    ok = True

    def err(where: tuple, message: str, **kw: Any) -> None:
        nonlocal ok
        compiler.error(path + where, message, **kw)
        ok = False

    def seat(value: Any, where: tuple) -> int | None:
        # an int, or the digits of a mapping key ("0"); never a float, a bool or inf
        if type(value) is int:
            s = value
        elif isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 3:
            s = int(value)
        else:
            s = -1
        if not 0 <= s < players:
            err(where, f"no seat {value!r}", expected=f"a seat 0..{players - 1}")
            return None
        return s

    def kinds(text: Any, where: tuple) -> list[int]:
        try:
            return nt.parse_tiles(str(text)) if tiles else nt.parse_cards(str(text))
        except NotationError as exc:
            err(where, str(exc))
            return []

    hands: dict[int, list[int]] = {}
    for key, text in (ex.get("hands") or {}).items():
        s = seat(key, ("hands", key))
        if s is not None:
            hands[s] = kinds(text, ("hands", key))
    melds: dict[int, list[tuple[str, int, bool]]] = {}
    discards: dict[int, list[int]] = {}
    for key, texts in (ex.get("exposed") or {}).items():
        s = seat(key, ("exposed", key))
        if s is None:
            continue
        from ..engine.tiles.scoring import parse_meld

        for j, text in enumerate(texts):
            try:
                m = parse_meld(text)
            except NotationError as exc:
                err(("exposed", key, j), str(exc))
                continue
            melds.setdefault(s, []).append((m.kind, m.tile, m.concealed))
    for key, text in (ex.get("discards") or {}).items():
        s = seat(key, ("discards", key))
        if s is not None:
            discards[s] = kinds(text, ("discards", key))
    flowers: dict[int, list[int]] = {}
    for key, text in (ex.get("exposed_flowers") or {}).items():
        s = seat(key, ("exposed_flowers", key))
        if s is not None:
            flowers[s] = kinds(text, ("exposed_flowers", key))
    drawn = None
    if "drawn" in ex:
        got = kinds(ex["drawn"], ("drawn",))
        if len(got) != 1:
            err(("drawn",), "the drawn tile is one tile", expected="drawn: 7p")
        else:
            drawn = got[0]
    decided = dict(compiler.contract.phase_sets).get(str(ex.get("phase", "play")), ())
    for name in decided:
        if name in (item.get("context") or {}):
            err(("context", name), f"in phase {ex.get('phase')} the engine decides {name!r}",
                key=True, expected=f"a context without {name}")
    missing = [n for n in compiler.context if n not in (item.get("context") or {})
               and n not in decided]
    if missing:
        err(("scenario",), "a scenario gives every context value", key=True,
            expected="context: {" + ", ".join(f"{n}: …" for n in missing) + "}")
    if not tiles:
        for key in ("wall", "wall_end", "tiles_left", "exposed", "discards", "drawn",
                    "exposed_flowers"):
            if key in ex:
                err((key,), f"{key!r} is for tile scenarios", key=True)
    elif "kitty" in ex or "bid" in ex:
        k = "kitty" if "kitty" in ex else "bid"
        err((k,), f"{k!r} is for card scenarios", key=True)
    last_order = None
    side_levels: dict[int, int] = {}
    top_failed: dict[int, int] = {}
    between = [k for k in ("last_order", "side_levels", "top_failed") if k in ex]
    family = compiler.contract.family
    if family == "trick":
        between = [k for k in between if k != "side_levels"]
    if between and family != "shedding":
        err((between[0],), f"{between[0]!r} is for shedding scenarios", key=True)
    elif between or "side_levels" in ex:
        if "last_order" in ex:
            order = [seat(x, ("last_order", j)) for j, x in enumerate(ex["last_order"])]
            if None not in order:
                if len(set(order)) != len(order):
                    err(("last_order",), "a finishing order names each seat once")
                last_order = [x for x in order if x is not None]
        for key, table in (("side_levels", side_levels), ("top_failed", top_failed)):
            for side, value in (ex.get(key) or {}).items():
                # a side's number (the engine checks it names a side)
                index = side if type(side) is int else int(side) if isinstance(side, str) \
                    and side.isascii() and side.isdigit() and len(side) < 3 else -1
                if not 0 <= index < players:
                    err((key, side), f"no side {side!r}", expected="a side's number: 0, 1 …")
                    continue
                if key == "side_levels":
                    try:
                        table[index] = nt.rank_value(str(value))
                    except NotationError as exc:
                        err((key, side), str(exc))
                else:
                    table[index] = value
    to_deal: list[int] = []
    declared = None
    overcall, hand_no = False, 1
    for key in ("to_deal", "declared", "hand_number"):
        if key in ex and (compiler.contract.family != "trick"):
            where = " in the deal" if key == "to_deal" else ""
            err((key,), f"{key!r} is for trick scenarios{where}", key=True)
    if compiler.contract.family == "trick":
        to_deal = kinds(ex.get("to_deal", ""), ("to_deal",))
        if "declared" in ex:
            d = ex["declared"]
            s_ = seat(d.get("seat"), ("declared", "seat"))
            cards = kinds(d.get("cards", ""), ("declared", "cards"))
            overcall = d.get("overcall", False) is True
            if s_ is not None and cards:
                declared = (s_, cards)
        hand_no = ex.get("hand_number", 1)
    voids: dict[int, int] = {}
    if "voids" in ex and not tiles:
        err(("voids",), "'voids' is for tile scenarios", key=True)
    for key, suit in (ex.get("voids") or {}).items() if tiles else ():
        s = seat(key, ("voids", key))
        if s is not None and suit in VOID_SUITS:  # (the schema names the suits)
            voids[s] = VOID_SUITS[suit]
    dealer = seat(ex["dealer"], ("dealer",)) if "dealer" in ex else None
    turn = seat(ex["turn"], ("turn",)) if "turn" in ex else None
    item["position"] = Position(
        hands=hands, context=dict(item.get("context") or {}), dealer=dealer, turn=turn,
        phase=str(ex.get("phase", "play")), kitty=kinds(ex.get("kitty", ""), ("kitty",)),
        wall=kinds(ex.get("wall", ""), ("wall",)),
        wall_end=kinds(ex.get("wall_end", ""), ("wall_end",)),
        tiles_left=ex.get("tiles_left"), melds=melds, discards=discards, bid=ex.get("bid"),
        flowers=flowers, drawn=drawn, last_order=last_order, side_levels=side_levels,
        top_failed=top_failed, to_deal=to_deal, declared=declared, overcall=overcall,
        hand=hand_no, voids=voids)
    steps = []
    for j, text in enumerate(ex.get("actions") or []):
        act = _action(text, ("actions", j), err)
        if act is not None:
            steps.append((str(text), act))
    item["steps"] = steps
    item["legal"] = [(str(t), a) for j, t in enumerate(ex.get("legal") or [])
                     if (a := _action(t, ("legal", j), err)) is not None]
    illegal = []
    for j, entry in enumerate(ex.get("illegal") or []):
        text = entry.get("action") if isinstance(entry, dict) else entry
        reason = entry.get("reason") if isinstance(entry, dict) else None
        act = _action(text, ("illegal", j), err)
        if act is not None:
            illegal.append((str(text), act, reason))
    item["illegal"] = illegal
    expect = ex.get("expect")
    if expect is not None:
        if not isinstance(expect, dict):
            err(("expect",), "a scenario's expect is a mapping",
                expected="keys from " + ", ".join(EXPECT_KEYS))
        else:
            for key in expect:
                if key not in EXPECT_KEYS:
                    err(("expect", key), f"a scenario cannot expect {key!r}", key=True,
                        expected="one of " + ", ".join(EXPECT_KEYS))
            for key in ("to_act", "winner"):
                if expect.get(key) is not None:
                    seat(expect[key], ("expect", key))
            events = expect.get("events")
            if "events" in expect and not (isinstance(events, list) and all(
                    isinstance(e, dict) for e in events)):
                err(("expect", "events"), "expected events are a list of mappings",
                    expected="events: [{type: wall_phase, phase: live_tile}]")
            if "context" in expect and compiler.contract.family == "tiles":
                err(("expect", "context"), "an expected context is for card scenarios",
                    key=True)
            elif "context" in expect:  # the hand's context as the engine decided it
                item["context_expect"] = _expected_context(compiler, expect["context"], err)
            if "actions" in expect:  # every legal action, exactly
                listed = expect["actions"]
                if not isinstance(listed, list):
                    err(("expect", "actions"), "expected actions are a list",
                        expected="actions: [pass, \"S8 S8\"]")
                    listed = []
                item["actions"] = [(str(t), a) for j, t in enumerate(listed)
                                   if (a := _action(t, ("expect", "actions", j), err))
                                   is not None]
    if not (steps or item["legal"] or illegal or expect):
        err((), "a scenario asserts nothing", expected="actions, legal, illegal or expect")
    return ok


def _expected_context(compiler: Any, given: Any, err: Any) -> dict[str, Any]:
    from .examples import _context_value

    out: dict[str, Any] = {}
    if not isinstance(given, dict):
        err(("expect", "context"), "an expected context is a mapping",
            expected="context: {trump: H}")
        return out
    for name, value in given.items():
        if name not in compiler.context:
            err(("expect", "context", name), f"unknown context value {name!r}", key=True,
                expected="a name declared under context")
            continue
        try:
            out[name] = _context_value(compiler.context[name].type, value)
        except NotationError as exc:
            err(("expect", "context", name), str(exc))
    return out


def _action(text: Any, where: tuple, err: Any) -> Action | None:
    if not isinstance(text, str) or not text.strip():
        err(where, f"{text!r} is not an action", expected="cards ('S8 S8'), 'pass', "
            "'bid 10', 'discard 5p' …")
        return None
    try:
        return Action.parse(text)
    except (NotationError, RulesdslError) as exc:
        err(where, f"{text!r} is not an action: {exc}")
        return None
