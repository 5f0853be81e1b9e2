"""Expressions in words: conditions and formulas of a rule file, for players.

An expression is parsed (`rulesdsl.language.parser`), the options' values folded in
(`fold`: `points >= deal_threshold + result_step` with the defaults 120 and 60 is
`points >= 180`; a branch an option switches off disappears), then spoken by `Speaker`:
`min(13, (points - 120) // 10)` is "(points − 120) ÷ 10, rounded down, at most 13". The
words of names the engines give (points, cards_left, self_drawn …) and of card and tile
attributes are listed here in both languages; any other name is shown as its words.
"""

from __future__ import annotations

from typing import Any

from .. import notation as nt
from ..errors import RulesdslError
from ..language import ast
from ..language.parser import parse_expression
from .words import Words, words_of

# Names → (English, Chinese): engine-given inputs, context values, attributes.
NAMES: dict[str, tuple[str, str]] = {
    # card attributes
    "suit": ("the suit", "花色"), "rank": ("the rank", "点数"), "card": ("the card", "牌"),
    "color": ("the colour", "颜色"),
    # tile, set and hand attributes
    "tile": ("the tile", "牌"), "number": ("the number", "数字"), "wind": ("its wind", "对应风位"),
    "kind": ("the kind", "类型"), "wilds": ("the wilds in it", "得的张数"),
    "home_wilds": ("wilds standing for their own face", "归位的得"),
    "wait": ("the wait", "和牌方式"), "flowers": ("the flowers", "花牌数"),
    "seat_wind": ("the seat wind", "门风"), "sets": ("the sets", "各组牌"),
    "tiles": ("the tiles", "所有牌"), "exposed_flowers": ("the exposed flowers", "亮出的花牌"),
    "first_suit": ("the suit of the first suited tile", "第一张序数牌的花色"),
    "win_tile": ("the winning tile", "和的那张牌"),
    # context values
    "trump": ("the trump suit", "主花色"), "level": ("the level", "级牌"),
    "turned": ("the turned-up tile", "翻出的牌"),
    # engine inputs
    "points": ("its points", "本方分数"), "opp_points": ("the other side's points", "对方分数"),
    "out": ("the number of its players out", "本方出完的人数"),
    "opp_out": ("the number of the other side's players out", "对方出完的人数"),
    "first_out": ("has the first out", "有上游"), "place": ("the place", "名次"),
    "own": ("its own captured points", "自己抓的分"), "in_hand": ("points in hand", "手中的分"),
    "cards_left": ("cards left", "剩余张数"),
    "last_captured": ("the last player's captured points", "末游抓的分"),
    "last_in_hand": ("the points in the last player's hand", "末游手中的分"),
    "early": ("the hand ended early", "提前结束"), "players": ("players", "玩家人数"),
    "base": ("the base points", "基础牌点"), "bid": ("the bid", "叫分"),
    "bombs": ("bombs played", "炸弹数"), "loser_plays": ("plays by the losing side",
                                                      "输方出牌次数"),
    "mate_place": ("the partner's place", "队友名次"),
    "kitty_points": ("the kitty's points", "底牌分"),
    "last_size": ("cards in the last lead", "最后一轮首家张数"),
    "last_units": ("combinations in the last winning play", "最后一轮组合数"),
    "last_group": ("cards per step of the last trick's largest combination",
                   "最后一轮最大组合每档张数"),
    "last_largest": ("cards in the last lead's largest unit", "最后一轮首家最大单元张数"),
    "overcall_cards": ("cards of the standing overcall", "反主张数"),
    "defender_levels": ("the defenders' levels from the table", "闲家按表升级数"),
    "dealer_levels": ("the dealer side's levels from the table", "庄家方按表升级数"),
    "tiles_left": ("tiles left in the wall", "牌墙剩余张数"),
    "total": ("the winner's total", "和家总牌点"), "stake": ("the stake", "底银"),
    "self_drawn": ("self-drawn", "自摸"), "receiver_total": ("the receiver's total",
                                                          "收方总牌点"),
    "payer_total": ("the payer's total", "付方总牌点"), "fan": ("fan", "番数"),
    "finished_captured": ("points captured by players out", "已出完玩家抓的分"),
    "unfinished_captured": ("points captured by players still holding cards",
                            "未出完玩家抓的分"),
    "has_first": ("has the first out", "有上游"), "hand": ("the hand", "手牌"),
    "round": ("the bidding round", "叫牌轮次"), "next_left": ("the next player's cards",
                                                        "下家剩余张数"),
    "own_left": ("own cards left", "自己剩余张数"),
    "seen": ("copies seen before", "之前出现过的张数"),
    "size": ("cards", "张数"), "length": ("steps", "档数"), "step": ("cards per step",
                                                              "每档张数"),
}

