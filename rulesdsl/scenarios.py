"""Running play scenarios: a hand built by its engine from the given position, actions
applied through the state API, and what the rule file asserts checked afterwards.

A failure says which step diverged, located at that step in the rule file:
`examples[7].actions[3]: action 3 'S8 S8 SQ SQ' was refused: …` or
`examples[7].expect.winner: expected winner 1, got 2`.
"""

from __future__ import annotations

from typing import Any

from . import notation as nt
from .engine.base import IllegalAction
from .errors import RulesdslError

Failure = tuple[str, tuple]  # what went wrong, and where in the example


def run_scenario(ruleset: Any, item: dict[str, Any]) -> Failure | None:
    try:
        state = ruleset.game().position(item["position"])
    except RulesdslError as exc:
        return f"the position cannot be built: {exc}", ("hands",)
    start = len(state.log)  # the events the actions make follow
    for j, (text, action) in enumerate(item["steps"]):
        if state.is_terminal():
            return f"action {j} {text!r}: the hand is already over", ("actions", j)
        if not state.legal_actions().count():
            return (f"action {j} {text!r}: seat {state.current_player} has no legal action "
                    "(hands of unequal size cannot be played on)"), ("actions", j)
        try:
            state.apply(action)
        except IllegalAction as exc:
            return f"action {j} {text!r} was refused: {exc}", ("actions", j)
    seat = state.current_player
    for j, (text, action) in enumerate(item["legal"]):
        why = _refusal(state, action)
        if why is not None:
            return f"{text!r} is refused for seat {seat}: {why}; expected legal", ("legal", j)
    for j, (text, action, reason) in enumerate(item["illegal"]):
        why = _refusal(state, action)
        if why is None:
            return f"{text!r} is legal for seat {seat}; expected refused", ("illegal", j)
        if reason is not None and reason.lower() not in why.lower():
            return (f"{text!r} is refused, but for another reason: {why}; expected a reason "
                    f"mentioning {reason!r}"), ("illegal", j)
    expect = item["raw"].get("expect") or {}
    for key, want in expect.items():
        if key == "actions":
            wrong = _actions_differ(state, item["actions"])
            if wrong is not None:
                return wrong, ("expect", key)
            continue
        if key == "events":
            wrong = _events_missing(state.log[start:], want)
            if wrong is not None:
                return wrong, ("expect", key)
            continue
        if key == "context":
            wanted = item.get("context_expect") or {}
            got = {name: state.hc.values.get(name) for name in wanted}
            if got != wanted:
                return (f"expected context {_shown(state, wanted)}, got {_shown(state, got)}",
                        ("expect", key))
            continue
        got = _observed(state, key)
        if key in ("result", "points"):
            wrong = _mismatch(got, want, "")
            if wrong is not None:
                where, w, g = wrong
                if g is _MISSING:
                    return f"expected {key}{where} {w!r}, but there is no {key}{where}", \
                        ("expect", key)
                return f"expected {key}{where} {w!r}, got {g!r}", ("expect", key)
        elif got != want:
            return f"expected {key} {want!r}, got {got!r}", ("expect", key)
    return None


def _events_missing(logged: list[dict[str, Any]], wanted: list[Any]) -> str | None:
    """The first wanted event (a subset of one) not logged, in order, by the actions."""
    at = 0
    for want in wanted:
        while at < len(logged) and _mismatch(logged[at], want, "") is not None:
            at += 1
        if at == len(logged):
            kinds = ", ".join(str(e.get("type")) for e in logged[-12:])
            return (f"expected an event {repr(want)[:200]} (in order); the actions logged: "
                    f"{kinds}")
        at += 1
    return None


def _shown(state: Any, context: dict[str, Any]) -> str:
    """Context values as a rule file writes them (a suit or none, a rank's or tile's name)."""
    parts = []
    for name, value in context.items():
        kind = state.hc.ruleset.context[name].type
        text = "none" if value is None else nt.rank_name(value) if kind == "rank" else \
            nt.format_tile(value) if kind == "tile" else str(value)
        parts.append(f"{name}: {text}")
    return "{" + ", ".join(parts) + "}"


def _actions_differ(state: Any, wanted: list[tuple[str, Any]]) -> str | None:
    """What the seat's legal actions have beyond or lack of exactly the listed ones."""
    if state.is_terminal():
        return "expected legal actions, but the hand is over"
    listed = list(state.legal_actions())
    want = {a for _, a in wanted}
    extra = sorted(str(a) for a in listed if a not in want)
    missing = [t for t, a in wanted if a not in set(listed)]
    if not extra and not missing:
        return None
    parts = []
    if extra:
        parts.append("also legal: " + ", ".join(extra[:8]) + (" …" if len(extra) > 8 else ""))
    if missing:
        parts.append("not legal: " + ", ".join(missing))
    return f"the legal actions of seat {state.current_player} differ ({'; '.join(parts)})"


def _refusal(state: Any, action: Any) -> str | None:
    """Why the seat to act may not take this action, or None when it may."""
    if state.is_legal(action):
        return None
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return str(exc)
    return "refused"  # is_legal and apply disagree: the referee would notice


def _observed(state: Any, key: str) -> Any:
    if key == "to_act":
        return None if state.is_terminal() else state.current_player
    if key == "terminal":
        return state.is_terminal()
    if key == "phase":
        return state.phase
    if key == "returns":
        return list(state.returns())
    if key == "result":
        return state.results[-1] if state.results else None
    if key == "winner":
        return _last_winner(state)
    if key == "points":
        return _points(state)
    raise KeyError(key)


def _last_winner(state: Any) -> int | None:
    """The seat that won the last completed trick or round, else the hand's winner."""
    for event in reversed(state.log):
        if event.get("type") in ("trick", "round") and "winner" in event:
            return event["winner"]
    for result in reversed(state.results):
        if "winner" in result:
            return result["winner"]
        if result.get("order"):
            return result["order"][0]  # shedding: the first player out
    return None


def _points(state: Any) -> dict[Any, Any]:
    """Points captured so far: by seat where the engine counts seats (shedding), else
    the defenders' total (trick)."""
    if hasattr(state, "captured"):
        return dict(enumerate(state.captured))
    if hasattr(state, "defender_points"):
        return {"defenders": state.defender_points}
    return {}


def _mismatch(got: Any, want: Any, where: str) -> tuple[str, Any, Any] | None:
    """Where `got` fails to contain `want` (mappings by subset; seats as ints or texts):
    the sub-path, the wanted value and the one found."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return where, want, got
        for k, v in want.items():
            have = got.get(k, got.get(_int_key(k), _MISSING))
            sub = f"{where}[{k}]" if isinstance(_int_key(k), int) else f"{where}.{k}"
            if have is _MISSING:
                return sub, v, _MISSING
            wrong = _mismatch(have, v, sub)
            if wrong is not None:
                return wrong
        return None
    if got != want:
        return where, want, got
    return None


_MISSING = object()


def _int_key(k: Any) -> Any:
    try:
        return int(k)
    except (TypeError, ValueError):
        return k
