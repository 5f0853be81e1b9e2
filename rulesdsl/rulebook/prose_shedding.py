"""How a hand of a shedding game proceeds, and how it is settled, in words."""

from __future__ import annotations

from .. import notation as nt
from ..language import ast
from .context import Ctx
from .model import Block, Bullets, Heading, Item, Para, Section
from .prose_trick import _variant
from .sections import direction_words, evaluate_selector
from .tables import formula_blocks, table_blocks


def deal(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    hand, kitty = r.deal.get("hand_size"), r.deal.get("kitty", 0)
    hands = r.deal.get("hands", r.players)
    text = w(f"Each player is dealt {hand} cards", f"每位玩家发{hand}张牌")
    if hands != r.players:
        text = w(f"{hands} hands of {hand} cards are dealt; with fewer players the spare "
                 "hands are set aside unseen",
                 f"共发{hands}手牌，每手{hand}张；玩家不足时多余的牌放在一边不看")
    if kitty:
        text += w(f"; {kitty} cards are left face down as the kitty", f"；留{kitty}张作为底牌")
    blocks: list[Block] = [Para([w.sentence(text), *ctx.cite(("deal",), ("deal", "hand_size"))])]
    return blocks


def bidding(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    blocks: list[Block] = []
    if p.auction:
        a = p.auction
        bids = w.join([str(b) for b in a["bids"]], "or")
        items = [Item([w.sentence(w(
            f"Before play the players bid for the deal, starting with a random player and "
            f"going {direction_words(ctx, a['direction'])}: each bids {bids}, higher than the "
            "bid before, or passes",
            f"出牌前先叫牌，从随机一位玩家开始按{direction_words(ctx, a['direction'])}方向进行："
            f"每人可叫{bids}（必须比之前的叫分高），或者不叫")),
            *ctx.cite(("play", "auction"), ("play", "auction", "bids"))]),
            Item([w.sentence(w(
                "The highest bidder becomes the dealer" + (", takes the kitty" if
                                                          ctx.r.deal.get("kitty") else "")
                + " and leads; the bid sets the stakes",
                "叫分最高者成为庄家" + ("，拿底牌" if ctx.r.deal.get("kitty") else "")
                + "并首先出牌；叫分决定输赢的倍数"))]),
            Item([w.sentence(w(f"If nobody bids, the first bidder deals at {a['default_bid']}",
                               f"如果没有人叫，第一个叫牌的人以{a['default_bid']}坐庄"))])]
        if p.must_raise is not None:
            cond = ctx.condition(ctx.written("auction", "must_raise"))
            items.append(Item([w.sentence(w(f"A player must bid one step higher when {cond}",
                                             f"当{cond}时，玩家必须再加叫一档")),
                               *ctx.cite(("play", "auction", "must_raise"))]))
        blocks.append(Bullets(items))
    if p.instant_win:
        conds = [ctx.condition(c) for c in ctx.written("instant_win") or []]
        claim = ""
        if p.auction:
            claim = w(" It is paid as a win of the dealer's side at the bid reached so far "
                      f"(at least {p.auction['default_bid']})",
                      f"按当前叫到的分（至少{p.auction['default_bid']}）作为庄家方获胜结算") \
                if p.auction["claim_bid"] == "reached" else \
                w(" It is paid as a win of the dealer's side at the top bid",
                  "按最高叫分作为庄家方获胜结算")
            claim += _variant(ctx, "auction", "claim_bid")
        blocks.append(Para([w.sentence(w(
            f"A player dealt a hand where {w.join(conds, 'or')} may claim the hand at once",
            f"拿到的牌满足以下条件之一时可以直接亮牌算赢：{w.join(conds, 'or')}")
            + (("." if not w.zh else "。") + claim if claim else "")),
            *ctx.cite(("play", "instant_win"))]))
    return blocks


def tribute(ctx: Ctx) -> list[Block]:
    w = ctx.w
    t = ctx.r.play.tribute
    if not t:
        return []
    items = []
    payer = w("the player out last", "末游")
    if t["both_last"]:
        payer += w(" (when one side takes the last two places, both its players)",
                   "（一方包揽最后两名时，两人都要进贡）")
    cards = _card_rule(ctx, t.get("card"), ("play", "tribute", "card"))
    items.append(Item([w.sentence(w(
        f"Before every hand but the first, {payer} gives the first player out one of their "
        f"highest cards{cards}",
        f"从第二局起，每局开始前{payer}要把自己最大的一张牌{cards}进贡给上游")),
        *ctx.cite(("play", "tribute"))]))
    if t["both_last"]:
        items.append(Item([w.sentence(w("The higher card goes to the first out, the other to "
                                        "the second", "较大的一张给上游，另一张给二游"))]))
    back = _card_rule(ctx, t.get("back"), ("play", "tribute", "back"))
    items.append(Item([w.sentence(w(f"Each receiver gives back a card{back}",
                                    f"收到贡牌的玩家还给进贡者一张牌{back}"))]))
    if t.get("resist") is not None:
        cond = ctx.condition(ctx.written("tribute", "resist"))
        items.append(Item([w.sentence(w(f"Nobody pays when, in the payers' cards together, "
                                        f"{cond} (resisting the tribute)",
                                        f"如果进贡者的牌合起来满足：{cond}，则抗贡，不用进贡")),
                           *ctx.cite(("play", "tribute", "resist"))]))
    leads = w("the payer of the higher card leads", "进贡较大牌的玩家先出") \
        if t["leads"] == "payer" else w("the first out leads", "上游先出")
    items.append(Item([w.sentence(w(f"After the tribute {leads}; after a resisted one the "
                                    "first out leads", f"进贡后{leads}；抗贡时由上游先出"))]))
    return [Bullets(items)]


def _card_rule(ctx: Ctx, fn: object, path: tuple) -> str:
    """Cards a selector allows, in words: all but a few cards, or the rule spoken."""
    w = ctx.w
    if fn is None:
        return ""
    allowed = evaluate_selector(ctx, fn)
    kinds = [nt.format_card(k) for k in ctx.r.kinds()]
    left_out = [k for k in kinds if k not in allowed]
    text = ctx.condition(ctx.written(*path[1:]))
    if 0 < len(left_out) <= 4:
        level = next((c["value"] for c in ctx.data["context"] if c["type"] == "rank"), None)
        at = w(f" at level {level}", f"（打{level}时）") if level else ""
        return w(f" (any but {w.pieces(left_out, False)}{at})",
                 f"（除{w.pieces(left_out, False)}{at}外）")
    return w(f" (one for which {text})", f"（须满足：{text}）") if text else ""


def leads(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    p = r.play
    items: list[Item] = []
    holder = [nt.format_card(k) for k in p.holder]
    who = {
        "random": w("a random player", "随机一位玩家"),
        "dealer": w("the dealer", "庄家"),
        "holder": w(f"the player holding the {w.card(holder[0])}" if holder else "", "")
        if not w.zh else (f"拿到{w.card(holder[0])}的玩家" if holder else ""),
        "first_out": w("the first player out of the last hand", "上一局的上游"),
        "table": w("the player the table below names", "按下表决定的玩家"),
    }
    if len(holder) > 1:
        who["holder"] += w(f" (if nobody holds it, the {w.card(holder[1])}, and so on)",
                           f"（没人有则看{w.card(holder[1])}，依此类推）")
    if p.auction:
        items.append(Item([w.sentence(w("The dealer leads the first round", "庄家先出"))]))
    else:
        items.append(Item([w.sentence(w(f"In the first hand {who[p.first_lead]} leads",
                                        f"第一局由{who[p.first_lead]}先出")),
                           *ctx.cite(("play", "first_lead"))]))
        items.append(Item([w.sentence(w(f"In later hands {who[p.then_lead]} leads",
                                        f"之后各局由{who[p.then_lead]}先出")
                                      + _variant(ctx, "then_lead")),
                           *ctx.cite(("play", "then_lead"))]))
    if p.must_play_holder != "never" and holder:
        when = w("of the first hand", "第一局") if p.must_play_holder == "first_hand" \
            else w("of every hand", "每一局")
        items.append(Item([w.sentence(w(f"The first play {when} must include that card",
                                        f"{when}的第一手牌必须包含这张牌")
                                      + _variant(ctx, "must_play_holder")),
                           *ctx.cite(("play", "must_play_holder"))]))
    blocks: list[Block] = [Bullets(items)]
    if p.then_lead == "table" and p.lead_table:
        blocks += table_blocks(ctx, p.lead_table)
    return blocks


def rounds(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    p = r.play
    items: list[Item] = [
        Item([w.sentence(w("The leader plays any pattern (see Patterns)",
                           "首家可以出任何牌型（见“牌型”）"))]),
        Item([w.sentence(w(
            f"Going {direction_words(ctx)}, each player either passes or beats the last play: "
            "the same pattern with the same number of cards and a higher rank, or a bomb. A "
            "bomb beats every play that is not a bomb; between bombs the larger wins, and of "
            "two as large the higher rank",
            f"按{direction_words(ctx)}方向，每位玩家要么不出，要么压过上一手：出张数相同、牌型相同而更大的牌，"
            "或者出炸弹。炸弹可以压任何非炸弹的牌；炸弹之间张数多的大，张数相同比点数")),
            *ctx.cite(("play",))]),
    ]
    if r.classes:
        items.append(Item([w.sentence(w("Some patterns of the same size also beat each other "
                                        "(see Patterns)",
                                        "部分张数相同的不同牌型也可以互压（见“牌型”）"))]))
    if p.must_beat:
        items.append(Item([w.sentence(w("A player who can beat the play must do so",
                                        "能压过时必须出牌，不能不出")),
                           *ctx.cite(("play", "must_beat"))]))
    if p.highest_single is not None:
        cond = ctx.condition(ctx.written("highest_single"))
        items.append(Item([w.sentence(w(f"When {cond}, a single played must be the player's "
                                        "highest card", f"当{cond}时，出单张必须出手中最大的牌")),
                           *ctx.cite(("play", "highest_single"))]))
    won = w("When everyone else has passed, the last player to play wins the round",
            "其他人都不出时，最后出牌的玩家赢得这一轮")
    if r.points:
        won += w(", takes its point cards", "，收下这一轮的分牌")
    won += w(" and leads again", "，并重新首先出牌")
    items.append(Item([w.sentence(won)]))
    take = {"next_player": w("their next player still holding cards", "其下家（仍有牌的）"),
            "partner": w("their partner (the first teammate after them still holding cards)",
                         "其对家（其后第一个仍有牌的队友）")}.get(p.takeover, "")
    if take:
        items.append(Item([w.sentence(w(
            f"When a player goes out and everyone passes, the lead goes to {take}",
            f"有人出完牌而其他人都不出时，由{take}接风")), *ctx.cite(("play", "takeover"))]))
    if p.secured:
        expr = ((ctx.r.resolved.get("formulas") or {}).get(p.secured) or {}).get("expr", "")
        items.append(Item([w.sentence(w("A side's points at the end of the hand: ",
                                        "一方在本局结束时的得分：") + ctx.formula(expr)),
                           *ctx.cite(("formulas", p.secured))]))
    return [Bullets(items)]


def ending(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    words = []
    for end in p.ends:
        words.append({"one_left": w("only one player still holds cards", "只剩一位玩家手中有牌"),
                      "team_out": w("all the players of one side are out", "一方玩家全部出完"),
                      "first_out": w("a player has played all their cards", "有玩家出完所有牌"),
                      }.get(end, w.term(end)))
    for name in p.end_tables:
        spec = (ctx.r.resolved.get("tables") or {}).get(name) or {}
        for row in spec.get("rows") or []:
            if row.get("state") == "over":
                folded = ctx.say.fold(str(row.get("when", "true")))
                if isinstance(folded, ast.Name) and folded.id == "false":
                    continue
                words.append(w("for one side, ", "某一方") + ctx.condition(row.get("when")))
    if len(words) <= 2:
        blocks: list[Block] = [Para([w.sentence(w(f"The hand ends as soon as "
                                                  f"{w.join(words, 'or')}",
                                                  f"当{w.join(words, 'or')}时，本局结束")),
                                     *ctx.cite(("play", "ends"))])]
    else:
        blocks = [Para([w("The hand ends as soon as one of these happens:",
                          "出现以下任何一种情况时，本局结束："), *ctx.cite(("play", "ends"))]),
                  Bullets([Item([w.sentence(x)]) for x in words])]
    blocks.append(Para([w.sentence(w("Players are placed in the order they went out: the "
                                     "first out, the second out, and so on",
                                     "按出完牌的先后排名：上游、二游……"))]))
    return blocks


def settlement(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    p = r.play
    blocks: list[Block] = []
    if p.seat_score:
        blocks.append(Heading(w("Each player's score", "每位玩家的得分")))
        blocks += table_blocks(ctx, p.seat_score) if p.seat_score in r.tables else \
            formula_blocks(ctx, p.seat_score)
    if p.team_result:
        blocks.append(Heading(w("Each side's result", "每一方的胜负")))
        blocks += table_blocks(ctx, p.team_result)
    if p.payment:
        blocks.append(Heading(w("Payments", "输赢")))
        blocks += formula_blocks(ctx, p.payment, w(
            "Every player who is not the first out pays the first out",
            "每位非上游的玩家付给上游"))
    if p.side_payout:
        blocks.append(Heading(w("Payments", "输赢")))
        blocks.append(Para([w.sentence(w(
            "The side of the first player out wins. When the dealer's side wins, the defenders "
            "pay it equally; when the defenders win, the dealer's side pays each of them",
            "上游所在的一方获胜。庄家方赢时由闲家平均支付；闲家赢时由庄家方付给每位闲家"))]))
        blocks += table_blocks(ctx, p.side_payout)
    if p.side_score:
        blocks += formula_blocks(ctx, p.side_score, w(
            "Score points: each player of the losing side gives",
            "积分：输方每人付出"))
    levels = r.levels if isinstance(r.levels, dict) else None
    if levels and levels.get("ladder"):
        ladder = [nt.rank_name(int(x)) for x in levels["ladder"]]
        blocks.append(Heading(w("Levels", "级别")))
        blocks.append(Para([w.sentence(w(
            f"Each side has a level, from {ladder[0]} up to {ladder[-1]}; a hand is played at "
            "the level of the side that won the last one. The side of the first player out "
            "climbs", f"每一方都有级别，从{ladder[0]}升到{ladder[-1]}；每局打上一局获胜一方的级。"
            "上游所在的一方升级")), *ctx.cite(("levels",))]))
        if p.climb:
            blocks += table_blocks(ctx, p.climb)
        blocks.append(Para([w.sentence(w(
            f"A side at the top level wins the match by winning a hand that climbs at least "
            f"{w.count(p.win_at_top, 'level')}",
            f"在最高级时，赢一局且至少升{p.win_at_top}级即赢得整场比赛")
            + _variant(ctx, "win_at_top")), *ctx.cite(("play", "win_at_top"))]))
        if p.top_failures:
            blocks.append(Para([w.sentence(w(
                f"After {p.top_failures} hands played at its own top level without winning the "
                f"match, a side goes back to {ladder[0]}",
                f"在最高级自己坐庄打了{p.top_failures}次仍未赢得比赛，该方退回{ladder[0]}")
                + _variant(ctx, "top_failures")), *ctx.cite(("play", "top_failures"))]))
        blocks.append(Para([w.sentence(w(
            f"Each player of the side that wins the match gains {p.match_win}, paid by the "
            "other side", f"赢得比赛的一方每人得{p.match_win}，由另一方支付"))]))
    if not blocks:
        blocks.append(Para([w.sentence(w("The rule file sets no payments",
                                         "规则文件没有规定结算"))]))
    return blocks


def proceeds(ctx: Ctx) -> list[Section]:
    w = ctx.w
    p = ctx.r.play
    hand = [Section("deal", w("Dealing", "发牌"), deal(ctx))]
    bid = bidding(ctx)
    if bid:
        hand.append(Section("bidding", w("Bidding", "叫牌"), bid))
    trib = tribute(ctx)
    if trib:
        hand.append(Section("tribute", w("Tribute", "进贡与还贡"), trib))
    hand.append(Section("lead", w("Who leads", "谁先出"), leads(ctx)))
    hand.append(Section("rounds", w("Leading and following", "出牌与跟牌"), rounds(ctx)))
    hand.append(Section("end", w("The end of the hand", "一局结束"), ending(ctx)))
    steps = [w("the deal", "发牌")]
    if p.auction:
        steps.append(w("the bidding", "叫牌"))
    if p.tribute:
        steps.append(w("the tribute", "进贡"))
    steps += [w("rounds of play", "出牌"), w("the settlement", "结算")]
    intro = Para([w.sentence(w(f"A hand goes through {w.join(steps)}",
                               f"每一局依次是：{'、'.join(steps)}"))])
    return [Section("hand", w("How a hand is played", "打法"), [intro], hand),
            Section("settlement", w("Settlement", "结算"), settlement(ctx))]
