"""A PettingZoo AEC environment over any ruleset (`rulesdsl.env`).

One adapter serves every family through the common state API. Card games build a play
one card kind at a time, then commit it: the distinct follows of a 3-deck trick game run
to hundreds of millions, too many to number, so the mask allows exactly the card kinds
that can still complete a legal play (`state.completable`, a feasibility check, never an
enumeration). Tile games number their few actions directly. The layouts are in
docs/environment.md; observations are built from `state.observation(seat)`, so an agent
sees exactly what that seat may see.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import notation as nt
from ..engine.base import VOID_SUITS, Action
from ..model.ruleset import Ruleset

CARD_KINDS = nt.CARD_KINDS
TILE_KINDS = nt.TILE_KINDS
CARD_COMMIT_KINDS = ("play", "bury", "declare")  # what a built set of cards is played as
PHASES = {
    "trick": ("deal", "bury", "play", "over"),
    "shedding": ("auction", "play", "over"),
    "tiles": ("void", "turn", "claims", "rob", "over"),
}
TRUMP_SUITS = (*nt.SUITS, None)
LEVELS = tuple(range(2, 15))


class CardLayout:
    """Action numbering of the card families (trick, shedding)."""

    def __init__(self, ruleset: Ruleset):
        self.commit = CARD_KINDS
        self.pass_ = CARD_KINDS + 1
        self.claim = CARD_KINDS + 2
        self.patterns = [pd.name for pd in ruleset.patterns]
        self.first_pattern = CARD_KINDS + 3
        auction = getattr(ruleset.play, "auction", None)  # a shedding auction's bids
        bids = list(auction["bids"]) if auction else []
        self.bids = bids
        self.first_bid = self.first_pattern + len(self.patterns)
        self.size = self.first_bid + len(bids)

    def names(self) -> list[str]:
        out = [f"add {nt.format_card(k)}" for k in range(CARD_KINDS)]
        out += ["commit", "pass", "claim"]
        out += [f"commit as {p}" for p in self.patterns]
        out += [f"bid {b}" for b in self.bids]
        return out


class TileLayout:
    """Action numbering of the tile family."""

    PASS, WIN, PUNG, KONG = 0, 1, 2, 3
    CHOW = 4  # + 0, 1, 2: the discard is the run's lowest, middle or highest tile
    DISCARD = 7
    CONCEALED_KONG = DISCARD + TILE_KINDS
    ADDED_KONG = CONCEALED_KONG + TILE_KINDS
    VOID = ADDED_KONG + TILE_KINDS  # + 0, 1, 2: void m, p, s (定缺)
    size = VOID + len(VOID_SUITS)

    def names(self) -> list[str]:
        out = ["pass", "win", "pung", "kong", "chow low", "chow middle", "chow high"]
        for what in ("discard", "concealed_kong", "added_kong"):
            out += [f"{what} {nt.format_tiles([k])}" for k in range(TILE_KINDS)]
        out += [f"void {suit}" for suit in VOID_SUITS]
        return out

    def index(self, act: Action, discard: int | None) -> int:
        if act.kind == "pass":
            return self.PASS
        if act.kind == "win":
            return self.WIN
        if act.kind == "pung":
            return self.PUNG
        if act.kind == "kong":
            return self.KONG
        if act.kind == "chow":
            assert discard is not None
            return self.CHOW + sum(1 for t in act.cards if t < discard)
        if act.kind == "void":
            return self.VOID + list(VOID_SUITS.values()).index(act.cards[0])
        base = {"discard": self.DISCARD, "concealed_kong": self.CONCEALED_KONG,
                "added_kong": self.ADDED_KONG}[act.kind]
        return base + act.cards[0]


class RulesetEnv(AECEnv):
    """A PettingZoo AEC environment playing `hands` hands of one ruleset."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulesdsl", "is_parallelizable": False}

    def __init__(self, ruleset: Ruleset, render_mode: str | None = None, hands: int = 1):
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.ruleset = ruleset
        self.render_mode = render_mode
        self.hands = hands
        self.family = ruleset.family
        self.players = ruleset.players
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.layout: CardLayout | TileLayout = (
            TileLayout() if self.family == "tiles" else CardLayout(ruleset))
        self.metadata = {**self.metadata, "name": f"rulesdsl_{ruleset.id}"}
        self.obs_size = len(self._zero_observation())
        obs_space = spaces.Dict({
            "observation": spaces.Box(-1e6, 1e6, (self.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
        })
        act_space = spaces.Discrete(self.layout.size)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self.state: Any = None
        self.building: list[int] = []

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.state = self.ruleset.new_game(seed=0 if seed is None else seed, hands=self.hands)
        self.building = []
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._mask_cache: np.ndarray | None = None
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        obs = np.asarray(self._encode(seat), dtype=np.float32)
        if self.state.is_terminal() or seat != self.state.current_player:
            mask = np.zeros(self.layout.size, np.int8)
        else:
            mask = self.action_mask()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any = None) -> None:
        """Apply an action index (an int; a numpy integer too) for the agent selected.
        After the end every agent is stepped out with None (PettingZoo's dead step); once
        all are, stepping with None does nothing. Anything else refused raises ValueError
        and changes nothing."""
        agent = self._selected()
        if agent not in self.terminations:  # every agent was stepped out after the end
            if action is not None:
                raise ValueError("the episode is over: reset() to play again")
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # refuses anything but None
            return
        index = _action_index(action, self.layout.size, agent)
        mask = self.action_mask()
        if not 0 <= index < self.layout.size or not mask[index]:
            raise ValueError(f"action {index} ({self._name(index)}) is not allowed now")
        self._cumulative_rewards[agent] = 0.0
        finished = self._take(index)
        self._mask_cache = None
        if finished and self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[i]) for i, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        if not self.state.is_terminal():
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self._selected()
        if agent not in self.terminations:
            # Stepped out after the end: its view of the final state, its reward collected.
            return self.observe(agent) if observe else None, 0.0, True, False, {}
        return super().last(observe)

    def _selected(self) -> str:
        agent = getattr(self, "agent_selection", None)
        if agent is None or self.state is None:
            raise ValueError("call reset() before step() or last()")
        return agent

    def render(self) -> str | None:
        if self.state is None:
            return None
        seat = self.state.current_player if not self.state.is_terminal() else 0
        text = f"{self.ruleset.id}: {self.state.phase}, seat {seat} to act\n" \
               f"{self.state.observation(max(seat, 0))}"
        if self.building:
            text += f"\nbuilding: {nt.format_cards(sorted(self.building))}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None

    # ------------------------------------------------------------ actions

    def action_names(self) -> list[str]:
        """The stable meaning of every action index (see docs/environment.md)."""
        return self.layout.names()

    def _name(self, index: int) -> str:
        names = self.layout.names()
        return names[index] if 0 <= index < len(names) else "out of range"

    def action_mask(self) -> np.ndarray:
        if self._mask_cache is None:  # cleared by every step
            self._mask_cache = self._tile_mask() if self.family == "tiles" else self._card_mask()
        return self._mask_cache

    def _take(self, index: int) -> bool:
        """Apply an action index; True when it changed the game (not only the build)."""
        if self.family == "tiles":
            self.state.apply(self._tile_action(index))
            return True
        lay = self.layout
        assert isinstance(lay, CardLayout)
        if index < CARD_KINDS:
            self.building.append(index)
            return False
        act = self._card_action(index)
        assert act is not None
        self.state.apply(act)
        self.building = []
        return True

    def _card_action(self, index: int) -> Action | None:
        lay = self.layout
        assert isinstance(lay, CardLayout)
        cards = tuple(sorted(self.building))
        if index == lay.pass_:
            return Action("pass")
        if index == lay.claim:
            return Action("claim")
        if lay.first_bid <= index < lay.size:
            return Action("bid", amount=lay.bids[index - lay.first_bid])
        if not cards:
            return None
        if index == lay.commit:
            for kind in CARD_COMMIT_KINDS:
                act = Action(kind, cards)
                if self.state.is_legal(act):
                    return act
            return None
        if lay.first_pattern <= index < lay.first_bid:
            return Action("play", cards, lay.patterns[index - lay.first_pattern])
        return None

    def _card_mask(self) -> np.ndarray:
        lay = self.layout
        assert isinstance(lay, CardLayout)
        mask = np.zeros(lay.size, np.int8)
        st = self.state
        if not self.building:
            for index in (lay.pass_, lay.claim, *range(lay.first_bid, lay.size)):
                act = self._card_action(index)
                mask[index] = act is not None and st.is_legal(act)
        for kind in st.addable(tuple(sorted(self.building))):
            mask[kind] = 1
        if self.building:
            cards = tuple(sorted(self.building))
            for kind in CARD_COMMIT_KINDS:
                if st.is_legal(Action(kind, cards)):
                    mask[lay.commit] = 1
                    break
            else:
                for i, name in enumerate(lay.patterns):
                    if st.is_legal(Action("play", cards, name)):
                        mask[lay.first_pattern + i] = 1
        return mask

    def _tile_mask(self) -> np.ndarray:
        lay = self.layout
        assert isinstance(lay, TileLayout)
        mask = np.zeros(lay.size, np.int8)
        discard = self._last_discard()
        for act in self.state.legal_actions():
            mask[lay.index(act, discard)] = 1
        return mask

    def _last_discard(self) -> int | None:
        if self.state.phase == "rob" and self.state.kong_tile is not None:
            return self.state.kong_tile["tile"]
        last = self.state.last_discard
        return None if last is None else last["tile"]

    def _tile_action(self, index: int) -> Action:
        lay = self.layout
        assert isinstance(lay, TileLayout)
        discard = self._last_discard()
        for act in self.state.legal_actions():
            if lay.index(act, discard) == index:
                return act
        raise ValueError(f"action {index} is not legal now")  # the mask prevents this

    # ------------------------------------------------------------ observations

    def _zero_observation(self) -> list[float]:
        self.state = self.ruleset.new_game(seed=0, hands=self.hands)
        self.building = []
        return self._encode(0)

    def _encode(self, seat: int) -> list[float]:
        obs = self.state.observation(seat)
        p = self.players
        order = [(seat + r) % p for r in range(p)]  # relative seats: me first
        out: list[float] = []
        phase = self.state.phase
        phases = PHASES[self.family]
        out += [1.0 if phase == x else 0.0 for x in phases]
        out += _one_hot(p, None if obs.get("to_act") is None else order.index(obs["to_act"]))
        dealer = obs.get("dealer")
        out += _one_hot(p, None if dealer is None else order.index(dealer))
        if self.family == "tiles":
            out += self._encode_tiles(obs, order)
        else:
            out += self._encode_cards(obs, order, seat)
        return out

    def _encode_cards(self, obs: dict, order: list[int], seat: int) -> list[float]:
        p = self.players
        out = _card_counts(obs.get("hand", ""))
        out += _counts(self.building if seat == self.state.current_player else [], CARD_KINDS)
        table: dict[int, str] = {}
        if "trick" in obs:
            table = {s: cards for s, cards in obs["trick"]}
        elif obs.get("last"):
            table = {obs["last"]["seat"]: obs["last"]["cards"]}
        played: dict[int, list[int]] = {s: [] for s in range(p)}
        for event in obs.get("log", []):
            if event.get("type") == "play" and event.get("hand", 0) == obs.get("hand_no", 0):
                played[event["seat"]] += nt.parse_cards(event["cards"])
        for s in order:
            out += _card_counts(table.get(s, ""))
        for s in order:
            out += _counts(played[s], CARD_KINDS)
        out += _card_counts(obs.get("kitty", ""))
        sizes = obs.get("hand_sizes") or obs.get("cards_left") or [0] * p
        out += [float(sizes[s]) for s in order]
        out += _one_hot(len(TRUMP_SUITS), TRUMP_SUITS.index(obs.get("trump"))
                        if obs.get("trump") in TRUMP_SUITS else None)
        level = obs.get("level")
        level_rank = nt.RANK_VALUES.get(level, None) if isinstance(level, str) else None
        if isinstance(level, str) and level.isdigit():
            level_rank = int(level)
        out += _one_hot(len(LEVELS), LEVELS.index(level_rank) if level_rank in LEVELS else None)
        captured = obs.get("captured") or [0] * p
        out += [float(captured[s]) for s in order]
        out += [float(obs.get("defender_points", obs.get("round_points", 0)))]
        return out

    def _encode_tiles(self, obs: dict, order: list[int]) -> list[float]:
        out = _tile_counts(obs.get("hand", ""))
        mine = [t for meld in obs.get("melds", []) for t in _meld_tiles(meld)]
        others = obs.get("others_melds", {})
        for r, s in enumerate(order):
            if r == 0:
                out += _counts(mine, TILE_KINDS)
            else:
                melds = others.get(str(s), others.get(s, []))
                out += _counts([t for m in melds for t in _meld_tiles(m)], TILE_KINDS)
        for s in order:
            out += _tile_counts(obs.get("discards", [""] * self.players)[s])
        for s in order:
            out += _tile_counts(obs.get("flowers", [""] * self.players)[s])
        last = obs.get("last_discard")
        last_tile = None
        if isinstance(last, dict):
            tile = last["tile"]
            last_tile = tile if isinstance(tile, int) else nt.parse_tiles(tile)[0]
        out += _one_hot(TILE_KINDS, last_tile)
        turned = obs.get("turned")
        out += _one_hot(TILE_KINDS, nt.parse_tiles(turned)[0] if turned else None)
        out += [float(obs.get("wall_left", 0))]
        sizes = obs.get("hand_sizes", [0] * self.players)
        out += [float(sizes[s]) for s in order]
        voids = obs.get("voids") or [None] * self.players  # 定缺, as far as it is shown
        for s in order:
            out += _one_hot(len(VOID_SUITS), list(VOID_SUITS).index(voids[s])
                            if voids[s] in VOID_SUITS else None)
        won = obs.get("won", [])  # players out of play (血战到底)
        out += [1.0 if s in won else 0.0 for s in order]
        return out


