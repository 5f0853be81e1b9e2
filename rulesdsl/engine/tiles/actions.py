"""The legal actions of a tile state: listed once per decision (memoised), sampled, checked,
and explained when illegal; the claims a discard allows, found for every seat at once.
Mixed into TileState, whose fields it reads."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import compress
from typing import TYPE_CHECKING, Any

from ... import notation as nt
from ..base import VOID_SUITS, Action, IllegalAction
from .settlement import SUITED_HONOR

if TYPE_CHECKING:
    from .state import HandSpec

PASS = Action("pass")
WIN = Action.of("win")

# Action objects are immutable: one shared instance per tile and kind saves building and
# sorting them on every call (and lets membership tests hit on identity first).
DISCARD = tuple(Action.of("discard", [k]) for k in range(nt.TILE_KINDS))
WIN_ON = tuple(Action.of("win", [k]) for k in range(nt.TILE_KINDS))
CONCEALED_KONG = tuple(Action.of("concealed_kong", [k] * 4) for k in range(nt.TILE_KINDS))
ADDED_KONG = tuple(Action.of("added_kong", [k]) for k in range(nt.TILE_KINDS))
KONG = tuple(Action.of("kong", [k] * 3) for k in range(nt.TILE_KINDS))
PUNG = tuple(Action.of("pung", [k] * 2) for k in range(nt.TILE_KINDS))
# Per suited tile, the chows it completes, lowest first: (the two held tiles, the action).
CHOWS = tuple(tuple((*need, Action.of("chow", need))
                    for lo in range(max(t - t % 9, t - 2), min(t, t - t % 9 + 6) + 1)
                    for need in [[x for x in (lo, lo + 1, lo + 2) if x != t]])
              for t in range(27))
VOID = {k: Action("void", (k,)) for k in VOID_SUITS.values()}


class TileActions:
    """The legal actions and the claims (reads TileState's fields)."""

    game: Any
    phase: str
    to_act: int | None
    hands: list[list[int]]
    melds: list[list[list[Any]]]
    voids: list[int | None]
    wild_discarded: list[bool]
    source: str
    front: int
    back: int
    turned: int | None
    hand_no: int
    log: list[dict[str, Any]]
    last_discard: dict[str, int] | None
    claims: list[list[Any]]
    pung_locks: list[list[int]]
    kong_tile: dict[str, int] | None
    _sampled: tuple[Any, Any] | None
    _sampled_from: list[Action] | None
    _claim_memo: Any
    _actions_memo: Any
    # TileState's and its mixins' helpers
    _spec: Any
    _can_win: Any
    _void_held: Any
    _wall_phase: Any
    _next: Any
    _order_after: Any

    def sample_action(self, rng: random.Random) -> Action:
        actions = self._actions()
        if not actions:
            raise IllegalAction("the game is over")
        act = actions[rng.randrange(len(actions))]
        # apply takes it unparsed, and _check knows it legal while its list is current
        self._sampled = (act, act)
        self._sampled_from = actions
        return act

    def _iter_actions(self) -> Iterator[Action]:
        return iter(self._actions())

    def _count_actions(self) -> int:
        return len(self._actions())

    def _check(self, act: Action) -> Action:
        actions = self._actions()
        sampled = self._sampled
        if sampled is not None and sampled[0] is act and self._sampled_from is actions:
            return act
        if act.kind == "win" and not act.cards and act not in actions:
            # A bare "win" names the one win on offer (the discard or the kong's tile).
            wins = [a for a in actions if a.kind == "win"]
            if len(wins) == 1:
                return wins[0]
        if act not in actions:
            raise IllegalAction(self._reason(act))
        return act

    def _actions(self) -> list[Action]:
        """The legal actions, memoised between sample_action, _check and _do of one
        decision: the key changes with every event the engine logs, and with the fields
        that position the turn (for states set up by hand)."""
        key = (len(self.log), self.hand_no, self.phase, self.to_act, self.front, self.back,
               self.source, self.turned)
        memo = self._actions_memo
        if (memo is not None and memo[0] == key and memo[1] is self.last_discard
                and memo[2] is self.hands):
            return memo[3]
        actions = self._list_actions()
        self._actions_memo = (key, self.last_discard, self.hands, actions)
        return actions

    def _list_actions(self) -> list[Action]:
        if self.phase == "over":
            return []
        seat = self.to_act
        assert seat is not None
        if self.phase == "void":
            return [VOID[k] for k in self.game.void_suits]
        if self.phase == "turn":
            return self._turn_actions(seat)
        if self.phase == "claims":
            options = self._claim_options(seat)
            if any(c[1] == "win" for c in self.claims):  # 一炮多响: only wins are left
                options = [a for a in options if a.kind == "win"]
            return [PASS, *options]
        if self.phase == "rob":
            assert self.kong_tile is not None
            return [PASS, Action.of("win", [self.kong_tile["tile"]])]
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        spec = self._spec()
        wild = spec.wild
        out: list[Action] = []
        # 自摸 is winning on a tile you drew yourself: not right after claiming a discard.
        if self.source != "claim" and not self.wild_discarded[seat] and self._can_win(seat):
            out.append(WIN)
        void = self._void_held(seat) if self.voids and self.voids[seat] is not None else None
        if void is not None:  # 定缺: the void suit's tiles are discarded first
            out += [DISCARD[k] for k in range(void, void + 9) if hand[k]]
        else:
            # in kind order, as held; a bonus tile kept (the wall had run out) has no
            # discard (None)
            out += [a for a in compress(spec.discards, hand) if a is not None]
        if self.back - self.front > 0 and self._wall_phase() != "exhausted":
            void = self.voids[seat] if self.voids else None
            if max(hand[:SUITED_HONOR]) >= 4:
                for kind in range(SUITED_HONOR):
                    if hand[kind] >= 4 and not wild[kind] and not (
                            void is not None and void <= kind < void + 9):
                        out.append(CONCEALED_KONG[kind])
            for m in self.melds[seat]:
                if m[0] == "pung" and not m[2] and hand[m[1]] and not wild[m[1]]:
                    out.append(ADDED_KONG[m[1]])
        return out

    def _claim_options(self, seat: int) -> list[Action]:
        """What `seat` may claim of the last discard. Memoised per discard: while claims
        are asked nobody's tiles change, and a pass only locks the passer's own pungs
        (that seat is not asked again for this discard)."""
        assert self.last_discard is not None
        memo = self._claim_memo
        if memo is None or memo[0] is not self.last_discard:
            memo = self._claim_memo = (self.last_discard, {})
        locks = tuple(self.pung_locks[seat])
        hit = memo[1].get(seat)
        if hit is not None and hit[0] == locks:
            return hit[1]
        found = self._compute_claim_options(seat)
        memo[1][seat] = (locks, found)
        return found

    def _claims_on(self, discarder: int) -> list[int]:
        """The seats that may claim the discard just made, in turn order, each one's
        options memoised for _claim_options (nobody has passed on it yet)."""
        last = self.last_discard
        assert last is not None
        options: dict[int, tuple] = {}
        self._claim_memo = (last, options)
        queue: list[int] = []
        spec = self._spec()  # the same for every seat: looked up once
        melds = last["tile"] < SUITED_HONOR and self._wall_phase() != "exhausted"
        for s in self._order_after(discarder):
            found = self._compute_claim_options(s, spec, melds)
            options[s] = (tuple(self.pung_locks[s]), found)
            if found:
                queue.append(s)
        return queue

    def _compute_claim_options(self, seat: int, spec: HandSpec | None = None,
                               melds: bool | None = None) -> list[Action]:
        """`spec`: the hand's; `melds`: may the discard be melded at all (no flower, not
        at the wall's end)? Both found here when not given."""
        assert self.last_discard is not None
        g = self.game
        rules = g.rules
        tile = self.last_discard["tile"]
        hand = self.hands[seat]
        if spec is None:
            spec = self._spec()
        wild = spec.wild
        out: list[Action] = []
        if wild[tile] and rules.discarded_wild == "forfeit":
            return out  # 「其它玩家也不能用打出来的“得”使自己的牌和倒」; wilds are not claimed
        if not self.wild_discarded[seat] and self._can_win(seat, tile, spec):
            out.append(WIN_ON[tile])
        if melds is None:
            melds = tile < SUITED_HONOR and self._wall_phase() != "exhausted"
        if not melds:
            return out  # at the wall's end only a win may follow the last discard
        void = self.voids[seat] if self.voids else None
        if void is not None and void <= tile < void + 9:
            return out  # 定缺: no claim of the void suit
        with_wilds = rules.claim_with_wilds
        usable = hand[tile] if with_wilds or not wild[tile] else 0
        if usable >= 3 and self.back - self.front > 0:
            out.append(KONG[tile])
        if usable >= 2 and not (rules.pung_pass_lock and tile in self.pung_locks[seat]):
            out.append(PUNG[tile])
        if tile < 27 and (rules.chow_from == "anyone" or (
                rules.chow_from == "previous_player"
                and seat == self._next(self.last_discard["seat"]))):
            for a, b, chow in CHOWS[tile]:
                if hand[a] and hand[b] and (with_wilds or not (wild[a] or wild[b])):
                    out.append(chow)
        return out

    def _reason(self, act: Action) -> str:
        if self.phase == "over":
            return "the game is over"
        seat = self.to_act
        assert seat is not None
        if self.phase == "void":
            return "name your void suit (定缺): void m, void p or void s"
        if self.phase == "turn":
            if act.kind == "discard" and self._void_held(seat) is not None \
                    and len(act.cards) == 1 and self.hands[seat][act.cards[0]]:
                return "discard the tiles of your void suit first (定缺)"
            if act.kind == "discard":
                if len(act.cards) != 1:
                    return "discard exactly one tile"
                if not self.hands[seat][act.cards[0]]:
                    return f"you hold no {nt.format_tile(act.cards[0])}"
                return f"{nt.format_tile(act.cards[0])} is set aside, not discarded"
            if act.kind == "win":
                return "your hand is not a winning hand" if not self.wild_discarded[seat] \
                    else "you discarded a wild: you cannot win this hand"
            if act.kind in ("concealed_kong", "added_kong"):
                return "you cannot declare that kong"
            return "on your turn: discard a tile, declare a kong, or win"
        if self.phase == "claims":
            if act.kind in ("chow", "pung", "kong", "win"):
                return f"you cannot {act.kind} {nt.format_tile(self.last_discard['tile'])}" \
                    if self.last_discard else "nothing to claim"
            return "claim the discard (win, kong, pung, chow) or pass"
        return "rob the kong (win) or pass"
