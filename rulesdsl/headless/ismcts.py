"""Information-set Monte Carlo tree search (determinised; Cowling, Powley & Whitehouse 2012),
the agent `ismcts`, for any ruleset of any family.

Each iteration samples a determinisation of what the acting seat cannot see
(`state.sample_hidden`), then walks one tree shared by all determinisations, keyed by the
actions taken since the decision (the seat's information: the public history plus its
own hand): UCT selection among the children legal in this determinisation (counting how
often each was available, as the paper does), expansion of one untried action, a random
rollout (`sample_action`; a win on offer is taken, which uniform play would mostly pass
over) to the end of the hand, and the change in every seat's `returns()`, discounted
0.999 a move, backed up the path; each seat chooses by its own component. The move is
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

DEFAULT_ITERATIONS = 200
LIST_CAP = 48  # list the legal actions when there are at most this many, else sample
SAMPLES = 16  # actions drawn per visit of a node whose actions are not listed
WIDTH = 24  # children of such a node, at most
DISCOUNT = 0.999  # per move from the decision to the end of the rollout
WIN = Action("win")  # a bare win names the one on offer (tile family)


class _Node:
    """An edge's statistics: visits, times available, and each seat's summed reward."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, players: int):
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * players


class ISMCTSAgent:
    """Determinised information-set MCTS with a budget of iterations or seconds a move."""

    name = "ismcts"

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS,
                 seconds: float | None = None, exploration: float = 0.7):
        if seconds is None and (iterations is None or iterations < 1):
            raise RulesdslError("ismcts needs a budget: iterations (≥ 1) or seconds")
        self.iterations = iterations if seconds is None else None
        self.seconds = seconds
        self.exploration = exploration

    @classmethod
    def from_spec(cls, arg: str) -> ISMCTSAgent:
        """`500` (iterations per move) or `0.5s` (seconds per move)."""
        text = arg.strip()
        try:
            if text.endswith("s"):
                seconds = float(text[:-1])
                if not 0 < seconds <= 3600:
                    raise ValueError
                return cls(seconds=seconds)
            iterations = int(text)
            if not 1 <= iterations <= 10_000_000:
                raise ValueError
            return cls(iterations=iterations)
        except ValueError:
            raise RulesdslError(f"ismcts:{arg}: give iterations per move (ismcts:500) or "
                                f"seconds per move (ismcts:0.5s)") from None

    def act(self, state: Any, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if legal.count() == 1:
            return next(iter(legal))
        me = state.current_player
        players = len(state.returns())
        root = _Node(players)
        search = _Search(self.exploration, players, state.returns(), len(state.results), rng)
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
        most = max((c.visits for c in root.children.values()), default=0)
        ranked = sorted(root.children.items(), key=lambda kv: (
            2 * kv[1].visits < most, -kv[1].total[me] / max(kv[1].visits, 1)))
        for action, _ in ranked:
            if state.is_legal(action):
                return action
        return state.sample_action(rng)


class _Search:
    """One decision's search: the rewards are each seat's change in returns from the
    decision to the end of the hand, divided by the largest seen (for UCT's constant)."""

    def __init__(self, exploration: float, players: int, base: list[float], hands: int,
                 rng: random.Random):
        self.c = exploration
        self.players = players
        self.base = base
        self.hands = hands
        self.rng = rng
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
            untried = [a for a in offered if a not in node.children]
            if untried and (len(node.children) < width or not usable):
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node(self.players)
                child.avail = 1
                det.apply(action)
                path.append(child)
                break
            if not usable:  # every listed action has a child, none legal here: impossible
                break
            action, child = max(usable, key=lambda ac: self._ucb(ac[1], player))
            det.apply(action)
            path.append(child)
            node = child
        steps = len(path) - 1
        while self._live(det):
            # A win on offer is taken: uniform play would pass over most of them.
            det.apply(WIN if det.is_legal(WIN) else det.sample_action(rng))
            steps += 1
        # Discounted by the moves it took: of two equal outcomes the sooner is surer.
        weight = DISCOUNT ** steps
        value = [(r - b) * weight for r, b in zip(det.returns(), self.base)]
        self.scale = max(self.scale, max(abs(v) for v in value))
        for n in path:
            n.visits += 1
            for s, v in enumerate(value):
                n.total[s] += v

    def _ucb(self, child: _Node, player: int) -> float:
        if not child.visits:
            return math.inf
        mean = child.total[player] / child.visits / max(self.scale, 1e-9)
        return mean + self.c * math.sqrt(math.log(max(child.avail, 1)) / child.visits)
