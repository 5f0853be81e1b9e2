"""A saved shedding state: the deal event, the auction, the tribute and the play to beat,
checked against the log."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...model.patterns import readings
from ..base import MATCH_HAND_LIMIT
from .reader import Reader, fail, plus, show, vector

SHED_PHASES = ("auction", "play", "over")
TRIBUTE_PHASES = ("tribute", "return")  # engine/shedding/tribute.py
LAST_KEYS = ("seat", "cards", "pattern", "size", "key", "bomb", "bomb_size", "exclusive")


def check_shedding(r: Reader, d: dict[str, Any]) -> None:
    g, n, kinds = r.game, r.n, r.kinds
    rules = g.rules
    hand_no, max_hands, phase = r.common()
    hc = g.hc
    if g.levels is not None:  # the hand's level and each side's, on the levels ladder
        ladder = g.levels["ladder"]
        names = [nt.rank_name(x) for x in ladder]
        level = d["level"]
        if level not in ladder or type(level) is not int:
            fail("level", f"{show(level)} is not a level (one of {', '.join(names)})")
        side_levels = r.items(d["side_levels"], "side_levels")
        if len(side_levels) != len(g.ruleset.teams):
            fail("side_levels", f"{show(side_levels)} does not give every side a level")
        for i, x in enumerate(side_levels):
            if x not in ladder or type(x) is not int:
                fail(f"side_levels[{i}]", f"{show(x)} is not a level")
        if level not in side_levels and phase != "over":  # (over: the winner has climbed)
            fail("level", f"{nt.rank_name(level)} is no side's level")
        hc = g.context(level).hc
        if rules.top_failures:
            failed = r.items(d["top_failed"], "top_failed")
            if len(failed) != len(g.ruleset.teams):
                fail("top_failed", f"{show(failed)} does not count every side's failures")
            for i, x in enumerate(failed):
                if type(x) is not int or not 0 <= x < rules.top_failures:
                    fail(f"top_failed[{i}]", f"{show(x)} is not a count of failures "
                          f"(0 to {rules.top_failures - 1})")
    r.choice(phase, "phase", SHED_PHASES + (TRIBUTE_PHASES if rules.tribute else ()))
    over = phase == "over"
    hands = r.each(d["hands"], "hands", r.counts, n)
    unused = r.kind_list(d["unused"], "unused")
    kitty = r.kind_list(d["kitty"], "kitty")
    to_act = r.seat(d["to_act"], "to_act", none=True)
    last = d["last"]
    if last is not None:
        r.record(last, "last", LAST_KEYS)
        r.seat(last["seat"], "last.seat")
        last_cards = r.cards(last["cards"], "last.cards")
        if not last_cards:
            fail("last.cards", "the play to beat shows no cards")
        r.choice(last["pattern"], "last.pattern", [p.name for p in g.ruleset.patterns])
        r.integer(last["size"], "last.size", 1, what="a size (1 or more)")
        r.number(last["key"], "last.key")
        r.flag(last["bomb"], "last.bomb")
        r.number(last["bomb_size"], "last.bomb_size")
        r.flag(last["exclusive"], "last.exclusive")
        fields = tuple(last[k] for k in LAST_KEYS[2:])
        if not any((x.pattern, x.size, x.key, x.bomb, x.bomb_size, x.exclusive) == fields
                   for x in readings(hc, sorted(last_cards))):
            fail("last", f"{last['cards']} does not read as that {last['pattern']}")
    passes = r.count(d["passes"], "passes")
    round_points = r.integer(d["round_points"], "round_points")
    captured = r.each(d["captured"], "captured", r.integer, n)
    out = r.seats(d["out"], "out")
    r.seat(d["first_leader"], "first_leader", none=True)
    r.log(hand_no)
    results = r.results(hand_no, lambda result, path: _shed_result(r, result, path))
    r.totals(results, "returns")
    auction = d["auction"]
    if auction is not None:
        r.record(auction, "auction", ("bid", "high", "opener", "turns", "passes"))
        r.count(auction["bid"], "auction.bid")
        r.seat(auction["high"], "auction.high", none=True)
        r.seat(auction["opener"], "auction.opener")
        r.count(auction["turns"], "auction.turns")
        r.count(auction["passes"], "auction.passes")
    dealer = r.seat(d["dealer"], "dealer", none=True)
    sides = r.items(d["sides"], "sides")
    for i, side in enumerate(sides):
        r.seats(side, f"sides[{i}]")

    if rules.tribute is not None:
        _shed_tribute(r, d["tribute"], phase, to_act, results,
                      r.hand_events(hand_no - 1 if over else hand_no))
        if phase in TRIBUTE_PHASES and (last is not None or out or passes or round_points
                                        or any(captured)):
            fail("last", "cards played during the tribute")
    # -- the phase
    if over:
        if to_act is not None:
            fail("to_act", f"{to_act}: nobody acts once the game is over")
        ended = bool(results) and results[-1].get("match_winner") is not None
        if not ended and hand_no != max_hands and hand_no != MATCH_HAND_LIMIT:
            fail("phase", "over before the hands to play are done")
    else:
        if to_act is None:
            fail("to_act", f"None: the {phase} phase needs a seat to act")
        if max_hands is not None and hand_no >= max_hands:
            fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s) is not played")
    base_sides = [[s for s in seats if s < n] for seats in g.ruleset.teams]
    alone = [[dealer], [s for s in range(n) if s != dealer]]
    if sides != base_sides and not (rules.sides == "dealer_alone" and dealer is not None
                                    and phase != "auction" and sides == alone):
        fail("sides", f"{show(sides)} are not this game's sides")
    bids = rules.auction["bids"] if rules.auction else []
    if (auction is None) != (rules.auction is None) and not over:
        fail("auction", "does not match the ruleset's auction" if auction is not None
              else "None: this game starts every hand with an auction")
    events = r.hand_events(hand_no - 1 if over else hand_no)
    if phase == "auction":
        _shed_auction(r, auction, dealer, to_act, events, bids, rules.auction)
        if last is not None or out or passes or round_points or any(captured):
            fail("last", "cards played during the auction")
    elif phase == "play":
        if auction is not None:
            high = auction["high"]
            if high is None or dealer != high:
                fail("dealer", f"{dealer}: the auction's winner {high} deals")
            if auction["bid"] not in bids and auction["bid"] != rules.auction["default_bid"]:
                fail("auction.bid", f"{show(auction['bid'])} is not one of the bids")
        if not any(hands[to_act]):
            fail("to_act", f"{to_act} holds no cards")
        empty = {s for s in range(n) if not any(hands[s])}
        if set(out) != empty:
            fail("out", f"{show(out)}, but seats {sorted(empty)} hold no cards")
    # -- the log: the play to beat, passes, rounds, seats out
    plays = [(i, e) for i, e in events if e["type"] == "play"]
    at = plays[-1][0] if plays else -1
    after = [e for i, e in events if i > at]
    if last is not None:
        if not plays:
            fail("last", "no play this hand to beat")
        event = plays[-1][1]
        if event["seat"] != last["seat"] or event.get("pattern") != last["pattern"] or \
                sorted(r.cards(event["cards"], f"log[{at}].cards")) != sorted(last_cards):
            fail("last", f"is not the log's last play (log[{at}])")
    if phase == "play":
        rounds_after = any(e["type"] == "round" for e in after)
        if last is None and plays and not rounds_after:
            fail("last", "None, yet the round of the last play is not over")
        if last is not None and rounds_after:
            fail("last", "the round of this play is over")
        since = sum(1 for e in after if e["type"] == "pass") if last is not None else 0
        if passes != since:
            fail("passes", f"{show(passes)}, but the log shows another number of passes "
                  f"since the last play")
        if last is not None:
            others = sum(1 for s in range(n) if s != last["seat"] and any(hands[s]))
            if passes >= others:
                fail("passes", f"{show(passes)}: every other seat has passed, the round is "
                      f"over")
    points = hc.points
    won = [0] * n
    table = 0
    for i, e in events:
        if e["type"] == "round":
            winner = r.seat(e.get("winner"), f"log[{i}].winner")
            won[winner] += r.integer(e.get("points"), f"log[{i}].points")
            table = 0
        elif e["type"] == "play":
            table += sum(points[k] for k in r.cards(e["cards"], f"log[{i}].cards"))
    if won != captured:
        fail("captured", f"{show(captured)}, but the log's rounds give {show(won)}")
    if round_points != table:
        fail("round_points", f"{show(round_points)}, but this round's plays hold {table}")
    gone = [e["seat"] for _, e in events if e["type"] in ("out", "claim")]  # a claim wins
    if out != gone:
        fail("out", f"{show(out)} is not the log's order of seats going out")
    # -- conservation: per seat against its deal, with the kitty the dealer took and the
    # cards given between hands (tribute)
    played = r.played(events)
    for i, e in events:
        if e["type"] == "give":
            giver, taker = r.seat(e.get("seat"), f"log[{i}].seat"), \
                r.seat(e.get("to"), f"log[{i}].to")
            card = r.cards(e.get("card"), f"log[{i}].card")
            if len(card) != 1:
                fail(f"log[{i}].card", "a give event moves one card")
            played[giver] = plus(played[giver], vector(kinds, card))
            played[taker] = [a - b for a, b in zip(played[taker], vector(kinds, card))]
    deal = next(((i, e) for i, e in events if e["type"] == "deal"), None)
    took = next((e for _, e in events if e["type"] == "dealer"), None)
    if took is not None and took.get("seat") != dealer:
        fail("dealer", f"{dealer}, but seat {took.get('seat')} took the kitty")
    if phase == "play" and auction is not None and took is None and deal is not None:
        fail("log", "an auction's hand in play, but nobody took the kitty")
    if deal is None:
        if not events or events[0][1]["type"] != "position":
            fail("log", f"hand {hand_no} has no deal")
        total = vector(kinds, unused, kitty)
        for s in range(n):
            total = plus(total, plus(hands[s], played[s]))
        r.conserved(total, "hands", "the hands, this hand's plays, the kitty and unused cards")
        return
    at, event = deal
    dealt = r.items(event.get("hands"), f"log[{at}].hands", n)
    if kitty != r.cards(event.get("kitty"), f"log[{at}].kitty"):
        fail("kitty", "is not the kitty dealt")
    if unused != r.cards(event.get("unused"), f"log[{at}].unused"):
        fail("unused", "is not the cards the deal left unused")
    total = vector(kinds, unused, kitty)
    for s in range(n):
        mine = vector(kinds, r.cards(dealt[s], f"log[{at}].hands[{s}]"))
        total = plus(total, mine)
        have = plus(hands[s], played[s])
        if took is not None and s == dealer:
            mine = plus(mine, vector(kinds, kitty))
        r.equal(have, mine, f"hands[{s}]", ("held and played", "dealt"))
    r.conserved(total, f"log[{at}]", "the hands dealt, the kitty and the unused cards")


def _shed_tribute(r: Reader, t: Any, phase: str, to_act: int | None,
                  results: list[dict[str, Any]], events: list) -> None:
    """The tribute agrees with the last hand's finishing order, the phase and the log."""
    g = r.game
    if t is None:
        if phase in TRIBUTE_PHASES:
            fail("tribute", f"None in the {phase} phase")
        return
    r.record(t, "tribute", ("payers", "receivers", "paid", "back"))
    # The tribute paid before the hand in play (over: before the hand that ended the game).
    before = results[:-1] if phase == "over" else results
    if not before:
        fail("tribute", "a tribute before the first hand")
    order = before[-1]["order"]
    sides = {s: i for i, seats in enumerate(g.ruleset.teams) for s in seats}
    if g.rules.tribute["both_last"] and len(order) >= 4 and \
            sides[order[-1]] == sides[order[-2]] != sides[order[0]]:
        payers, receivers = [order[-2], order[-1]], [order[0], order[1]]
    else:
        payers, receivers = [order[-1]], [order[0]]
    if t["payers"] != payers or t["receivers"] != receivers:
        fail("tribute", "its payers and receivers are not the last hand's")
    paid = r.items(t["paid"], "tribute.paid")
    back = r.items(t["back"], "tribute.back")
    for name, entries, seats in (("paid", paid, payers), ("back", back, receivers)):
        for i, entry in enumerate(entries):
            if not isinstance(entry, list) or len(entry) != 2 or entry[0] not in seats:
                fail(f"tribute.{name}[{i}]", f"{show(entry)} is not [seat, card]")
            r.integer(entry[1], f"tribute.{name}[{i}][1]", 0, len(g.ruleset.deck) - 1,
                      "a card kind")
    if len(paid) > len(payers) or len(back) > len(receivers) or \
            (back and len(paid) != len(payers)):
        fail("tribute", "more cards paid or given back than the tribute has")
    if sorted(p[0] for p in paid) != sorted(payers[:len(paid)]) or \
            [b[0] for b in back] != receivers[:len(back)]:
        fail("tribute", "paid or given back out of turn")
    if phase == "tribute" and (len(paid) == len(payers) or to_act != payers[len(paid)]):
        fail("to_act", f"{to_act}: not the payer whose turn it is")
    if phase == "return" and (len(paid) != len(payers) or len(back) == len(receivers)
                              or to_act != receivers[len(back)]):
        fail("to_act", f"{to_act}: not the receiver whose turn it is")
    if phase not in TRIBUTE_PHASES and (len(paid) != len(payers)
                                        or len(back) != len(receivers)):
        fail("tribute", f"unfinished in the {phase} phase")
    gives = [e for _, e in events if e["type"] == "give"]
    expect = len(payers) + len(back) if phase != "tribute" else 0
    if len(gives) != expect:
        fail("log", "the give events do not match the tribute")