def _action_index(action: Any, size: int, agent: str) -> int:
    """An action as an index: an int or numpy integer (a 0-d integer array too), never a
    bool, a float or text, which int() would quietly turn into some action."""
    if isinstance(action, np.ndarray) and action.shape == () and \
            np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        what = "None" if action is None else f"{action!r} ({type(action).__name__})"
        raise ValueError(f"{agent} is to act: give an action index, an int from 0 to "
                         f"{size - 1}, not {what}")
    return int(action)


def _one_hot(n: int, index: int | None) -> list[float]:
    out = [0.0] * n
    if index is not None:
        out[index] = 1.0
    return out


def _counts(kinds: list[int], size: int) -> list[float]:
    out = [0.0] * size
    for k in kinds:
        if 0 <= k < size:
            out[k] += 1.0
    return out


def _card_counts(text: str) -> list[float]:
    return _counts(nt.parse_cards(text) if text else [], CARD_KINDS)


def _tile_counts(text: str) -> list[float]:
    return _counts(nt.parse_tiles(text) if text else [], TILE_KINDS)


def _meld_tiles(meld: Any) -> list[int]:
    """The tiles of a shown meld, as the tile engine's observation lists it."""
    kind, first = meld[0], meld[1]
    tile = nt.parse_tiles(first)[0] if isinstance(first, str) else int(first)
    if kind == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if "kong" in kind else 3)


def make_env(ruleset: Ruleset | str, render_mode: str | None = None,
             hands: int = 1) -> RulesetEnv:
    from ..api import load

    rs = load(ruleset) if isinstance(ruleset, str) else ruleset
    return RulesetEnv(rs, render_mode=render_mode, hands=hands)

