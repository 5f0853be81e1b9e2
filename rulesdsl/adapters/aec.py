"""A PettingZoo AEC environment over any ruleset (`rulesdsl.env`).

One adapter serves every family through the common state API. Card games build a play
one card kind at a time, then commit it: the distinct follows of a 3-deck trick game run
to hundreds of millions, too many to number, so the mask allows exactly the card kinds
that can still complete a legal play (`state.addable`, a feasibility check, never an
enumeration). Tile games number their few actions directly. The layouts are in
docs/environment.md.

Observations are written straight from the engine state's own data (hands as count
vectors, the trick or the play to beat, melds, discards, the log's plays), holding
exactly what `state.observation(seat)` shows that seat; nothing is formatted as text and
read back on the way. tests/test_env_arrays.py checks, step by step, that the arrays
equal the ones built by reading `observation()` itself.
"""

from __future__ import annotations

import random
from itertools import islice
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import notation as nt
from ..engine.base import TILE_ACTIONS, VOID_SUITS, Action, EngineState
from ..model.ruleset import Ruleset

CARD_KINDS = nt.CARD_KINDS
TILE_KINDS = nt.TILE_KINDS
# What a built set of cards is committed as, tried in this order: played, buried,
# declared, given as tribute or given back (the phase allows one of them at most).
CARD_COMMIT_KINDS = ("play", "bury", "declare", "tribute", "return")
PHASES = {
    "trick": ("deal", "bury", "play", "over"),
    "shedding": ("auction", "play", "over"),
    "tiles": ("void", "turn", "claims", "rob", "over"),
}
TRUMP_SUITS = (*nt.SUITS, None)
LEVELS = tuple(range(2, 15))
VOID_INDEX = {kind: i for i, kind in enumerate(VOID_SUITS.values())}  # void kind -> m, p, s

# A card kind's weight in the key of a play's ranks (`_rank_key`): plays of the same
# ranks have the same key. Two rank multisets sharing a key (random 64-bit weights: next
# to never) would only cost a legality check.
_RANK_WEIGHT = [random.Random(f"rank {r}").getrandbits(64) for r in range(32)]
_KIND_WEIGHT = [_RANK_WEIGHT[nt.card_rank(k)] for k in range(CARD_KINDS)]


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
    _BASE = {"discard": DISCARD, "concealed_kong": CONCEALED_KONG, "added_kong": ADDED_KONG}
    _FIXED = {"pass": PASS, "win": WIN, "pung": PUNG, "kong": KONG}

    def names(self) -> list[str]:
        out = ["pass", "win", "pung", "kong", "chow low", "chow middle", "chow high"]
        for what in ("discard", "concealed_kong", "added_kong"):
            out += [f"{what} {nt.format_tiles([k])}" for k in range(TILE_KINDS)]
        out += [f"void {suit}" for suit in VOID_SUITS]
        return out

    def index(self, act: Action, discard: int | None) -> int:
        kind = act.kind
        fixed = self._FIXED.get(kind)
        if fixed is not None:
            return fixed
        if kind == "chow":
            assert discard is not None
            return self.CHOW + sum(1 for t in act.cards if t < discard)
        if kind == "void":
            return self.VOID + VOID_INDEX[act.cards[0]]
        return self._BASE[kind] + act.cards[0]


class CardBlocks(NamedTuple):
    """Where each block of a card game's observation starts (docs/environment.md)."""

    hand: int
    building: int
    table: int
    played: int
    kitty: int
    sizes: int
    trump: int
    level: int
    captured: int
    points: int
    size: int


class TileBlocks(NamedTuple):
    """Where each block of a tile game's observation starts (docs/environment.md)."""

    hand: int
    melds: int
    discards: int
    flowers: int
    last: int
    turned: int
    wall: int
    sizes: int
    voids: int
    won: int
    size: int


def card_blocks(head: int, p: int) -> CardBlocks:
    hand = head
    building = hand + CARD_KINDS
    table = building + CARD_KINDS
    played = table + p * CARD_KINDS
    kitty = played + p * CARD_KINDS
    sizes = kitty + CARD_KINDS
    trump = sizes + p
    level = trump + len(TRUMP_SUITS)
    captured = level + len(LEVELS)
    points = captured + p
    return CardBlocks(hand, building, table, played, kitty, sizes, trump, level, captured,
                      points, points + 1)


