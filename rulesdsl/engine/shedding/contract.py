"""The shedding family's contract: the `play:` section its engine plays, declared once."""

from __future__ import annotations

from typing import Any

from ... import notation as nt
from ...errors import NotationError
from ...language import schema as sc
from ...runtime.expressions import BOOL, INT
from ..contract import (
    MISSING,
    Cards,
    Contract,
    Custom,
    Expr,
    Hook,
    PlayReader,
    Section,
    Value,
    option_choice,
)
from .play import SEAT_NAMES, ShedPlay

DIRECTIONS = ["counter-clockwise", "clockwise"]
SIDE_NAMES = ("points", "opp_points", "out", "opp_out")  # given to an ending table
TEAM_NAMES = ("points", "first_out", "opp_points", "out", "opp_out")
SECURED_NAMES = ("finished_captured", "unfinished_captured", "has_first")
PAYOUT_NAMES = ("bid", "bombs", "loser_plays")  # given to a side_payout table


def _enum(*names: Any) -> dict[str, Any]:
    return {"enum": list(names)}


def _read_ends(reader: PlayReader, value: Any, path: tuple, model: ShedPlay) -> None:
    model.ends, model.end_tables = [], []
    for i, end in enumerate(["one_left"] if value is MISSING else value):
        if isinstance(end, str):
            model.ends.append(end)
            continue
        ENDING.read(reader, end["table"], path + (i, "table"), model, SHEDDING)
        if model.__dict__.pop("_ending", None) is not None:
            model.end_tables.append(end["table"])


ENDING = Hook("table", "The ending table.", "an ending table", attr="_ending",
              kinds=("table",), gives=SIDE_NAMES, reads=(("state", ("over", "playing")),),
              examples=("ending",))

ENDS = Custom(
    "ends", "Shedding: the hand ends when one player is left with cards, when a whole team "
    "is out, when a player is out, or when a table says so.", "the hand ends at",
    fragment={"type": "array", "minItems": 1,
              "items": {"description": "one_left, team_out, first_out, or {table: NAME}.",
                        "oneOf": [sc.enum_schema("one_left: one player is left with cards; "
                                                 "team_out: a whole team is out; first_out: "
                                                 "a player is out.",
                                                 "one_left", "team_out", "first_out"),
                                  sc.obj_schema("A table checked for each side after every "
                                                "play and round: inputs from points, "
                                                "opp_points, out, opp_out; output state: "
                                                "over or playing.",
                                                {"table": ENDING.schema()}, ["table"])]},
              "examples": [["one_left"], ["one_left", "team_out"], [{"table": "ending"}]]},
    reading=_read_ends, parts=(ENDING,),
)


def _read_auction(reader: PlayReader, value: Any, path: tuple, model: ShedPlay) -> None:
    if value is MISSING:
        model.auction, model.must_raise = None, None
        return
    bids = value["bids"]
    if sorted(set(bids)) != bids:
        reader.error(path + ("bids",), "bids must rise",
                     expected="bids from lowest to highest, each once")
    claim_bid = value.get("claim_bid", "reached")
    if isinstance(claim_bid, dict):  # left to an option
        claim_bid = option_choice(reader, path + ("claim_bid", "option"),
                                  claim_bid.get("option"), "reached",
                                  lambda c: c in CLAIM_BIDS, "is not a claim bid",
                                  "reached or top")
    model.auction = {"bids": list(bids),
                     "direction": value.get("direction", "counter-clockwise"),
                     "opener": value.get("opener", "random"),
                     "default_bid": value.get("default_bid", bids[0]),
                     "claim_bid": claim_bid}
    MUST_RAISE.read(reader, value.get("must_raise", MISSING), path + ("must_raise",), model,
                    SHEDDING)


MUST_RAISE = Expr("must_raise", "When true for the bidder, they must bid one step up "
                  "(names: bid, round, hand).", "a player must raise when",
                  examples=("round == 1 and bid < 10 and count(hand, is_joker) >= 2",),
                  names=(("bid", INT), ("round", INT), ("hand", "list[card]")))

