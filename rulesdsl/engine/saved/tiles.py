"""A saved tile-matching state: the wall, the melds, the pending claims and the ledger,
checked tile by tile."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ... import notation as nt
from ..base import MATCH_HAND_LIMIT, VOID_SUITS
from .reader import Reader, add, fail, plus, show, vector

MELD_KINDS = ("chow", "pung", "kong")
CLAIM_KINDS = ("win", "kong", "pung", "chow")
TILE_SOURCES = ("deal", "wall", "claim", "kong", "bonus", "kong_bonus")
SUITED_HONOR = 34  # tile kinds 0..33 form sets; 34.. are flowers


TILE_PHASES = ("void", "turn", "claims", "rob", "over")
TILE_ZONES = "the hands, melds, discards, flowers, the wall and the turned tile"


def _meld_tiles(kind: str, tile: int) -> list[int]:
    if kind == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if kind == "kong" else 3)


def _tile_claim(r: Reader, path: str, seat: int, kind: str, tiles: list[int],
                last: dict[str, int], hand: list[int]) -> None:
    """A claim waiting for the others' answers: a pung, kong or chow of the discard the
    seat could make with tiles it holds (a win is settled at once, never left waiting)."""
    tile = last["tile"]
    rules = r.game.rules
    if kind == "win":
        fail(f"{path}[1]", "a win is settled when claimed, never left waiting")
    if kind == "chow":
        run = sorted([*tiles, tile])
        ok = len(tiles) == 2 and run[2] < 27 and run[0] // 9 == run[2] // 9 and \
            run == list(range(run[0], run[0] + 3))
        step = 1 if r.game.ruleset.direction == "counter-clockwise" else -1
        if rules.chow_from == "previous_player" and seat != (last["seat"] + step) % r.n:
            fail(f"{path}[0]", f"seat {seat} may not chow seat {last['seat']}'s discard")
    else:
        ok = tiles == [tile] * (2 if kind == "pung" else 3)
    need = Counter(tiles)
    if not ok or any(hand[t] < c for t, c in need.items()):
        fail(f"{path}[2]", f"seat {seat} cannot {kind} {nt.format_tile(tile)} with "
              f"{show([nt.format_tile(t) for t in tiles])}")


def _tile_result(r: Reader, result: dict[str, Any], path: str) -> None:
    """What is read back from a hand's result: the payments (the totals), the winner and
    how the hand was won (where the winning tile went)."""
    r.each(result.get("payments"), f"{path}.payments", r.number, r.n)
    if "wins" in result:  # players left as they won: each win, and the sum
        wins = r.items(result["wins"], f"{path}.wins")
        total = [0.0] * r.n
        for i, win in enumerate(wins):
            if type(win) is not dict or not {"winner", "payments"} <= set(win):
                fail(f"{path}.wins[{i}]", "is not a win (winner, payments …)")
            r.seat(win["winner"], f"{path}.wins[{i}].winner")
            paid = r.each(win["payments"], f"{path}.wins[{i}].payments", r.number, r.n)
            total = [a + b for a, b in zip(total, paid)]
        for key in ("kong_payments", "draw_payments"):
            if key in result:
                extra = r.each(result[key], f"{path}.{key}", r.number, r.n)
                total = [a + b for a, b in zip(total, extra)]
        if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(total,
                                                                     result["payments"])):
            fail(f"{path}.payments", "are not the sum of its wins, kongs and draw "
                  "settlements")
        if result.get("winner") != (wins[0]["winner"] if wins else None):
            fail(f"{path}.winner", "is not its first win's")
        return
    if r.seat(result.get("winner"), f"{path}.winner", none=True) is not None:
        r.flag(result.get("self_drawn"), f"{path}.self_drawn")
        r.flag(result.get("robbed_kong"), f"{path}.robbed_kong")


def _tile_ledger(r: Reader, bills: list[Any], pending: list[Any],
                 events: list[dict[str, Any]]) -> None:
    """The hand's kong bills and wins so far, as its log has them: each kong_payment and
    kong_transfer event a bill, each win_settled event a win."""
    want: list[dict[str, Any]] = []
    logged_wins: list[dict[str, Any]] = []
    for e in events:
        kind = e.get("type")
        if kind == "kong_payment":
            want.append({"seat": e.get("seat"), "payments": e.get("payments")})
        elif kind == "kong_transfer":
            k = e.get("kong")
            if type(k) is not int or not 0 <= k < len(want):
                fail("kong_bills", "the log passes on a kong payment it never made")
            want[k]["transferred"] = True
            want.append({"seat": e.get("seat"), "payments": e.get("payments"),
                         "transfer": True, "kong": k})
        elif kind == "win_settled":
            logged_wins.append({k: v for k, v in e.items() if k not in ("type", "hand")})
    if len(bills) != len(want):
        fail("kong_bills", f"{len(bills)} bills, but the log shows {len(want)} this hand")
    for i, (bill, w) in enumerate(zip(bills, want)):
        path = f"kong_bills[{i}]"
        if not isinstance(bill, dict) or set(bill) != set(w):
            fail(path, f"{show(bill)} is not the log's bill {show(w)}")
        paid = r.each(bill["payments"], f"{path}.payments", r.number, r.n)
        if bill["seat"] != w["seat"] or bill.get("kong") != w.get("kong") or not all(
                math.isclose(a, b, abs_tol=1e-9) for a, b in zip(paid, w["payments"])):
            fail(path, f"{show(bill)} is not the log's bill {show(w)}")
    if len(pending) != len(logged_wins):
        fail("hand_wins", f"{len(pending)} wins, but the log settles {len(logged_wins)} "
              "this hand")
    for i, (rec, w) in enumerate(zip(pending, logged_wins)):
        if not isinstance(rec, dict) or {k: v for k, v in rec.items() if k != "scores"} != w:
            fail(f"hand_wins[{i}]", "is not the win the log settles")
        r.seat(rec["winner"], f"hand_wins[{i}].winner")
        r.each(rec["payments"], f"hand_wins[{i}].payments", r.number, r.n)


def check_tiles(r: Reader, d: dict[str, Any]) -> None:
    g, n, kinds = r.game, r.n, r.kinds
    hand_no, max_hands, phase = r.common()
    r.choice(phase, "phase", TILE_PHASES)
    over = phase == "over"
    r.seat(d["dealer"], "dealer")
    wall = r.kind_list(d["wall"], "wall")
    front = r.integer(d["front"], "front", 0, len(wall),
                      f"a place in the wall (0–{len(wall)})")
    back = r.integer(d["back"], "back", front, len(wall),
                     f"a place in the wall ({front}–{len(wall)})")
    if g.turn_up:
        turned = r.kind(d["turned"], "turned")
    elif d["turned"] is not None:
        fail("turned", "this ruleset turns up no tile: null")
    else:
        turned = None
    hands = r.each(d["hands"], "hands", r.counts, n)
    melds = r.items(d["melds"], "melds", n)
    for s, seat_melds in enumerate(melds):
        for i, meld in enumerate(r.items(seat_melds, f"melds[{s}]")):
            path = f"melds[{s}][{i}]"
            r.items(meld, path, 3)
            kind = r.choice(meld[0], f"{path}[0]", MELD_KINDS)
            tile = r.kind(meld[1], f"{path}[1]")
            if tile >= SUITED_HONOR or (kind == "chow" and (tile >= 27 or tile % 9 > 6)):
                fail(f"{path}[1]", f"no {kind} starts at {nt.format_tile(tile)}")
            if r.flag(meld[2], f"{path}[2]") and kind != "kong":
                fail(f"{path}[2]", f"a {kind} is never concealed")
    bonus = g.spec(turned).bonus
    for s, hand in enumerate(hands):
        # bonus tiles are set aside as they come, while the wall can replace them
        held = [k for k in g.spec(turned).bonus_kinds if hand[k]]
        if held and back > front:
            fail(f"hands[{s}][{held[0]}]", f"a bonus tile {nt.format_tile(held[0])} kept "
                  f"in hand")
    flowers = r.items(d["flowers"], "flowers", n)
    for s, tiles in enumerate(flowers):
        for i, tile in enumerate(r.kind_list(tiles, f"flowers[{s}]")):
            if not bonus[tile]:
                fail(f"flowers[{s}][{i}]", f"{nt.format_tile(tile)} is no bonus tile")
    discards = r.each(d["discards"], "discards", r.kind_list, n)
    to_act = r.seat(d["to_act"], "to_act", none=True)
    voids = r.items(d["voids"], "voids", n)
    suits = set(VOID_SUITS.values())
    for s, v in enumerate(voids):
        if v is not None and (g.rules.void_suit == "none" or type(v) is not int
                              or v not in suits):
            fail(f"voids[{s}]", f"{show(v)} is not a void suit of this ruleset")
    if g.rules.void_suit != "none" and phase not in ("void", "over") and None in voids:
        fail("voids", "every seat names its void suit before play")
    kong_bills = r.items(d["kong_bills"], "kong_bills")
    hand_wins = r.items(d["hand_wins"], "hand_wins")
    r.log(hand_no)
    this_hand = hand_no - 1 if over else hand_no
    _tile_ledger(r, kong_bills, hand_wins, [e for _, e in r.hand_events(this_hand)])
    won = set() if over else {w["winner"] for w in hand_wins}
    r.optional(d["drawn"], "drawn", r.kind)
    source = r.choice(d["source"], "source", TILE_SOURCES)
    last = d["last_discard"]
    if last is not None:
        r.record(last, "last_discard", ("seat", "tile"))
        r.seat(last["seat"], "last_discard.seat")
        r.kind(last["tile"], "last_discard.tile")
    queue = r.seats(d["claim_queue"], "claim_queue")
    claims = r.items(d["claims"], "claims")
    for i, claim in enumerate(claims):
        r.items(claim, f"claims[{i}]", 3)
        r.seat(claim[0], f"claims[{i}][0]")
        r.choice(claim[1], f"claims[{i}][1]", CLAIM_KINDS)
        r.kind_list(claim[2], f"claims[{i}][2]")
    kong = d["kong_tile"]
    if kong is not None:
        r.record(kong, "kong_tile", ("seat", "tile"))
        r.seat(kong["seat"], "kong_tile.seat")
        r.kind(kong["tile"], "kong_tile.tile")
    r.each(d["pung_locks"], "pung_locks", r.kind_list, n)
    r.each(d["wild_discarded"], "wild_discarded", r.flag, n)
    for i, live in enumerate(r.items(d["live_discards"], "live_discards")):
        r.record(live, f"live_discards[{i}]", ("seat", "tile", "live"))
        r.seat(live["seat"], f"live_discards[{i}].seat")
        r.kind(live["tile"], f"live_discards[{i}].tile")
        r.flag(live["live"], f"live_discards[{i}].live")
    seen = r.kind_list(d["seen"], "seen")
    for tile, c in Counter(seen).items():
        if c > r.deck[tile]:
            fail("seen", f"{c} × {nt.format_tile(tile)} seen; the deck has {r.deck[tile]}")
    r.log(hand_no)
    results = r.results(hand_no, lambda result, path: _tile_result(r, result, path))
    r.totals(results, "payments")
    total = vector(kinds, wall[front:back], [] if turned is None else [turned])
    for s in range(n):
        total = plus(total, hands[s])
        for meld in melds[s]:
            add(total, _meld_tiles(meld[0], meld[1]))
        add(total, discards[s])
        add(total, flowers[s])

    # -- the phase
    if over:
        if to_act is not None:
            fail("to_act", f"{to_act}: nobody acts once the game is over")
        if hand_no not in (max_hands, MATCH_HAND_LIMIT):
            fail("phase", "over before the hands to play are done")
        if not results or not isinstance(results[-1], dict):
            fail("results", "no result, yet the game is over")
        end = results[-1]
        needed = ("winner", "winners", "wins") if "wins" in end else ("winner",) \
            if end.get("winner") is None else ("winner", "self_drawn", "robbed_kong")
        for key in needed:
            if key not in end:
                fail(f"results[{len(results) - 1}]", f"lacks {key!r}")
        if end["winner"] is not None and "wins" not in end and not end["self_drawn"]:
            # the tile won on left the discards (or the robbed kong); when players leave
            # as they win, it went into the winner's hand
            won = kong if end["robbed_kong"] else last
            if won is None:
                fail("last_discard", "None, yet the last hand was won on a discard")
            total[won["tile"]] += 1
        r.conserved(total, "hands", TILE_ZONES)
        return
    if to_act is None:
        fail("to_act", f"None: the {phase} phase needs a seat to act")
    if to_act in won or won & set(queue):
        fail("to_act", f"{to_act}: a player who has won is out of play")
    if max_hands is not None and hand_no >= max_hands:
        fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s) is not played")
    extra = None  # the seat holding a tile more than a waiting hand
    if phase == "void":  # 定缺, before the dealer's first discard
        if last is not None or queue or claims or kong is not None or source != "deal":
            fail("phase", "void suits are named right after the deal, before any play")
        extra = d["dealer"]
    elif phase == "turn":
        if last is not None or queue or claims or kong is not None:
            fail("claim_queue", "claims pending on a seat's turn")
        extra = to_act
    elif phase == "claims":
        if last is None or kong is not None:
            fail("last_discard", "claims need a discard to claim")
        if not discards[last["seat"]] or discards[last["seat"]][-1] != last["tile"]:
            fail("last_discard", "is not the discarder's last discard")
        asked = [c[0] for c in claims]
        if not queue or to_act != queue[0] or last["seat"] in queue or \
                last["seat"] in asked or set(asked) & set(queue) or \
                len(set(asked)) != len(asked):
            fail("claim_queue", f"{show(queue)}: the seats asked about the discard "
                  f"(to_act {to_act})")
        for i, (seat, kind, tiles) in enumerate(claims):
            _tile_claim(r, f"claims[{i}]", seat, kind, tiles, last, hands[seat])
    else:
        if kong is None or last is not None or any(c[1] != "win" for c in claims) or (
                claims and g.rules.discard_wins != "every_claim"):
            fail("kong_tile", "robbing needs an added kong waiting")
        owner, tile = kong["seat"], kong["tile"]
        if not hands[owner][tile] or ["pung", tile, False] not in melds[owner]:
            fail("kong_tile", f"seat {owner} holds no {nt.format_tile(tile)} to add to an "
                  f"exposed pung")
        if not queue or to_act != queue[0] or owner in queue:
            fail("claim_queue", f"{show(queue)}: the seats that may rob (to_act {to_act})")
        extra = owner
    # -- conservation: wall, hands, melds, discards, flowers and the turned tile
    r.conserved(total, "hands", TILE_ZONES)
    # Every seat holds a waiting hand (melds counting three), the seat to act one more;
    # bonus tiles set aside after the wall ran out are not replaced.
    size = g.hand_size
    for s in range(n):
        held = sum(hands[s]) + 3 * len(melds[s])
        want = size + (g.dealer_extra if source == "deal" else 1) if s == extra else size
        if s in won:  # the nearest winner on a discard took the tile won on
            want = held if held in (size, size + 1) else size
        if held != want and not (back == front and held < want):
            fail(f"hands[{s}]", f"holds {held} tiles counting melds as three, not {want}")