def tile_blocks(head: int, p: int) -> TileBlocks:
    hand = head
    melds = hand + TILE_KINDS
    discards = melds + p * TILE_KINDS
    flowers = discards + p * TILE_KINDS
    last = flowers + p * TILE_KINDS
    turned = last + TILE_KINDS
    wall = turned + TILE_KINDS
    sizes = wall + 1
    voids = sizes + p
    won = voids + p * len(VOID_SUITS)
    return TileBlocks(hand, melds, discards, flowers, last, turned, wall, sizes, voids, won,
                      won + p)


class _Listing:
    """One decision's listed card actions, for a state whose `addable` is the engine's
    default (it reads the listed actions): which card kinds still grow a partial play (the
    same answer, kept per partial as the plays holding it, narrowed as cards are added),
    and the rank keys of the listed plays (a built set whose ranks no listed action shows
    is no legal action: no legality check needed)."""

    def __init__(self, state: Any, log_length: int, token: int):
        self.state = state
        self.log_length = log_length
        self.token = token
        actions = list(state.legal_actions())
        self.plain = [a for a in actions if not a.cards]  # pass, claim, bids
        shown = [a for a in actions if a.cards and a.kind not in TILE_ACTIONS]
        self.kinds = {a.kind for a in shown}
        self.cards = [a.cards for a in shown]
        self._anywhere: list[int] | None = None
        self._keys: dict[int, set[int]] | None = None  # play size -> rank keys
        # the last partial asked about and the listed plays holding it
        self._partial: tuple[int, ...] = ()
        self._holding = self.cards

    def addable(self, partial: tuple[int, ...]) -> list[int]:
        """EngineState.addable: the kinds some listed play holding `partial` has more of."""
        if not partial:
            if self._anywhere is None:
                self._anywhere = list(set().union(*self.cards))
            return self._anywhere
        last = self._partial
        if len(partial) == len(last) + 1 and _extends(partial, last):
            kind = _added(partial, last)
            n = partial.count(kind)
            holding = [c for c in self._holding if kind in c] if n == 1 else \
                [c for c in self._holding if c.count(kind) >= n]
        else:
            need = {k: partial.count(k) for k in set(partial)}
            holding = [c for c in self.cards if all(c.count(k) >= n for k, n in need.items())]
        self._partial, self._holding = partial, holding
        out = set().union(*holding)
        for k in set(partial):
            if k in out:
                n = partial.count(k)
                if not any(c.count(k) > n for c in holding):
                    out.discard(k)
        return list(out)

    def may_commit(self, partial: tuple[int, ...]) -> bool:
        """Could these cards be a listed action (their ranks are some listed play's)?"""
        if self._partial == partial and partial in self._holding:
            return True  # listed as they are
        keys = self._keys
        if keys is None:
            keys = self._keys = {}
            for c in self.cards:
                keys.setdefault(len(c), set()).add(_rank_key(c))
        return _rank_key(partial) in keys.get(len(partial), ())


def _rank_key(cards: tuple[int, ...]) -> int:
    """A key of the cards' ranks: cards of the same ranks (suits aside) share it."""
    return sum([_KIND_WEIGHT[k] for k in cards])


def _extends(partial: tuple[int, ...], last: tuple[int, ...]) -> bool:
    """Is `partial` (sorted) `last` (sorted) with one more card?"""
    i = 0
    skipped = False
    for k in partial:
        if i < len(last) and last[i] == k:
            i += 1
        elif skipped:
            return False
        else:
            skipped = True
    return i == len(last)


def _added(partial: tuple[int, ...], last: tuple[int, ...]) -> int:
    for i, k in enumerate(last):
        if partial[i] != k:
            return partial[i]
    return partial[-1]


# A log event's cards (the engines log plays as text): each distinct text is read once.
_PLAY_COUNTS: dict[str, np.ndarray] = {}


