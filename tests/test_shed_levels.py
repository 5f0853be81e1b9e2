"""Levels and matches in the shedding family, on a small 掼蛋-like rule file.

Each side has a level; a hand is played at the level of the side that won the last hand
(the first at the start level); the level card stands just below the jokers in the order
and only the heart of the level is wild; the side of the first player out climbs as the
climb table says from the best place of the first out's partner (掼蛋: 2nd +3, 3rd +2,
4th +1); a side at the top wins the match by a hand climbing at least win_at_top.
Checked against the results of whole seeded matches, and by scenarios in the file.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl import notation as nt
from rulesdsl.api import load, validate_file

TEXT = """\
language: 1
id: little-guandan
family: shedding
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 2, jokers: true}
deal: {hand_size: 27, kitty: 0}
context:
  level: {type: rank, ladder: levels}
ranks:
  single: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  run: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  levels: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
order:
  - {name: big_joker, select: "card == BJ"}
  - {name: little_joker, select: "card == LJ"}
  - {name: level_card, select: "rank == level"}
  - {name: ranks, select: "true", by: single}
wilds:
  - {name: heart_level, select: "suit == H and rank == level", stands_for: "not is_joker"}
patterns:
  sameness: rank
  list:
    - {name: single, group: 1}
    - {name: pair, group: 2}
    - {name: triple, group: 3}
    - {name: straight, run: {group: 1, length: 5, over: run}, by: run}
    - {name: bomb, group: {min: 4}, where: "not is_joker", bomb: true}
levels:
  ladder: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  start: 2
tables:
  climb:
    input: [mate_place]
    output: {levels: int}
    rows:
      - {when: "mate_place == 2", levels: 3}
      - {when: "mate_place == 3", levels: 2}
      - {when: "true", levels: 1}
play:
  first_lead: random
  then_lead: first_out
  takeover: partner
  ends: [one_left]
  climb: climb
  win_at_top: 2
examples:
  - order: "BJ > LJ > S7 > SA > SK"
    context: {level: 7}
    note: "the level card stands just below the jokers"
  - pattern: "S9 H7"
    context: {level: 7}
    expect: pair
    note: "♥7 is wild at level 7"
  - pattern: "S9 D7"
    context: {level: 7}
    expect: none
  - pattern: "S5 S6 S7 S8 S9"
    context: {level: 7}
    expect: straight
    note: "in a run the level card stands at its natural place"
  - table: climb
    input: {mate_place: 2}
    expect: {levels: 3}
  - scenario: "at level 7 a seven beats an ace"
    context: {level: 7}
    hands: {0: "SA S3", 1: "S7 S4", 2: "S5", 3: "S6"}
    turn: 0
    actions: ["SA"]
    legal: ["pass", "S7"]
    illegal: [{action: "S4", reason: "does not beat"}]
  - scenario: "the wild heart seven makes a pair with any card"
    context: {level: 7}
    hands: {0: "S9 H7 S3", 1: "S4", 2: "S5", 3: "S6"}
    turn: 0
    legal: ["S9 H7", "S3 H7"]
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("lg")) / "little-guandan.yaml"
    path.write_text(TEXT, encoding="utf-8")
    return load(path)


def test_the_file_and_its_scenarios(ruleset) -> None:
    result = validate_file(ruleset.document.file)
    assert result.ok, [p.format() for p in result.problems]


def expected_climb(mate_place: int) -> int:
    return {2: 3, 3: 2}.get(mate_place, 1)


LADDER = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, nt.ACE]


@pytest.mark.parametrize("seed", range(3))
def test_a_match_climbs_by_the_table_and_ends_past_the_top(ruleset, seed) -> None:
    state = ruleset.new_game(seed=seed, hands=None)
    rng = random.Random(seed)
    levels = [2, 2]
    hand_level = 2
    hands = 0
    while not state.is_terminal():
        hand = state.hand_no
        assert state.level == hand_level
        while not state.is_terminal() and state.hand_no == hand:
            state.apply(state.sample_action(rng))
        result = state.results[-1]
        hands += 1
        first = result["order"][0]
        side = first % 2
        mate = (first + 2) % 4
        climb = expected_climb(result["places"][mate])
        assert result["climb"]["side"] == side and result["climb"]["levels"] == climb
        at = LADDER.index(levels[side])
        if at == len(LADDER) - 1 and climb >= 2:
            assert result["match_winner"] == side
            assert state.is_terminal()
            winners = {side, side + 2}
            assert state.returns() == [1.0 if s in winners else -1.0 for s in range(4)]
            break
        levels[side] = LADDER[min(at + climb, len(LADDER) - 1)]
        hand_level = levels[side]
        assert "match_winner" not in result
        assert state.side_levels == levels
    assert state.is_terminal() and hands >= 5


