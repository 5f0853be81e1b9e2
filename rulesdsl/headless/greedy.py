"""The greedy agent: a simple player that reads the compiled rules (and the rollout
policy of the search agent in the tile family)."""

from __future__ import annotations

import random

from ..engine.base import Action


class GreedyAgent:
    """A simple player that reads the compiled rules, never the game's name.

    Trick family: win the trick as cheaply as it can, feed points to a winning partner,
    otherwise shed its weakest cards. Shedding: lead the largest, weakest combination,
    beat opponents as cheaply as possible (bombs only late), let partners run.
    Tiles: take wins, claim what brings the hand closer to a win, discard the tile that
    leaves it closest. Everything else: the first legal action.
    """

    name = "greedy"

    def act(self, state, rng: random.Random) -> Action:
        family = state.game.ruleset.family
        if family == "trick":
            return _greedy_trick(state, rng)
        if family == "shedding":
            return _greedy_shed(state, rng)
        return _greedy_tiles(state, rng)


def _team(state, seat: int) -> int:
    return state.game.team_of[seat] if hasattr(state.game, "team_of") else seat


def _greedy_trick(state, rng: random.Random) -> Action:
    if state.phase != "play":
        return state.sample_action(rng) if state.phase != "deal" else Action("pass")
    hc = state.hc
    seat = state.to_act
    legal = state.legal_actions()
    if legal.count() <= 400:
        candidates = list(legal)
    else:
        candidates = list({state.sample_action(rng) for _ in range(200)})

    def strength(a: Action) -> float:
        return sum(hc.strength[k] + (100 if hc.is_trump[k] else 0) for k in a.cards)

    def points(a: Action) -> int:
        return sum(hc.points[k] for k in a.cards)

    if not state.trick:
        # Lead the strongest plain card or combination: likely to win and draw out trumps.
        plain = [a for a in candidates if not any(hc.is_trump[k] for k in a.cards)
                 and len(a.cards) <= 4]
        pool = plain or candidates
        return max(pool, key=lambda a: (len(a.cards) > 1, strength(a) / len(a.cards)))
    winner_index, _ = state._winner_index()
    winning_seat = state.trick[winner_index][0]
    if _team(state, winning_seat) == _team(state, seat):
        # Partner is ahead: give points, keep strength.
        return max(candidates, key=lambda a: (points(a), -strength(a)))
    winners = []
    for a in candidates:
        trial = state.clone()
        trial.trick = [*trial.trick, [seat, sorted(a.cards)]]
        idx, _ = trial._winner_index()
        if idx == len(trial.trick) - 1:
            winners.append(a)
    if winners:
        return min(winners, key=strength)
    return min(candidates, key=lambda a: (points(a), strength(a)))


def _greedy_shed(state, rng: random.Random) -> Action:
    if state.phase != "play":
        return Action("pass") if Action("pass") in state.legal_actions() \
            else state.sample_action(rng)
    from ..model.patterns import readings

    hc = state.game.hc
    seat = state.to_act
    actions = list(state.legal_actions())
    plays = [a for a in actions if a.kind == "play"]
    if not plays:
        return actions[0]

    def key(a: Action) -> float:
        rs = readings(hc, list(a.cards))
        if a.pattern:
            rs = [r for r in rs if r.pattern == a.pattern] or rs
        return max((r.key for r in rs), default=0)

    def is_bomb(a: Action) -> bool:
        return any(r.bomb for r in readings(hc, list(a.cards)))

    following = state.last is not None and state.last["seat"] != seat
    if following:
        last_seat = state.last["seat"]
        if _team_shed(state, last_seat) == _team_shed(state, seat):
            return Action("pass")
        cheap = [a for a in plays if not is_bomb(a)]
        danger = min(sum(h) for s, h in enumerate(state.hands)
                     if sum(h) and _team_shed(state, s) != _team_shed(state, seat))
        pool = cheap or ([a for a in plays] if danger <= 6 else [])
        if not pool:
            return Action("pass")
        return min(pool, key=lambda a: (is_bomb(a), len(a.cards), key(a)))
    non_bombs = [a for a in plays if not is_bomb(a)] or plays
    return max(non_bombs, key=lambda a: (len(a.cards), -key(a)))


def _team_shed(state, seat: int) -> int:
    for t, side in enumerate(state.sides):
        if seat in side:
            return t
    return seat


def _greedy_tiles(state, rng: random.Random) -> Action:
    actions = list(state.legal_actions())
    wins = [a for a in actions if a.kind == "win"]
    if wins:
        return wins[0]
    seat = state.to_act
    hand = state.hands[seat]
    wild = state.wild
    if state.phase == "void":  # 定缺: the suit it holds fewest of
        return min(actions, key=lambda a: sum(hand[a.cards[0]:a.cards[0] + 9]))

    def connection(tile: int, counts: list[int]) -> int:
        """How much a tile works with the others: copies, then neighbours in its suit."""
        if wild[tile]:
            return 100  # wilds are never thrown away
        score = 3 * (counts[tile] - 1)
        if tile < 27:
            for step, weight in ((1, 2), (2, 1)):
                for t in (tile - step, tile + step):
                    if 0 <= t < 27 and t // 9 == tile // 9:
                        score += weight * min(counts[t], 1)
        return score

    if state.phase == "claims":
        # Pungs and kongs keep the shape; chows are taken when they finish a run of two.
        for kind in ("kong", "pung"):
            for a in actions:
                if a.kind == kind:
                    return a
        return Action("pass")
    discards = [a for a in actions if a.kind == "discard"]
    if not discards:
        return actions[0]
    return min(discards, key=lambda a: (connection(a.cards[0], hand), a.cards[0]))