AUCTION_PARTS = (
    Value("bids", "The bids, lowest first.", "bids", attr=None,
          fragment={"type": "array", "items": sc.int_schema("A bid.", 1, 1000000, 5, 10),
                    "minItems": 1, "examples": [[1, 2, 3], [5, 10, 15, 20]]}),
    Value("direction", "The bidding order.", "direction", attr=None,
          fragment=_enum(*DIRECTIONS)),
    Value("opener", "Who bids first.", "who bids first", attr=None, fragment=_enum("random")),
    MUST_RAISE,
    Value("default_bid", "If nobody bids: the opener deals at this bid.",
          "the bid when nobody bids", attr=None,
          fragment={"type": "integer", "minimum": 0, "maximum": 1000000, "examples": [1, 5]}),
    Value("claim_bid", "An instant win is settled at the bid reached (at least the default "
          "bid) or at the top bid; or {option: NAME}.", "a claim is settled at", attr=None,
          fragment={"anyOf": [_enum("reached", "top"),
                              sc.obj_schema("An option choosing reached or top.",
                                            {"option": sc.name_schema("An option's name.",
                                                                      "claim_pays")},
                                            ["option"])],
                    "examples": ["reached", "top"]}),
)
CLAIM_BIDS = ("reached", "top")

AUCTION = Custom(
    "auction", "Shedding: bidding for the deal (叫牌). The highest bidder is the dealer, "
    "takes the kitty and leads.", "Bidding",
    fragment={k: v for k, v in sc.obj_schema(
        "", {**{k.name: k.schema() for k in AUCTION_PARTS},
             "doc": sc.doc_schema("The seed's words.")}, ["bids"]).items()
        if k != "description"},
    reading=_read_auction, parts=AUCTION_PARTS,
)


def _read_instant_win(reader: PlayReader, value: Any, path: tuple, model: ShedPlay) -> None:
    model.instant_win = []
    scope = reader.value_scope({"hand": "list[card]"})
    for i, cond in enumerate([] if value is MISSING else value):
        c = reader.expr(path + (i,), cond, scope, BOOL)
        if c:
            model.instant_win.append(c[1])


INSTANT_WIN = Custom(
    "instant_win", "Shedding: conditions on a dealt hand (name: hand) that let its holder "
    "claim the hand at once.", "an instant win when",
    fragment={"type": "array",
              "items": sc.expr_schema("A condition on a dealt hand.",
                                      "count(hand, is_joker) >= 4", "largest_group(hand) >= 8"),
              "examples": [["count(hand, is_joker) >= 4"]]},
    reading=_read_instant_win,
)

CLIMB_NAMES = ("mate_place", "players")  # given to a climb table
LEAD_NAMES = ("mate_place", "players")  # given to a then_lead table
LEAD_RULES = ("first_out", "random", "holder", "dealer")


THEN_LEAD = Value("then_lead", "Shedding: who leads later hands.", "who leads later hands",
                  fragment=_enum(*LEAD_RULES), default="first_out")
LEAD_TABLE = Hook("table", "A table over the last hand's outcome: mate_place (the best place "
                  "of the first out's teammates; the player count when none went out) and "
                  "players, with output lead.",
                  "the next leader's table", attr="lead_table", kinds=("table",),
                  gives=LEAD_NAMES, reads=(("lead", LEAD_RULES),), examples=("next_lead",))


def _read_then_lead(reader: PlayReader, value: Any, path: tuple, model: ShedPlay) -> None:
    model.lead_table = None
    if isinstance(value, dict) and "table" in value:
        LEAD_TABLE.read(reader, value["table"], path + ("table",), model, SHEDDING)
        model.then_lead = "table" if model.lead_table is not None else "first_out"
        return
    THEN_LEAD.read(reader, value, path, model, SHEDDING)


