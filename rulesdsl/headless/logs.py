"""Game logs as JSON Lines, and the referee that replays them.

Line 1 is a header (ruleset id, version and hash, seed, hands, agents); then one
line per applied action (`seat`, the action's JSON form) followed by the engine's
events it caused; the last line is the result (returns and a hash of the final
state). A log holds hidden information: it is a referee's record.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import load
from ..compiler.files import (
    DuplicateKey,
    compile_file,
    no_duplicate_keys,
    read_bounded,
    resolve_confined,
)
from ..engine.base import Action, IllegalAction
from ..errors import RulesdslError, RulesetError
from ..model.ruleset import Ruleset

LOG_FORMAT = 1
RECORD_TYPES = ("header", "event", "action", "result", "observation")
MAX_LOG_BYTES = 256 << 20  # a log is the referee's input: bounded like a rule file
MAX_HANDS = 10_000
# Actions whose content everyone at the table sees; the others show only their kind.
PUBLIC_ACTIONS = frozenset({"play", "pass", "declare", "bid", "claim", "discard", "chow",
                            "pung", "kong", "added_kong", "win"})


def state_digest(state) -> str:
    return hashlib.sha256(state.to_json().encode("utf-8")).hexdigest()


def play_game(ruleset, seed: int, agents: list, hands: int | None, log_path: str | None = None,
              agent_seed: int | None = None, view: int | None = None,
              watch: Callable[[Any, list[dict[str, Any]]], None] | None = None) -> Any:
    """Play one game with these agents; write the log if asked. Returns the final state.

    With `view=P` the log holds only what seat P could see: its observation after every
    action, and other seats' actions with hidden content left out. Such a log cannot be
    replayed by the referee. `watch(state, new_events)` is called with the deal's events
    and after every action (a narrator telling the game as it happens)."""
    # hands None: a whole match where the ruleset has one (levels), else the engine's default
    options = {} if hands is None and ruleset.levels is None else {"hands": hands}
    state = ruleset.new_game(seed=seed, **options)
    rng = random.Random(f"agents/{seed if agent_seed is None else agent_seed}")
    header = {"type": "header", "format": LOG_FORMAT, "ruleset": ruleset.id,
              "version": ruleset.version, "hash": ruleset.hash, "seed": seed, "hands": hands,
              "agents": [a.name for a in agents]}
    if view is not None:
        if not 0 <= view < ruleset.players:
            raise RulesdslError(f"no seat {view}; seats are 0..{ruleset.players - 1}")
        header["view"] = view
        del header["seed"]  # the seed fixes every shuffle: with it a seat could rebuild the deal
    lines: list[dict[str, Any]] = [header]
    seen = len(state.log)
    if view is None:
        for event in state.log:
            lines.append({"type": "event", "event": event})
    else:
        lines.append({"type": "observation", "observation": state.observation(view)})
    if watch is not None:
        watch(state, state.log[:seen])
    n = 0
    while not state.is_terminal():
        seat = state.current_player
        action = agents[seat].act(state, rng)
        state.apply(action)
        n += 1
        if watch is not None:
            watch(state, state.log[seen:])
        shown = action.to_json()
        if view is not None and seat != view and action.kind not in PUBLIC_ACTIONS:
            shown = {"type": action.kind}
        lines.append({"type": "action", "n": n, "seat": seat, "action": shown})
        if view is None:
            for event in state.log[seen:]:
                lines.append({"type": "event", "event": event})
        else:
            lines.append({"type": "observation", "observation": state.observation(view)})
        seen = len(state.log)
    result = {"type": "result", "returns": state.returns(), "actions": n}
    if view is None:
        result["state_sha256"] = state_digest(state)
    lines.append(result)
    if log_path is not None:
        with open(log_path, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    return state


@dataclass
class ReplayResult:
    ok: bool
    message: str
    line: int | None = None
    returns: list[float] | None = None


def replay(path: str, ruleset_ref: str | Ruleset | None = None) -> ReplayResult:
    """Re-check a whole log against the rules: the header, every action, every event the
    engine emits (none missing, none added), and the result line. `ruleset_ref` overrides
    the header's ruleset: an id or path, or an already compiled Ruleset (a referee checking
    many logs compiles once and keeps the engine's caches warm); its hash must match. A
    header's own ruleset is a bundled id or a file inside the log's folder."""
    log_path = Path(path)
    try:
        data = read_bounded(log_path, MAX_LOG_BYTES)
    except RulesetError as exc:
        return ReplayResult(False, f"{path}: cannot read the log ({exc.problems[0].message})")
    records = []
    for number, line in enumerate(data.split(b"\n"), 1):
        try:
            raw = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return ReplayResult(False, f"{path}:{number}: not UTF-8 text ({exc.reason})",
                                number)
        if not raw.strip():
            continue
        try:
            record = json.loads(raw, object_pairs_hook=no_duplicate_keys)
        except DuplicateKey as exc:
            return ReplayResult(False, f"{path}:{number}: the key {exc.key!r} is given twice",
                                number)
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
            return ReplayResult(False, f"{path}:{number}: not JSON ({why})", number)
        if not isinstance(record, dict) or record.get("type") not in RECORD_TYPES:
            return ReplayResult(False, f"{path}:{number}: not a log record (a record's type "
                                f"is one of {', '.join(RECORD_TYPES)})", number)
        records.append((number, record))
    if not records or records[0][1]["type"] != "header":
        return ReplayResult(False, f"{path}:1: the log has no header line", 1)
    first, header = records[0]

    def fail(number: int, message: str) -> ReplayResult:
        return ReplayResult(False, f"{path}:{number}: {message}", number)

    if "view" in header:
        return fail(first, f"this is seat {header['view']}'s view of a game; only a full log "
                    "(written without --log-view) can be refereed")
    if type(header.get("format")) is not int or header.get("format") != LOG_FORMAT:
        return fail(first, f"log format {header.get('format')!r} is not supported (expected "
                    f"{LOG_FORMAT})")
    try:
        if isinstance(ruleset_ref, Ruleset):
            ruleset = ruleset_ref
        elif ruleset_ref is not None:
            ruleset = load(ruleset_ref)
        else:
            named = header.get("ruleset")
            if not isinstance(named, str) or not named:
                return fail(first, "the header names no ruleset")
            ruleset = compile_file(resolve_confined(named, log_path.parent))
    except PermissionError:
        return fail(first, "the header's ruleset is outside the log's folder (name a bundled "
                    "id, a file beside the log, or pass --ruleset)")
    except KeyError:
        return fail(first, f"cannot load the ruleset: no ruleset named "
                    f"{header.get('ruleset')!r}")
    except RulesetError as exc:
        return fail(first, f"cannot load the ruleset: {exc}")
    if ruleset.hash != header.get("hash"):
        return fail(first, f"the log was written by another version of "
                    f"{header.get('ruleset')!r} (ruleset hash differs)")
    seed, hands = header.get("seed"), header.get("hands")
    if type(seed) is not int or not 0 <= seed < 2 ** 63:
        return fail(first, "the header needs a whole-number seed")
    if hands is not None and (type(hands) is not int or not 1 <= hands <= MAX_HANDS):
        return fail(first, f"the header's hands must be a whole number from 1 to {MAX_HANDS}")
    try:
        state = ruleset.new_game(seed=seed, **({} if hands is None and ruleset.levels is None
                                               else {"hands": hands}))
    except RulesdslError as exc:
        return fail(first, f"the header's game cannot start: {exc}")
    checked = 0  # engine events matched so far
    where = first  # the line whose events are being matched
    actions = 0
    result: tuple[int, dict[str, Any]] | None = None
    for number, record in records[1:]:
        kind = record["type"]
        if result is not None:
            return fail(number, "a record after the result line")
        if kind == "header":
            return fail(number, "a second header")
        if kind == "event":
            # The recorded events must be the ones the rules produce, in order: a referee's
            # check that catches a changed action even when the changed action is legal.
            expected = state.log[checked] if checked < len(state.log) else None
            if expected is None:
                return fail(number, f"an event the rules do not produce here (after line "
                            f"{where})")
            if _canonical(record.get("event")) != _canonical(expected):
                return fail(where, f"the game diverges here: the rules give other events "
                            f"than the log records (line {number})")
            checked += 1
            continue
        if checked < len(state.log):
            return fail(number, f"the log leaves out {len(state.log) - checked} event(s) the "
                        f"rules produce after line {where}")
        if kind == "action":
            actions += 1
            if type(record.get("n")) is not int or record.get("n") != actions:
                return fail(number, f"action number {record.get('n')!r}; expected {actions}")
            if state.is_terminal():
                return fail(number, "an action after the end of the game")
            if type(record.get("seat")) is not int or record.get("seat") != state.current_player:
                return fail(number, f"seat {record.get('seat')!r} acts but it is seat "
                            f"{state.current_player}'s turn")
            try:
                action = Action.parse(record.get("action"))
                state.apply(action)
            except IllegalAction as exc:
                return fail(number, f"illegal action: {exc.reason}")
            except RulesdslError as exc:
                return fail(number, str(exc))
            where = number
        elif kind == "result":
            result = (number, record)
        else:  # an observation belongs to a seat's view, never to a referee's log
            return fail(number, f"a {kind} record has no place in a full log")
    if not state.is_terminal():
        return fail(records[-1][0], "the log ends before the game does")
    if checked < len(state.log):
        return fail(records[-1][0], f"the log leaves out {len(state.log) - checked} event(s) "
                    f"the rules produce after line {where}")
    if result is None:
        return fail(records[-1][0], "the log has no result line")
    number, record = result
    if type(record.get("actions")) is not int or record.get("actions") != actions:
        return fail(number, f"the result counts {record.get('actions')!r} actions; the log "
                    f"has {actions}")
    if _canonical(record.get("returns")) != _canonical(state.returns()):
        return fail(number, f"the result's returns {record.get('returns')!r} are not the "
                    f"game's {state.returns()}")
    if record.get("state_sha256") != state_digest(state):
        return fail(number, "the result's state_sha256 does not match the replayed game"
                    + ("" if "state_sha256" in record else " (it has none)"))
    return ReplayResult(True, "every action is legal; every event and the result are the "
                        "game's", None, state.returns())


def _canonical(value: Any) -> str:
    """A value as JSON text: `false` is not `0` and `1.0` is not `1` (Python's == says
    they are, and a referee must not)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
