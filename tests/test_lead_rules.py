"""Lead rules and obligations of the shedding family, stated as play scenarios.

Each rule file below is the same four-player partnership game but for one `play:`
setting; its scenarios (run by `validate`) show what the setting changes, and the
same scenario under the neighbouring setting shows that it really changes it:
接风 to the partner or to the next player, the must-beat rule, the rule that a single
must be the player's highest when the next player is down to one card, and patterns
kept for a player's last play.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulesdsl.api import validate_file

BASE = """\
language: 1
id: tiny-shed
family: shedding
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 1, jokers: true}
deal: {hand_size: 13, kitty: 2}
ranks:
  single: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2]
  run: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
order:
  - {name: big_joker, select: "card == BJ"}
  - {name: little_joker, select: "card == LJ"}
  - {name: ranks, select: "true", by: single}
patterns:
  sameness: rank
  list:
    - {name: single, group: 1}
    - {name: pair, group: 2}
    - {name: triple_with_one, parts: [{group: 3}, {group: 1}], key: 0, LAST}
    - {name: straight, run: {group: 1, length: 5, over: run}, by: run}
    - {name: bomb, group: 4, bomb: true}
play:
PLAY
examples:
SCENARIOS
"""

TAKEOVER = """\
  - scenario: "a player goes out and everyone passes: who leads"
    hands: {0: "S9", 1: "S4 S5", 2: "S6 S7", 3: "S3 S8"}
    turn: 0
    actions: ["S9", "pass", "pass", "pass"]
    expect: {to_act: WHO}
"""

MUST_BEAT = """\
  - scenario: "a player who can beat the play WORDS pass"
    hands: {0: "S5 S9", 1: "S6 S3", 2: "S7", 3: "S8"}
    turn: 0
    actions: ["S5"]
    LEGAL
"""

HIGHEST = """\
  - scenario: "the next player holds one card: a single WORDS the highest"
    hands: {0: "S5 S9 SK D9", 1: "S6", 2: "S7 S8", 3: "S3 S4"}
    turn: 0
    LEGAL
"""

LAST = """\
  - scenario: "three with one as the whole hand"
    hands: {0: "S5 H5 D5 S9", 1: "S6", 2: "S7 S8", 3: "S3 S4"}
    turn: 0
    legal: ["S5 H5 D5 S9"]
  - scenario: "three with one with cards left over"
    hands: {0: "S5 H5 D5 S9 SJ", 1: "S6", 2: "S7 S8", 3: "S3 S4"}
    turn: 0
    LEGAL
"""


def check(tmp_path: Path, play: str, scenarios: str, last_only: bool = False) -> list[str]:
    text = (BASE.replace("PLAY", textwrap.indent(play, "  "))
            .replace("SCENARIOS", scenarios)
            .replace(", LAST}", ", last_play_only: true}" if last_only else "}"))
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return [p.format() for p in validate_file(path).problems]


@pytest.mark.parametrize("takeover,who", [("partner", 2), ("next_player", 1)])
def test_takeover_goes_to_the_partner_or_the_next_player(tmp_path, takeover, who) -> None:
    # 掼蛋's 接风: the partner; 对家统's: 「由那个玩家的下家先出牌」.
    assert check(tmp_path, f"takeover: {takeover}\n",
                 TAKEOVER.replace("WHO", str(who))) == []
    wrong = 1 if who == 2 else 2
    assert check(tmp_path, f"takeover: {takeover}\n", TAKEOVER.replace("WHO", str(wrong)))


def test_partner_takeover_falls_back_to_the_next_player_when_the_partner_is_out(tmp_path):
    scenario = """\
  - scenario: "partner already out: the next player leads"
    hands: {0: "S9 SJ", 1: "S4 S5", 2: "S10", 3: "S3 S8"}
    turn: 0
    # 2 (0's partner) goes out on S10; 0 goes out on SJ; 1 and 3 pass
    actions: ["S9", "pass", "S10", "pass", "SJ", "pass", "pass"]
    expect: {to_act: 1}