def test_a_saved_match_restores_its_levels(ruleset) -> None:
    state = ruleset.new_game(seed=4, hands=None)
    rng = random.Random(4)
    while state.hand_no < 2:
        state.apply(state.sample_action(rng))
    text = state.to_json()
    back = ruleset.state_from_json(text)
    assert back.to_json() == text and back.level == state.level
    assert [str(a) for a in back.legal_actions()] == [str(a) for a in state.legal_actions()]
    import json

    forged = json.loads(text)
    forged["level"] = 99
    from rulesdsl.errors import RulesdslError

    with pytest.raises(RulesdslError, match="is not a level"):
        ruleset.state_from_json(json.dumps(forged))


def test_levels_need_a_climb_table_and_a_level_context(tmp_path) -> None:
    path = tmp_path / "no-climb.yaml"
    path.write_text(TEXT.replace("  climb: climb\n", ""), encoding="utf-8")
    assert any("how far a side climbs" in p.message for p in validate_file(path).problems)
    path.write_text(TEXT.replace("context:\n  level: {type: rank, ladder: levels}\n", "")
                    .replace("rank == level", "rank == 7").replace(
                        "suit == H and rank == level", "card == H7"), encoding="utf-8")
    found = [p.message for p in validate_file(path, run_examples_too=False).problems]
    assert any("level as a context value" in m for m in found), found


def test_a_climb_stops_at_a_must_stop_level(tmp_path) -> None:
    path = tmp_path / "stops.yaml"
    path.write_text(TEXT.replace("  start: 2\ntables:", "  start: 2\n  must_stop: [5]\ntables:"),
                    encoding="utf-8")
    state = load(path).new_game(seed=0, hands=None)
    # side 0 (seats 0 and 2) at 3 wins with the partner second: +3 would pass 5
    state.side_levels = [3, 2]
    result = {"order": [0, 2, 1, 3], "returns": [0.0] * 4}
    assert state._climb(result) is False
    assert state.side_levels == [5, 2]
    assert result["climb"] == {"side": 0, "levels": 3, "from": "3", "to": "5"}
    # from 5 the same win climbs on to 8
    state._climb(result)
    assert state.side_levels == [8, 2]


def test_a_side_failing_at_the_top_goes_back_to_the_start(tmp_path) -> None:
    """top_failures: 3 — a hand played at a side's own level A that does not win it the
    match is one failure (not necessarily in a row); the third sends it back to 2."""
    path = tmp_path / "fails.yaml"
    path.write_text(TEXT.replace("  win_at_top: 2\n", "  win_at_top: 2\n  top_failures: 3\n"),
                    encoding="utf-8")
    rs = load(path)
    drops = failures_seen = 0
    for seed in range(8):
        state = rs.new_game(seed=seed, hands=None)
        rng = random.Random(seed)
        levels, failed, owner = [2, 2], [0, 0], None
        while not state.is_terminal():
            hand = state.hand_no
            hand_level = 2 if owner is None else levels[owner]
            assert state.level == hand_level
            while not state.is_terminal() and state.hand_no == hand:
                state.apply(state.sample_action(rng))
            result = state.results[-1]
            first = result["order"][0]
            side = first % 2
            climb = expected_climb(result["places"][(first + 2) % 4])
            at = LADDER.index(levels[side])
            won = at == len(LADDER) - 1 and climb >= 2
            if not won:
                levels[side] = LADDER[min(at + climb, len(LADDER) - 1)]
            if owner is not None and not won and hand_level == nt.ACE:
                failed[owner] += 1
                failures_seen += 1
                assert result["top_failure"]["side"] == owner
                assert result["top_failure"]["failures"] == failed[owner]
                if failed[owner] == 3:
                    levels[owner], failed[owner] = 2, 0
                    drops += 1
                    assert result["top_failure"]["back_to"] == "2"
            else:
                assert "top_failure" not in result
            assert state.side_levels == levels and state.top_failed == failed
            owner = side
    assert failures_seen >= 5 and drops >= 1, (failures_seen, drops)
    # A saved match keeps the counts; a forged count is refused.
    import json

    from rulesdsl.errors import RulesdslError

    text = state.to_json()
    assert rs.state_from_json(text).top_failed == state.top_failed
    forged = json.loads(text)
    forged["top_failed"] = [3, 0]
    with pytest.raises(RulesdslError, match="is not a count of failures"):
        rs.state_from_json(json.dumps(forged))
