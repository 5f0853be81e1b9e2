"""A saved trick-taking state: the deal order, the bury, the trick on the table and the
points, checked against the log."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...model.hand import TRUMP
from ...model.patterns import readings
from ...runtime.expressions import Env
from ..base import MATCH_HAND_LIMIT
from .reader import Reader, fail, plus, show, vector

TRICK_PHASES = ("deal", "bury", "play", "over")


def check_trick(r: Reader, d: dict[str, Any]) -> None:
    g, n, kinds = r.game, r.n, r.kinds
    rules = g.rules
    hand_no, max_hands, phase = r.common()
    r.choice(phase, "phase", TRICK_PHASES)
    over = phase == "over"
    ladder = g.ladder
    teams = len(g.ruleset.teams)
    r.each(d["team_levels"], "team_levels", lambda v, p: r.integer(
        v, p, 0, len(ladder) - 1, f"a place on the levels ladder (0–{len(ladder) - 1})"),
        teams)
    winner = r.optional(d["match_winner"], "match_winner", lambda v, p: r.integer(
        v, p, 0, teams - 1, f"a team (0–{teams - 1})"))
    dealer = r.seat(d["dealer"], "dealer", none=True)
    order = r.kind_list(d["deal_order"], "deal_order")
    to_hands = g.hand_size * n
    dealt = r.integer(d["dealt"], "dealt", 0, to_hands,
                      f"a number of cards dealt (0–{to_hands})")
    deal_start = r.seat(d["deal_start"], "deal_start")
    deal_seat = r.seat(d["deal_seat"], "deal_seat")
    hands = r.each(d["hands"], "hands", r.counts, n)
    kitty = r.kind_list(d["kitty"], "kitty")
    decl = d["declaration"]
    if decl is not None:
        r.record(decl, "declaration", ("seat", "kind", "count", "overcalled", "overcall_cards"))
        r.seat(decl["seat"], "declaration.seat")
        if r.kind(decl["kind"], "declaration.kind") >= nt.LITTLE_JOKER and (
                rules.declare_jokers == "none" or decl["count"] == 1):
            fail("declaration.kind", "a joker declares no suit"
                  + (" (a pair of one joker declares no trump)"
                     if rules.declare_jokers != "none" else ""))
        r.integer(decl["count"], "declaration.count", 1, rules.declare_max,
                  f"a number of cards (1–{rules.declare_max})")
        r.flag(decl["overcalled"], "declaration.overcalled")
        r.integer(decl["overcall_cards"], "declaration.overcall_cards", 0,
                  rules.declare_max, f"a number of cards (0–{rules.declare_max})")
    queue = r.optional(d["final_queue"], "final_queue", r.seats)
    to_act = r.seat(d["to_act"], "to_act", none=True)
    trump = d["trump"]
    if trump is not None:
        r.choice(trump, "trump", nt.SUITS)
    level = r.integer(d["level"], "level", what="a rank")
    if level not in ladder:
        fail("level", f"{show(level)} is not a rank on the levels ladder")
    leader = r.seat(d["leader"], "leader")
    trick = r.items(d["trick"], "trick")
    for i, entry in enumerate(trick):
        r.items(entry, f"trick[{i}]", 2)
        r.seat(entry[0], f"trick[{i}][0]")
        cards = r.kind_list(entry[1], f"trick[{i}][1]")
        if not cards or cards != sorted(cards):
            fail(f"trick[{i}][1]", "a play is one or more cards, in kind order")
    r.integer(d["defender_points"], "defender_points")
    captures = d["captures"]
    r.record(captures, "captures", tuple(name for name, _ in rules.captures))
    for name, pair in captures.items():
        r.each(pair, f"captures.{name}", r.count, 2)
    tricks_played = r.count(d["tricks_played"], "tricks_played")
    last = d["last_trick"]
    if last is not None:
        r.record(last, "last_trick", ("winner", "pattern", "size", "units", "group",
                                      "largest"))
        r.seat(last["winner"], "last_trick.winner")
        if not isinstance(last["pattern"], str):
            fail("last_trick.pattern", f"{show(last['pattern'])} is not a pattern name")
        for key in ("size", "units", "group", "largest"):
            r.integer(last[key], f"last_trick.{key}", 1, what="a number of cards (1 or more)")
        if last["largest"] > last["size"]:
            fail("last_trick.largest", "is larger than the lead")
    r.log(hand_no)
    r.results(hand_no, lambda result, path: None)

    # -- the phase
    step = 1 if g.ruleset.direction == "counter-clockwise" else -1
    if over:
        if to_act is not None:
            fail("to_act", f"{to_act}: nobody acts once the match is over")
        if winner is None and hand_no not in (max_hands, MATCH_HAND_LIMIT):
            fail("phase", "over, yet no side has won and the hands to play are not done")
        if winner is not None and d["team_levels"][winner] != len(ladder) - 1:
            fail("match_winner", f"team {winner} won without reaching the top level")
    else:
        if to_act is None:
            fail("to_act", f"None: the {phase} phase needs a seat to act")
        if winner is not None:
            fail("match_winner", f"{winner}, yet the match is not over")
        if max_hands is not None and hand_no >= max_hands:
            fail("hand_no", f"hand {hand_no} of a game of {max_hands} hand(s) is not played")
    if dealer is None and (phase != "deal" or hand_no):
        fail("dealer", "None: only the first hand's deal has no dealer yet")
    no_trump = decl is not None and decl["kind"] >= nt.LITTLE_JOKER  # jokers: 无主
    if phase != "deal" and not over and trump is None and order and not no_trump:
        fail("trump", f"None in the {phase} phase: the deal fixed a trump suit")
    if no_trump and trump is not None and phase != "deal":
        fail("trump", f"{trump}: the jokers declared no trump")
    if dealer is not None and not over:
        want = ladder[d["team_levels"][g.team_of[dealer]]]
        if level != want:
            fail("level", f"{nt.rank_name(level)}, not the dealer's side's level "
                  f"{nt.rank_name(want)}")
    if phase != "play" and trick:
        fail("trick", f"cards on the table in the {phase} phase")
    if (last is None) != (tricks_played == 0) and not over:
        fail("last_trick", "does not agree with tricks_played")

    events = r.hand_events(hand_no - 1 if over else hand_no)
    played = r.played(events)
    plays = [(i, e) for i, e in events if e["type"] == "play"]
    if phase == "deal":
        _trick_deal(r, order, dealt, deal_start, deal_seat, hands, kitty, queue, to_act,
                    to_hands, step, trump, decl)
        if tricks_played or plays or last is not None:
            fail("tricks_played", "tricks played before the deal is over")
        _trick_points(r, d, events, phase, dealer, trump, level)
        return
    if order and dealt != to_hands:
        fail("dealt", f"{dealt} of {to_hands} cards dealt after the deal")
    if queue:
        fail("final_queue", "seats still to declare after the deal")
    if order and len(kitty) != g.kitty_size:
        fail("kitty", f"holds {len(kitty)} cards, not {g.kitty_size}")
    if over:
        if any(any(h) for h in hands):
            fail("hands", "cards left in hand once the match is over")
        if order:
            total = vector(kinds, kitty)
            for s in range(n):
                total = plus(total, played[s])
            r.conserved(total, "log", "the kitty and the last hand's plays")
        return
    if phase == "bury":
        if to_act != dealer or leader != dealer:
            fail("to_act", f"{to_act}: the dealer {dealer} buries")
        if plays:
            fail("log", "cards played before the bury")
    else:
        _trick_table(r, trick, plays, tricks_played, leader, to_act, step)
    _trick_points(r, d, events, phase, dealer, trump, level)
    # Per seat: what it holds and has played, with the kitty the dealer took and buried,
    # is what it was dealt.
    sizes = [sum(h) for h in hands]
    if order:
        dealt_to = _dealt_to(kinds, n, order, to_hands, deal_start, step)
        rest = vector(kinds, order[to_hands:])
        buried = vector(kinds, kitty)
        if phase == "bury":
            r.equal(buried, rest, "kitty", ("in the kitty", "left by the deal"))
        for s in range(n):
            have = plus(hands[s], played[s])
            want = dealt_to[s]
            if s == dealer:
                want = plus(want, rest)
                if phase == "play":
                    have = plus(have, buried)
            r.equal(have, want, f"hands[{s}]", ("held and played", "dealt"))
    else:
        total = vector(kinds, kitty)
        for s in range(n):
            total = plus(total, plus(hands[s], played[s]))
        r.conserved(total, "hands", "the hands, the kitty and this hand's plays")
    # Every seat holds as many cards as the others, less the current trick's play.
    in_trick = {entry[0] for entry in trick}
    lead = len(trick[0][1]) if trick else 0
    base = {sizes[s] + (lead if s in in_trick else 0) for s in range(n)
            if not (phase == "bury" and s == dealer)}
    if len(base) > 1:
        fail("hands", f"seats hold {sizes} cards: not one hand size")
    if phase == "bury" and sizes[dealer] != base.pop() + g.kitty_size:
        fail(f"hands[{dealer}]", "the dealer does not hold the kitty")
    if not any(sizes) and not trick:
        fail("hands", f"every hand is played out, yet the {phase} phase goes on")
    if trick and not _leads(g, trump, level, trick[0][1]):
        fail("trick[0][1]", "this lead is no pattern and no throw")


def _dealt_to(kinds: int, n: int, order: list[int], dealt: int, start: int,
              step: int) -> list[list[int]]:
    if not 0 <= dealt <= len(order):
        fail("dealt", f"{dealt}: the deal order holds {len(order)} cards")
    out = [[0] * kinds for _ in range(n)]
    for i in range(dealt):
        out[(start + step * i) % n][order[i]] += 1
    return out


def _trick_deal(r: Reader, order: list[int], dealt: int,
                deal_start: int, deal_seat: int, hands: list[list[int]], kitty: list[int],
                queue: list[int] | None, to_act: int | None, to_hands: int, step: int,
                trump: str | None, decl: dict[str, Any] | None) -> None:
    """The deal: the hands are exactly the cards dealt so far, in deal order."""
    n, kinds = r.n, r.kinds
    if sorted(order) != r.game.deck:
        r.conserved(vector(kinds, order), "deal_order", "the cards to deal")
    if trump is not None:
        fail("trump", f"{trump} before the deal is over")
    if not dealt:
        fail("dealt", "0: a seat is asked only once it holds a card")
    if deal_seat != (deal_start + step * dealt) % n:
        fail("deal_seat", f"{deal_seat}: card {dealt + 1} goes to seat "
              f"{(deal_start + step * dealt) % n}")
    dealt_to = _dealt_to(kinds, n, order, dealt, deal_start, step)
    for s in range(n):
        r.equal(hands[s], dealt_to[s], f"hands[{s}]", ("held", "dealt by deal_order"))
    # While cards are dealt (the last one included), the seat that received one is asked;
    # then the final round's seats in turn.
    if queue is None:
        if kitty:
            fail("kitty", "set aside before the deal is over")
        receiver = (deal_start + step * (dealt - 1)) % n
        if to_act != receiver:
            fail("to_act", f"{to_act}: seat {receiver} received the last card")
    else:
        if dealt < to_hands:
            fail("final_queue", "the last round of declaring before the deal is over")
        if not queue or to_act != queue[0]:
            fail("final_queue", f"{show(queue)}: the last round asks its first seat "
                  f"({to_act})")
        if kitty != order[to_hands:]:
            fail("kitty", "is not the cards the deal left")
    if decl is not None and hands[decl["seat"]][decl["kind"]] < decl["count"]:
        fail("declaration", f"seat {decl['seat']} does not hold the cards it declared")


def _trick_table(r: Reader, trick: list, plays: list, tricks_played: int, leader: int,
                 to_act: int | None, step: int) -> None:
    """The open trick: led by the leader, in turn, one size; the log shows its plays."""
    n = r.n
    if len(trick) >= n:
        fail("trick", f"{len(trick)} plays in an open trick of {n} seats")
    if len(plays) != tricks_played * n + len(trick):
        fail("tricks_played", f"{show(tricks_played)} trick(s) and {len(trick)} open play(s), "
              f"but the log shows {len(plays)} plays this hand")
    seat = leader
    for i, (seat_i, cards) in enumerate(trick):
        if seat_i != seat:
            fail(f"trick[{i}][0]", f"{seat_i} plays out of turn (seat {seat}'s turn)")
        if len(cards) != len(trick[0][1]):
            fail(f"trick[{i}][1]", f"{len(cards)} card(s) follow a lead of "
                  f"{len(trick[0][1])}")
        at, event = plays[len(plays) - len(trick) + i]
        if event["seat"] != seat_i or sorted(r.cards(event["cards"], f"log[{at}].cards")) \
                != cards:
            fail(f"trick[{i}]", f"is not the log's play at log[{at}]")
        seat = (seat + step) % n
    if to_act != seat:
        fail("to_act", f"{to_act}: seat {seat} plays next")


def _trick_points(r: Reader, d: dict[str, Any], events: list, phase: str,
                  dealer: int | None, trump: str | None, level: int) -> None:
    """The points and captures so far are what the log's tricks and failed throws give:
    each trick's points are its cards' points, counted for the defenders when they won
    it; a failed throw's penalty moves points (play.throw.penalty)."""
    g = r.game
    if phase != "play" or dealer is None:
        if d["defender_points"] or any(c for pair in d["captures"].values() for c in pair):
            fail("defender_points", f"points taken in the {phase} phase")
        return
    hc = g.context(trump, level)
    team_of, dealer_team = g.team_of, g.team_of[dealer]
    selects = [(name, [bool(select(Env(k, hc.values))) if r.deck[k] else False
                       for k in range(r.kinds)]) for name, select in g.rules.captures]
    points = 0
    captures = {name: [0, 0] for name, _ in selects}
    table: list[tuple[int, list[int]]] = []
    for i, e in events:
        kind = e["type"]
        if kind == "play":
            table.append((e["seat"], r.cards(e["cards"], f"log[{i}].cards")))
        elif kind == "trick":
            winner = r.seat(e.get("winner"), f"log[{i}].winner")
            if len(table) != r.n or winner not in {seat for seat, _ in table}:
                fail(f"log[{i}]", "a trick that is not one play per seat, won by one of them")
            want = sum(hc.points[k] for _, cards in table for k in cards)
            if e.get("points") != want:
                fail(f"log[{i}].points", f"{show(e.get('points'))}, but the trick's cards "
                      f"hold {want}")
            team = team_of[winner]
            if team != dealer_team:
                points += want
            for name, hit in selects:
                captures[name][0 if team == dealer_team else 1] += sum(
                    1 for seat, cards in table if team_of[seat] != team for k in cards
                    if hit[k])
            table = []
        elif kind == "throw" and e.get("ok") is False:
            penalty = r.integer(e.get("penalty"), f"log[{i}].penalty")
            points += penalty if team_of[e["seat"]] == dealer_team else -penalty
    if d["defender_points"] != points:
        fail("defender_points", f"{show(d['defender_points'])}, but the log's tricks give "
              f"{points}")
    if d["captures"] != captures:
        fail("captures", f"{show(d['captures'])}, but the log's tricks give "
              f"{show(captures)}")


def _leads(game: Any, trump: str | None, level: int, cards: list[int]) -> bool:
    """A lead the engine would accept: a pattern, or a throw of one throwable system
    (cards of another system only inside demoted tractors, 下放, as the engine reads them)."""
    from ..trick.plays import demoted_covers, throw_system

    hc = game.context(trump, level)
    if readings(hc, list(cards)):
        return True
    system = throw_system(hc, cards)
    allowed = game.rules.throw_allowed
    if len(cards) < 2 or not (allowed == "any" or (allowed == "plain" and system != TRUMP)):
        return False
    if all(hc.system[k] == system for k in cards):
        return True
    counts = [0] * len(hc.place)
    for k in cards:
        counts[k] += 1
    return bool(demoted_covers(hc, counts, system))


# ---------------------------------------------------------------- shedding
