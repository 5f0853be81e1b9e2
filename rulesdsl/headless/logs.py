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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import load
from ..engine.base import Action, IllegalAction
from ..errors import RulesdslError, RulesetError
from ..model.ruleset import Ruleset

LOG_FORMAT = 1
# Actions whose content everyone at the table sees; the others show only their kind.
PUBLIC_ACTIONS = frozenset({"play", "pass", "declare", "bid", "claim", "discard", "chow",
                            "pung", "kong", "added_kong", "win"})


def state_digest(state) -> str:
    return hashlib.sha256(state.to_json().encode("utf-8")).hexdigest()


def play_game(ruleset, seed: int, agents: list, hands: int | None, log_path: str | None = None,
              agent_seed: int | None = None, view: int | None = None) -> Any:
    """Play one game with these agents; write the log if asked. Returns the final state.

    With `view=P` the log holds only what seat P could see: its observation after every
    action, and other seats' actions with hidden content left out. Such a log cannot be
    replayed by the referee."""
    options = {} if hands is None else {"hands": hands}
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
    n = 0
    while not state.is_terminal():
        seat = state.current_player
        action = agents[seat].act(state, rng)
        state.apply(action)
        n += 1
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
    """Re-check every action of a log against the rules. `ruleset_ref` overrides the
    header's ruleset: an id or path, or an already compiled Ruleset (a referee checking
    many logs compiles once and keeps the engine's caches warm); its hash must match."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return ReplayResult(False, f"{path}: no such log file")
    except (OSError, UnicodeDecodeError) as exc:
        return ReplayResult(False, f"{path}: cannot read the log ({exc})")
    records = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            return ReplayResult(False, f"{path}:{number}: not JSON ({exc.msg})", number)
        if not isinstance(record, dict) or "type" not in record:
            return ReplayResult(False, f"{path}:{number}: not a log record", number)
        records.append((number, record))
    if not records or records[0][1]["type"] != "header":
        return ReplayResult(False, f"{path}:1: the log has no header line", 1)
    _, header = records[0]
    if "view" in header:
        return ReplayResult(False, f"{path}:1: this is seat {header['view']}'s view of a game; "
                            "only a full log (written without --log-view) can be refereed", 1)
    if header.get("format") != LOG_FORMAT:
        return ReplayResult(False, f"{path}:1: log format {header.get('format')!r} is not "
                            f"supported (expected {LOG_FORMAT})", 1)
    try:
        ruleset = ruleset_ref if isinstance(ruleset_ref, Ruleset) else \
            load(ruleset_ref or header.get("ruleset", ""))
    except RulesetError as exc:
        return ReplayResult(False, f"{path}:1: cannot load the ruleset: {exc}", 1)
    if ruleset.hash != header.get("hash"):
        return ReplayResult(False, f"{path}:1: the log was written by another version of "
                            f"{header.get('ruleset')!r} (ruleset hash differs)", 1)
    seed, hands = header.get("seed"), header.get("hands")
    if not isinstance(seed, int) or (hands is not None and not isinstance(hands, int)):
        return ReplayResult(False, f"{path}:1: the header needs an integer seed", 1)
    state = ruleset.new_game(seed=seed, **({} if hands is None else {"hands": hands}))
    result = None
    checked = 0  # engine events compared so far
    last_action = 1
    for number, record in records[1:]:
        kind = record["type"]
        if kind == "event":
            # The recorded events must be the ones the rules produce (a referee's check that
            # catches a changed action even when the changed action is itself legal).
            expected = state.log[checked] if checked < len(state.log) else None
            if record.get("event") != expected:
                return ReplayResult(False, f"{path}:{last_action}: the game diverges here: "
                                    f"the rules give different events than the log records "
                                    f"(line {number})", last_action)
            checked += 1
            continue
        if kind == "action":
            last_action = number
            if state.is_terminal():
                return ReplayResult(False, f"{path}:{number}: an action after the end of the "
                                    "game", number)
            if record.get("seat") != state.current_player:
                return ReplayResult(False, f"{path}:{number}: seat {record.get('seat')} acts "
                                    f"but it is seat {state.current_player}'s turn", number)
            try:
                action = Action.parse(record.get("action"))
                state.apply(action)
            except IllegalAction as exc:
                return ReplayResult(False, f"{path}:{number}: illegal action: {exc.reason}",
                                    number)
            except RulesdslError as exc:
                return ReplayResult(False, f"{path}:{number}: {exc}", number)
        elif kind == "result":
            result = (number, record)
    if not state.is_terminal():
        return ReplayResult(False, f"{path}: the log ends before the game does",
                            records[-1][0])
    if result is not None:
        number, record = result
        if record.get("state_sha256") not in (None, state_digest(state)):
            return ReplayResult(False, f"{path}:{number}: the recorded result does not match "
                                "the replayed game", number)
    return ReplayResult(True, "every action is legal", None, state.returns())
