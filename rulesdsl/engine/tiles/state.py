"""The tile-matching state machine: wall, wild tile, bonus tiles, draws, discards, claims,
kongs, wins, exhaustive draws and settlement for every player.

One generic interpreter: the tile set, the wild rule, which tiles are set aside as
bonus tiles, the winning shape, claims, scoring items and payments all come from the
ruleset (`tileset`, `define`, `wilds`, `win`, `scoring`, `play`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ... import notation as nt
from ...errors import RulesdslError
from ...model.ruleset import Ruleset
from ...runtime.expressions import Env
from ..base import (
    MATCH_HAND_LIMIT,
    VOID_SUITS,
    Action,
    EngineState,
    Position,
    restore_state,
    void_suit_name,
)
from ..shuffle import shuffle
from .actions import DISCARD, PASS, TileActions
from .hidden import TileHidden
from .ledger import Ledger
from .memo import ReadTrie
from .settlement import SUITED_HONOR, Settlement
from .shapes import WinShape
from .winning import WinningHands

EAST = nt.tile_kind("1z")
TILE_TEXT = tuple(nt.format_tile(k) for k in range(nt.TILE_KINDS))  # for the log
CLAIM_RANK = {"win": 0, "kong": 1, "pung": 2, "chow": 3}


def _text(kinds: Sequence[int]) -> str:
    """nt.format_tiles of valid kinds, from the table."""
    return " ".join([TILE_TEXT[k] for k in kinds])


def _tile_or_none(kind: int | None) -> str | None:
    return None if kind is None else nt.format_tile(kind)


class HandSpec:
    """What the turned tile fixes for a hand, as integer tables (built once per turned
    tile and ruleset): which kinds are wild, which are set aside as bonus tiles."""

    __slots__ = ("wild", "bonus", "plain_wild_kinds", "stray_kinds", "bonus_kinds",
                 "discards")

    def __init__(self, wild: list[bool], bonus: list[bool]):
        self.wild = wild
        self.bonus = bonus
        self.plain_wild_kinds = tuple(k for k, w in enumerate(wild) if w and k < SUITED_HONOR)
        # held tiles that are neither wild nor part of a set: they block a win
        self.stray_kinds = tuple(k for k in range(SUITED_HONOR, nt.TILE_KINDS) if not wild[k])
        self.bonus_kinds = tuple(k for k, b in enumerate(bonus) if b)
        # per kind, its discard action (None: a bonus tile is set aside, never discarded)
        self.discards = tuple(None if b else DISCARD[k] for k, b in enumerate(bonus))


class TileGame:
    """A tile-family ruleset ready to play."""

    def __init__(self, ruleset: Ruleset):
        if ruleset.family != "tiles":
            raise RulesdslError(f"{ruleset.id} is a {ruleset.family} ruleset, not tiles")
        if ruleset.play is None or ruleset.win is None:
            raise RulesdslError(f"{ruleset.id} needs play: and win: sections for the tile "
                                "engine (`rulesdsl doc --language play` describes them)")
        self.ruleset = ruleset
        self.rules = ruleset.play
        self.players = ruleset.players
        self.hand_size = ruleset.deal["hand_size"]
        self.dealer_extra = ruleset.deal.get("dealer_extra", 0)
        # deal.turn_up: wild turns up a tile after the deal (the `turned` context, 财神);
        # none turns up nothing (the hand's turned tile is None)
        self.turn_up = ruleset.deal.get("turn_up", "none") != "none"
        win = ruleset.win
        self.shape = WinShape(win.get("sets", 4), win.get("pairs", 1),
                              frozenset(win.get("set_kinds", ["chow", "pung", "kong"])))
        self.sets_needed = win.get("sets", 4)
        # win.seven_pairs (七对): a hand of pairs only, no melds, wins too
        self.seven_pairs = (3 * self.sets_needed + 2 * win.get("pairs", 1)) // 2 \
            if win.get("seven_pairs") else 0
        self.tiles = ruleset.every_card()
        # the kinds of the tile set that take part in sets, in order
        self.suited_kinds = tuple(sorted({t for t in self.tiles if t < SUITED_HONOR}))
        self.kong_rates = any((self.rules.kong_exposed, self.rules.kong_added,
                               self.rules.kong_concealed))
        # the suits a void may be named in (定缺): those of the tile set
        self.void_suits = tuple(k for k in VOID_SUITS.values() if self.tiles.count(k))
        # settlements at an exhaustive draw (play.exhaustive_draw)
        self.draw_rules = (self.rules.void_held_pays is not None
                           or self.rules.not_ready_pays != "nothing"
                           or self.rules.refund_kongs != "none")
        self._specs: dict[int, HandSpec] = {}
        self.step = 1 if ruleset.direction == "counter-clockwise" else -1  # to the next seat
        # per seat, the others in turn order after it
        self.after = tuple(tuple((s + i * self.step) % self.players
                                 for i in range(1, self.players))
                           for s in range(self.players))
        # Memos of pure functions of their keys (the ruleset is fixed for this game).
        self._wall_phases: dict[int, str] = {}  # tiles left -> wall phase
        self._phase_starts: dict[int, bool] = {}  # tiles left -> a new phase starts there
        self._live: dict[tuple[int | None, int], bool] = {}  # (turned, seen) -> live tile?
        self._limit_values: dict[int | None, tuple[dict, dict]] = {}  # see limit_values
        self._limits: dict[tuple, str | None] = {}  # limit-hand scope -> its name
        # per limit hand, (its condition, that condition memoised on the values it reads)
        self.limit_conditions = [(lh.when, ReadTrie()) for lh in ruleset.limit_hands]

    def spec(self, turned: int | None) -> HandSpec:
        """Per tile kind, for this hand's turned tile: wild? bonus? (evaluated once)."""
        spec = self._specs.get(turned)
        if spec is None:
            values = {**self.ruleset.options, "turned": turned}
            wild = [False] * nt.TILE_KINDS
            bonus = [False] * nt.TILE_KINDS
            for kind in range(nt.TILE_KINDS):
                env = Env(kind, values)
                wild[kind] = any(bool(w.select(env)) for w in self.ruleset.wilds)
                bonus[kind] = bool(self.rules.bonus(env)) if self.rules.bonus else False
            spec = self._specs[turned] = HandSpec(wild, bonus)
        return spec

    def tables(self, turned: int) -> dict[str, list[bool]]:
        """Per tile kind, for this hand's turned tile: wild? bonus?"""
        spec = self.spec(turned)
        return {"wild": spec.wild, "bonus": spec.bonus}

    def wall_phase(self, tiles_left: int) -> str:
        phase = self._wall_phases.get(tiles_left)
        if phase is None:
            table = self.rules.wall
            if table is None:
                phase = "play" if tiles_left > 0 else "exhausted"
            else:
                phase = self.ruleset.tables[table].lookup({"tiles_left": tiles_left})["phase"]
            self._wall_phases[tiles_left] = phase
        return phase

    def limit_values(self, turned: int | None) -> tuple[dict[str, Any], dict[tuple, Any]]:
        """The named values limit-hand conditions read for this turned tile, with the
        hashable forms of those read so far (memo.ReadTrie), kept per turned tile."""
        hit = self._limit_values.get(turned)
        if hit is None:
            hit = self._limit_values[turned] = ({**self.ruleset.options, "turned": turned},
                                                {})
        return hit

    def phase_starts(self, tiles_left: int) -> bool:
        """Does the draw that leaves `tiles_left` start a new wall phase?"""
        starts = self._phase_starts.get(tiles_left)
        if starts is None:
            starts = self._phase_starts[tiles_left] = self.rules.wall is not None and \
                self.wall_phase(tiles_left) != self.wall_phase(tiles_left + 1)
        return starts

    def new_game(self, seed: int = 0, hands: int | None = 1) -> TileState:
        state = TileState(self)
        state.seed = seed
        state.max_hands = hands
        state.totals = [0.0] * self.players
        state.dealer = random.Random(f"{seed}/dealer").randrange(self.players)
        state._start_hand()
        return state

    def state_from_json(self, text: str) -> TileState:
        return restore_state(TileState, self, text)

    def position(self, pos: Position) -> Any:
        """A state at a given position (play scenarios: engine/tiles/position.py)."""
        from .position import build_position

        return build_position(self, pos)


