"""Information-set Monte Carlo tree search (determinised; Cowling, Powley & Whitehouse 2012),
the agent `ismcts`, for any ruleset of any family.

Each iteration samples a determinisation of what the acting seat cannot see
(`state.sample_hidden`), then walks one tree shared by all determinisations, keyed by the
actions taken since the decision (the seat's information: the public history plus its
own hand): UCT selection among the children legal in this determinisation (counting how
often each was available, as the paper does), expansion of one untried action, a rollout
to the end of the hand, and each seat's reward, discounted 0.999 a move, backed up the
path; each seat chooses by its own component. Rollouts are random (`sample_action`; a
win on offer is taken, which uniform play would mostly pass over), except in the tile
family, where random discards almost never complete a hand (4 hands in 40 against 37
with the greedy agent): there the rollout plays the greedy agent's shape heuristic.
`ismcts:…:random` or `ismcts:…:greedy` chooses. In the trick and tile families, where a
random seat's rollouts alone decide little, the search is also guided by the greedy
agent: its choice is the first child tried and is favoured while little visited
(progressive bias), a node gains children as its visits grow (progressive widening), and
the most visited child is played. The reward is the change in every
seat's `returns()`; when a hand ends with returns unchanged (a match settled only at its
end, in levels) it is the levels each seat's side climbed in that hand minus the levels
the other sides climbed, read from the hand's result. The move is
the best mean among the root's well-visited children. Only the public state API is
used. Action sets too large to list (trick leads, long shedding lists) are sampled: such
a node offers at most WIDTH children, drawn from `legal_actions().sample`. With an
iteration budget the agent is deterministic for a given rng.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine.base import Action
from ..errors import RulesdslError
from .greedy import GreedyAgent

DEFAULT_ITERATIONS = 200
LIST_CAP = 48  # list the legal actions when there are at most this many, else sample
SAMPLES = 16  # actions drawn per visit of a node whose actions are not listed
WIDTH = 24  # children of such a node, at most
DISCOUNT = 0.999  # per move from the decision to the end of the rollout
WIN = Action("win")  # a bare win names the one on offer (tile family)
ROLLOUTS = (None, "random", "greedy")
SIGNED = 0.5  # the share of a reward that is its sign (see _Search.mean)
BIAS = 1.0  # progressive bias toward the greedy policy's choice, fading with visits
WIDENING = 1.0  # children allowed: 1 + WIDENING·√visits, where the greedy policy guides
# The families whose search is guided by the greedy agent (its choice tried first,
# favoured, widened from): a random seat's rollouts alone decide little there.
PRIOR_FAMILIES = ("trick", "tiles")


class _Node:
    """An edge's statistics: visits, times available, and each seat's summed reward."""

    __slots__ = ("children", "visits", "avail", "total", "signs", "hint")

    def __init__(self, players: int):
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * players
        self.signs = [0] * players  # rollouts each seat gained in, minus those it lost in
        self.hint: Action | None = None  # the rollout policy's choice here, once asked


class ISMCTSAgent:
    """Determinised information-set MCTS with a budget of iterations or seconds a move."""

    name = "ismcts"

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS,
                 seconds: float | None = None, exploration: float = 0.7,
                 rollout: str | None = None):
        if seconds is None and (iterations is None or iterations < 1):
            raise RulesdslError("ismcts needs a budget: iterations (≥ 1) or seconds")
        if rollout not in ROLLOUTS:
            raise RulesdslError(f"ismcts rollout {rollout!r}: random or greedy")
        self.iterations = iterations if seconds is None else None
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout

    @classmethod
    def from_spec(cls, arg: str) -> ISMCTSAgent:
        """`500` (iterations per move) or `0.5s` (seconds per move), then optionally
        `:random` or `:greedy` (the rollout policy): `ismcts:500:greedy`, `ismcts:greedy`."""
        budget, _, rollout = arg.strip().partition(":")
        if budget in ROLLOUTS and not rollout:
            budget, rollout = "", budget
        usage = (f"ismcts:{arg}: give iterations per move (ismcts:500) or seconds per move "
                 f"(ismcts:0.5s), then optionally the rollout (ismcts:500:greedy)")
        if rollout and rollout not in ROLLOUTS:
            raise RulesdslError(usage)
        policy = rollout or None
        if not budget:
            return cls(rollout=policy)
        try:
            if budget.endswith("s"):
                seconds = float(budget[:-1])
                if not 0 < seconds <= 3600:
                    raise ValueError
                return cls(seconds=seconds, rollout=policy)
            iterations = int(budget)
            if not 1 <= iterations <= 10_000_000:
                raise ValueError
            return cls(iterations=iterations, rollout=policy)
        except ValueError:
            raise RulesdslError(usage) from None

    def act(self, state: Any, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if legal.count() == 1:
            return next(iter(legal))
        me = state.current_player
        players = len(state.returns())
        root = _Node(players)
        family = state.game.ruleset.family
        rollout = self.rollout or ("greedy" if family == "tiles" else "random")
        search = _Search(self.exploration, players, state, rng, rollout,
                         prior=family in PRIOR_FAMILIES)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            search.iterate(state.sample_hidden(me, rng), root)
            done += 1
            if deadline is None:
                if done >= (self.iterations or 1):
                    break
            elif time.perf_counter() >= deadline:
                break
        # The best mean among the well-visited: with small budgets visits differ by
        # one or two, and a mean read from one more rollout is not a better move.
        # Guided by a policy, the most visited: UCT and the bias already weighed the means.
        most = max((c.visits for c in root.children.values()), default=0)
        if search.prior is not None:
            ranked = sorted(root.children.items(), key=lambda kv: (
                -kv[1].visits, -search.mean(kv[1], me)))
        else:
            ranked = sorted(root.children.items(), key=lambda kv: (
                2 * kv[1].visits < most, -search.mean(kv[1], me)))
        for action, _ in ranked:
            if state.is_legal(action):
                return action
        return state.sample_action(rng)


class _Search:
    """One decision's search: the rewards are each seat's change in returns from the
    decision to the end of the hand (or the hand's levels, see `_reward`), divided by the
    largest seen (for UCT's constant)."""

    def __init__(self, exploration: float, players: int, state: Any, rng: random.Random,
                 rollout: str, prior: bool = False):
        self.c = exploration
        self.players = players
        self.base = state.returns()
        self.hands = len(state.results)
        self.teams = [list(t) for t in state.game.ruleset.teams or ()]
        self.rng = rng
        self.greedy = GreedyAgent() if rollout == "greedy" else None
        self.prior = GreedyAgent() if prior or rollout == "greedy" else None
        self.scale = 1e-9

    def _live(self, det: Any) -> bool:
        return not det.is_terminal() and len(det.results) == self.hands

    def iterate(self, det: Any, root: _Node) -> None:
        rng = self.rng
        path = [root]
        node = root
        while self._live(det):
            player = det.current_player
            legal = det.legal_actions()
            count = legal.count()
            if count <= LIST_CAP:
                offered = list(legal)
                allowed = set(offered)
                usable = [(a, c) for a, c in node.children.items() if a in allowed]
                width = LIST_CAP
            else:
                offered = list(dict.fromkeys(legal.sample(rng) for _ in range(SAMPLES)))
                usable = [(a, c) for a, c in node.children.items() if det.is_legal(a)]
                width = WIDTH
            for _, child in usable:
                child.avail += 1
            hint = None
            if self.prior is not None:
                if node.hint is None:
                    node.hint = self.prior.act(det, rng)
                hint = node.hint
                if hint not in offered and det.is_legal(hint):
                    offered.append(hint)
                # Progressive widening: a node gains children as its visits grow, so a
                # small budget weighs the policy's choice and a few others, not a single
                # rollout of each.
                width = min(width, 1 + int(WIDENING * math.sqrt(node.visits)))
            untried = [a for a in offered if a not in node.children]
            if untried and (len(node.children) < width or not usable):
                if hint in untried:
                    action = hint  # the policy's choice is tried first
                else:
                    action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node(self.players)
                child.avail = 1
                det.apply(action)
                path.append(child)
                break
            if not usable:  # every listed action has a child, none legal here: impossible
                break
            action, child = max(usable, key=lambda ac: self._ucb(ac[1], player)
                                + (BIAS / (ac[1].visits + 1) if ac[0] == hint else 0.0))
            det.apply(action)
            path.append(child)
            node = child
        steps = len(path) - 1
        greedy = self.greedy
        while self._live(det):
            if greedy is not None:
                det.apply(greedy.act(det, rng))
            else:  # a win on offer is taken: uniform play would pass over most of them
                det.apply(WIN if det.is_legal(WIN) else det.sample_action(rng))
            steps += 1
        # Discounted by the moves it took: of two equal outcomes the sooner is surer.
        weight = DISCOUNT ** steps
        value = [v * weight for v in self._reward(det)]
        self.scale = max(self.scale, max(abs(v) for v in value))
        for n in path:
            n.visits += 1
            for s, v in enumerate(value):
                n.total[s] += v
                n.signs[s] += (v > 0) - (v < 0)

    def _reward(self, det: Any) -> list[float]:
        """Each seat's change in returns; when none changed though a hand ended, the
        levels its side climbed in the hands since the decision minus the others'."""
        value = [r - b for r, b in zip(det.returns(), self.base)]
        if any(value) or not self.teams:
            return value
        for result in det.results[self.hands:]:
            climb = result.get("climb")
            if not climb or not 0 <= climb.get("side", -1) < len(self.teams):
                continue
            up = self.teams[climb["side"]]
            levels = float(climb.get("levels", 0))
            for s in range(self.players):
                value[s] += levels if s in up else -levels
        return value

    def mean(self, child: _Node, player: int) -> float:
        """The seat's mean reward through `child`, in [-1, 1]: half how often it gained
        rather than lost, half the size of the gain against the largest seen (one large
        payment seen once would otherwise squeeze every other mean to nothing)."""
        if not child.visits:
            return 0.0
        return (SIGNED * child.signs[player]
                + (1 - SIGNED) * child.total[player] / self.scale) / child.visits

    def _ucb(self, child: _Node, player: int) -> float:
        if not child.visits:
            return math.inf
        mean = self.mean(child, player)
        return mean + self.c * math.sqrt(math.log(max(child.avail, 1)) / child.visits)
