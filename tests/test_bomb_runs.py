"""Runs of bombs whose steps may differ, and bombs ranked by a computed grade.

A small 双扣-like file (two packs, four players): a bomb of N cards is graded N (N线); three
or more bombs of consecutive ranks make a run of bombs (连炸), graded by its number of steps
plus the cards of its smallest step (yxnetw.com: 「连炸的组数x加上连炸中最小炸弹的线数y，即为连炸的
大小」 — steps may hold different numbers of cards); bombs compare by grade, then by rank
(a run by its top step's rank: both on one ladder).
Checked by the file's examples and scenarios, and against a judge written here from those
rules alone: every lead and every answer the engine lists over seeded deals.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

from rulesdsl import notation as nt
from rulesdsl.api import load, validate_file

TEXT = """\
language: 1
id: little-shuangkou
family: shedding
options:
  run_steps:
    default: any
    choices: [any, equal]
    doc: "any: the steps of a run of bombs may hold different numbers of cards; equal: not."
players: {count: 4, direction: counter-clockwise, teams: opposite}
deck: {decks: 2, jokers: true}
deal: {hand_size: 27, kitty: 0}
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
    - {name: triple, group: 3}
    - {name: bomb, group: {min: 4}, where: "not is_joker", by: single, bomb: true,
       grade: "size"}
    - name: bomb_run
      run: {group: {min: 4, max: 8}, length: {min: 3, max: 6}, over: run}
      where: "not is_joker"
      by: single
      bomb: true
      grade: "length + step"
      enabled: "run_steps == 'any'"
    - name: equal_bomb_run
      run: {group: {min: 4, max: 8}, length: {min: 3, max: 6}, over: run, steps: equal}
      where: "not is_joker"
      by: single
      bomb: true
      grade: "length + step"
      enabled: "run_steps == 'equal'"
play:
  first_lead: random
  then_lead: first_out
  takeover: partner
  ends: [one_left, team_out]
examples:
  - pattern: "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6"
    includes: [{name: bomb_run, size: 12, bomb_size: 7}]
    note: "three steps of four: 3 + 4 = 7"
  - pattern: "S4 H4 D4 C4 S5 H5 D5 C5 D5 S6 H6 D6 C6 C6 H6"
    includes: [{name: bomb_run, size: 15, bomb_size: 7}]
    note: "steps of 4, 5 and 6: graded by the smallest, 3 + 4 = 7"
  - pattern: "S4 H4 D4 C4 S5 H5 D5 C5 D5 S6 H6 D6 C6 C6 H6"
    options: {run_steps: equal}
    expect: none
    note: "with equal steps, 4 + 5 + 6 is no run"
  - pattern: "S4 H4 D4 C4 S5 H5 D5 C5"
    expect: none
    note: "two bombs in a row are no run"
  - pattern: "SA HA DA CA S2 H2 D2 C2 S3 H3 D3 C3"
    expect: bomb_run
    note: "A-2-3: the ace plays low"
  - beats: "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6"
    over: "S9 H9 D9 C9 S9 H9"
    expect: true
    note: "a run graded 7 beats a six-card bomb"
  - beats: "S3 H3 D3 C3 S3 H3 D3"
    over: "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6"
    expect: false
    note: "equal grades compare by rank: a bomb of 3s under a run topped by 6"
  - beats: "S9 H9 D9 C9 S9 H9 D9"
    over: "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6"
    expect: true
    note: "equal grades compare by rank: a bomb of 9s over a run topped by 6"
  - beats: "S8 H8 D8 C8 S9 H9 D9 C9 S10 H10 D10 C10 SJ HJ DJ CJ"
    over: "S3 H3 D3 C3 S3 H3 D3 C3"
    expect: true
    note: "four steps of four (8) over an eight-card bomb of a lower rank"
  - scenario: "a run of bombs answers a six-card bomb; a higher seven-card bomb answers it"
    hands:
      0: "S9 H9 D9 C9 S9 H9 S3"
      1: "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6 SK"
      2: "SQ"
      3: "S8 H8 D8 C8 S8 H8 D8 SJ"
    turn: 0
    actions: ["S9 H9 D9 C9 S9 H9", "S4 H4 D4 C4 S5 H5 D5 C5 S6 H6 D6 C6", "pass"]
    expect: {actions: ["pass", "S8 H8 D8 C8 S8 H8 D8"]}