def _play_counts(text: str) -> np.ndarray:
    out = _PLAY_COUNTS.get(text)
    if out is None:
        if len(_PLAY_COUNTS) > 100_000:
            _PLAY_COUNTS.clear()
        out = np.zeros(CARD_KINDS, np.float32)
        for k in nt.parse_cards(text):
            if 0 <= k < CARD_KINDS:
                out[k] += 1.0
        _PLAY_COUNTS[text] = out
    return out


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
        p = self.players
        self.possible_agents = [f"player_{i}" for i in range(p)]
        self.layout: CardLayout | TileLayout = (
            TileLayout() if self.family == "tiles" else CardLayout(ruleset))
        self.metadata = {**self.metadata, "name": f"rulesdsl_{ruleset.id}"}
        self._phases = {x: i for i, x in enumerate(PHASES[self.family])}
        head = len(self._phases) + 2 * p
        self.blocks: CardBlocks | TileBlocks = (
            tile_blocks(head, p) if self.family == "tiles" else card_blocks(head, p))
        self.obs_size = self.blocks.size
        # per seat, the absolute seats in relative order (the observer first)
        self._orders = [[(seat + r) % p for r in range(p)] for seat in range(p)]
        self._order_arrays = [np.array(o) for o in self._orders]
        obs_space = spaces.Dict({
            "observation": spaces.Box(-1e6, 1e6, (self.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
        })
        act_space = spaces.Discrete(self.layout.size)
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self.state: Any = None
        self.building: list[int] = []
        self._token = 0  # bumped by every action the environment applies
        self._listing: _Listing | None = None
        self._mask_cache: np.ndarray | None = None
        # (state, token, built cards, the action committing them or None), from the mask
        self._commit: tuple[Any, int, tuple[int, ...], Action | None] | None = None
        # (state, token, log length, index -> the action it names), from the mask
        self._tile_actions: tuple[Any, int, int, dict[int, Action]] | None = None
        self._log_memo: list[Any] | None = None

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.state = self.ruleset.new_game(seed=0 if seed is None else seed, hands=self.hands)
        self.building = []
        self._token += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._mask_cache = None
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        st = self.state
        if self.family == "tiles":
            obs = self._tile_observation(st, seat)
        else:
            obs = self._card_observation(st, seat)
        if st.is_terminal() or seat != st.current_player:
            mask = np.zeros(self.layout.size, np.int8)
        else:
            mask = self.action_mask().copy()
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
        size = self.layout.size
        index = _action_index(action, size, agent)
        mask = self.action_mask()
        if not 0 <= index < size or not mask[index]:
            raise ValueError(f"action {index} ({self._name(index)}) is not allowed now")
        self._cumulative_rewards[agent] = 0.0
        finished = self._take(index)
        self._mask_cache = None
        st = self.state
        over = st.is_terminal()
        if finished and over:
            returns = st.returns()
            self.rewards = {a: float(returns[i]) for i, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        if not over:
            self.agent_selection = self.possible_agents[st.current_player]
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
            act = self._tile_action(index)
            self._token += 1
            self.state.apply(act)
            return True
        if index < CARD_KINDS:
            self.building.append(index)
            return False
        act = self._card_action(index)
        assert act is not None
        self._token += 1
        self.state.apply(act)
        self.building = []
        return True

    def _decision(self) -> _Listing | None:
        """This decision's listed card actions, when the state's `addable` reads them
        (None for a state with its own `addable`, whose actions are too many to list)."""
        st = self.state
        if type(st).addable is not EngineState.addable:
            return None
        known = self._listing
        if known is None or known.state is not st or known.token != self._token \
                or known.log_length != len(st.log):
            known = self._listing = _Listing(st, len(st.log), self._token)
        return known

    def _card_action(self, index: int) -> Action | None:
        lay = self.layout
        assert isinstance(lay, CardLayout)
        if index == lay.pass_:
            return Action("pass")
        if index == lay.claim:
            return Action("claim")
        if lay.first_bid <= index < lay.size:
            return Action("bid", amount=lay.bids[index - lay.first_bid])
        if not self.building:
            return None
        cards = tuple(sorted(self.building))
        if index == lay.commit:
            known = self._commit  # what the mask found for these cards
            if known is not None and known[0] is self.state and known[1] == self._token \
                    and known[2] == cards and known[3] is not None:
                return known[3]
            return self._commit_action(cards, None)
        if lay.first_pattern <= index < lay.first_bid:
            return Action("play", cards, lay.patterns[index - lay.first_pattern])
        return None

    def _commit_action(self, cards: tuple[int, ...], listing: _Listing | None
                       ) -> Action | None:
        """The action committing the built cards (played, buried, declared …), or None."""
        st = self.state
        kinds = CARD_COMMIT_KINDS if listing is None else \
            [k for k in CARD_COMMIT_KINDS if k in listing.kinds]
        for kind in kinds:
            act = Action(kind, cards)
            if st.is_legal(act):
                return act
        return None

    def _card_mask(self) -> np.ndarray:
        lay = self.layout
        assert isinstance(lay, CardLayout)
        mask = np.zeros(lay.size, np.int8)
        st = self.state
        if st.is_terminal():
            return mask
        listing = self._decision()
        cards = tuple(sorted(self.building))
        if listing is None:  # the state's own `addable`; every candidate checked
            if not cards:
                for index in (lay.pass_, lay.claim, *range(lay.first_bid, lay.size)):
                    act = self._card_action(index)
                    mask[index] = act is not None and st.is_legal(act)
            mask[list(st.addable(cards))] = 1
        else:
            if not cards:  # the listed pass, claim and bids are the legal ones
                for act in listing.plain:
                    index = self._plain_index(act)
                    if index is not None:
                        mask[index] = 1
            mask[listing.addable(cards)] = 1
            if cards and not listing.may_commit(cards):
                self._commit = (st, self._token, cards, None)
                return mask
        if cards:
            act = self._commit_action(cards, listing)
            self._commit = (st, self._token, cards, act)
            if act is not None:
                mask[lay.commit] = 1
            elif listing is None or "play" in listing.kinds:
                for i, name in enumerate(lay.patterns):
                    if st.is_legal(Action("play", cards, name)):
                        mask[lay.first_pattern + i] = 1
        return mask

    def _plain_index(self, act: Action) -> int | None:
        """The index of a pass, claim or bid (None: a bid the layout does not number)."""
        lay = self.layout
        assert isinstance(lay, CardLayout)
        if act.kind == "pass":
            return lay.pass_
        if act.kind == "claim":
            return lay.claim
        if act.kind == "bid" and act.amount in lay.bids:
            return lay.first_bid + lay.bids.index(act.amount)
        return None

    def _tile_mask(self) -> np.ndarray:
        lay = self.layout
        assert isinstance(lay, TileLayout)
        mask = np.zeros(lay.size, np.int8)
        st = self.state
        discard = self._last_discard()
        by_index: dict[int, Action] = {}
        for act in st.legal_actions():
            index = lay.index(act, discard)
            mask[index] = 1
            by_index.setdefault(index, act)
        self._tile_actions = (st, self._token, len(st.log), by_index)
        return mask

    def _last_discard(self) -> int | None:
        if self.state.phase == "rob" and self.state.kong_tile is not None:
            return self.state.kong_tile["tile"]
        last = self.state.last_discard
        return None if last is None else last["tile"]

    def _tile_action(self, index: int) -> Action:
        known = self._tile_actions
        st = self.state
        if known is None or known[0] is not st or known[1] != self._token \
                or known[2] != len(st.log):
            self._tile_mask()
            known = self._tile_actions
            assert known is not None
        act = known[3].get(index)
        if act is None:
            raise ValueError(f"action {index} is not legal now")  # the mask prevents this
        return act

    # ------------------------------------------------------------ observations

    def _head(self, out: np.ndarray, st: Any, seat: int, dealer: int | None) -> None:
        """Phase one-hot, seat to act and dealer one-hot over relative seats."""
        p = self.players
        phase = self._phases.get(st.phase)
        if phase is not None:
            out[phase] = 1.0
        base = len(self._phases)
        to_act = st.to_act
        if to_act is not None:
            out[base + (to_act - seat) % p] = 1.0
        if dealer is not None:
            out[base + p + (dealer - seat) % p] = 1.0

    def _card_observation(self, st: Any, seat: int) -> np.ndarray:
        """What `observation(seat)` shows, as arrays: in the shedding family no dealer,
        kitty, trump or level (the trump block says "none"), in the trick family no
        captured points; the kitty only to the dealer in play, and to all once over."""
        b = self.blocks
        assert isinstance(b, CardBlocks)
        p = self.players
        out = np.zeros(b.size, np.float32)
        trick = st.family == "trick"
        self._head(out, st, seat, st.dealer if trick else None)
        hands = st.hands
        if hands:
            hand = hands[seat]
            out[b.hand:b.hand + len(hand)] = hand
        if seat == st.current_player:
            for k in self.building:
                out[b.building + k] += 1.0
        at = b.table
        if trick:
            for s, cards in st.trick:
                base = at + (s - seat) % p * CARD_KINDS
                for k in cards:
                    out[base + k] += 1.0
        else:
            last = st.last
            if last:
                base = at + (last["seat"] - seat) % p * CARD_KINDS
                out[base:base + CARD_KINDS] = _play_counts(last["cards"])
        played = self._played(st)
        if played is not None:
            out[b.played:b.kitty] = played[self._order_arrays[seat]].ravel()
        if trick and (st.phase == "over" or (st.dealer == seat and st.phase == "play")):
            for k in st.kitty:
                out[b.kitty + k] += 1.0
        order = self._orders[seat]
        if hands:
            sizes = [sum(h) for h in hands]
            out[b.sizes:b.trump] = [sizes[s] for s in order]
        trump = st.trump if trick else None
        if trump in TRUMP_SUITS:
            out[b.trump + TRUMP_SUITS.index(trump)] = 1.0
        if trick:
            if 2 <= st.level <= 14:
                out[b.level + st.level - 2] = 1.0
            out[b.points] = st.defender_points
        else:
            captured = st.captured
            if captured:
                out[b.captured:b.points] = [captured[s] for s in order]
            out[b.points] = st.round_points
        return out

    def _played(self, st: Any) -> np.ndarray | None:
        """The cards each seat has played in this hand (rows by absolute seat), from the
        log's plays, each read once (the log only grows)."""
        log = st.log
        memo = self._log_memo
        if memo is None or memo[0] is not log or memo[1] > len(log):
            memo = self._log_memo = [log, 0, {}]
        if memo[1] < len(log):
            by_hand = memo[2]
            for event in islice(log, memo[1], None):
                if event.get("type") == "play":
                    hand_no = event.get("hand", 0)
                    rows = by_hand.get(hand_no)
                    if rows is None:  # a new hand: the earlier ones are never asked again
                        for done in [h for h in by_hand if h < hand_no]:
                            del by_hand[done]
                        rows = by_hand[hand_no] = np.zeros((self.players, CARD_KINDS),
                                                           np.float32)
                    rows[event["seat"]] += _play_counts(event["cards"])
            memo[1] = len(log)
        return memo[2].get(st.hand_no)

    def _tile_observation(self, st: Any, seat: int) -> np.ndarray:
        """What `observation(seat)` shows, as arrays: the others' melds without their
        concealed kongs, the others' voids once every seat has chosen."""
        b = self.blocks
        assert isinstance(b, TileBlocks)
        out = np.zeros(b.size, np.float32)
        self._head(out, st, seat, st.dealer)
        if st.hands:
            hand = st.hands[seat]
            out[b.hand:b.hand + len(hand)] = hand
        order = self._orders[seat]
        melds, discards, flowers = st.melds, st.discards, st.flowers
        for r, s in enumerate(order):
            base = b.melds + r * TILE_KINDS
            for kind, tile, concealed in melds[s]:
                if r and concealed:
                    continue
                if kind == "chow":
                    out[base + tile] += 1.0
                    out[base + tile + 1] += 1.0
                    out[base + tile + 2] += 1.0
                else:
                    out[base + tile] += 4.0 if "kong" in kind else 3.0
            base = b.discards + r * TILE_KINDS
            for t in discards[s]:
                out[base + t] += 1.0
            base = b.flowers + r * TILE_KINDS
            for t in flowers[s]:
                out[base + t] += 1.0
        last = st.last_discard
        if last is not None:
            out[b.last + last["tile"]] = 1.0
        if st.turned is not None:
            out[b.turned + st.turned] = 1.0
        out[b.wall] = st.back - st.front
        sizes = [sum(h) for h in st.hands]
        out[b.sizes:b.voids] = [sizes[s] for s in order]
        voids = st.voids
        if voids:
            hidden = None in voids  # the others' voids show once every seat has chosen
            for r, s in enumerate(order):
                v = voids[s]
                if v is not None and (r == 0 or not hidden) and v in VOID_INDEX:
                    out[b.voids + r * len(VOID_SUITS) + VOID_INDEX[v]] = 1.0
        if st.hand_wins:
            won = {w["winner"] for w in st.hand_wins}
            for r, s in enumerate(order):
                if s in won:
                    out[b.won + r] = 1.0
        return out


def _action_index(action: Any, size: int, agent: str) -> int:
    """An action as an index: an int or numpy integer (a 0-d integer array too), never a
    bool, a float or text, which int() would quietly turn into some action."""
    if type(action) is int:
        return action
    if isinstance(action, np.ndarray) and action.shape == () and \
            np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        what = "None" if action is None else f"{action!r} ({type(action).__name__})"
        raise ValueError(f"{agent} is to act: give an action index, an int from 0 to "
                         f"{size - 1}, not {what}")
    return int(action)


def make_env(ruleset: Ruleset | str, render_mode: str | None = None,
             hands: int = 1) -> RulesetEnv:
    from ..api import load

    rs = load(ruleset) if isinstance(ruleset, str) else ruleset
    return RulesetEnv(rs, render_mode=render_mode, hands=hands)
