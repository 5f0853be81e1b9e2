"""How a hand of a trick-taking game proceeds, and how it is settled, in words."""

from __future__ import annotations

from .. import notation as nt
from .context import Ctx
from .model import Block, Bullets, Heading, Item, Para, Section
from .sections import direction_words, evaluate_selector
from .tables import formula_blocks, table_blocks

VARIANT = ("(a variant: see Variants)", "（可选规则，见“可选规则”）")


def _variant(ctx: Ctx, *path: str) -> str:
    return (" " if not ctx.w.zh else "") + ctx.w(*VARIANT) if ctx.option_of(*path) else ""


def deal(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    hand, kitty = r.deal.get("hand_size"), r.deal.get("kitty", 0)
    text = w(f"The cards are shuffled and dealt one at a time, {direction_words(ctx)}, until "
             f"each of the {r.players} players holds {hand}",
             f"洗牌后按{direction_words(ctx)}方向逐张发牌，{r.players}位玩家每人{hand}张")
    if kitty:
        text += w(f"; the last {kitty} cards are set aside face down as the kitty",
                  f"；最后{kitty}张扣下作为底牌")
    blocks: list[Block] = [Para([w.sentence(text), *ctx.cite(("deal",), ("deal", "hand_size"))])]
    levels = r.levels if isinstance(r.levels, dict) else None
    if levels and levels.get("ladder"):
        start = nt.rank_name(int(levels.get("start", levels["ladder"][0])))
        blocks.append(Para([w.sentence(w(
            f"Both sides start at level {start}. The level of a hand is the dealer's side's "
            "level: cards of that rank are level cards",
            f"双方都从{start}开始打。每局的级牌是庄家方当前的级别，这个点数的牌就是级牌")),
            *ctx.cite(("levels", "start"), ("context", "level"))]))
    return blocks


def declaring(ctx: Ctx) -> list[Block]:
    w = ctx.w
    if ctx.r.play is None:
        return []
    p = ctx.r.play
    items: list[Item] = []
    select = ctx.written("declare", "select")
    shown = w.term(str(select)) if isinstance(select, str) and select.isidentifier() else \
        ctx.condition(select)
    items.append(Item([w.sentence(w(
        f"While the cards are dealt, a player who receives a {shown} may show it to make its "
        "suit trumps (declaring)",
        f"发牌过程中，拿到{shown}的玩家可以亮出它，让它的花色成为主花色（叫主）")),
        *ctx.cite(("play", "declare", "select"))]))
    items.append(Item([w.sentence(w(
        f"Up to {p.declare_max} identical cards may be shown at once",
        f"一次最多可以亮{p.declare_max}张相同的牌")), *ctx.cite(("play", "declare", "max"))]))
    overcall = w(f"Another player may overcall with at least {p.overcall_min} identical "
                 "cards, more than the standing declaration",
                 f"其他玩家可以用至少{p.overcall_min}张相同的牌反主，张数要多于当前的叫主")
    if p.overcall == "more_or_higher_suit":
        order = " < ".join(nt.SUIT_PICTURES[s] for s in p.suit_order)
        overcall += w(f", or as many of a higher suit ({order})",
                      f"，或张数相同但花色更大（{order}）")
    items.append(Item([w.sentence(overcall + _variant(ctx, "declare", "overcall")),
                       *ctx.cite(("play", "declare", "overcall"))]))
    if p.reinforce:
        text = w("A declarer may add cards to their own declaration (reinforcing)",
                 "叫主的玩家可以再亮牌加固自己的叫主")
        text += w(", and so may the player whose overcall stands",
                  "，反主成功的玩家也可以加固") if p.reinforce_overcall else \
            w(", but only while nobody has overcalled", "，但只限于还没有人反主的时候")
        items.append(Item([w.sentence(text + _variant(ctx, "declare", "reinforce_overcall")),
                           *ctx.cite(("play", "declare", "reinforce"))]))
    items.append(Item([w.sentence(
        (w("A declarer may overcall themselves in another suit", "叫主者可以用另一花色反自己")
         if p.self_overcall else
         w("A declarer may not overcall themselves in another suit", "叫主者不能用另一花色反自己"))
        + _variant(ctx, "declare", "self_overcall")),
        *ctx.cite(("play", "declare", "self_overcall"))]))
    if p.declare_jokers == "pairs":
        items.append(Item([w.sentence(w(
            "Two or more of one joker declare no trump suit: then only jokers and level cards "
            "are trumps; at an equal count the big jokers beat the little ones, which beat "
            "any suit",
            "两张或以上同一种王可以叫无主：此时只有王和级牌是主牌；张数相同时大王胜小王，小王胜任何花色")
            + _variant(ctx, "declare", "jokers"))]))
    items.append(Item([w.sentence(_fallback(ctx, p.fallback) + _variant(ctx, "declare",
                                                                       "fallback")),
                       *ctx.cite(("play", "declare", "fallback"))]))
    if p.later_fallback != p.fallback:
        items.append(Item([w.sentence(w("In later hands: ", "之后各局：")
                                      + _fallback(ctx, p.later_fallback)
                                      + _variant(ctx, "declare", "later_fallback"))]))
    first = w("The player whose declaration stands deals the first hand",
              "第一局由叫主成功的玩家坐庄") if p.first_dealer == "declarer" else \
        w("The first hand's dealer is drawn at random", "第一局随机选定庄家")
    items.append(Item([w.sentence(first), *ctx.cite(("play", "first_dealer"))]))
    return [Bullets(items)]


def _fallback(ctx: Ctx, rule: str) -> str:
    w = ctx.w
    if rule == "turn_up_kitty":
        return w("If nobody declares, the kitty is turned up: its first card that could have "
                 "been declared names the trump suit, else its highest card",
                 "如果没有人叫主，就翻开底牌：第一张可以叫主的牌决定主花色，否则由最大的一张决定")
    if rule == "first_kitty_card":
        return w("If nobody declares, the kitty's first card names the trump suit (a joker: "
                 "no trumps)", "如果没有人叫主，由底牌的第一张决定主花色（若是王则无主）")
    return w("If nobody declares, a suit is chosen at random", "如果没有人叫主，随机选定一门主花色")


def play(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    p = r.play
    blocks: list[Block] = []
    kitty = r.deal.get("kitty", 0)
    if kitty:
        blocks.append(Para([w.sentence(w(
            f"The dealer picks up the kitty and buries {kitty} cards face down in its place",
            f"庄家拿起底牌，再扣下{kitty}张牌作为新的底牌")), *ctx.cite(("play", "kitty"))]))
    blocks.append(Para([w.sentence(w(
        "The dealer leads the first trick: any pattern (see Patterns) in one suit-system. "
        "All trumps together count as one suit",
        "庄家首先出牌：可以出同一花色系统内的任何牌型（见“牌型”）。所有主牌算作同一门花色"))]))
    follow = w("Each other player in turn plays as many cards as were led, following the led "
               "suit-system as far as they can",
               "其他玩家依次出同样张数的牌，尽量跟出首家的花色系统")
    shape = p.follow_shape
    if shape == "ignore":
        follow += w("; the shape need not match (a pair may be answered with two single "
                    "cards of the suit)", "；不要求牌型相同（对子可以跟两张单张）")
    elif shape == "pairs":
        follow += w("; they must show as many pairs as the lead holds, when they have them",
                    "；有对子时必须跟出与首家同样多的对子")
    else:
        follow += w("; they must match the lead's format as far as their hand allows: a "
                    "tractor by a tractor, then shorter tractors and pairs, then pairs, then "
                    "singles",
                    "；必须尽量跟出相同的牌型：拖拉机跟拖拉机，没有就跟较短的拖拉机和对子，"
                    "再没有就跟对子，最后才是单张")
    blocks.append(Para([w.sentence(follow + _variant(ctx, "follow", "shape")),
                        *ctx.cite(("play", "follow"), ("play", "follow", "shape"))]))
    blocks.append(Para([w.sentence(w(
        "A player who has none of the led suit may play any cards: trumps in the shape of the "
        "lead ruff it, other cards are discards that cannot win",
        "没有首家花色的玩家可以出任何牌：与首家牌型相同的主牌可以毙（将）牌，其他牌只是垫牌，不能赢"))]))
    blocks.append(Para([w.sentence(w(
        "The trick goes to the highest play of the led shape in the led suit or, if the trick "
        "was ruffed, to the highest trump play of that shape; between equal plays the first "
        "one played wins. The winner of a trick leads the next",
        "每一轮由首家花色中同牌型最大的牌获胜；若有人毙牌，则由同牌型最大的主牌获胜；"
        "同样大时先出者胜。赢得一轮的玩家接着出下一轮"))]))
    if r.points:
        blocks.append(Para([w.sentence(w(
            "Point cards in the tricks the defenders win count for the defenders",
            "闲家赢得的各轮中的分牌计入闲家得分"))]))
    blocks += _throws(ctx)
    blocks += _captures(ctx)
    return blocks


def _throws(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    if p.throw_allowed == "none":
        return [Para([w.sentence(w("Throws (several patterns led at once) are not allowed",
                                   "不允许甩牌"))])]
    where = w("in a plain suit (never in trumps)", "（只能是副牌，主牌不能甩）") \
        if p.throw_allowed == "plain" else w("in one suit-system, trumps included",
                                             "（同一花色系统，主牌也可以）")
    items: list[Item] = [Item([w.sentence(w(
        f"A leader may throw: lead several patterns of one suit at once {where}",
        f"首家可以甩牌：一次出同一门花色的几个牌型{where}")),
        *ctx.cite(("play", "throw", "allowed"))])]
    if p.throw_test == "smallest_card":
        test = w("A throw stands when no other player holds a card of that suit higher than "
                 "its smallest card",
                 "其他玩家手中都没有比所甩牌中最小那张更大的同花色牌，甩牌才成功")
    else:
        test = w("A throw stands when no other player could beat any of its patterns in that "
                 "pattern's own shape", "其他玩家都不能用同牌型压过所甩的任何一个牌型，甩牌才成功")
    items.append(Item([w.sentence(test), *ctx.cite(("play", "throw", "test"))]))
    failure = {
        "smallest_card": w("Otherwise only its smallest card is played",
                           "否则只能打出所甩牌中最小的一张"),
        "smallest_unit": w("Otherwise only its smallest pattern that another player could "
                           "beat is played", "否则只能打出其中会被别人压过的最小牌型"),
        "first_blocker_unit": w("Otherwise only the smallest pattern that the first player "
                                "in turn able to beat one could beat is played",
                                "否则按出牌顺序第一个能压过的玩家，打出其能压过的最小牌型"),
    }[p.throw_failure]
    items.append(Item([w.sentence(failure), *ctx.cite(("play", "throw", "failure"))]))
    if p.throw_penalty:
        items.append(Item([w.sentence(w(
            f"A failed throw costs {p.throw_penalty} points: the defenders gain them when the "
            "dealer's side fails, lose them when they fail",
            f"甩牌失败罚{p.throw_penalty}分：庄家方失败时闲家加分，闲家失败时闲家扣分")
            + _variant(ctx, "throw", "penalty")), *ctx.cite(("play", "throw", "penalty"))]))
    ranked = {
        "largest_unit": w("Plays answering a throw compare by their largest (then strongest) "
                          "patterns", "跟甩牌的牌按其中最大的牌型比较"),
        "every_unit": w("A play answering a throw beats it only if each of its patterns beats "
                        "its counterpart, largest first",
                        "跟甩牌的牌必须每个牌型都压过对应的牌型才算大"),
        "highest_card": w("Plays answering a throw compare by their highest cards",
                          "跟甩牌的牌按最大的一张比较"),
    }[p.throw_ranked_by]
    items.append(Item([w.sentence(ranked + _variant(ctx, "throw", "ranked_by"))]))
    return [Heading(w("Throws", "甩牌")), Bullets(items)]


def _captures(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    if not p.captures:
        return []
    items = []
    written = ctx.written("captures") or []
    for i, (name, fn) in enumerate(p.captures):
        cards = evaluate_selector(ctx, fn)
        select = written[i].get("select") if i < len(written) and \
            isinstance(written[i], dict) else None
        what = w.term(str(select)) if isinstance(select, str) and select.isidentifier() \
            else w.term(name)
        kitty = name in p.kitty_captures
        tail = w("also when buried in the kitty and the defenders win the last trick",
                 "埋在底牌中而闲家赢得最后一轮时也算") if kitty else \
            w("not when buried in the kitty", "埋在底牌中的不算")
        items.append(Item([w(f"Capturing an opponent's {what} (", f"抓到对方的{what}（"),
                           ctx.cards(cards),
                           w.sentence(w(f") counts for the side that takes it; {tail}",
                                        f"）计入抓到的一方；{tail}")),
                           *ctx.cite(("play", "captures", i))]))
    return [Heading(w("Captured cards", "抓牌")), Bullets(items)]


def ending(ctx: Ctx) -> list[Block]:
    w = ctx.w
    p = ctx.r.play
    blocks: list[Block] = [Para([w.sentence(w(
        "The hand ends when all the cards have been played",
        "所有牌出完后本局结束"))])]
    if p.kitty_capture:
        blocks += formula_blocks(ctx, p.kitty_capture, w(
            "If the defenders win the last trick they also score the kitty's points:",
            "如果闲家赢得最后一轮，还可以得到底牌的分："))
    return blocks


def settlement(ctx: Ctx) -> list[Block]:
    w, r = ctx.w, ctx.r
    p = r.play
    blocks: list[Block] = [Para([w.sentence(w(
        "The defenders' points decide who climbs and how far, and who deals next",
        "闲家的得分决定哪一方升级、升几级，以及下一局谁坐庄"))])]
    blocks += table_blocks(ctx, p.result_table)
    if p.swing:
        blocks.append(Heading(w("Level change", "升级数")))
        blocks += formula_blocks(ctx, p.swing, w(
            "The levels actually moved (positive: the defenders climb; negative: the dealer's "
            "side climbs) are", "实际升级数（正数闲家升级，负数庄家方升级）为"))
    if p.overcall_bonus:
        blocks.append(Heading(w("Overcall bonus", "反主加级")))
        to = w("the side the table names", "上表中升级的一方") \
            if p.overcall_bonus_to == "winning_side" else w("the defenders", "闲家")
        draw = w("; when nobody climbs, the defenders take it", "；双方都不升级时归闲家") \
            if p.overcall_bonus_draw == "defenders" else ""
        blocks.append(Para([w.sentence(w(
            f"An overcall adds levels to {to}{draw}", f"反主另外加级，加给{to}{draw}"))]))
        blocks += table_blocks(ctx, p.overcall_bonus)
    if p.max_levels:
        blocks.append(Para([w.sentence(w(
            f"One hand moves a side at most {p.max_levels} levels",
            f"一局最多升{p.max_levels}级"))]))
    nxt = {
        "table": w("The result table says who deals next", "下一局的庄家按上表决定"),
        "climbing_side": w("The side that climbs deals next (the defenders: the dealer's next "
                           "player; the dealer's side: the dealer's partner)",
                           "升级的一方下一局坐庄（闲家升级：庄家的下家坐庄；庄家方升级：庄家的对家坐庄）"),
    }.get(p.next_dealer, "")
    if nxt:
        blocks.append(Para([w.sentence(nxt + _variant(ctx, "result", "next_dealer")),
                            *ctx.cite(("play", "result", "next_dealer"))]))
    levels = r.levels if isinstance(r.levels, dict) else None
    if levels and levels.get("ladder"):
        ladder = [int(x) for x in levels["ladder"]]
        text = w(f"Levels run {' '.join(nt.rank_name(x) for x in ladder)}",
                 f"级别依次为：{' '.join(nt.rank_name(x) for x in ladder)}")
        blocks.append(Heading(w("Levels", "级别")))
        blocks.append(Para([w.sentence(text), *ctx.cite(("levels", "ladder"))]))
        stops = [nt.rank_name(int(x)) for x in levels.get("must_stop") or []]
        if stops:
            pass_rule = w("a side standing on one passes it with any winning hand",
                          "停在这些级上的一方赢任何一局即可通过") if p.pass_must_stop == "any" \
                else w("a side standing on one passes it only by winning a hand as the "
                       "dealer's side", "停在这些级上的一方必须作为庄家方赢一局才能通过")
            blocks.append(Para([w.sentence(w(
                f"A climbing side stops at {w.join(stops)} whatever it earned (must-play "
                f"levels); {pass_rule}",
                f"升级经过{w.join(stops)}时必须停下（必打）；{pass_rule}")
                + _variant(ctx, "result", "pass_must_stop")),
                *ctx.cite(("levels", "must_stop"))]))
        blocks.append(Para([w.sentence(w("A side that climbs past the top level wins the match",
                                         "升过最高一级的一方赢得整场比赛"))]))
    return blocks


def proceeds(ctx: Ctx) -> list[Section]:
    """The sections of how a hand proceeds and is settled."""
    w = ctx.w
    hand = [Section("deal", w("Dealing", "发牌"), deal(ctx)),
            Section("declaring", w("Declaring trumps", "叫主与反主"), declaring(ctx)),
            Section("tricks", w("Leading and following", "出牌与跟牌"), play(ctx)),
            Section("end", w("The end of the hand", "一局结束"), ending(ctx))]
    intro = Para([w.sentence(w("A hand goes through the deal (with declaring), the kitty, "
                               "the tricks and the settlement",
                               "每一局依次是：发牌（同时叫主）、扣底、出牌各轮、结算"))])
    return [Section("hand", w("How a hand is played", "打法"), [intro], hand),
            Section("settlement", w("Settlement", "结算"), settlement(ctx))]