"""
    assert check(tmp_path, "takeover: partner\nends: [one_left]\n", scenario) == []


def test_must_beat(tmp_path) -> None:
    forced = MUST_BEAT.replace("WORDS", "may not").replace(
        "LEGAL", 'legal: ["S6"]\n    illegal: [{action: "pass", reason: "must"}]')
    assert check(tmp_path, "must_beat: true\n", forced) == []
    free = MUST_BEAT.replace("WORDS", "may").replace("LEGAL", 'legal: ["pass", "S6"]')
    assert check(tmp_path, "must_beat: false\n", free) == []
    assert check(tmp_path, "must_beat: false\n", forced)  # the rule is what forces it


def test_highest_single_when_the_next_player_holds_one_card(tmp_path) -> None:
    forced = HIGHEST.replace("WORDS", "must be").replace(
        "LEGAL", 'legal: ["SK", "S9 D9"]\n    illegal: [{action: "S5", reason: "highest"}]')
    assert check(tmp_path, 'highest_single: "next_left == 1"\n', forced) == []
    free = HIGHEST.replace("WORDS", "need not be").replace("LEGAL", 'legal: ["S5", "SK"]')
    assert check(tmp_path, 'highest_single: "next_left == 2"\n', free) == []
    assert check(tmp_path, "takeover: next_player\n", forced)


def test_a_pattern_kept_for_the_last_play(tmp_path) -> None:
    kept = LAST.replace("LEGAL", 'illegal: [{action: "S5 H5 D5 S9", reason: "last play"}]')
    assert check(tmp_path, "takeover: next_player\n", kept, last_only=True) == []
    anywhere = LAST.replace("LEGAL", 'legal: ["S5 H5 D5 S9"]')
    assert check(tmp_path, "takeover: next_player\n", anywhere, last_only=False) == []
    assert check(tmp_path, "takeover: next_player\n", kept, last_only=False)


def test_a_trick_file_cannot_keep_a_pattern_for_the_last_play(tmp_path) -> None:
    trick = Path(__file__).parent / "broken" / "alternate_rank_not_a_rank.yaml"
    text = trick.read_text(encoding="utf-8").replace(
        "    - {name: pair, group: 2}", "    - {name: pair, group: 2, last_play_only: true}")
    path = tmp_path / "trick.yaml"
    path.write_text(text, encoding="utf-8")
    assert any("does not play patterns kept for a last play" in p.message
               for p in validate_file(path).problems)


NEXT_LEAD = """\
  - scenario: "after the last hand WHY"
    last_order: ORDER
    hands: {0: "S9", 1: "S4 S5", 2: "S6 S7", 3: "S3 S8"}
    expect: {to_act: WHO}
"""


@pytest.mark.parametrize("order,who,why", [
    ([0, 2, 1, 3], 0, "a side took first and second: its first out leads"),
    ([0, 1, 2, 3], 3, "anything else: the holder of ♠3 leads"),
])
def test_the_next_leader_decided_by_the_last_hand(tmp_path, order, who, why) -> None:
    table = """\
tables:
  next_lead:
    input: [mate_place]
    output: {lead: [first_out, holder]}
    rows:
      - {when: "mate_place == 2", lead: first_out}
      - {when: "true", lead: holder}
"""
    play = "then_lead: {table: next_lead}\nholder: [S3]\n"
    scenario = NEXT_LEAD.replace("ORDER", str(order)).replace("WHO", str(who)).replace(
        "WHY", why)
    text = (BASE.replace("play:\n", table + "play:\n").replace(
        "PLAY", textwrap.indent(play, "  ")).replace("SCENARIOS", scenario)
            .replace(", LAST}", "}"))
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    assert [p.format() for p in validate_file(path).problems] == []
    # the same scenario with the other leader fails: the table decides
    path.write_text(text.replace(f"to_act: {who}", f"to_act: {3 - who}"), encoding="utf-8")
    assert validate_file(path).problems
