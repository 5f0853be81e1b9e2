"""benchmarks/peers/handwritten_doudizhu.py (the calibration peer) plays our Dou Dizhu.

The peer hard-codes rulesets/extra/dou-dizhu.yaml in plain Python; benchmarks/run.py times
it against our engine, which only means something if both play the same game. On
positions from random games of the engine and on synthetic hands rich in trios, fours and
airplanes, the peer's plays (lead and reply) must equal the engine's: as sets of (rank
multiset, pattern name), computed independently (the engine's MoveGenerator from the rule
file, the peer's own tables), and as many as the engine's legal_actions() lists there
(pass included), so one action per play on both sides. The peer's game loop (auction,
passes, the end of a round) must take as many decisions per hand as the engine's.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.engine.shedding.moves import MoveGenerator
from rulesdsl.model.hand import HandContext
from rulesdsl.model.patterns import Reading, readings

from .conftest import ROOT
from .doudizhu_positions import TRICKY, kinds_of

GAME_POSITIONS = 300
RICH_POSITIONS = 300

# Our rank keys (3..14 for 3..A, 2, 15 little joker, 16 big joker) to the peer's indexes.
TO_PEER = {**{r: r - 3 for r in range(3, 15)}, 2: 12, nt.LJ_RANK: 13, nt.BJ_RANK: 14}
PlaySet = set[tuple[tuple[int, ...], str]]


def _load_peer() -> ModuleType:
    path = ROOT / "benchmarks" / "peers" / "handwritten_doudizhu.py"
    spec = importlib.util.spec_from_file_location("handwritten_doudizhu", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


peer = _load_peer()


@pytest.fixture(scope="module")
def engine() -> SimpleNamespace:
    ruleset = rulesdsl.load("dou-dizhu")
    hc = HandContext(ruleset, {})
    return SimpleNamespace(ruleset=ruleset, hc=hc, moves=MoveGenerator(hc))


def peer_counts(kinds: list[int]) -> list[int]:
    """The peer's rank-count vector of a hand given as our card kinds (a list of kinds)."""
    counts = [0] * 15
    for k in kinds:
        counts[TO_PEER[nt.card_rank(k)]] += 1
    return counts


def kind_counts(engine: SimpleNamespace, kinds: list[int]) -> list[int]:
    counts = [0] * len(engine.ruleset.deck)
    for k in kinds:
        counts[k] += 1
    return counts


def cards_of(counts: list[int]) -> list[int]:
    return [k for k, c in enumerate(counts) for _ in range(c)]


def engine_plays(engine: SimpleNamespace, hand: list[int], after: Reading | None) -> PlaySet:
    """Our engine's plays of a hand (card kinds), each reading apart."""
    plays = engine.moves.plays(kind_counts(engine, hand), after=after)
    return {(tuple(sorted(TO_PEER[r] for r in play)), x.pattern)
            for play, rs in plays.items() for x in rs}


def peer_plays(moves: list[Any]) -> PlaySet:
    out = {(tuple(sorted(m[3])), peer.PATTERNS[m[0]]) for m in moves}
    assert len(out) == len(moves), "the peer lists a play twice"
    return out


def engine_reading(engine: SimpleNamespace, cards: list[int]) -> Reading:
    rs = readings(engine.hc, cards)
    assert len(rs) == 1, f"{nt.format_cards(cards)} reads as {rs}"
    return rs[0]


def peer_move(cards: list[int], pattern: str) -> Any:
    """The peer's Move for a play (our card kinds): the one lead play of a hand holding just
    these cards that plays them all, as `pattern`."""
    counts = peer_counts(cards)
    whole = sorted(TO_PEER[nt.card_rank(k)] for k in cards)
    found = [m for m in peer.lead_plays(counts)
             if sorted(m[3]) == whole and peer.PATTERNS[m[0]] == pattern]
    assert len(found) == 1, f"the peer reads {nt.format_cards(cards)} as {found}"
    return found[0]


def show(plays: PlaySet) -> list[str]:
    return sorted(" ".join(peer.RANK_NAMES[r] for r in p) + f" ({name})" for p, name in plays)