def _shed_auction(r: Reader, auction: dict[str, Any] | None, dealer: int | None,
                  to_act: int | None, events: list, bids: list[int],
                  rule: dict[str, Any] | None) -> None:
    """The auction agrees with the log's bids and passes, and its turn order."""
    if auction is None or rule is None:
        fail("auction", "None in the auction phase")
    if dealer is not None:
        fail("dealer", f"{dealer} before the auction is over")
    turns = [e for _, e in events if e["type"] in ("bid", "pass", "claim")]
    made = [e for e in turns if e["type"] == "bid"]
    high = made[-1]["seat"] if made else None
    bid = made[-1].get("amount") if made else 0
    since = 0
    for e in turns:
        since = 0 if e["type"] == "bid" else since + 1
    if (auction["turns"], auction["high"], auction["bid"], auction["passes"]) != \
            (len(turns), high, bid, since):
        fail("auction", f"{show(auction)} does not agree with the log's bids and passes")
    if bid and bid not in bids:
        fail("auction.bid", f"{bid} is not one of the bids")
    step = 1 if rule["direction"] == "counter-clockwise" else -1
    seat = (auction["opener"] + step * auction["turns"]) % r.n
    if to_act != seat:
        fail("to_act", f"{to_act}: seat {seat} bids next")


def _shed_result(r: Reader, result: dict[str, Any], path: str) -> None:
    """What the engine reads back from a result: the finishing order, the dealer and the
    returns (the totals)."""
    order = r.seats(result.get("order"), f"{path}.order")
    if len(order) != r.n:
        fail(f"{path}.order", f"{show(order)} does not order every seat")
    r.seat(result.get("dealer"), f"{path}.dealer", none=True)
    r.each(result.get("returns"), f"{path}.returns", r.number, r.n)
    if result.get("match_winner") is not None:
        if r.game.levels is None:
            fail(f"{path}.match_winner", "this game has no levels, so no match winner")
        r.integer(result["match_winner"], f"{path}.match_winner", 0,
                  len(r.game.ruleset.teams) - 1, "a side")


# ---------------------------------------------------------------- tiles
