"""How a hand of a mahjong game proceeds, and how every hand is scored, in words."""

from __future__ import annotations

from typing import Any

from ..language import ast
from .context import Ctx
from .model import Block, Bullets, Heading, Inline, Item, Para, Section, Table, Term
from .prose_trick import _variant
from .sections import direction_words, evaluate_selector
from .tables import formula_blocks, table_blocks


def deal(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    d = r.deal
    text = w("The tiles are shuffled face down and built into a wall", "洗牌后砌成牌墙")
    if d.get("dice"):
        text += w(f"; {d['dice']} dice decide where it is broken",
                  f"；掷{d['dice']}颗骰子决定从哪里开牌")
    blocks: list[Block] = [Para([w.sentence(text), *ctx.cite(("deal", "dice"))])]
    hand = w(f"Each player takes {d.get('hand_size')} tiles", f"每位玩家抓{d.get('hand_size')}张")
    if d.get("dealer_extra"):
        hand += w(f"; the dealer takes {d['dealer_extra']} more",
                  f"，庄家再多抓{d['dealer_extra']}张")
    blocks.append(Para([w.sentence(hand), *ctx.cite(("deal", "hand_size"),
                                                    ("deal", "dealer_extra"))]))
    if d.get("turn_up") not in (None, "none"):
        blocks.append(Para([w.sentence(w(
            "Then the next tile of the wall is turned up: it decides the wild tiles (see Wild "
            "tiles)", "然后翻开牌墙的下一张牌：由它决定哪些牌是得（见“得（财神）”）")),
            *ctx.cite(("deal", "turn_up"))]))
    bonus = ctx.play("bonus")
    if bonus is not None:
        tiles = evaluate_selector(ctx, bonus)
        if tiles:
            blocks.append(Para([w("Tiles set aside face up as soon as they are drawn, each "
                                  "replaced from the end of the wall: ",
                                  "摸到以下牌要立即亮出放在一边，并从牌墙尾补一张："),
                                ctx.cards(tiles),
                                w(f" (with {_turned(ctx)}).", f"（以{_turned(ctx)}为例）。"),
                                *ctx.cite(("play", "bonus"), ("define", "bonus_tile"))]))
    if ctx.play("void_suit") == "declare":
        blocks.append(Para([w.sentence(w(
            "After the deal each player, from the dealer in turn, names one of the three "
            "suits to be void of. While they hold tiles of it they must discard those, and "
            "they cannot win, claim or kong tiles of it",
            "发牌后从庄家开始，每位玩家依次定一门缺：手里还有这门牌时必须先打这门牌，而且不能和牌，"
            "也不能吃碰杠这门牌")), *ctx.cite(("play", "void_suit"))]))
    return blocks


def _turned(ctx: Ctx) -> str:
    w = ctx.w
    for c in ctx.data["context"]:
        if c["type"] == "tile":
            return w(f"the {w.tile(c['value'])} turned up", f"翻出{w.tile(c['value'])}")
    return w("the default variants", "默认规则")


def turns(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    items: list[Item] = [Item([w.sentence(w(
        f"The dealer starts by discarding a tile; then, {direction_words(ctx)}, each player "
        "draws a tile from the wall and discards one",
        f"庄家先打出一张牌；然后按{direction_words(ctx)}方向，每位玩家摸一张、打一张")),
        *ctx.cite(("players", "direction"))])]
    chow = {"previous_player": w("only the player after the discarder may chow it (a run of "
                                 "three with two tiles of their hand)",
                                 "只有下家可以吃（用手里两张牌组成顺子）"),
            "anyone": w("anyone may chow it", "任何人都可以吃"),
            "none": w("nobody may chow", "不能吃")}[p.chow_from]
    items.append(Item([w.sentence(w(
        "Another player may claim a discard: to win on it, to make a kong or a pung with "
        f"tiles of their hand; {chow}. A win comes first, then a kong, a pung, a chow",
        f"其他玩家可以要别人打出的牌：和牌、杠或碰；{chow}。优先顺序：和 > 杠 > 碰 > 吃")),
        *ctx.cite(("play", "chow_from"))]))
    several = w("of several players winning on one discard, the first in turn after the "
                "discarder wins", "几家同时和一张牌时，按出牌顺序离打牌者最近的一家和") \
        if p.discard_wins == "first_in_turn" else \
        w("several players may win on one discard, and each win stands",
          "几家可以同时和同一张牌（一炮多响）")
    items.append(Item([w.sentence(several + _variant(ctx, "discard_wins"))]))
    if not p.claim_with_wilds:
        items.append(Item([w.sentence(w("Wild tiles cannot help claim a discard",
                                        "不能用得来吃、碰别人打出的牌")),
                           *ctx.cite(("play", "claim_with_wilds"))]))
    if p.pung_pass_lock:
        items.append(Item([w.sentence(w("A player who passes up a pung may not claim another "
                                        "pung before their next turn",
                                        "放弃碰的玩家在自己下一次摸牌前不能再碰")),
                           *ctx.cite(("play", "pung_pass_lock"))]))
    if p.rob_kong == "added_only":
        items.append(Item([w.sentence(w("A tile added to an exposed pung to make a kong may "
                                        "be won on by another player (robbing the kong)",
                                        "别人补杠时，可以抢杠和")),
                           *ctx.cite(("play", "rob_kong"))]))
    if p.discarded_wild == "forfeit":
        items.append(Item([w.sentence(w("Whoever discards a wild tile cannot win that hand and "
                                        "scores nothing; nobody may win on it",
                                        "打出得的玩家本局不能和牌且计0分；任何人都不能和这张牌")),
                           *ctx.cite(("play", "discarded_wild"))]))
    items.append(Item([w.sentence(w("A kong takes a replacement tile from the end of the wall",
                                    "杠牌后从牌墙尾补一张"))]))
    return [Bullets(items)]


def winning(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    win = ctx.r.win or {}
    text = w(f"A player wins on a tile they draw (self-drawn) or on another's discard when "
             f"it completes {win.get('sets')} sets and {win.get('pairs')} pair (see Sets and "
             "winning hands), or holds a limit hand",
             f"摸到或别人打出的牌使手牌凑成{win.get('sets')}组牌加{win.get('pairs')}对将"
             "（见“牌型与和牌”），或者成为腊子，即可和牌（自摸或点和）")
    blocks: list[Block] = [Para([w.sentence(text), *ctx.cite(("win",))])]
    if p.after_win == "winner_leaves":
        blocks.append(Para([w.sentence(w(
            "A win does not end the hand: the winner is paid at once and leaves play, and the "
            "others play on until one player is left or the wall runs out",
            "和牌后本局不结束：和家立即结算并退出，其余玩家继续打，直到只剩一人或牌墙摸完"))]))
    else:
        blocks.append(Para([w.sentence(w("The first win ends the hand", "有人和牌即本局结束"))]))
    return blocks


def wall(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    blocks: list[Block] = []
    if p.wall:
        blocks.append(Para([w.sentence(w("How far play has gone is read from the tiles left in "
                                         "the wall", "牌局进行到哪个阶段由牌墙剩余张数决定"))]))
        blocks += table_blocks(ctx, p.wall)
    liability = ctx.written("liability")
    if liability is not None:
        live_rule = str(ctx.written("liability", "live") or "seen == 0")
        live = w("nobody has discarded or claimed a copy of it before",
                 "此前没有人打出或吃碰过这种牌") if live_rule.replace(" ", "") == "seen==0" \
            else ctx.condition(live_rule)
        exempt = ctx.condition(ctx.written("liability", "exempt") or "all_live and not ready")
        pays = w("every payment of the hand", "本局所有的支付") \
            if p.liable_pays == "every_payment" \
            else w("what is paid to the winner", "付给和家的部分")
        items = [Item([w.sentence(w(
            "In the live-tile phase, a player whose discard lets someone win pays for the "
            f"whole table when the tile was live (a tile is live when {live}): they pay {pays}",
            f"在生牌阶段，打出生牌（{live}）让别人和牌的玩家要包三家：支付{pays}")),
            *ctx.cite(("play", "liability"))])]
        if p.liable_total_zero:
            items.append(Item([w.sentence(w("Their own hand then counts nothing",
                                            "被包方自己的牌点归零"))]))
        if exempt:
            items.append(Item([w.sentence(w(f"Nobody is liable when {exempt}",
                                            f"当{exempt}时不算包三家"))]))
        blocks.append(Heading(w("Liability for the table", "包三家")))
        blocks.append(Bullets(items))
    return blocks


def ending(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    blocks: list[Block] = [Para([w.sentence(w(
        "When the wall is exhausted no more tiles are drawn: the last discard may only be won "
        "on; if nobody wins, the hand is a draw",
        "牌墙摸完后不再摸牌：最后一张打出的牌只能和，不能碰杠吃；没人和牌则荒牌"))])]
    draw = ctx.written("exhaustive_draw")
    if isinstance(draw, dict):
        items = []
        if p.void_held_pays:
            expr = ((ctx.r.resolved.get("formulas") or {}).get(p.void_held_pays) or {})
            items.append(Item([w.sentence(w(
                "A player still holding their void suit pays each other player still in play "
                f"who does not: {ctx.formula(expr.get('expr', ''))}",
                "还有定缺花色牌的玩家（花猪）付给其他没有的玩家："
                f"{ctx.formula(expr.get('expr', ''))}"))]))
        if p.not_ready_pays == "best_hand":
            items.append(Item([w.sentence(w(
                "Each player who is not ready pays each ready player what that player's best "
                "hand would be paid, won on a discard",
                "没有听牌的玩家付给每位听牌的玩家其最大可和牌型（按点和计）的钱"))]))
        if p.refund_kongs == "not_ready":
            items.append(Item([w.sentence(w(
                "A player who is not ready returns every kong payment received this hand"
                + _variant(ctx, "exhaustive_draw", "refund_kongs"),
                "没有听牌的玩家退还本局收到的杠钱"
                + _variant(ctx, "exhaustive_draw", "refund_kongs")))]))
        if items:
            blocks.append(Para([w.sentence(w("At a draw, the players still in play settle",
                                             "荒牌时仍在局中的玩家结算："))]))
            blocks.append(Bullets(items))
    nxt = {"unless_dealer_wins": w("the dealer deals again if they won, else the next player "
                                   "deals", "庄家和牌则连庄，否则下家坐庄"),
           "next_player": w("the next player deals", "下家坐庄"),
           "winner": w("the winner deals", "和家坐庄"),
           "first_winner": w("the hand's first winner deals (its discarder, when several won "
                             "on that discard)",
                             "本局第一个和牌的玩家坐庄（一炮多响时由点炮者坐庄）")
           }[p.next_dealer]
    after_draw = w("after a draw the next player deals", "荒牌后下家坐庄") \
        if p.dealer_after_draw == "next_player" else w("after a draw the dealer deals again",
                                                       "荒牌后庄家连庄")
    blocks.append(Para([w.sentence(w(f"After a win {nxt}; {after_draw}",
                                     f"和牌后{nxt}；{after_draw}")),
                        *ctx.cite(("play", "next_dealer"), ("play", "dealer_after_draw"))]))
    return blocks


def _item_value(ctx: Ctx, item: dict[str, Any]) -> str:
    w = ctx.w
    if item.get("kind") == "fan" or "fan" in item and "points" not in item:
        value = w(f"{item.get('fan')} fan", f"{item.get('fan')}番")
    else:
        value = w(w.count(item.get("points", 0), "point"), f"{item.get('points')}和")
    each = item.get("each")
    if each == "set":
        value += w(" per set", "（每组）")
    elif each == "tile":
        value += w(" per exposed tile" if item.get("zone") == "flowers" else " per tile",
                   "（每张亮出的牌）" if item.get("zone") == "flowers" else "（每张）")
    elif item.get("times"):
        times = ctx.formula(item["times"])
        value += w(f", times {times}", f"，乘以{times}")
    return value


def scoring(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    blocks: list[Block] = []
    items = (r.resolved.get("scoring") or {}).get("items") or []
    roles = {tuple(sorted(i.get("for") or [])) for i in items if isinstance(i, dict)}
    everyone = any("others" in role for role in roles)
    if everyone:
        blocks.append(Para([w.sentence(w(
            "Every player's hand is scored, not only the winner's: base points for the sets "
            "and the win, and fan, each of which doubles the total",
            "不仅和家，每位玩家的牌都要计分：组牌和和牌方式计基础牌点，番数每一番总数翻一倍")),
            *ctx.cite(("scoring",))]))
    else:
        blocks.append(Para([w.sentence(w("The winner's hand is scored in fan, each doubling "
                                         "the total", "和家按番数计分，每一番翻一倍")),
                            *ctx.cite(("scoring",))]))
    for kind, title in (("base", w("Base points", "基础牌点")), ("fan", w("Fan", "番数"))):
        rows: list[list[Inline]] = []
        skipped: list[str] = []
        for i, item in enumerate(items):
            if not isinstance(item, dict) or item.get("kind", "base") != kind:
                continue
            cond_text = item.get("where") or item.get("when") or "true"
            folded = ctx.say.fold(cond_text)
            if isinstance(folded, ast.Name) and folded.id == "false":
                skipped.append(w.term(str(item.get("name"))))
                continue
            cond = ctx.condition(cond_text, in_sets=item.get("each") == "set")
            if isinstance(folded, ast.Name) and folded.id == "true":
                cond = w("always", "总是")
            who = item.get("for") or []
            for_words = w("everyone", "所有玩家") if "others" in who and "winner" in who \
                else w("the winner", "和家") if "winner" in who else w("the others", "闲家")
            if item.get("each") == "set":
                cond = w(f"each set for which {cond}", f"每组满足：{cond}")
            elif item.get("each") == "tile":
                cond = w(f"each tile for which {cond}", f"每张满足：{cond}")
            rows.append([[Term(w.term(str(item.get("name"))))], [_item_value(ctx, item)],
                         [for_words], [cond, *ctx.cite(("scoring", "items", i), above=True)]])
        if rows:
            blocks.append(Heading(title))
            blocks.append(Table([w("Item", "项目"), w("Worth", "计"), w("For", "适用"),
                                 w("When", "条件")], rows, "", "rule-table"))
        if skipped:
            blocks.append(Para([w.sentence(w(f"Only with a variant: {w.join(skipped)}",
                                             f"仅在可选规则下计：{w.join(skipped)}"))], "muted"))
    totals = r.totals or {}
    if totals:
        blocks.append(Heading(w("Totals", "牌点汇总")))
        for role, name in totals.items():
            who = w("The winner's total", "和家的牌点汇总") if role == "winner" else \
                w("Another player's total", "闲家的牌点汇总")
            blocks += formula_blocks(ctx, name, w(f"{who}:", f"{who}："))
    limit = (r.resolved.get("scoring") or {}).get("limit")
    if limit is not None:
        blocks.append(Para([w.sentence(w(f"A limit hand totals {limit}", f"腊子计满贯{limit}")),
                            *ctx.cite(("scoring", "limit"))]))
    blocks += payments(ctx)
    return blocks


def payments(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    blocks: list[Block] = [Heading(w("Payments", "结算"))]
    if p.to_winner:
        who = w("Each other player pays the winner", "每位其他玩家付给和家") \
            if p.discard_win_paid_by == "everyone" else \
            w("A self-drawn win is paid by every other player, a win on a discard by the "
              "discarder alone; each pays", "自摸由其他每家支付，点和由点炮者一人支付；支付")
        blocks += formula_blocks(ctx, p.to_winner, w(f"{who}:", f"{who}："))
    if p.between_others:
        blocks += formula_blocks(ctx, p.between_others, w(
            "The other players settle between themselves: each pays another",
            "其他玩家之间也要结算：每人付给另一人"))
    stake = p.stake
    blocks.append(Para([w.sentence(w(f"The stake is {stake}", f"底银为{stake}")),
                        *ctx.cite(("play", "payments", "stake"))]))
    kongs = [(w("An exposed kong (claimed on a discard)", "明杠（杠别人打出的牌）"),
              p.kong_exposed),
             (w("A promoted pung", "补杠"), p.kong_added),
             (w("A concealed kong", "暗杠"), p.kong_concealed)]
    rows: list[list[Inline]] = []
    for label, rate in kongs:
        if rate:
            payer = w("the discarder", "点杠者") if rate.get("from") == "discarder" \
                else w("every other player", "其他每家")
            rows.append([[label], [w(f"{payer} pays {rate.get('amount')}",
                                     f"{payer}付{rate.get('amount')}")]])
    if rows:
        blocks.append(Heading(w("Kongs are paid when made", "杠钱（刮风下雨）")))
        blocks.append(Table([w("Kong", "杠"), w("Paid", "支付")], rows, "", "rule-table"))
        if p.kong_transfer == "to_winner":
            blocks.append(Para([w.sentence(w(
                "When the discard a player makes right after a kong's replacement is won on, "
                "that kong's payment passes to the winner",
                "杠后打出的牌被别人和了，这个杠的杠钱转给和家（呼叫转移）")
                + _variant(ctx, "kong_payments", "transfer"))]))
    return blocks


def proceeds(ctx: Ctx) -> list[Section]:
    w = ctx.w
    hand = [Section("deal", w("Dealing", "发牌"), deal(ctx)),
            Section("turns", w("Turns and claims", "摸牌、打牌与吃碰杠"), turns(ctx)),
            Section("winning", w("Winning", "和牌"), winning(ctx)),
            Section("wall", w("The wall", "牌墙"), wall(ctx)),
            Section("end", w("The end of the hand", "一局结束"), ending(ctx))]
    intro = Para([w.sentence(w("A hand goes through the deal, turns of drawing and "
                               "discarding with claims, a win or a draw, and the settlement",
                               "每一局依次是：发牌、摸牌打牌（可吃碰杠）、和牌或荒牌、结算"))])
    return [Section("hand", w("How a hand is played", "打法"), [intro],
                    [s for s in hand if s.blocks]),
            Section("settlement", w("Scoring and settlement", "计分与结算"), scoring(ctx))]