"""

SINGLE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, nt.ACE, 2]
RUN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, nt.ACE]


@pytest.fixture(scope="module")
def path(tmp_path_factory) -> Path:
    p = Path(tmp_path_factory.mktemp("sk")) / "little-shuangkou.yaml"
    p.write_text(TEXT, encoding="utf-8")
    return p


def test_the_file_and_its_examples(path) -> None:
    result = validate_file(path)
    assert result.ok, [p.format() for p in result.problems]


def judge(counts: dict[int, int], equal: bool) -> tuple[float, int] | None:
    """(grade, rank place) of these rank counts as a bomb or a run of bombs, else None."""
    if any(r in (nt.LJ_RANK, nt.BJ_RANK) for r in counts):
        return None
    if len(counts) == 1:
        (rank, n), = counts.items()
        return (n, SINGLE.index(rank)) if n >= 4 else None
    if not 3 <= len(counts) <= 6 or min(counts.values()) < 4 or max(counts.values()) > 8:
        return None
    if equal and len(set(counts.values())) > 1:
        return None
    found = None
    for start in range(len(RUN) - len(counts) + 1):
        window = [nt.ACE if x == 1 else x for x in RUN[start:start + len(counts)]]
        if set(window) == set(counts) and len(set(window)) == len(window):
            found = (len(counts) + min(counts.values()), SINGLE.index(window[-1]))
    return found


def bombs_held(hand: Counter, equal: bool) -> dict[tuple[tuple[int, int], ...], tuple]:
    """Every bomb or run of bombs the hand holds, by its rank counts."""
    ranks = sorted(r for r, c in hand.items() if c >= 4)
    out = {}
    for choice in itertools.product(*[range(0, hand[r] + 1) for r in ranks]):
        counts = {r: c for r, c in zip(ranks, choice) if c}
        if counts and (v := judge(counts, equal)) is not None:
            out[tuple(sorted(counts.items()))] = v
    return out


def bomb_plays(st, equal: bool) -> set[tuple[tuple[int, int], ...]]:
    """The rank counts of the bombs and runs of bombs among the seat's legal plays."""
    out = set()
    for a in st.legal_actions():
        if a.kind == "play":
            counts = tuple(sorted(Counter(nt.card_rank(k) for k in a.cards).items()))
            if judge(dict(counts), equal) is not None or a.pattern in (
                    "bomb", "bomb_run", "equal_bomb_run"):
                out.add(counts)
    return out


def rich_hands(rng: random.Random) -> tuple[list[int], list[int]]:
    """Two hands full of bombs around a few consecutive ranks (each rank 8 copies)."""
    start = rng.randrange(len(RUN) - 5)
    window = [nt.ACE if x == 1 else x for x in RUN[start:start + 6]]
    hands: tuple[list[int], list[int]] = ([], [])
    for rank in window:
        cards = [nt.parse_card(f"{s}{nt.rank_name(rank)}") for s in "SHDC" for _ in range(2)]
        rng.shuffle(cards)
        a = rng.choice([0, 3, 4, 5, 6, 8])
        b = rng.randint(0, 8 - a)
        hands[0].extend(cards[:a])
        hands[1].extend(cards[a:a + b])
    return hands


@pytest.mark.parametrize("equal", [False, True])
def test_bomb_plays_from_rich_hands_match_the_judge(path, equal: bool) -> None:
    from rulesdsl.compiler.files import compile_with_options
    from rulesdsl.engine.base import Action, Position

    rs = compile_with_options(load(path), {"run_steps": "equal" if equal else "any"})
    rng = random.Random(22 + equal)
    runs = answers = 0
    for _ in range(100):
        first, second = rich_hands(rng)
        if not first:
            continue
        st = rs.game().position(Position(hands={0: first, 1: second, 2: nt.parse_cards("LJ"),
                                                3: nt.parse_cards("BJ")}, turn=0))
        held = bombs_held(Counter(nt.card_rank(k) for k in first), equal)
        assert bomb_plays(st, equal) == set(held)
        runs += sum(len(c) >= 3 for c in held)
        if not held:
            continue
        lead = rng.choice(sorted(held))
        cards, left = [], Counter(first)
        for rank, c in lead:
            for k in sorted(left):
                while c and left[k] and nt.card_rank(k) == rank:
                    cards.append(k)
                    left[k] -= 1
                    c -= 1
        plays = [a for a in st.legal_actions() if sorted(a.cards) == sorted(cards)]
        st.apply(plays[0] if len(plays) == 1 else Action.of("play", cards, plays[0].pattern))
        beat = held[lead]
        want = {c for c, v in bombs_held(Counter(nt.card_rank(k) for k in second),
                                         equal).items() if v > beat}
        assert bomb_plays(st, equal) == want
        answers += bool(want)
    assert runs > 50 and answers > 20, (runs, answers)


@pytest.mark.parametrize("equal", [False, True])
def test_bomb_plays_match_the_judge(path, equal: bool) -> None:
    from rulesdsl.compiler.files import compile_with_options

    rs = compile_with_options(load(path), {"run_steps": "equal" if equal else "any"})
    leads = answers = 0
    for seed in range(40):
        st = rs.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(12):
            if st.is_terminal():
                break
            seat = st.current_player
            hand = Counter()
            for k, c in enumerate(st.hands[seat]):
                hand[nt.card_rank(k)] += c
            held = bombs_held(hand, equal)
            listed = {}
            for a in st.legal_actions():
                if a.kind == "play" and a.pattern in (None, "bomb", "bomb_run",
                                                      "equal_bomb_run"):
                    counts = tuple(sorted(Counter(nt.card_rank(k) for k in a.cards).items()))
                    if counts in held or judge(dict(counts), equal) is not None:
                        listed[counts] = True
            if st.last is None or st.last["seat"] == seat:
                want = set(held)
                leads += 1
            else:
                table = dict(Counter(nt.card_rank(k) for k in nt.parse_cards(st.last["cards"])))
                beat = judge(table, equal)
                want = {c for c, v in held.items() if beat is None or v > beat}
                answers += 1
            assert set(listed) == want
            st.apply(st.sample_action(rng))
    assert leads > 20 and answers > 20, (leads, answers)