THEN_LEAD_KEY = Custom(
    "then_lead", "Shedding: who leads later hands: first_out, random, holder, dealer, "
    "{option: NAME}, or {table: NAME} deciding it from the last hand's outcome.",
    "who leads later hands",
    fragment={"anyOf": [*THEN_LEAD.schema()["anyOf"],
                        sc.obj_schema("A table deciding the leader from the last hand: "
                                      "inputs from mate_place, players; output "
                                      "lead: first_out, random, holder or dealer.",
                                      {"table": LEAD_TABLE.schema()}, ["table"])],
              "examples": ["first_out", {"table": "next_lead"}]},
    reading=_read_then_lead, parts=(LEAD_TABLE,),
)

def _read_tribute(reader: PlayReader, value: Any, path: tuple, model: ShedPlay) -> None:
    if value is MISSING:
        model.tribute = None
        return
    rule: dict[str, Any] = {"both_last": bool(value.get("both_last", False)),
                            "leads": value.get("leads", "payer")}
    for key in ("card", "back"):
        compiled = reader.expr(path + (key,), value[key], reader.card_scope, BOOL) \
            if key in value else None
        rule[key] = compiled[1] if compiled else None
    compiled = reader.expr(path + ("resist",), value["resist"],
                           reader.value_scope({"hand": "list[card]"}), BOOL) \
        if "resist" in value else None
    rule["resist"] = compiled[1] if compiled else None
    model.tribute = rule


TRIBUTE = Custom(
    "tribute", "Shedding: tribute before every hand but the first (进贡/还贡): the last out "
    "pays the first out a highest card that `card` allows; with both_last, a side in the "
    "last two places pays with both players (the higher card to the first out, the other "
    "to the second); each receiver gives back a card `back` allows; `resist` (over hand, "
    "the payers' cards together) cancels it; `leads`: payer (of the higher card) or "
    "first_out.", "Tribute",
    fragment=sc.obj_schema("", {
        "both_last": sc.bool_schema("Both players of a side in the last two places pay."),
        "card": sc.expr_schema("Cards that may be paid (the payer gives a highest one).",
                               "not (suit == H and rank == level)"),
        "back": sc.expr_schema("Cards that may be given back.", "rank <= 10 and not is_joker"),
        "resist": sc.expr_schema("Over hand (the payers' cards together): nobody pays.",
                                 "count(hand, card == BJ) >= 2"),
        "leads": {**_enum("payer", "first_out"),
                  "description": "Who leads after the tribute (after a resisted one: the "
                                 "first out)."},
        "doc": sc.doc_schema("The rule's source."),
    }),
    reading=_read_tribute,
)

SETTLE = Section(
    "settle", "Shedding: scoring a finished hand.", "Settlement", keys=(
        Value("match_win", "With levels: what each player of the side that wins the match "
              "gains, paid by the other side.", "the match is worth",
              fragment={"type": "integer", "minimum": 0, "maximum": 1000000,
                        "examples": [1]}, default=1),
        Hook("seat_score", "A table (output score) or formula per seat over place, own, "
             "in_hand, cards_left, last_captured, last_in_hand, early, players.",
             "each seat's score", kinds=("table", "formula"), gives=tuple(SEAT_NAMES),
             reads=(("score", "int"),), examples=("finish_score",)),
        Hook("team_result", "A table per team over points, first_out: outcome win, draw or "
             "lose.", "each side's result", kinds=("table",), gives=TEAM_NAMES,
             reads=(("outcome", ("win", "draw", "lose")),), examples=("result",)),
        Hook("payment", "A formula: what each player who is not first out pays the first out "
             "(inputs cards_left, base, place, in_hand).", "the payment formula",
             gives=tuple(SEAT_NAMES), examples=("loser_pays",)),
        Value("base", "The base stake per unit.", "base stake",
              fragment={"type": "integer", "minimum": 0, "maximum": 1000000, "examples": [1]},
              default=1),
        Hook("side_score", "A formula over bid: the score points (积分) each player of the "
             "losing side gives, shared equally by the winning side; recorded in each hand's "
             "result as score_points (the returns stay the payout).", "score points per loser",
             gives=("bid",), examples=("score_points",)),
        Hook("side_payout", "A table over bid, bombs (bomb plays made in the hand) and "
             "loser_plays (plays the losing side made: 0 is a spring, 春天): dealer_side_win "
             "(what the dealer side gains, paid by the defenders equally) and "
             "defender_side_win (what each defender gains, paid by the dealer side). The side "
             "of the first player out wins.",
             "a side_payout table", kinds=("table",), gives=PAYOUT_NAMES,
             reads=(("dealer_side_win", "int"), ("defender_side_win", "int")),
             examples=("payout",)),
    ),
)