def compare(engine: SimpleNamespace, hand: list[int], previous: list[int] | None) -> str | None:
    """None when the peer and the engine list the same plays, else what differs."""
    after = None if previous is None else engine_reading(engine, previous)
    ours = engine_plays(engine, hand, after)
    last = None if after is None else peer_move(previous or [], after.pattern)
    theirs = peer_plays(peer.legal_plays(peer_counts(hand), last))
    if ours == theirs:
        return None
    return (f"hand {nt.format_cards(hand)}, previous "
            f"{'(leading)' if previous is None else nt.format_cards(previous)}:\n"
            f"  engine only: {show(ours - theirs)[:10]}\n"
            f"  peer only:   {show(theirs - ours)[:10]}")


def game_positions(n: int) -> Iterator[tuple[Any, list[int], list[int] | None]]:
    """(state, hand to act, play to beat or None) at play decisions of random games of our
    engine (about one decision in four), the state not yet moved on."""
    game = rulesdsl.load("dou-dizhu")
    rng = random.Random(2024)
    found = 0
    for seed in range(10_000):
        state = game.new_game(seed=seed, hands=1)
        last_cards: list[int] | None = None
        while not state.is_terminal():
            if state.phase == "play" and rng.random() < 0.25:
                seat = state.to_act
                leading = state.last is None or state.last["seat"] == seat
                yield state, cards_of(state.hands[seat]), None if leading else last_cards
                found += 1
                if found == n:
                    return
            action = state.sample_action(rng)
            state.apply(action)
            if action.kind == "play":
                last_cards = list(action.cards)


def rich_deal(rng: random.Random, pool: list[int], size: int) -> list[int]:
    """`size` cards from `pool` (removed from it), first every card left of a few nearby
    ranks and maybe one or two others: trios, airplanes, fours and their kickers far more
    often than a plain deal holds them."""
    rng.shuffle(pool)
    start = rng.randrange(3, 14)
    ranks = {r for r in range(start, start + rng.choice([2, 3, 4, 5])) if r <= 14}
    ranks |= set(rng.sample([2, *range(3, 15)], rng.choice([0, 1, 2])))
    if rng.random() < 0.4:
        ranks |= {nt.LJ_RANK, nt.BJ_RANK}
    pool.sort(key=lambda k: nt.card_rank(k) not in ranks)  # stable: still shuffled
    hand = sorted(pool[:size])
    del pool[:size]
    return hand


def rich_positions(engine: SimpleNamespace, n: int) -> Iterator[tuple[list[int], list[int] | None]]:
    """(hand, previous play or None): a third lead, the rest reply to a play of another
    rich hand, every pattern that hand holds about equally often."""
    rng = random.Random(20251130)
    deck = cards_of(list(engine.ruleset.deck))
    for i in range(n):
        pool = list(deck)
        hand = rich_deal(rng, pool, rng.choice([20, 20, 17, 17, 14, 10, 8, 6, 4]))
        if i % 3 == 0:
            yield hand, None
            continue
        other = rich_deal(rng, pool, rng.choice([20, 17, 12]))
        by_pattern: dict[str, list[tuple[int, ...]]] = {}
        found = engine.moves.plays(kind_counts(engine, other))
        for play, rs in sorted(found.items(), key=lambda item: (item[1][0].key, item[0])):
            by_pattern.setdefault(rs[0].pattern, []).append(play)
        plays = by_pattern[rng.choice(sorted(by_pattern))]
        # Half the time the lowest of them, so the hand has more to beat it with.
        play = plays[0] if rng.random() < 0.5 else rng.choice(plays)
        left = list(other)
        previous = []
        for r in play:  # the other hand's cards of those ranks
            k = next(k for k in left if nt.card_rank(k) == r)
            left.remove(k)
            previous.append(k)
        yield hand, previous