# Boolean names → ((English, negated English), (Chinese, negated Chinese)).
PREDICATES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "is_joker": (("it is a joker", "it is not a joker"), ("是王", "不是王")),
    "is_suited": (("it is a suited tile", "it is not a suited tile"), ("是序数牌", "不是序数牌")),
    "is_honor": (("it is an honour tile", "it is not an honour tile"), ("是字牌", "不是字牌")),
    "is_wind": (("it is a wind", "it is not a wind"), ("是风牌", "不是风牌")),
    "is_dragon": (("it is a dragon", "it is not a dragon"), ("是中发白", "不是中发白")),
    "is_terminal": (("it is a 1 or a 9", "it is not a 1 or a 9"), ("是幺九", "不是幺九")),
    "is_flower": (("it is a flower", "it is not a flower"), ("是花牌", "不是花牌")),
    "concealed": (("it is concealed", "it is exposed"), ("是暗的", "是明的")),
    "claimed": (("it is exposed", "it is concealed"), ("是明的", "是暗的")),
    "completed": (("the winning tile completed it", "the winning tile did not complete it"),
                  ("由和的那张牌完成", "不是由和的那张牌完成")),
    "winner": (("the player won", "the player did not win"), ("是和家", "不是和家")),
    "self_drawn": (("the win is self-drawn", "the win is not self-drawn"), ("自摸", "非自摸")),
    "kong_replacement": (("the winning tile is a kong's replacement",
                          "the winning tile is no kong's replacement"),
                         ("和的是杠后补的牌", "和的不是杠后补的牌")),
    "flower_replacement": (("the winning tile replaced a flower",
                            "the winning tile replaced no flower"),
                           ("和的是补花的牌", "和的不是补花的牌")),
    "robbed_kong": (("the win robs a kong", "the win robs no kong"), ("抢杠和", "非抢杠和")),
    "last_tile": (("the win is on the wall's last tile", "the win is not on the last tile"),
                  ("和的是最后一张牌", "和的不是最后一张牌")),
    "first_turn": (("the win is on the player's first turn", "the win is not on the first turn"),
                   ("第一巡和牌", "非第一巡和牌")),
    "kong_discard": (("the winning discard follows a kong", "the winning discard follows no kong"),
                     ("和杠后打出的牌", "和的不是杠后打出的牌")),
    "seven_pairs": (("the hand is seven pairs", "the hand is not seven pairs"),
                    ("是七对", "不是七对")),
    "all_live": (("every tile in the discarder's hand was live",
                  "not every tile in the discarder's hand was live"),
                 ("打牌者手中全是生牌", "打牌者手中不全是生牌")),
    "ready": (("the discarder was ready", "the discarder was not ready"), ("已听牌", "未听牌")),
    "true": (("always", "never"), ("总是", "从不")),
    "false": (("never", "always"), ("从不", "总是")),
}

# Items of a list a condition walks, for count/any/all.
# Integer inputs that are flags (1 or 0) → ((English, negated), (Chinese, negated)).
FLAGS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "early": (("the hand ended early", "the hand did not end early"), ("提前结束", "未提前结束")),
    "first_out": (("the side has the first out", "the side does not have the first out"),
                  ("本方有上游", "本方没有上游")),
    "has_first": (("the side has the first out", "the side does not have the first out"),
                  ("本方有上游", "本方没有上游")),
    "self_drawn": (("the win is self-drawn", "the win is not self-drawn"), ("自摸", "非自摸")),
}

# Boolean attributes as nouns, for counts: "the number of jokers in the hand".
NOUNS: dict[str, tuple[str, str]] = {
    "is_joker": ("jokers", "王"), "is_flower": ("flowers", "花牌"),
    "is_honor": ("honour tiles", "字牌"), "is_suited": ("suited tiles", "序数牌"),
    "is_dragon": ("dragons", "中发白"), "is_wind": ("winds", "风牌"),
    "is_terminal": ("1s and 9s", "幺九牌"),
}