def _finish(reader: PlayReader, section: dict[str, Any], model: ShedPlay) -> None:
    if model.then_lead == "table" and model.lead_table is not None:
        table = reader.tables[model.lead_table]
        leads = set(table.outputs.get("lead") or [])
        if "holder" in leads and not model.holder:
            reader.error(("play",), "a holder lead needs 'holder' cards",
                         expected="holder: [S3, S4, ...]")
    if "holder" in (model.first_lead, model.then_lead) and not model.holder:
        reader.error(("play",), "a holder lead needs 'holder' cards",
                     expected="holder: [S3, S4, ...]")
    # A card no one can hold would be skipped silently: refuse it where it is written.
    absent = {k for k, n in enumerate(reader.deck) if not n}
    for i, text in enumerate(section.get("holder") or []):
        try:
            card = nt.parse_card(text)
        except NotationError:
            continue  # reported by the Cards key
        if card in absent:
            reader.error(("play", "holder", i), f"{nt.format_card(card)} is not in the deck",
                         expected="cards of the deck")
    if model.must_play_holder != "never":
        needs = [("first_lead", model.first_lead)]
        if model.must_play_holder == "every_hand":
            needs.append(("then_lead", model.then_lead))
        for key, rule in needs:
            if rule != "holder":
                reader.error(("play", "must_play_holder"), f"must_play_holder needs the holder "
                             f"to lead: {key} is {rule}", expected=f"{key}: holder")
    if model.tribute is not None and model.auction is not None:
        reader.error(("play", "tribute"), "a tribute is paid before a hand that has no "
                     "auction", expected="tribute or auction, not both")
    if model.tribute is not None and model.then_lead not in ("first_out",):
        reader.error(("play", "tribute"), "after a tribute the lead follows its own rule",
                     expected="then_lead: first_out (a resisted tribute: the first out leads)")
    levels = reader.data.get("levels") is not None
    if levels and model.climb is None:
        reader.error(("levels",), "levels need a table that says how far a side climbs",
                     key=True, expected="play.climb: a table (output levels)")
    written = reader.data.get("play") or {}
    for path in (("play", "win_at_top"), ("play", "top_failures"),
                 ("play", "settle", "match_win")):
        node: Any = written
        for key in path[1:]:
            node = node.get(key, MISSING) if isinstance(node, dict) else MISSING
        if node is not MISSING and not levels:
            reader.error(path, f"{path[-1]} is read only in a game with levels", key=True,
                         expected="levels: {ladder: [...], start: ...}, or no "
                                  f"{path[-1]}")
    if not levels and model.climb is not None:
        reader.error(("play", "climb"), "climb needs levels", key=True,
                     expected="levels: {ladder: [...], start: ...}")
    if not levels and "level" in (reader.data.get("context") or {}):
        reader.error(("context", "level"), "the shedding engine sets the hand's level only "
                     "in a game with levels (else it would be its first value in every hand)",
                     key=True, expected="levels: {ladder: [...], start: ...} and play.climb")
    if levels and "level" not in (reader.data.get("context") or {}):
        reader.error(("levels",), "levels need the hand's level as a context value",
                     key=True, expected="context: {level: {type: rank, ladder: LADDER}}")
    if levels and model.sides != "teams":
        reader.error(("play", "sides"), "levels are climbed by teams", expected="sides: teams")
    for key in ("side_payout", "side_score"):
        if getattr(model, key) is not None and model.auction is None:
            reader.error(("play", "settle", key), f"{key} needs an auction",
                         expected="play.auction")


def _game(ruleset: Any) -> Any:
    from .game import ShedGame

    return ShedGame(ruleset)


