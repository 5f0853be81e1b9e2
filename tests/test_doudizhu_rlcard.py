"""rulesets/extra/dou-dizhu.yaml against RLCard's Dou Dizhu move generator (the oracle).

For random positions (a hand dealt from a shuffled 54-card pack, and either nothing to beat
or a previous play drawn from RLCard's moves for another hand) the set of legal plays of the
ruleset, as rank multisets from the generic shedding move generator, must equal RLCard's
set: DoudizhuJudger.playable_cards_from_hand for a leader, utils.get_gt_cards for a reply.
RLCard writes a play as sorted rank characters 3456789TJQKA2BR, B the black (little) joker
and R the red (big) one; a reply may always pass.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

rlcard_judger = pytest.importorskip("rlcard.games.doudizhu.judger")
rlcard_utils = pytest.importorskip("rlcard.games.doudizhu.utils")
rlcard_card = pytest.importorskip("rlcard.games.base")

import rulesdsl  # noqa: E402
from rulesdsl import notation as nt  # noqa: E402
from rulesdsl.engine.shedding.moves import MoveGenerator  # noqa: E402
from rulesdsl.model.hand import HandContext  # noqa: E402
from rulesdsl.model.patterns import readings  # noqa: E402

from .doudizhu_positions import TRICKY, kinds_of  # noqa: E402

POSITIONS = 200
RL_RANKS = rlcard_utils.CARD_RANK_STR  # ['3', …, 'A', '2', 'B', 'R']
# Our rank keys (3..14 for 3..A, 2 for the two, 15 little joker, 16 big joker) to RLCard's
# characters. RLCard's 'B' (black joker, index 13) is the little one and 'R' (red, 14) the
# big one: its single-card order puts R above B.
RANK_TO_RL = {**{r: str(r) for r in range(3, 10)}, 10: "T", 11: "J", 12: "Q", 13: "K",
              14: "A", 2: "2", nt.LJ_RANK: "B", nt.BJ_RANK: "R"}
assert RL_RANKS.index("R") > RL_RANKS.index("B")


def rl_string(ranks) -> str:
    return "".join(sorted((RANK_TO_RL[r] for r in ranks), key=RL_RANKS.index))


def rl_cards(kinds: list[int]) -> list:
    """RLCard Card objects for our card kinds (get_gt_cards reads a player's Card list)."""
    out = []
    for k in kinds:
        if k == nt.LITTLE_JOKER:
            out.append(rlcard_card.Card("BJ", ""))
        elif k == nt.BIG_JOKER:
            out.append(rlcard_card.Card("RJ", ""))
        else:
            out.append(rlcard_card.Card(nt.card_suit(k), RANK_TO_RL[nt.card_rank(k)]))
    return out


@pytest.fixture(scope="module")
def game():
    ruleset = rulesdsl.load("dou-dizhu")
    hc = HandContext(ruleset, {})
    return SimpleNamespace(ruleset=ruleset, hc=hc, moves=MoveGenerator(hc))


def rl_type(move: str) -> str:
    return rlcard_utils.CARD_TYPE[0][move][0][0]


def rlcard_moves(hand: list[int], previous: str | None) -> set[str]:
    hand_str = rl_string(nt.card_rank(k) for k in hand)
    if previous is None:
        return set(rlcard_judger.DoudizhuJudger.playable_cards_from_hand(hand_str))
    player = SimpleNamespace(current_hand=rl_cards(hand))
    return set(rlcard_utils.get_gt_cards(player, SimpleNamespace(played_cards=previous)))


def our_moves(game, hand: list[int], previous_kinds: list[int] | None) -> set[str]:
    counts = [0] * len(game.ruleset.deck)
    for k in hand:
        counts[k] += 1
    after = None
    if previous_kinds is not None:
        rs = readings(game.hc, previous_kinds)
        assert len(rs) == 1, (f"the previous play {rl_string(map(nt.card_rank, previous_kinds))}"
                              f" has {len(rs)} readings: {rs}")
        after = rs[0]
    plays = game.moves.plays(counts, after=after)
    return {rl_string(play) for play in plays}


def take(kinds: list[int], move: str) -> list[int]:
    """The cards of `kinds` that make RLCard's `move`."""
    pool = list(kinds)
    out = []
    for ch in move:
        k = next(k for k in pool if RANK_TO_RL[nt.card_rank(k)] == ch)
        pool.remove(k)
        out.append(k)
    return out


def deal(rng: random.Random, pool: list[int], size: int, rich: bool) -> list[int]:
    """`size` cards drawn from `pool` (removed from it). A `rich` hand first takes every card
    left of a few nearby ranks (and maybe one or two more), so it holds trios, airplanes,
    fours and their kickers far more often than a plain deal (a 17-card hand rarely holds
    an airplane)."""
    rng.shuffle(pool)
    if rich:
        start = rng.randrange(3, 14)
        ranks = {r for r in range(start, start + rng.choice([2, 3, 4])) if r <= 14}
        ranks |= set(rng.sample([2, *range(3, 15)], rng.choice([0, 1, 2])))
        pool.sort(key=lambda k: nt.card_rank(k) not in ranks)  # stable: still shuffled
    hand = sorted(pool[:size])
    del pool[:size]
    return hand


def positions(game, n: int, seed: int = 20240611):
    """(hand, previous play as our card kinds or None), reproducibly: half lead, half
    reply; half the hands are plain deals, half rich (see deal)."""
    rng = random.Random(seed)
    deck = [k for k, c in enumerate(game.ruleset.deck) for _ in range(c)]
    for i in range(n):
        pool = list(deck)
        size = rng.choice([20, 20, 17, 17, 17, 14, 10, 6, 3])
        hand = deal(rng, pool, size, rich=i % 4 >= 2)
        if i % 2 == 0:
            yield hand, None
            continue
        other = deal(rng, pool, rng.choice([20, 17]), rich=rng.random() < 0.5)
        moves = rlcard_moves(other, None)
        by_type: dict[str, list[str]] = {}
        for m in sorted(moves):
            by_type.setdefault(rl_type(m), []).append(m)
        kind = rng.choice(sorted(by_type))  # every move type about equally often
        yield hand, take(other, rng.choice(by_type[kind]))


def compare(game, hand: list[int], previous: list[int] | None) -> str | None:
    prev_str = None if previous is None else rl_string(map(nt.card_rank, previous))
    theirs = rlcard_moves(hand, prev_str)
    if previous is None:
        assert "pass" not in theirs
    else:
        assert "pass" in theirs  # a reply may always pass; ours: pass is always legal
        theirs.discard("pass")
    ours = our_moves(game, hand, previous)
    if ours == theirs:
        return None
    missing = sorted(theirs - ours, key=len)
    extra = sorted(ours - theirs, key=len)
    return (f"hand {rl_string(map(nt.card_rank, hand))} ({len(hand)} cards), "
            f"previous {prev_str or '(leading)'}"
            f"{'' if prev_str is None else ' = ' + rl_type(prev_str)}:\n"
            f"  RLCard only ({len(missing)}): "
            f"{[(m, rl_type(m)) for m in missing[:8]]}\n"
            f"  ours only ({len(extra)}): {extra[:8]}")


def test_rlcard_action_space_matches_the_leader_generator():
    # The leader's plays are exactly the action-space moves a hand holds, so comparing
    # with both RLCard functions compares with one rule set.
    rng = random.Random(7)
    deck = [r for r in RL_RANKS[:13] for _ in range(4)] + ["B", "R"]
    actions = [a for a in rlcard_utils.CARD_TYPE[1]]
    for _ in range(5):
        hand = "".join(sorted(rng.sample(deck, 20), key=RL_RANKS.index))
        held = {a for a in actions if rlcard_utils.contains_cards(hand, a)}
        assert rlcard_judger.DoudizhuJudger.playable_cards_from_hand(hand) == held


def test_legal_plays_match_rlcard_on_random_positions(game):
    checked = 0
    for hand, previous in positions(game, POSITIONS):
        problem = compare(game, hand, previous)
        assert problem is None, f"position {checked}: {problem}"
        checked += 1
    assert checked == POSITIONS


@pytest.mark.parametrize("hand, previous", TRICKY)
def test_legal_plays_match_rlcard_on_tricky_positions(game, hand, previous):
    assert len(hand) <= 20
    prev = None if previous is None else kinds_of(previous)  # only its ranks matter
    problem = compare(game, kinds_of(hand), prev)
    assert problem is None, problem
