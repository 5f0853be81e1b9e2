"""Building a trick-family play one card kind at a time (the PettingZoo adapter's actions).

`addable(state, partial)` answers which card kinds can join `partial` so that the cards
still complete a legal action of the phase. It decides by counts, as legality does,
never by listing the plays: a 3-deck follow has too many to list.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def addable(state: Any, partial: tuple[int, ...]) -> set[int]:
    seat = state.to_act
    hand = state.hands[seat]
    have = Counter(partial)
    if any(hand[k] < c for k, c in have.items()):
        return set()
    held = [k for k, c in enumerate(hand) if c > have[k]]
    if state.phase == "bury":
        return set(held) if len(partial) < state.game.kitty_size else set()
    if state.phase != "play":
        return _from_list(state, have)  # declarations: a short list
    if not state.trick:
        return _lead_addable(state, seat, have, held)
    return {k for k in held if _follow_completable(state, seat, have + Counter([k]))}


def _from_list(state: Any, have: Counter) -> set[int]:
    out: set[int] = set()
    for act in state._iter_actions():
        cards = Counter(act.cards)
        if act.cards and all(cards[k] >= c for k, c in have.items()):
            out.update(k for k, c in cards.items() if c > have[k])
    return out


def _lead_addable(state: Any, seat: int, have: Counter, held: list[int]) -> set[int]:
    throw_systems, patterns = state._lead_parts(seat)
    out: set[int] = set()
    for play in patterns:
        cards = Counter(play)
        if all(cards[k] >= c for k, c in have.items()):
            out.update(k for k, c in cards.items() if c > have[k])
    for space in throw_systems:  # the throws of one throwable system
        out.update(k for k in held if k not in out
                   and space.completable(have + Counter([k])))
    return out


def _follow_completable(state: Any, seat: int, have: Counter) -> bool:
    """Can `have` grow into a legal follow? Must-follow by counts; a listed format rung by
    its plays; pairs (`follow.shape: pairs`, or a rung of pairs and singles): completing
    an odd count costs one card a pair, any other pair two."""
    follow = state._follow(seat)
    if follow.listed is not None:
        return any(all(play[k] >= c for k, c in have.items()) for play in follow.listed)
    counts, m, fixed, need = follow.counts, follow.m, follow.fixed, follow.need
    picked = 0
    for k, c in have.items():
        if c > counts[k] + fixed[k]:
            return False
        picked += c - min(c, fixed[k])
    if picked > m:
        return False
    room = m - picked
    pick = [max(0, have[k] - fixed[k]) for k in range(len(counts))]
    if sum(counts) - picked < room:
        return False
    if not need:
        return True
    pairs = sum(p // 2 for p in pick)
    ones = twos = 0
    for k, c in enumerate(counts):
        spare = c - pick[k]
        gain = (pick[k] + spare) // 2 - pick[k] // 2
        if pick[k] % 2 and spare:
            ones += 1
            gain -= 1
        twos += gain
    first = min(ones, room)
    return pairs + first + min((room - first) // 2, twos) >= need