SHEDDING = Contract(
    family="shedding",
    engine="the shedding engine",
    description="first_lead, then_lead, holder, must_play_holder, takeover, must_beat, "
                "highest_single, ends, climb, win_at_top, top_failures, secured, auction, "
                "tribute, sides, instant_win, settle",
    keys=(
        Value("first_lead", "Shedding: who leads the first hand (holder: of the first of "
              "`holder` cards).", "who leads the first hand",
              fragment=_enum("random", "holder", "dealer"), default="random"),
        THEN_LEAD_KEY,
        Cards("holder", "Shedding: cards whose holder leads, in order (S3, S4, S5 …).",
              "the cards whose holder leads", examples=(("S3", "S4", "S5"),)),
        Value("must_play_holder", "Shedding: the first play of a hand must hold the holder "
              "card that chose the leader (♦3, ♠3): never, in the first hand only, or "
              "in every hand.", "the first play must hold the leader's holder card",
              fragment=_enum("never", "first_hand", "every_hand"), default="never"),
        # 'none' is in the language for games without 接风; no published rule we know says
        # who leads then in a game that goes on, so this engine refuses it rather than guess.
        Value("takeover", "Shedding (接风): when a player goes out and all pass, the lead "
              "goes to their next player still holding cards, or to their partner (the "
              "first teammate after them still holding cards; else the next player).",
              "when a player goes out and everyone passes (接风), the lead goes to",
              fragment=_enum("next_player", "partner", "none"), default="next_player",
              supported=("next_player", "partner")),
        Value("must_beat", "Shedding: a player who can beat the play on the table may not "
              "pass.", "a player who can beat the play must", fragment={"type": "boolean"},
              default=False),
        Expr("highest_single", "Shedding: when true, a single played must be the player's "
             "highest card (names: next_left, the cards the next player still holding cards "
             "has; own_left).", "a single must be the player's highest when",
             examples=("next_left == 1",), names=(("next_left", INT), ("own_left", INT))),
        ENDS,
        Hook("climb", "Shedding, with levels: a table over mate_place (the best place of "
             "the first player out's teammates; the player count when none went out) and "
             "players, output levels: how many levels the side of the first out climbs.",
             "the levels the winning side climbs", kinds=("table",), gives=CLIMB_NAMES,
             reads=(("levels", "int"),), examples=("climb",)),
        Value("win_at_top", "Shedding, with levels: a side at the top level wins the match "
              "by winning a hand that climbs at least this many levels (else it stays).",
              "at the top level, the match is won by a hand climbing at least",
              fragment={"type": "integer", "minimum": 1, "maximum": 64, "examples": [1, 2]},
              default=1),
        Value("top_failures", "Shedding, with levels: after this many hands played at "
              "its own level at the top without winning the match (not necessarily in a "
              "row), a side goes back to the start level and counts afresh (0: never).",
              "a side at the top goes back to the start after failing",
              fragment={"type": "integer", "minimum": 0, "maximum": 64, "examples": [3, 2]},
              default=0),
        Hook("secured", "Shedding: a formula giving a side's secured points from "
             "finished_captured, unfinished_captured, has_first (default: everything the side "
             "captured).", "the secured formula", gives=SECURED_NAMES,
             examples=("secured",)),
        AUCTION,
        TRIBUTE,
        Value("sides", "Shedding: the players' teams, or the dealer alone against everyone "
              "else.", "sides", fragment=_enum("teams", "dealer_alone"), default="teams"),
        INSTANT_WIN,
        SETTLE,
    ),
    model=ShedPlay,
    game=_game,
    contexts=(("level", "rank"),),
    sections=("levels",),
    # Plays are built from ranks; patterns may read suits (then plays are cards).
    features=(("suit_patterns", "patterns that read suits: one suit (suit: same), ties "
                                "broken by suit, any-rank sets (a flush), and classes of "
                                "equal-size plays that beat each other"),
              ("last_plays", "patterns played only as a player's last play"),
              ("varying_runs", "runs whose steps hold a range of cards, steps of different "
                               "sizes (a run of bombs)"),
              ("kind_wilds", "wild cards picked by suit as well as rank (only the heart of "
                             "the level): each is played apart from the other cards of its "
                             "rank")),
    finish=_finish,
)