def test_peer_plays_equal_the_engines_in_random_games(engine):
    checked = replies = 0
    for state, hand, previous in game_positions(GAME_POSITIONS):
        problem = compare(engine, hand, previous)
        assert problem is None, f"position {checked} (seed {state.seed}): {problem}"
        # As many actions as the engine's own list: one per play, and pass on a reply.
        after = None if previous is None else peer_move(previous, state.last["pattern"])
        moves = peer.legal_plays(peer_counts(hand), after)
        actions = list(state.legal_actions())
        assert len(actions) == len(moves) + (after is not None)
        listed = {tuple(sorted(TO_PEER[nt.card_rank(k)] for k in a.cards))
                  for a in actions if a.kind == "play"}
        assert listed == {tuple(sorted(m[3])) for m in moves}
        checked += 1
        replies += previous is not None
    assert checked == GAME_POSITIONS
    assert 0.3 * checked < replies < 0.9 * checked  # both kinds of position were checked


def test_peer_plays_equal_the_engines_on_rich_hands(engine):
    patterns: set[str] = set()
    for i, (hand, previous) in enumerate(rich_positions(engine, RICH_POSITIONS)):
        problem = compare(engine, hand, previous)
        assert problem is None, f"rich position {i}: {problem}"
        if previous is not None:
            patterns.add(engine_reading(engine, previous).pattern)
        else:
            patterns |= {name for _, name in peer_plays(peer.lead_plays(peer_counts(hand)))}
    # Every pattern of the rule file was led and replied to.
    assert patterns == set(peer.PATTERNS)


@pytest.mark.parametrize("hand, previous", TRICKY)
def test_peer_plays_equal_the_engines_on_tricky_hands(engine, hand, previous):
    prev = None if previous is None else kinds_of(previous)  # only its ranks matter
    problem = compare(engine, kinds_of(hand), prev)
    assert problem is None, problem


def test_peer_auction_is_the_engines():
    # Our engine's auctions with random choices; the peer's auction given the same opener
    # and choices (an index into the engine's list: pass, then the bids above the last)
    # must offer as many actions at every turn and end with the same landlord, bid and
    # number of decisions.
    game = rulesdsl.load("dou-dizhu")
    rng = random.Random(9)
    ends = set()
    nobody = 0  # auctions where all three passed
    for seed in range(400):
        state = game.new_game(seed=seed, hands=1)
        assert state.phase == "auction"
        script: list[tuple[int, int]] = [(3, state.auction["opener"])]  # (n, the draw)
        decisions = 0
        while state.phase == "auction":
            actions = list(state.legal_actions())
            i = rng.randrange(len(actions))
            script.append((len(actions), i))
            state.apply(actions[i])
            decisions += 1
        steps = iter(script)

        def scripted(n: int, steps: Iterator[tuple[int, int]] = steps) -> int:
            step = next(steps, None)
            assert step is not None, "the peer's auction goes on after the engine's ended"
            offered, draw = step
            assert n == offered, f"the peer offers {n} actions, the engine {offered}"
            return draw

        landlord, bid, taken = peer.auction(scripted)
        assert (landlord, bid, taken) == (state.dealer, state.auction["bid"], decisions), \
            f"seed {seed}: choices {script}"
        assert next(steps, None) is None
        ends.add((bid, decisions))
        nobody += all(draw == 0 for _, draw in script[1:])
    assert {bid for bid, _ in ends} == {1, 2, 3} and max(n for _, n in ends) >= 5
    assert nobody > 0


def test_peer_hand_takes_as_many_decisions_as_the_engines():
    # The same rules give the same game length on average (the deals differ): auction,
    # replies, the round ending after two passes, the hand ending when one is out.
    game = rulesdsl.load("dou-dizhu")
    hands = 300
    ours = 0
    for seed in range(hands):
        state = game.new_game(seed=seed, hands=1)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
            ours += 1
    theirs = 0
    for seed in range(hands):
        theirs += peer.play_hand(seed)[0]
    assert abs(theirs / ours - 1) < 0.06, (ours / hands, theirs / hands)


def test_peer_settles_as_the_rule_file():
    # Returns: the landlord wins or pays twice the stake, each farmer the stake.
    for seed in range(50):
        _, returns = peer.play_hand(seed)
        landlord = max(range(3), key=lambda s: abs(returns[s]))
        farmers = [returns[s] for s in range(3) if s != landlord]
        assert farmers[0] == farmers[1] != 0
        assert returns[landlord] == -2 * farmers[0]