ITEMS: dict[str, tuple[str, str, str]] = {  # list name → (en singular, en plural, zh unit)
    "sets": ("set", "sets", "组"), "tiles": ("tile", "tiles", "张"),
    "exposed_flowers": ("exposed flower", "exposed flowers", "张"),
    "hand": ("card", "cards", "张"),
}

CONST_WORDS: dict[str, tuple[str, str]] = {
    "red": ("red", "红色"), "black": ("black", "黑色"),
    "m": ("characters", "万"), "p": ("dots", "筒"), "s": ("bamboo", "条"), "z": ("honours", "字牌"),
    "f": ("flowers", "花牌"),
}

COMPARE_EN = {"==": "is", "!=": "is not", ">=": "is at least", ">": "is more than",
              "<=": "is at most", "<": "is less than", "in": "is one of",
              "not in": "is none of"}
COMPARE_ZH = {"==": "为", "!=": "不为", ">=": "至少为", ">": "多于", "<=": "至多为", "<": "少于",
              "in": "为以下之一：", "not in": "不为以下任何一个："}
NEGATED = {"==": "!=", "!=": "==", ">=": "<", ">": "<=", "<=": ">", "<": ">=", "in": "not in",
           "not in": "in"}

TRUE, FALSE = ast.Name("true"), ast.Name("false")


class NotSpoken(RulesdslError):
    """An expression that does not parse (the compiler reports it; the rulebook skips it)."""


def parse(text: Any) -> ast.Node:
    try:
        return parse_expression(str(text))
    except RulesdslError as exc:
        raise NotSpoken(str(exc)) from None


# ---------------------------------------------------------------- folding constants


def _const(node: ast.Node) -> tuple[bool, Any]:
    if isinstance(node, ast.Num):
        return True, node.value
    if isinstance(node, ast.Str):
        return True, node.value
    if isinstance(node, ast.Name) and node.id in ("true", "false"):
        return True, node.id == "true"
    if isinstance(node, ast.ListExpr):
        items = [_const(i) for i in node.items]
        if all(ok for ok, _ in items):
            return True, [v for _, v in items]
    return False, None


def _node(value: Any) -> ast.Node:
    if isinstance(value, bool):
        return TRUE if value else FALSE
    if isinstance(value, int):
        return ast.Num(value) if value >= 0 else ast.Neg(ast.Num(-value))
    if isinstance(value, float) and value.is_integer():
        return _node(int(value))
    if isinstance(value, list):
        return ast.ListExpr(tuple(_node(v) for v in value))
    return ast.Str(str(value))


_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b}
_CMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
        ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
        "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


