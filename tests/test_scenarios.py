"""Play scenarios and the static example kinds that came with them (issue 15).

Each deliberately wrong scenario must fail with a message naming the step that diverged,
located at that step's line; right ones must pass. Files are children of bundled rulesets
(`extends:`), so the positions are the real games'.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulesdsl.api import validate_file

ROOT = Path(__file__).resolve().parent.parent

# Small positions of each family, shared by the cases below.
GUAN = {"extends": "guan-pai", "head": 'hands: {0: "H4 H5 C9", 1: "S3 D9 DJ"}'}
# 对家统: its rule file counts a 5 as 5 points (points: {5: 5, 10: 10, K: 10})
DUI = {"extends": "wenling-duijia-tong",
       "head": 'hands: {0: "H5 C9", 1: "S6 D9", 2: "C3 D3", 3: "C4 D4"}\nturn: 0'}
BARE = {"extends": "guan-pai", "head": 'cite: "a test"'}
TRICK = {"extends": "huzhou-hong-wu",
         "head": 'context: {trump: H, level: 4}\n'
                 'hands: {0: "S6 S7 H9", 1: "S8 C9 C10", 2: "D2 D3 D5", 3: "C2 C3 C6"}\n'
                 'turn: 0'}
TILES = {"extends": "wenling-mahjong",
         "head": 'context: {turned: 9s}\n'
                 'hands:\n'
                 '  0: "8p 8p 9p 9p 1s 1s 2s 2s 4s 4s 5s 6s 7s 8s 1z 2z 7p"\n'
                 '  1: "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p"\n'
                 'turn: 0'}


def child(tmp_path: Path, base: dict[str, str], body: str, options: str = "") -> Path:
    """A rule file extending `base` with one scenario: its position, then `body`."""
    scenario = textwrap.indent(base["head"] + "\n" + textwrap.dedent(body).strip(), "    ")
    text = (f"language: 1\nid: scenario-test\nextends: {base['extends']}\n{options}"
            f"examples:\n  - scenario: \"a scenario under test\"\n{scenario}\n")
    path = tmp_path / "child.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    result = validate_file(path)
    return [p.format() for p in result.problems]


def line_of(path: Path, needle: str) -> int:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(needle)


# ---------------------------------------------------------------- passing scenarios


@pytest.mark.parametrize("base, body", [
    (GUAN, "expect: {to_act: 1}"),  # 「第一次为黑桃3先出」: the holder of S3 leads
    (GUAN, """
        actions: ["S3", "H5", "pass"]
        illegal: ["pass", {action: "DJ", reason: "hold"}]
        expect: {to_act: 0, winner: 0}"""),
    # the round's points (H5: 5) go to the seat whose play nobody beat
    (DUI, """
        actions: ["H5", "S6", "pass", "pass", "pass"]
        expect: {to_act: 1, winner: 1, points: {0: 0, 1: 5, 2: 0, 3: 0}}"""),
    (TRICK, """
        actions: ["S6"]
        legal: ["S8"]
        illegal: ["C9"]
        expect: {to_act: 1, phase: play}"""),
    (TRICK, """
        actions: ["S6", "S8", "D2", "C2"]
        expect: {to_act: 1, winner: 1, points: {defenders: 0}}"""),
    (TILES, """
        actions: ["discard 7p", "win 7p"]
        expect: {terminal: true, winner: 1, result: {winner: 1, discarder: 0}}"""),
])
def test_right_scenarios_pass(tmp_path: Path, base: dict, body: str) -> None:
    path = child(tmp_path, base, body)
    assert problems(path) == []
    report = validate_file(path).examples
    assert report is not None and report.passed == 1


# ---------------------------------------------------------------- failing scenarios


# (base, body, the line the problem is reported at (a substring of it), the message)
WRONG = [
    (GUAN, 'actions: ["S3", "H4 H5"]', '"H4 H5"',
     "examples[0].actions[1]: scenario fails: action 1 'H4 H5' was refused: "),
    (GUAN, 'actions: ["S3"]\nlegal: ["DJ"]', 'legal:',
     "examples[0].legal[0]: scenario fails: 'DJ' is refused for seat 0: "),
    (GUAN, 'actions: ["S3"]\nillegal: ["H4"]', 'illegal:',
     "examples[0].illegal[0]: scenario fails: 'H4' is legal for seat 0; expected refused"),
    (GUAN, 'actions: ["S3"]\nillegal: [{action: "C9 C9", reason: "tractor"}]', 'illegal:',
     "examples[0].illegal[0]: scenario fails: 'C9 C9' is refused, but for another reason"),
    (GUAN, 'actions: ["S3"]\nexpect: {to_act: 1}', 'expect:',
     "examples[0].expect.to_act: scenario fails: expected to_act 1, got 0"),
    (GUAN, 'actions: ["S3", "H5", "pass"]\nexpect: {winner: 1}', 'expect:',
     "examples[0].expect.winner: scenario fails: expected winner 1, got 0"),
    (DUI, 'actions: ["H5", "S6", "pass", "pass", "pass"]\nexpect: {points: {1: 10}}',
     'expect:', "examples[0].expect.points: scenario fails: expected points[1] 10, got 5"),
    (TRICK, 'actions: ["S6"]\nexpect: {terminal: true}', 'expect:',
     "examples[0].expect.terminal: scenario fails: expected terminal True, got False"),
    (TRICK, 'actions: ["S6"]\nexpect: {phase: over}', 'expect:',
     "examples[0].expect.phase: scenario fails: expected phase 'over', got 'play'"),
    (TILES, 'actions: ["discard 7p", "win 7p"]\nexpect: {result: {winner: 2}}', 'expect:',
     "examples[0].expect.result: scenario fails: expected result.winner 2, got 1"),
    (TILES, 'actions: ["discard 7p", "win 7p"]\nexpect: {returns: [0, 0, 0, 0]}', 'expect:',
     "examples[0].expect.returns: scenario fails: expected returns [0, 0, 0, 0], got "),
    (TILES, 'actions: ["discard 7p", "win 7p", "discard 1m"]', '"discard 1m"',
     "examples[0].actions[2]: scenario fails: action 2 'discard 1m': the hand is already "
     "over"),
]


@pytest.mark.parametrize("base, body, where, message", WRONG)
def test_a_wrong_scenario_names_the_step(tmp_path: Path, base: dict, body: str, where: str,
                                         message: str) -> None:
    path = child(tmp_path, base, body)
    found = problems(path)
    assert len(found) == 1, found
    text = found[0]
    assert message in text, text
    assert text.startswith(f"{path}:{line_of(path, where)}:"), text


def test_the_same_failure_in_every_output_format(tmp_path: Path) -> None:
    path = child(tmp_path, GUAN, 'actions: ["S3"]\nexpect: {to_act: 1}')
    line = line_of(path, "expect:")
    for fmt, needle in (("text", f"{path}:{line}:"), ("github", f"line={line}"),
                        ("json", f'"line": {line}')):
        proc = subprocess.run([sys.executable, "-m", "rulesdsl", "validate", "--format", fmt,
                               str(path)], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 1, (fmt, proc.stdout, proc.stderr)
        assert needle in proc.stdout and "expected to_act 1, got 0" in proc.stdout, fmt


# ---------------------------------------------------------------- malformed scenarios


@pytest.mark.parametrize("base, body, message", [
    (BARE, 'hands: {7: "S4"}\nexpect: {to_act: 0}', "no seat"),
    (BARE, 'hands: {0: "S1"}\nexpect: {to_act: 0}', "S1"),
    (GUAN, 'expect: {trick_count: 1}', "a scenario cannot expect 'trick_count'"),
    (GUAN, 'wall: "1m"\nexpect: {to_act: 1}', "'wall' is for tile scenarios"),
    (GUAN, 'actions: [""]', "is not an action"),
    (GUAN, 'turn: 1', "a scenario asserts nothing"),
])
def test_a_malformed_scenario_is_refused_at_compile_time(tmp_path: Path, base: dict,
                                                         body: str, message: str) -> None:
    found = problems(child(tmp_path, base, body))
    assert found and any(message in p for p in found), found


def test_a_position_the_engine_cannot_start_is_reported(tmp_path: Path) -> None:
    found = problems(child(tmp_path, TRICK, 'phase: auction\nactions: ["S6"]'))
    assert any("the position cannot be built" in p and "auction" in p for p in found), found


# ---------------------------------------------------------------- options compile variants


OFF = "options:\n  allow_full_house: {default: false, choices: [true, false]}\n"


def test_an_example_reads_a_pattern_switched_on_by_its_options(tmp_path: Path) -> None:
    # 六家统 with 三带二 switched off by default: an example that switches it on reads it
    path = tmp_path / "off.yaml"
    path.write_text("language: 1\nid: no-full-house\nextends: wenling-liujia-tong\n" + OFF
                    + "examples:\n"
                    "  - pattern: \"S8 H8 D8 S9 H9\"\n"
                    "    options: {allow_full_house: true}\n"
                    "    includes: [full_house]\n"
                    "  - pattern: \"S8 H8 D8 S9 H9\"\n"
                    "    excludes: [full_house]\n", encoding="utf-8")
    assert problems(path) == []


def test_without_the_option_the_pattern_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "off.yaml"
    path.write_text("language: 1\nid: no-full-house\nextends: wenling-liujia-tong\n" + OFF
                    + "examples:\n"
                    "  - pattern: \"S8 H8 D8 S9 H9\"\n"
                    "    includes: [full_house]\n", encoding="utf-8")
    found = problems(path)
    assert len(found) == 1 and "has no reading full_house" in found[0], found


# ---------------------------------------------------------------- static kinds


@pytest.mark.parametrize("example, message", [
    ('{deck: {size: 162, points: 300}}', None),  # 3 packs with jokers; 100 points a pack
    ('{deck: {size: 161}}', "the deck holds 162, not 161"),
    ('{deck: {absent: "BJ"}}', "the deck holds BJ"),
    ('{deck: {points: 200}}', "points add up to 300, not 200"),
    ('{order: "H3 > SK", context: {trump: H, level: 2}}', None),  # a trump above a plain card
    ('{order: "SK > H3", context: {trump: H, level: 2}}', "SK is a plain card, below every "
     "trump such as H3"),
    ('{order: "SK > DK", context: {trump: H, level: 2}}', "different suit-systems"),
    ('{pattern: "S6 S6 S7 S7", context: {trump: H, level: 2}, includes: [tractor], '
     'excludes: [pair]}', None),
    ('{pattern: "S6 S6 S7 S7", context: {trump: H, level: 2}, includes: [{name: tractor, '
     'size: 5}]}', "has no reading tractor (size 5)"),
    ('{pattern: "S6 S6", context: {trump: H, level: 2}, excludes: [pair]}',
     "reads as pair; expected it not to"),
])
def test_static_kinds(tmp_path: Path, example: str, message: str | None) -> None:
    path = tmp_path / "static.yaml"
    path.write_text("language: 1\nid: static-kinds\nextends: taicang-zhongxin-wu\n"
                    f"examples:\n  - {example}\n", encoding="utf-8")
    found = problems(path)
    if message is None:
        assert found == []
    else:
        assert len(found) == 1 and message in found[0], found


def test_a_bomb_size_is_asserted(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text("language: 1\nid: bomb-size\nextends: wenling-duijia-tong\nexamples:\n"
                    "  - {pattern: \"S8 H8 D8 C8\", includes: [{name: bomb, bomb_size: 4}]}\n"
                    "  - {pattern: \"S8 H8 D8 C8\", excludes: [{name: bomb, bomb_size: 5}]}\n",
                    encoding="utf-8")
    assert problems(path) == []


def test_check_runs_scenarios_from_an_examples_file(tmp_path: Path) -> None:
    examples = tmp_path / "play.yaml"
    examples.write_text("examples:\n  - scenario: \"the holder of S3 leads\"\n"
                        "    hands: {0: \"H4 H5 C9\", 1: \"S3 D9 DJ\"}\n"
                        "    expect: {to_act: 0}\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "check", "guan-pai", "--examples",
                           str(examples)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "expected to_act 0, got 1" in proc.stdout + proc.stderr


@pytest.mark.parametrize("hands, message", [
    ('{0: "BJ", 1: "S3"}', "the position holds 1 × BJ; the deck has 0"),  # 关牌 has no jokers
    ('{0: "S5 S5", 1: "S3"}', "the position holds 2 × S5; the deck has 1"),
])
def test_a_position_must_fit_the_deck(tmp_path: Path, hands: str, message: str) -> None:
    found = problems(child(tmp_path, BARE, f"hands: {hands}\nexpect: {{to_act: 1}}"))
    assert len(found) == 1 and message in found[0], found


def test_a_hand_in_play_after_an_auction_is_settled_at_its_bid(tmp_path: Path) -> None:
    # 斗地主: the landlord (seat 0, bid 3) goes out at once; each farmer pays the bid, doubled
    # by the spring (the file's payout table: the landlord gains 2 × bid × 2)
    base = {"extends": "dou-dizhu", "head": 'hands: {0: "S3", 1: "S4 S5", 2: "S6 S7"}\n'
                                            'dealer: 0\nbid: 3'}
    path = child(tmp_path, base, 'actions: ["S3"]\n'
                                 'expect: {terminal: true, winner: 0, returns: [12, -6, -6]}')
    assert problems(path) == []


def test_a_scenario_gives_every_context_value(tmp_path: Path) -> None:
    base = {"extends": "huzhou-hong-wu", "head": 'context: {trump: H}\n'
            'hands: {0: "S6", 1: "S8", 2: "D2", 3: "C2"}'}
    found = problems(child(tmp_path, base, 'actions: ["S6"]'))
    assert any("a scenario gives every context value" in p and "level" in p for p in found)


def test_a_level_off_the_ladder_is_refused(tmp_path: Path) -> None:
    # 湖州红五: 「其中3和5不打」 — 3 is no level
    base = {"extends": "huzhou-hong-wu", "head": 'context: {trump: H, level: 3}\n'
            'hands: {0: "S6", 1: "S8", 2: "D2", 3: "C2"}'}
    found = problems(child(tmp_path, base, 'actions: ["S6"]'))
    assert any("level 3 is not on the levels ladder" in p for p in found), found


def test_uneven_trick_hands_cannot_be_played_on(tmp_path: Path) -> None:
    base = {"extends": "huzhou-hong-wu", "head": 'context: {trump: H, level: 4}\n'
            'hands: {0: "S6 S7", 1: "S8", 2: "D2", 3: "C2"}\nturn: 0'}
    path = child(tmp_path, base, 'actions: ["S6", "S8", "D2", "C2", "S7", "pass"]')
    found = problems(path)
    assert len(found) == 1 and "has no legal action" in found[0], found
    assert found[0].startswith(f"{path}:{line_of(path, 'actions:')}:")


def test_a_tile_position_with_flowers_and_a_drawn_tile(tmp_path: Path) -> None:
    # seat 0 has just drawn the 7p that completes its hand: a self-drawn win on its turn
    base = {"extends": "wenling-mahjong", "head":
            'context: {turned: 9s}\n'
            'hands: {0: "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p 7p"}\n'
            'exposed_flowers: {0: "1f"}\ndrawn: 7p\nturn: 0'}
    path = child(tmp_path, base, 'legal: ["win"]')
    assert problems(path) == []
    bad = {**base, "head": base["head"].replace("drawn: 7p", "drawn: 8p")}
    found = problems(child(tmp_path, bad, 'legal: ["win"]'))
    assert any("does not hold its drawn tile 8p" in p for p in found), found
