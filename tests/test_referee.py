"""The referee proves a whole game, not only the lines it is shown (issue 19).

A log is the header, every action, every event the engine emits and the result line;
each tampering below must be refused at the first wrong line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.headless.agents import make_agents
from rulesdsl.headless.logs import play_game, replay

RULESETS = ["guan-pai", "wenling-mahjong", "huzhou-hong-wu"]


def log_records(tmp_path: Path, name: str) -> list[dict]:
    ruleset = rulesdsl.load(name)
    log = tmp_path / "g.jsonl"
    play_game(ruleset, 5, make_agents("random", ruleset.players), 1, str(log))
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def referee(tmp_path: Path, records: list[dict]):
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return replay(str(path))


def index_of(records: list[dict], kind: str, last: bool = False) -> int:
    found = [i for i, r in enumerate(records) if r["type"] == kind]
    return found[-1] if last else found[0]


def drop_events(records: list[dict]) -> tuple[list[dict], int]:
    kept = [r for r in records if r["type"] != "event"]
    return kept, index_of(kept, "action")  # the first action's events are missing


def drop_result(records: list[dict]) -> tuple[list[dict], int]:
    return records[:-1], len(records) - 2


def drop_last_event(records: list[dict]) -> tuple[list[dict], int]:
    # the hand's end (hand_end, or a drawn hand's last event)
    i = max(j for j, r in enumerate(records) if r["type"] == "event")
    out = records[:i] + records[i + 1:]
    return out, index_of(out, "result")


def forge_returns(records: list[dict]) -> tuple[list[dict], int]:
    out = [dict(r) for r in records]
    out[-1]["returns"] = [x + 1 for x in out[-1]["returns"]]
    return out, len(out) - 1


def forge_digest(records: list[dict]) -> tuple[list[dict], int]:
    out = [dict(r) for r in records]
    out[-1]["state_sha256"] = "0" * 64
    return out, len(out) - 1


def no_digest(records: list[dict]) -> tuple[list[dict], int]:
    out = [dict(r) for r in records]
    del out[-1]["state_sha256"]
    return out, len(out) - 1


def unknown_record(records: list[dict]) -> tuple[list[dict], int]:
    i = index_of(records, "action")
    return records[:i] + [{"type": "comment", "text": "trust me"}] + records[i:], i


def second_header(records: list[dict]) -> tuple[list[dict], int]:
    i = index_of(records, "action")
    return records[:i] + [records[0]] + records[i:], i


def changed_n(records: list[dict]) -> tuple[list[dict], int]:
    out = [dict(r) for r in records]
    i = index_of(out, "action", last=True)
    out[i]["n"] += 5
    return out, i


def bad_hands(records: list[dict]) -> tuple[list[dict], int]:
    out = [dict(r) for r in records]
    out[0]["hands"] = -3
    return out, 0


def extra_event(records: list[dict]) -> tuple[list[dict], int]:
    i = index_of(records, "result")
    return records[:i] + [{"type": "event", "event": {"type": "bonus", "seat": 0}}] \
        + records[i:], i


def record_after_result(records: list[dict]) -> tuple[list[dict], int]:
    return records + [records[index_of(records, "action")]], len(records)


TAMPERINGS: list[tuple[str, Callable, str]] = [
    ("every event deleted", drop_events, "leaves out"),
    ("the result line dropped", drop_result, "no result line"),
    ("the hand's last event dropped", drop_last_event, "leaves out 1 event"),
    ("forged returns", forge_returns, "returns"),
    ("forged state digest", forge_digest, "state_sha256 does not match"),
    ("no state digest", no_digest, "it has none"),
    ("an unknown record type", unknown_record, "not a log record"),
    ("a second header", second_header, "a second header"),
    ("a changed action number", changed_n, "action number"),
    ("a bad hands count in the header", bad_hands, "hands must be"),
    ("an event the rules never produce", extra_event, "do not produce"),
    ("a record after the result", record_after_result, "after the result line"),
]


@pytest.mark.parametrize("name", RULESETS)
def test_an_honest_log_passes(tmp_path: Path, name: str) -> None:
    result = referee(tmp_path, log_records(tmp_path, name))
    assert result.ok, result.message


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("what, tamper, fragment", TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_tampered_log_is_refused_at_its_first_wrong_line(tmp_path: Path, name: str,
                                                           what: str, tamper: Callable,
                                                           fragment: str) -> None:
    records, wrong = tamper(log_records(tmp_path, name))
    result = referee(tmp_path, records)
    assert not result.ok, what
    assert fragment in result.message, result.message
    assert result.line == wrong + 1, (what, result.message)