def fold(node: ast.Node, consts: dict[str, Any]) -> ast.Node:
    """The expression with `consts` (option values) put in and what they decide worked
    out: arithmetic on numbers, comparisons of constants, `and`/`or`/`not`/`if` with a
    known side."""
    if isinstance(node, ast.Name):
        if node.id in consts and isinstance(consts[node.id], (bool, int, float, str)):
            return _node(consts[node.id])
        return node
    if isinstance(node, ast.BinOp):
        left, right = fold(node.left, consts), fold(node.right, consts)
        (lk, lv), (rk, rv) = _const(left), _const(right)
        if lk and rk and node.op in _ARITH and isinstance(lv, int) and isinstance(rv, int) \
                and not isinstance(lv, bool) and not isinstance(rv, bool):
            if node.op in ("//", "%") and rv == 0:
                return ast.BinOp(node.op, left, right)
            if node.op == "**" and not 0 <= rv <= 64:
                return ast.BinOp(node.op, left, right)
            return _node(_ARITH[node.op](lv, rv))
        if node.op == "*" and ((lk and lv == 1) or (rk and rv == 1)):
            return right if lk and lv == 1 else left
        if node.op in ("+", "-") and rk and isinstance(rv, int) and not isinstance(rv, bool) \
                and isinstance(left, ast.BinOp) and left.op in ("+", "-"):
            ok, inner = _const(left.right)
            if ok and isinstance(inner, int) and not isinstance(inner, bool):
                total = (inner if left.op == "+" else -inner) + (rv if node.op == "+" else -rv)
                if total == 0:
                    return left.left
                return ast.BinOp("+" if total > 0 else "-", left.left, _node(abs(total)))
        if node.op in ("+", "-") and rk and rv == 0:
            return left
        return ast.BinOp(node.op, left, right)
    if isinstance(node, ast.Neg):
        inner = fold(node.operand, consts)
        ok, v = _const(inner)
        return _node(-v) if ok and isinstance(v, int) and not isinstance(v, bool) \
            else ast.Neg(inner)
    if isinstance(node, ast.Compare):
        left, right = fold(node.left, consts), fold(node.right, consts)
        (lk, lv), (rk, rv) = _const(left), _const(right)
        if lk and rk:
            try:
                return _node(bool(_CMP[node.op](lv, rv)))
            except TypeError:
                pass
        return ast.Compare(node.op, left, right)
    if isinstance(node, ast.Not):
        inner = fold(node.operand, consts)
        ok, v = _const(inner)
        if ok and isinstance(v, bool):
            return _node(not v)
        return ast.Not(inner)
    if isinstance(node, ast.BoolOp):
        left, right = fold(node.left, consts), fold(node.right, consts)
        for a, b in ((left, right), (right, left)):
            ok, v = _const(a)
            if ok and isinstance(v, bool):
                if node.op == "and":
                    return b if v else FALSE
                return TRUE if v else b
        return ast.BoolOp(node.op, left, right)
    if isinstance(node, ast.Call):
        args = tuple(fold(a, consts) for a in node.args)
        consts_ = [_const(a) for a in args]
        if node.func == "if" and len(args) == 3:
            ok, v = consts_[0]
            if ok and isinstance(v, bool):
                return args[1] if v else args[2]
        if node.func in ("min", "max", "abs", "ceil_to", "floor_to") and args and \
                all(ok and isinstance(v, int) and not isinstance(v, bool) for ok, v in consts_):
            vals = [v for _, v in consts_]
            if node.func == "min":
                return _node(min(vals))
            if node.func == "max":
                return _node(max(vals))
            if node.func == "abs":
                return _node(abs(vals[0]))
            if len(vals) == 2 and vals[0] > 0:
                q = -(-vals[1] // vals[0]) if node.func == "ceil_to" else vals[1] // vals[0]
                return _node(q * vals[0])
        return ast.Call(node.func, args)
    if isinstance(node, ast.ListExpr):
        return ast.ListExpr(tuple(fold(i, consts) for i in node.items))
    if isinstance(node, ast.Attr):
        return ast.Attr(fold(node.obj, consts) if not isinstance(node.obj, ast.Name)
                        else node.obj, node.name)
    return node


def evaluate_constant(node: ast.Node) -> tuple[bool, Any]:
    """A folded expression's value when it is a constant."""
    return _const(node)


# ---------------------------------------------------------------- speaking


def _prec(node: ast.Node) -> int:
    return ast.precedence(node)


class Speaker:
    """Speaks folded expressions. `names` adds words for names of one context (a table's
    inputs); `defines` are the rule file's named selectors (spoken as terms)."""

    def __init__(self, w: Words, consts: dict[str, Any] | None = None,
                 names: dict[str, tuple[str, str]] | None = None,
                 defines: set[str] | None = None, tiles: bool = False):
        self.w = w
        self.consts = dict(consts or {})
        self.names = {**NAMES, **(names or {})}
        self.defines = set(defines or ())
        self.tiles = tiles
        self._in_sets = False  # speaking a condition on each set (`tile` is the set's)

    # -- entry points

    def fold(self, text: Any) -> ast.Node:
        return fold(parse(text), self.consts)

    def condition(self, text: Any, in_sets: bool = False) -> str:
        """A condition in words; `in_sets`: it is said of each set (`tile` is the set's)."""
        before = self._in_sets
        self._in_sets = in_sets
        try:
            return self.cond(self.fold(text))
        finally:
            self._in_sets = before

    def formula(self, text: Any) -> str:
        return self.value(self.fold(text))

    # -- names and literals

    def name(self, ident: str) -> str:
        w = self.w
        if self._in_sets and ident == "tile":
            return w("its tile", "其牌")
        if ident == "wilds" and not self._in_sets:
            return w("the number of wilds in the hand", "手中得的张数")
        if ident in self.names:
            en, zh = self.names[ident]
            return w(en, zh)
        if ident in CONST_WORDS:
            en, zh = CONST_WORDS[ident]
            return w(en, zh)
        if ident in nt.SUITS and len(ident) == 1:
            return w.suit(ident)
        if ident in ("J", "Q", "K", "A"):
            return ident
        for side in ("defender", "dealer"):
            if ident.startswith(side + "_"):
                what = words_of(ident[len(side) + 1:])
                return w(f"{'the defenders' if side == 'defender' else 'the dealer side'}"
                         f"{chr(39) if side == 'defender' else chr(39) + 's'} "
                         f"captured {what} cards",
                         f"{'闲家' if side == 'defender' else '庄家方'}抓到的{w.term(what)}")
        return w.term(ident)

    def literal(self, node: ast.Node) -> str:
        w = self.w
        if isinstance(node, ast.Num):
            return str(node.value)
        if isinstance(node, ast.Str):
            return w.term(node.value)
        if isinstance(node, ast.CardLit):
            return w.card(node.text)
        if isinstance(node, ast.TileLit):
            return w.tile(node.text)
        if isinstance(node, ast.ListExpr):
            return w.join([self.value(i) for i in node.items], "or")
        return ""

    # -- values

    def value(self, node: ast.Node, wrap: bool = False) -> str:
        w = self.w
        text = self._value(node)
        if wrap and isinstance(node, (ast.BinOp, ast.Call, ast.BoolOp, ast.Compare)) and not (
                isinstance(node, ast.Call) and node.func in ("count", "len", "largest_group",
                                                             "groups", "color", "abs")):
            return f"({text})" if not w.zh else f"（{text}）"
        return text

    def _value(self, node: ast.Node) -> str:
        w = self.w
        if isinstance(node, (ast.Num, ast.Str, ast.CardLit, ast.TileLit, ast.ListExpr)):
            return self.literal(node)
        if isinstance(node, ast.Name):
            if node.id in ("true", "false"):
                return w("yes", "是") if node.id == "true" else w("no", "否")
            return self.name(node.id)
        if isinstance(node, ast.Neg):
            return "−" + self.value(node.operand, wrap=True)
        if isinstance(node, ast.Attr):
            return self._attr_value(node)
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        return self.cond(node)

    def _attr_value(self, node: ast.Attr) -> str:
        w = self.w
        owner = self.value(node.obj)
        if node.name in PREDICATES or node.name in self.defines:
            return self._attr_pred(node, True)
        attr = self.names.get(node.name, (words_of(node.name), words_of(node.name)))
        en = attr[0].removeprefix("the ").removeprefix("its ")
        return w(f"{owner}'s {en}", f"{owner}的{attr[1]}")

    def _binop(self, node: ast.BinOp) -> str:
        w = self.w
        op = node.op
        left = self.value(node.left, wrap=_prec(node.left) < _prec(node) or _phrase(node.left))
        right = self.value(node.right, wrap=(_prec(node.right) <= _prec(node)
                                             and not isinstance(node.right, (ast.Num, ast.Name)))
                           or _phrase(node.right))
        if op == "//":
            inner = f"{self.value(node.left, wrap=True)} ÷ {self.value(node.right, wrap=True)}"
            return w(f"{inner}, rounded down", f"{inner}（向下取整）")
        if op == "%":
            return w(f"the remainder of {left} ÷ {right}", f"{left}除以{right}的余数")
        if op == "**":
            return w(f"{left} to the power {right}", f"{left}的{right}次方")
        sign = {"+": "+", "-": "−", "*": "×", "/": "÷"}[op]
        return f"{left} {sign} {right}"

    def _call(self, node: ast.Call) -> str:
        w = self.w
        f, args = node.func, node.args
        if f in ("min", "max") and len(args) == 2:
            consts = [evaluate_constant(a) for a in args]
            for (ok, v), other in ((consts[0], args[1]), (consts[1], args[0])):
                if ok:
                    inner = self.value(other)
                    if f == "min":
                        return w(f"{inner}, at most {v}", f"{inner}，最多{v}")
                    return w(f"{inner}, at least {v}", f"{inner}，至少{v}")
            a, b = self.value(args[0]), self.value(args[1])
            return w(f"the {'smaller' if f == 'min' else 'larger'} of {a} and {b}",
                     f"{a}与{b}中较{'小' if f == 'min' else '大'}者")
        if f in ("min", "max"):
            items = [self.value(a) for a in args]
            return w(f"the {'smallest' if f == 'min' else 'largest'} of {w.join(items)}",
                     f"{w.join(items)}中最{'小' if f == 'min' else '大'}者")
        if f == "if" and len(args) == 3:
            c, a, b = self.cond(args[0]), self.value(args[1]), self.value(args[2])
            return w(f"{a} if {c}, otherwise {b}", f"若{c}则为{a}，否则为{b}")
        if f in ("ceil_to", "floor_to") and len(args) == 2:
            step, x = self.value(args[0]), self.value(args[1])
            up = f == "ceil_to"
            return w(f"{x}, rounded {'up' if up else 'down'} to a multiple of {step}",
                     f"{x}，{'向上' if up else '向下'}取整到{step}的倍数")
        if f == "abs" and args:
            return w(f"the size of {self.value(args[0])}", f"{self.value(args[0])}的绝对值")
        if f == "color" and args:
            return w(f"the colour of {self.value(args[0])}", f"{self.value(args[0])}的颜色")
        if f == "len" and args:
            return w(f"the number of {self.value(args[0])}", f"{self.value(args[0])}的数量")
        if f == "largest_group" and args:
            return w(f"the most cards of one rank in {self.value(args[0])}",
                     f"{self.value(args[0])}中同点数牌的最多张数")
        if f == "groups" and len(args) == 2:
            return w(f"the number of tiles held {self.value(args[1])} times in "
                     f"{self.value(args[0])}",
                     f"{self.value(args[0])}中有{self.value(args[1])}张相同的牌的种数")
        if f == "count" and len(args) == 2:
            return self._count(args[0], args[1])
        if f in ("any", "all") and len(args) == 2:
            return self._quantified(f, args[0], args[1])
        return f"{f}({', '.join(self.value(a) for a in args)})"

    def _items(self, node: ast.Node) -> tuple[str, str, str, str]:
        """A walked list's words: (en singular, en plural, zh unit, list words)."""
        ident = node.id if isinstance(node, ast.Name) else ""
        sing, plural, unit = ITEMS.get(ident, ("item", "items", "个"))
        if ident == "hand" and self.tiles:
            sing, plural = "tile", "tiles"
        return sing, plural, unit, self.value(node)

    def _count(self, lst: ast.Node, pred: ast.Node) -> str:
        w = self.w
        sing, plural, unit, where = self._items(lst)
        if isinstance(pred, ast.Compare) and pred.op == "==" and \
                isinstance(pred.left, ast.Name) and pred.left.id in ("card", "tile"):
            thing = self.value(pred.right)
            return w(f"the number of copies of {_the(thing)} among {where}",
                     f"{where}中{thing}的张数")
        if isinstance(pred, ast.Name) and pred.id in NOUNS:
            en, zh = NOUNS[pred.id]
            return w(f"the number of {en} among {where}", f"{where}中{zh}的张数")
        if isinstance(pred, ast.Name) and pred.id in self.defines:
            term = w.term(pred.id)
            return w(f"the number of {term}s among {where}", f"{where}中{term}的张数")
        return w(f"the number of {plural} among {where} for which {self._each(lst, pred)}",
                 f"{where}中{self._each(lst, pred)}的{unit}数")

    def _each(self, lst: ast.Node, pred: ast.Node) -> str:
        """A condition on each item of a list (a set's `tile` is its own)."""
        before = self._in_sets
        self._in_sets = isinstance(lst, ast.Name) and lst.id == "sets"
        try:
            return self.cond(pred)
        finally:
            self._in_sets = before

    def _quantified(self, f: str, lst: ast.Node, pred: ast.Node, negate: bool = False) -> str:
        w = self.w
        sing, plural, unit, where = self._items(lst)
        if isinstance(pred, ast.Compare) and pred.op == "==" and \
                isinstance(pred.left, ast.Name) and pred.left.id in ("card", "tile") and \
                f == "any":
            thing = self.value(pred.right)
            if negate:
                return w(f"{where} include no {thing}", f"{where}中没有{thing}")
            return w(f"{where} include {_the(thing)}", f"{where}中有{thing}")
        kind, rest = _kind_split(pred)
        if kind is not None and f == "any":
            noun = w.term(kind)
            if rest is None:
                if negate:
                    return w(f"{where} include no {noun}", f"{where}中没有{noun}")
                return w(f"{where} include {article(noun)}", f"{where}中有{noun}")
            cond = self._each(lst, rest)
            if negate:
                return w(f"{where} include no {noun} for which {cond}",
                         f"{where}中没有{cond}的{noun}")
            return w(f"{where} include {article(noun)} for which {cond}",
                     f"{where}中有{cond}的{noun}")
        cond = self._each(lst, pred)
        if f == "any":
            if negate:
                return w(f"no {sing} of {where} is such that {cond}",
                         f"{where}中没有{cond}的")
            return w(f"some {sing} of {where} is such that {cond}", f"{where}中有{cond}的")
        if negate:
            return w(f"not every {sing} of {where} is such that {cond}",
                     f"{where}中并非每{unit}都{cond}")
        return w(f"for every {sing} of {where}, {cond}", f"{where}中每{unit}都{cond}")

    # -- conditions

    def cond(self, node: ast.Node) -> str:
        w = self.w
        if isinstance(node, ast.Name):
            return self._pred(node.id, True)
        if isinstance(node, ast.Attr):
            return self._attr_pred(node, True)
        if isinstance(node, ast.Not):
            return self._negate(node.operand)
        if isinstance(node, ast.BoolOp):
            parts = _flatten(node)
            said = []
            for part in parts:
                text = self.cond(part)
                if isinstance(part, ast.BoolOp) and part.op != node.op:
                    text = f"({text})" if not w.zh else f"（{text}）"
                said.append(text)
            if w.zh:
                return ("，且" if node.op == "and" else "，或").join(said)
            return w.join(said, node.op)
        if isinstance(node, ast.Compare):
            return self._compare(node.op, node.left, node.right)
        if isinstance(node, ast.Call) and node.func in ("any", "all"):
            return self._call(node)
        return self.value(node)

    def _pred(self, ident: str, positive: bool) -> str:
        w = self.w
        if ident in PREDICATES:
            (en, en_neg), (zh, zh_neg) = PREDICATES[ident]
            return w(en if positive else en_neg, zh if positive else zh_neg)
        if ident in self.defines:
            term = w.term(ident)
            return w(f"it is {article(term)}" if positive else f"it is not {article(term)}",
                     f"是{term}" if positive else f"不是{term}")
        words = self.name(ident)
        return words if positive else w(f"not {words}", f"非{words}")

    def _attr_pred(self, node: ast.Attr, positive: bool) -> str:
        w = self.w
        owner = self.value(node.obj)
        if node.name in PREDICATES:
            (en, en_neg), (zh, zh_neg) = PREDICATES[node.name]
            en_t, zh_t = (en, zh) if positive else (en_neg, zh_neg)
            return w(en_t.replace("it ", f"{owner} ", 1), f"{owner}{zh_t}")
        term = w.term(node.name)
        return w(f"{owner} is {'' if positive else 'not '}{article(term)}",
                 f"{owner}{'' if positive else '不'}是{term}")

    def _negate(self, node: ast.Node) -> str:
        w = self.w
        if isinstance(node, ast.Name):
            return self._pred(node.id, False)
        if isinstance(node, ast.Attr):
            return self._attr_pred(node, False)
        if isinstance(node, ast.Compare):
            return self._compare(NEGATED[node.op], node.left, node.right)
        if isinstance(node, ast.BoolOp):  # De Morgan: not (a or b) = neither a nor b
            parts = _flatten(node)
            negs = [self._negate(p) for p in parts]
            if w.zh:
                return ("，或" if node.op == "and" else "，且").join(negs)
            return w.join(negs, "or" if node.op == "and" else "and")
        if isinstance(node, ast.Not):
            return self.cond(node.operand)
        if isinstance(node, ast.Call) and node.func in ("any", "all") and len(node.args) == 2:
            return self._quantified(node.func, node.args[0], node.args[1], negate=True)
        return w(f"not ({self.cond(node)})", f"并非（{self.cond(node)}）")

    def _compare(self, op: str, left: ast.Node, right: ast.Node) -> str:
        w = self.w
        if isinstance(left, ast.Name) and left.id in ("card", "tile") and op in ("==", "!=") \
                and not self._in_sets:
            thing = self.value(right)
            if op == "==":
                return w(f"it is {_the(thing)}", f"是{thing}")
            return w(f"it is not {_the(thing)}", f"不是{thing}")
        if isinstance(left, ast.Name) and left.id == "kind" and op in ("==", "!=") and \
                isinstance(right, (ast.Name, ast.Str)):
            term = w.term(right.id if isinstance(right, ast.Name) else right.value)
            if op == "==":
                return w(f"it is {article(term)}", f"是{term}")
            return w(f"it is not {article(term)}", f"不是{term}")
        if isinstance(left, ast.Name) and left.id == "wait" and op in ("==", "!=") and \
                isinstance(right, (ast.Name, ast.Str)):
            value = right.id if isinstance(right, ast.Name) else right.value
            term = w.term({"pair": "single_wait", "closed": "closed_wait",
                           "edge": "edge_wait"}.get(value, value))
            if op == "==":
                return w(f"the win is on {article(term)}", f"和牌方式为{term}")
            return w(f"the win is not on {article(term)}", f"和牌方式不是{term}")
        if isinstance(left, ast.Name) and left.id in FLAGS and isinstance(right, ast.Num) and \
                right.value in (0, 1) and op in ("==", "!="):
            (en, en_neg), (zh, zh_neg) = FLAGS[left.id]
            return w(en, zh) if (right.value == 1) == (op == "==") else w(en_neg, zh_neg)
        a = self.value(left, wrap=_phrase(left))
        b = self.value(right, wrap=_phrase(right))
        if w.zh:
            return f"{a}{COMPARE_ZH[op]}{b}"
        verb = COMPARE_EN[op]
        if a.endswith(("points", "flowers", "sets", "tiles")):
            verb = "are" + verb[2:]
        return f"{a} {verb} {b}"


def _phrase(node: ast.Node) -> bool:
    """Is the node spoken as a phrase with commas (bracketed inside arithmetic)?"""
    if isinstance(node, ast.BinOp):
        return node.op in ("//", "%", "**")
    return isinstance(node, ast.Call) and node.func in ("min", "max", "if", "ceil_to",
                                                         "floor_to")


def _flatten(node: ast.BoolOp) -> list[ast.Node]:
    out: list[ast.Node] = []
    for side in (node.left, node.right):
        if isinstance(side, ast.BoolOp) and side.op == node.op:
            out.extend(_flatten(side))
        else:
            out.append(side)
    return out


def _kind_split(pred: ast.Node) -> tuple[str | None, ast.Node | None]:
    """`kind == kong and X` → ("kong", X): a set condition led by its kind."""
    atoms = _flatten(pred) if isinstance(pred, ast.BoolOp) and pred.op == "and" else [pred]
    kind = None
    rest: list[ast.Node] = []
    for a in atoms:
        if kind is None and isinstance(a, ast.Compare) and a.op == "==" and \
                isinstance(a.left, ast.Name) and a.left.id == "kind" and \
                isinstance(a.right, (ast.Name, ast.Str)):
            kind = a.right.id if isinstance(a.right, ast.Name) else a.right.value
        else:
            rest.append(a)
    if kind is None:
        return None, pred
    node: ast.Node | None = None
    for a in rest:
        node = a if node is None else ast.BoolOp("and", node, a)
    return kind, node


def article(term: str) -> str:
    """`a pair`, `an airplane`; a plural name (`consecutive pairs`) takes none."""
    if not term or term.startswith(("the ", "a ", "an ")) or not term[0].isascii() or \
            (term.endswith("s") and not term.endswith("ss")):
        return term
    return ("an " if term[0].lower() in "aeiou" else "a ") + term


def _the(thing: str) -> str:
    if not thing or not thing[0].isalpha() or not thing[0].isascii() or \
            thing.startswith(("the ", "a ", "an ")):
        return thing
    return "the " + thing