class TileState(TileActions, WinningHands, Ledger, Settlement, TileHidden, EngineState):
    """A game (one or more hands) of a tile ruleset."""

    family = "tiles"

    FIELDS = (
        "seed", "max_hands", "hand_no", "dealer", "phase", "wall", "front", "back", "turned",
        "hands", "melds", "flowers", "discards", "to_act", "drawn", "source", "last_discard",
        "claim_queue", "claims", "kong_tile", "pung_locks", "wild_discarded", "live_discards",
        "seen", "voids", "kong_bills", "hand_wins", "log", "results", "totals",
    )

    def __init__(self, game: TileGame):
        super().__init__(game)
        self.seed = 0
        self.max_hands: int | None = 1
        self.hand_no = 0
        self.dealer = 0
        self.phase = "turn"
        self.wall: list[int] = []
        self.front = 0
        self.back = 0
        self.turned: int | None = 0  # None: no tile is turned up (deal.turn_up: none)
        self.hands: list[list[int]] = []
        self.melds: list[list[list[Any]]] = []  # [kind, tile, concealed]
        self.flowers: list[list[int]] = []
        self.discards: list[list[int]] = []
        self.to_act: int | None = None
        self.drawn: int | None = None
        self.source = "wall"  # how the acting player got their last tile
        self.last_discard: dict[str, int] | None = None
        self.claim_queue: list[int] = []
        self.claims: list[list[Any]] = []  # [seat, kind, tiles]
        self.kong_tile: dict[str, int] | None = None  # an added kong waiting to be robbed
        self.pung_locks: list[list[int]] = []
        self.wild_discarded: list[bool] = []
        self.live_discards: list[dict[str, Any]] = []
        self.seen: list[int] = []  # tiles discarded or claimed so far (for live tiles)
        # per seat, its void suit (定缺, play.void_suit) as the suit's first tile kind, or
        # None (not yet declared, or no void suits)
        self.voids: list[int | None] = []
        # this hand's kong payments so far (play.kong_payments), each {seat: the kong's
        # maker, payments: per seat}, paid at once and settled into the hand's result at
        # its end; a bill passed on to a winner (呼叫转移) is marked transferred, and the
        # passing is a bill of its own (transfer: true, kong: the bill's index)
        self.kong_bills: list[dict[str, Any]] = []
        # this hand's wins so far when winners leave play (play.after_win: winner_leaves),
        # each scored and paid (paid into the totals when the hand ends)
        self.hand_wins: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.totals: list[float] = []
        # Not state, only memos (never copied or saved): the claim options of the last
        # discard per seat, and the legal actions of the current decision.
        self._claim_memo: tuple[dict[str, int], dict[int, tuple]] | None = None
        self._actions_memo: tuple[tuple, Any, Any, list[Action]] | None = None
        self._spec_memo: tuple[int | None, HandSpec] | None = None  # see _spec
        self._sampled_from: list[Action] | None = None  # the list _sampled was drawn from
        # Per seat, the group keys (shapes.suit_keys) of the concealed tiles 0–33 without
        # the wilds, and the wilds: (the hands list, per seat winning._hand_entry or None).
        # Kept current by _move; rebuilt when a hands list or the wild table is replaced
        # (deal, restore).
        self._keys: tuple[list[list[int]], list[list[Any] | None]] | None = None
        # Per seat, limit hands by number of wilds, valid while the seat's melds and
        # flowers lists, their lengths, _meld_version (bumped when a meld changes in
        # place), the turned tile and the dealer stay the same.
        self._limit_memo: dict[int, tuple[Any, ...]] = {}
        self._meld_version = 0

    # ------------------------------------------------------------ the API

    def returns(self) -> list[float]:
        if (self.kong_bills or self.hand_wins) and self.phase != "over":
            out = [t + k for t, k in zip(self.totals, self.kong_paid)]
            for rec in self.hand_wins:
                out = [a + b for a, b in zip(out, rec["payments"])]
            return out
        return list(self.totals)

    def observation(self, player: int) -> dict[str, Any]:
        if type(player) is not int or not 0 <= player < self.game.players:
            raise RulesdslError(f"no seat {player!r}: a seat is an int from 0 to "
                                f"{self.game.players - 1}")
        last = self.last_discard
        return {
            "seat": player,
            "hand": nt.format_tiles(self._tiles(self.hands[player])) if self.hands else "",
            "melds": [[m[0], nt.format_tile(m[1]), m[2]] for m in self.melds[player]],
            "others_melds": {s: [[m[0], nt.format_tile(m[1])] for m in self.melds[s]
                                 if not m[2]] for s in range(self.game.players)},
            "flowers": [nt.format_tiles(f) for f in self.flowers],
            "discards": [nt.format_tiles(d) for d in self.discards],
            "turned": _tile_or_none(self.turned),
            "wall_left": self.back - self.front,
            "wall_phase": self._wall_phase() if self.wall else None,
            # 定缺: one's own at once, the others' once every seat has chosen
            "voids": [None if v is None or (s != player and None in self.voids)
                      else void_suit_name(v) for s, v in enumerate(self.voids)],
            "won": [w["winner"] for w in self.hand_wins],  # players who left play
            "dealer": self.dealer,
            "to_act": self.to_act,
            "phase": self.phase,
            "hand_sizes": [sum(h) for h in self.hands],
            "last_discard": None if last is None else dict(last),  # a copy, not the state's
        }

    # ------------------------------------------------------------ helpers

    def _tiles(self, counts: list[int]) -> list[int]:
        return [k for k, c in enumerate(counts) for _ in range(c)]

    def _next(self, seat: int) -> int:
        return (seat + self.game.step) % self.game.players

    def _event(self, **event: Any) -> None:
        event["hand"] = self.hand_no
        self.log.append(event)

    def _spec(self) -> HandSpec:
        """The hand's spec (game.spec of the turned tile), kept while the tile stays."""
        memo = self._spec_memo
        if memo is None or memo[0] != self.turned:
            memo = self._spec_memo = (self.turned, self.game.spec(self.turned))
        return memo[1]

    @property
    def wild(self) -> list[bool]:
        return self._spec().wild

    @property
    def bonus(self) -> list[bool]:
        return self._spec().bonus

    def _wall_phase(self) -> str:
        return self.game.wall_phase(self.back - self.front)

    def _seat_wind(self, seat: int) -> int:
        # The dealer is East; seats follow in turn order (南家 is the dealer's next player).
        offset = (seat - self.dealer) % self.game.players
        if self.game.ruleset.direction != "counter-clockwise":
            offset = (self.dealer - seat) % self.game.players
        return EAST + offset

    # ------------------------------------------------------------ the deal

    def _start_hand(self) -> None:
        g = self.game
        rng = random.Random(f"{self.seed}/{self.hand_no}/shuffle")
        wall = list(g.tiles)
        shuffle(rng, wall)
        dice = [rng.randint(1, 6) for _ in range(g.ruleset.deal.get("dice", 0))]
        # The break only rotates where drawing starts; the wall stays a fixed sequence.
        cut = (sum(dice) * 2) % len(wall) if dice else 0
        self.wall = wall[cut:] + wall[:cut]
        self.front, self.back = 0, len(self.wall)
        self.hands = [[0] * nt.TILE_KINDS for _ in range(g.players)]
        self.melds = [[] for _ in range(g.players)]
        self.flowers = [[] for _ in range(g.players)]
        self.discards = [[] for _ in range(g.players)]
        self.pung_locks = [[] for _ in range(g.players)]
        self.wild_discarded = [False] * g.players
        self.live_discards = []
        self.seen = []
        self.claims, self.claim_queue = [], []
        self.kong_tile = None
        self.last_discard = None
        for i in range(g.hand_size * g.players):
            seat = (self.dealer + i) % g.players
            self.hands[seat][self._draw_front()] += 1
        for _ in range(g.dealer_extra):
            self.hands[self.dealer][self._draw_front()] += 1
        # 「庄家再抓一张后留下的下面那张就是财神」: the next tile is turned up and set aside.
        self.turned = self._draw_front() if g.turn_up else None
        self._event(type="deal", dealer=self.dealer, dice=dice, turned=_tile_or_none(
            self.turned), hands=[_text(self._tiles(h)) for h in self.hands])
        seat = self.dealer
        for _ in range(g.players):
            self._expose_bonus(seat)
            seat = self._next(seat)
        self.voids = [None] * g.players
        self.kong_bills = []
        self.hand_wins = []
        self.phase = "void" if g.rules.void_suit == "declare" else "turn"
        self.to_act = self.dealer
        self.drawn = None
        self.source = "deal"

    def _draw_front(self) -> int:
        tile = self.wall[self.front]
        self.front += 1
        self._wall_phase_changed()
        return tile

    def _draw_back(self) -> int:
        self.back -= 1
        self._wall_phase_changed()
        return self.wall[self.back]

    def _wall_phase_changed(self) -> None:
        """Announce a new wall phase as the draw that starts it is made (「进入生牌阶段时应
        作特殊提醒」)."""
        left = self.back - self.front
        g = self.game
        if g.phase_starts(left):
            self._event(type="wall_phase", phase=g.wall_phase(left), tiles_left=left)

    def _discard_phase(self) -> str:
        """The wall phase a discard belongs to: the one its turn was played in. The last
        discard, made as the wall runs out (only a win may follow it), belongs to the
        phase before the wall's end."""
        g = self.game
        left = self.back - self.front
        phase = g.wall_phase(left)
        while phase == "exhausted" and left < len(g.tiles):
            left += 1
            phase = g.wall_phase(left)
        return phase

    def _expose_bonus(self, seat: int) -> bool:
        """Set bonus tiles aside, each replaced from the wall's end. True if any was."""
        any_exposed = False
        kinds = self._spec().bonus_kinds
        if not any(map(self.hands[seat].__getitem__, kinds)):
            return False  # the common case: no bonus tile held
        while True:
            bonus = [k for k in kinds if self.hands[seat][k]]
            if not bonus or self.back <= self.front:
                return any_exposed
            for kind in bonus:
                while self.hands[seat][kind]:
                    self._move(seat, kind, -1)
                    self.flowers[seat].append(kind)
                    self._event(type="bonus", seat=seat, tile=TILE_TEXT[kind])
                    if self.back > self.front:
                        new = self._draw_back()
                        self._move(seat, new, 1)
                        self.drawn = new
                    any_exposed = True

    # ------------------------------------------------------------ applying

    def _evaluates(self, act: Action) -> bool:
        # Rules that can fail (failing_rules: formulas and tables) run only when a hand is
        # settled (a win, or the wall's end), or on a draw when the wall table can fail.
        # An action checks the wall's end at most once, at the tiles left now, before any
        # draw; so with no win in it and the wall not at its end, nothing can fail.
        g = self.game
        failing = g.ruleset.failing_rules
        if failing is None or (g.rules.wall is not None and g.rules.wall in failing):
            return True
        if act.kind == "win" or self.back <= self.front or self._wall_phase() == "exhausted":
            return True
        return self.phase != "turn" and any(c[1] == "win" for c in self.claims)

    def _do(self, act: Action, checked: object = None) -> None:
        self._sampled = None  # a new decision follows
        if isinstance(checked, Action):
            act = checked
        seat = self.to_act
        assert seat is not None
        if self.phase == "void":
            self._do_void(seat, act)
        elif self.phase == "turn":
            self._do_turn(seat, act)
        elif self.phase == "claims":
            self._do_claim(seat, act)
        elif self.phase == "rob":
            self._do_rob(seat, act)

    def _do_void(self, seat: int, act: Action) -> None:
        """定缺: the seat names its void suit; after the last seat the dealer plays."""
        self.voids[seat] = act.cards[0]
        self._event(type="void", seat=seat)  # the suit is shown once all have chosen
        nxt = self._next(seat)
        if all(v is not None for v in self.voids):
            self._event(type="voids", suits=[void_suit_name(v) for v in self.voids
                                             if v is not None])
            self.phase, self.to_act = "turn", self.dealer
        else:
            self.to_act = nxt

    def _do_turn(self, seat: int, act: Action) -> None:
        if act.kind == "win":
            self._event(type="win", seat=seat, self_drawn=True)
            self._settle([seat], None, self_drawn=True)
            return
        if act.kind == "concealed_kong":
            tile = act.cards[0]
            self._move(seat, tile, -4)
            self.melds[seat].append(["kong", tile, True])
            self._event(type="concealed_kong", seat=seat, tile=TILE_TEXT[tile])
            self._pay_kong(seat, self.game.rules.kong_concealed, None)
            self._replacement(seat, "kong")
            return
        if act.kind == "added_kong":
            tile = act.cards[0]
            self.kong_tile = {"seat": seat, "tile": tile}
            robbers = [s for s in self._order_after(seat)
                       if self.game.rules.rob_kong == "added_only"
                       and not self.wild_discarded[s] and self._can_win(s, tile)]
            if robbers:
                self.phase = "rob"
                self.claim_queue = robbers
                self.to_act = robbers[0]
                return
            self._complete_added_kong()
            return
        tile = act.cards[0]
        self._move(seat, tile, -1)
        self.discards[seat].append(tile)
        self.seen.append(tile)
        if self._spec().wild[tile] and self.game.rules.discarded_wild == "forfeit":
            self.wild_discarded[seat] = True
        phase = self._discard_phase()
        self.last_discard = {"seat": seat, "tile": tile}
        if phase == "live_tile":
            self.live_discards.append({"seat": seat, "tile": tile,
                                       "live": self._is_live(self.seen.count(tile) - 1)})
        self._event(type="discard", seat=seat, tile=TILE_TEXT[tile])
        self.pung_locks[seat] = []  # a new go-around for this player
        self.claims = []
        self.claim_queue = self._claims_on(seat)
        if self.claim_queue:
            self.phase = "claims"
            self.to_act = self.claim_queue[0]
        else:
            self._next_turn(seat)

    def _order_after(self, seat: int) -> Sequence[int]:
        """The other players still in play, in turn order after `seat`."""
        after = self.game.after[seat]
        if not self.hand_wins:
            return after
        won = self._won()
        return [s for s in after if s not in won]

    def _do_claim(self, seat: int, act: Action) -> None:
        assert self.last_discard is not None
        tile = self.last_discard["tile"]
        if act == PASS:
            if any(a.kind == "pung" for a in self._claim_options(seat)):
                self.pung_locks[seat].append(tile)  # 「同一圈内放弃碰的牌不能再碰」
            self._event(type="pass", seat=seat)
        else:
            self.claims.append([seat, act.kind, list(act.cards)])
            self._event(type="claim", seat=seat, claim=act.kind,
                        tiles=_text(act.cards))
        self.claim_queue.pop(0)
        if act.kind == "win" or any(c[1] == "win" for c in self.claims):
            if self.game.rules.discard_wins == "first_in_turn":
                # The first winner in turn order cannot be outranked: stop asking.
                self.claim_queue = []
            else:  # 一炮多响: ask on only those who may also win
                self.claim_queue = [s for s in self.claim_queue
                                    if any(a.kind == "win" for a in self._claim_options(s))]
        if not self.claim_queue:
            self._resolve_claims()
            return
        self.to_act = self.claim_queue[0]

    def _resolve_claims(self) -> None:
        assert self.last_discard is not None
        discarder, tile = self.last_discard["seat"], self.last_discard["tile"]
        order = self._order_after(discarder)
        self.claim_queue = []
        if not self.claims:
            self._next_turn(discarder)
            return
        seat, kind, tiles = min(self.claims, key=lambda c: (CLAIM_RANK[c[1]], order.index(c[0])))
        winners = sorted((c[0] for c in self.claims if c[1] == "win"), key=order.index)
        self.claims = []
        self.discards[discarder].pop()
        if kind == "win":
            for w in winners:
                self._event(type="win", seat=w, self_drawn=False, discarder=discarder)
            self._settle(winners, discarder, self_drawn=False, win_tile=tile)
            return
        for t in tiles:
            self._move(seat, t, -1)
        if kind == "chow":
            meld_tile = min([tile, *tiles])
        else:
            meld_tile = tile
        self.melds[seat].append([kind, meld_tile, False])
        self.seen.extend(tiles)
        self._event(type=kind, seat=seat, tile=TILE_TEXT[meld_tile], discarder=discarder)
        self.last_discard = None
        if kind == "kong":
            self._pay_kong(seat, self.game.rules.kong_exposed, discarder)
            self._replacement(seat, "kong")
            return
        self.phase = "turn"
        self.to_act = seat
        self.drawn = None
        self.source = "claim"

    def _do_rob(self, seat: int, act: Action) -> None:
        assert self.kong_tile is not None
        if act.kind == "win" and self.game.rules.discard_wins == "first_in_turn":
            self.claims, self.claim_queue = [[seat, "win", []]], []  # the first robber wins
        elif act.kind == "win":  # 一炮多响: every robber may win
            self.claims.append([seat, "win", [self.kong_tile["tile"]]])
            self._event(type="claim", seat=seat, claim="win",
                        tiles=TILE_TEXT[self.kong_tile["tile"]])
        else:
            self._event(type="pass", seat=seat)
        if self.claim_queue:
            self.claim_queue.pop(0)
        if self.claim_queue:
            self.to_act = self.claim_queue[0]
            return
        if self.claims:
            owner, tile = self.kong_tile["seat"], self.kong_tile["tile"]
            winners = [c[0] for c in self.claims]
            self.claims = []
            self._move(owner, tile, -1)
            for w in winners:
                self._event(type="win", seat=w, robbed_kong=True, discarder=owner)
            self._settle(winners, owner, self_drawn=False, win_tile=tile, robbed=True)
            return
        self._complete_added_kong()

    def _complete_added_kong(self) -> None:
        assert self.kong_tile is not None
        seat, tile = self.kong_tile["seat"], self.kong_tile["tile"]
        self._move(seat, tile, -1)
        for m in self.melds[seat]:
            if m[0] == "pung" and m[1] == tile and not m[2]:
                m[0] = "kong"
                self._meld_version += 1  # changed in place: the limit memo must see it
                break
        self.kong_tile = None
        self._event(type="added_kong", seat=seat, tile=TILE_TEXT[tile])
        self._pay_kong(seat, self.game.rules.kong_added, None)
        self._replacement(seat, "kong")

    def _replacement(self, seat: int, why: str) -> None:
        """A kong's replacement tile from the wall's end."""
        self.phase = "turn"
        self.to_act = seat
        if self.back <= self.front:
            self._exhausted()
            return
        tile = self._draw_back()
        self._move(seat, tile, 1)
        self.drawn = tile
        self.source = why
        if self._expose_bonus(seat):  # the kong's chain goes on through bonus tiles
            self.source = "kong_bonus" if why == "kong" else "bonus"

    def _next_turn(self, after: int) -> None:
        self.last_discard = None
        if self._wall_phase() == "exhausted" or self.back <= self.front:
            self._exhausted()
            return
        seat = self._next(after)
        if self.hand_wins:  # players who have won are out of play
            won = self._won()
            while seat in won:
                seat = self._next(seat)
        tile = self._draw_front()
        self._move(seat, tile, 1)
        self.drawn = tile
        self.source = "wall"
        if self._expose_bonus(seat):
            self.source = "bonus"
        self.phase = "turn"
        self.to_act = seat

    def _finish_hand(self) -> None:
        self.hand_no += 1
        if (self.max_hands is not None and self.hand_no >= self.max_hands) \
                or self.hand_no >= MATCH_HAND_LIMIT:
            self.phase = "over"
            self.to_act = None
            return
        self._start_hand()
