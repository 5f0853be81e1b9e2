"""Tables and formulas as readable rows: ranges of an input with what they give.

A table over one number the game produces (the defenders' points, the bid, the tiles left
in the wall …) is looked up for every value the game can reach, and consecutive values
with the same result become one row ("defenders' points 0–5: the dealer's side climbs 3
levels"). Other tables are spoken row by row ("when …: …", first match). A formula is
spoken in words, with a small table of values where its inputs have known samples.
"""

from __future__ import annotations

from math import gcd
from typing import Any

from .. import notation as nt
from ..errors import RulesdslError
from ..language import ast
from .context import Ctx
from .exprwords import NotSpoken, parse
from .model import Block, Inline, Para, Table

MAX_ROWS = 40  # enumerated rows before a table is spoken row by row instead


def _names(text: Any) -> set[str]:
    try:
        node = parse(text)
    except NotSpoken:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def point_step(ctx: Ctx) -> int:
    values = [v for v in ctx.r.points.values() if v]
    step = 0
    for v in values:
        step = gcd(step, int(v))
    return step or 5


def wall_size(ctx: Ctx) -> int:
    deal = ctx.r.deal
    dealt = ctx.r.players * int(deal.get("hand_size", 0)) + int(deal.get("dealer_extra", 0))
    return max(0, sum(ctx.r.deck) - dealt - (1 if deal.get("turn_up") not in (None, "none")
                                              else 0))


def domain(ctx: Ctx, name: str) -> tuple[list[int], bool] | None:
    """Every value of an engine-given input worth a row, and whether larger values fall in
    the last row ("or more")."""
    r = ctx.r
    if name == "points" and r.family == "trick":
        total = r.total_points()
        return list(range(0, total + 1, point_step(ctx))), True
    if name == "overcall_cards":
        return list(range(0, int(ctx.play("declare_max", 3)) + 1)), False
    if name == "bid":
        auction = ctx.play("auction")
        if auction:
            return sorted(set(auction["bids"]) | {auction["default_bid"]}), False
        return None
    if name == "mate_place":
        return list(range(2, r.players + 1)), False
    if name == "players":
        return list(r.player_counts), False
    if name == "tiles_left":
        return list(range(0, wall_size(ctx) + 1)), False
    if name == "cards_left":
        return list(range(1, int(r.deal.get("hand_size", 13)) + 1)), False
    return None


def samples(ctx: Ctx, name: str) -> list[int] | None:
    """A few values of a formula's input, for a table of examples."""
    found = domain(ctx, name)
    if found is not None:
        values = found[0]
        return values if len(values) <= 16 else values[:: max(1, len(values) // 8)]
    table = {
        "kitty_points": [10, 20, 30, 40],
        "last_group": [1, 2, 3], "last_largest": [1, 2, 4], "last_size": [1, 2, 4],
        "last_units": [1, 2],
        "fan": [0, 1, 2, 3, 4], "bombs": [0, 1, 2], "loser_plays": [0, 1, 3],
        "base": [0, 4, 10, 20] if ctx.tiles else None,
    }
    got = table.get(name)
    if got is not None:
        return got
    if name in ("total", "receiver_total", "payer_total"):
        return _total_samples(ctx, with_zero=name == "payer_total")
    if name == "stake":
        return [int(ctx.play("stake", 1) or 1)]
    if name == "base" and not ctx.tiles:
        return [int(ctx.play("base", 1) or 1)]
    return None


def _total_samples(ctx: Ctx, with_zero: bool) -> list[int] | None:
    """A few hand totals the scoring formulas give (a small and a large hand, the cap)."""
    found: set[int] = set()
    for name in (ctx.r.totals or {}).values():
        formula = ctx.r.formulas.get(name)
        if formula is None:
            continue
        for base in (0, 4, 10, 40):
            for fan in (0, 1, 3, 10):
                try:
                    value = formula.evaluate({"base": base, "fan": fan}, ctx.r.options)
                except RulesdslError:
                    continue
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    found.add(int(value))
    values = sorted(v for v in found if v > 0)
    if not values:
        return None
    picks = sorted({values[0], values[len(values) // 2], values[-1]})
    return ([0] if with_zero else []) + picks


# ---------------------------------------------------------------- words for outputs


def output_words(ctx: Ctx, fields: dict[str, Any]) -> str:
    """A table row's result in words."""
    w = ctx.w
    f = dict(fields)
    parts: list[str] = []
    if "side" in f and "levels" in f:
        side, levels = f.pop("side"), f.pop("levels")
        if side == "none" or not levels:
            parts.append(w("nobody climbs", "双方都不升级"))
        else:
            who = w.term(str(side))
            parts.append(w(f"{who} climb{'s' if side == 'dealer' else ''} "
                           f"{w.count(levels, 'level')}", f"{who}升{levels}级"))
        nxt = f.pop("next_dealer", None)
        if nxt is not None:
            parts.append(w(f"{w.term(str(nxt))} deals next", f"{w.term(str(nxt))}下一局坐庄"))
    elif "levels" in f:
        levels = f.pop("levels")
        parts.append(w(f"{w.count(levels, 'level')}", f"{levels}级"))
    if "dealer_side_win" in f:
        won = f.pop("dealer_side_win")
        parts.append(w(f"the dealer's side wins {won}", f"庄家方赢{won}"))
    if "defender_side_win" in f:
        won = f.pop("defender_side_win")
        parts.append(w(f"each defender wins {won}", f"闲家每人赢{won}"))
    if "outcome" in f:
        parts.append(w.term(str(f.pop("outcome"))))
    if "stakes" in f:
        stakes = f.pop("stakes")
        parts.append(w(f"{w.count(stakes, 'stake')}", f"{stakes}倍积分"))
    if "state" in f:
        parts.append(w.term(str(f.pop("state"))))
    f.pop("rule", None)
    if "phase" in f:
        parts.append(w.term(str(f.pop("phase"))))
    if "lead" in f:
        lead = w.term(str(f.pop("lead")))
        parts.append(w(f"{lead} leads", f"{lead}先出"))
    if "score" in f:
        score = f.pop("score")
        parts.append(w(f"scores {score}", f"得{score}分" if isinstance(score, int)
                       else f"得分：{score}"))
    for k, v in f.items():
        parts.append(f"{w.term(k)}: {w.term(str(v)) if isinstance(v, str) else v}")
    return w("; ".join(parts), "；".join(parts))


def _spoken_output(ctx: Ctx, value: Any) -> Any:
    """A row's output as written: a word, or an expression spoken as a value."""
    if isinstance(value, bool) or isinstance(value, (int, float)):
        return value
    text = str(value)
    if text.lstrip("-").isdigit():
        return int(text)
    spoken = ctx.formula(text)
    return spoken or text


def input_label(ctx: Ctx, table: str, name: str) -> str:
    w = ctx.w
    if name == "points" and ctx.r.family == "trick":
        return w("Defenders' points", "闲家得分")
    if name == "tiles_left":
        return w("Tiles left in the wall", "牌墙剩余张数")
    if name == "mate_place":
        return w("Place of the first out's best partner", "上游队友的最好名次")
    return ctx.say.name(name)[:1].upper() + ctx.say.name(name)[1:] if not ctx.w.zh \
        else ctx.say.name(name)


# ---------------------------------------------------------------- tables


def enumerated(ctx: Ctx, name: str) -> tuple[str, list[int], bool] | None:
    """The one input a table's rows read, its values, and whether the last is open."""
    table = ctx.r.tables.get(name)
    spec = (ctx.r.resolved.get("tables") or {}).get(name) or {}
    if table is None:
        return None
    used: set[str] = set()
    for row in spec.get("rows") or []:
        for v in row.values():
            if isinstance(v, str):
                used |= _names(v) & set(table.inputs)
    if len(used) != 1:
        return None
    (inp,) = used
    found = domain(ctx, inp)
    if found is None:
        return None
    return inp, found[0], found[1]


def _lookup(ctx: Ctx, name: str, inp: str, value: int) -> dict[str, Any] | None:
    table = ctx.r.tables[name]
    inputs = {n: 0 for n in table.inputs}
    inputs[inp] = value
    try:
        return table.lookup(inputs, ctx.r.options)
    except RulesdslError:
        return None


def lookup_rows(ctx: Ctx, name: str) -> tuple[list[tuple[int, int | None, dict[str, Any]]],
                                              int | None] | None:
    """A one-input table as ranges: (from, to or None when open, outputs), and the first
    value above the last row when the table goes on changing beyond it (else None)."""
    found = enumerated(ctx, name)
    if found is None:
        return None
    inp, values, open_end = found
    rows: list[tuple[int, int | None, dict[str, Any]]] = []
    for v in values:
        out = _lookup(ctx, name, inp, v)
        if out is None:
            return None
        if rows and rows[-1][2] == out:
            rows[-1] = (rows[-1][0], v, out)
        else:
            rows.append((v, v, out))
    if len(rows) > MAX_ROWS:
        return None
    beyond = None
    if open_end and rows and values:
        last = values[-1]
        step = values[-1] - values[-2] if len(values) > 1 else 1
        lo, _, out = rows[-1]
        probes = [last + step, 2 * last + step, 4 * last + step]
        if all(_lookup(ctx, name, inp, v) == out for v in probes):
            rows[-1] = (lo, None, out)
        else:
            beyond = last + step
    return rows, beyond


def table_blocks(ctx: Ctx, name: str, caption: str = "") -> list[Block]:
    """A table as readable rows, or nothing when the ruleset has no such table."""
    w = ctx.w
    table = ctx.r.tables.get(name)
    if table is None:
        return []
    found = lookup_rows(ctx, name)
    cite = ctx.cite(("tables", name))
    if found is not None:
        rows, beyond = found
        inp = enumerated(ctx, name)
        assert inp is not None
        body: list[list[Inline]] = []
        data: list[dict[str, str]] = []
        for lo, hi, out in rows:
            body.append([[w.number_range(lo, hi)], [output_words(ctx, out)]])
            data.append({"from": str(lo), "to": "" if hi is None else str(hi),
                         **{f"out-{k}": str(v) for k, v in out.items()}})
        head = [input_label(ctx, name, inp[0]), w("Result", "结果")]
        blocks: list[Block] = [Table(head, body, caption, "rule-table", data, name)]
        if beyond is not None:
            rule = _row_at(ctx, name, inp[0], beyond)
            if rule:
                blocks.append(Para([w.sentence(w(f"From {beyond} up (possible only with "
                                                 f"bonuses): {rule}",
                                                 f"{beyond}及以上（只有加分时才可能）：{rule}"))]))
        if cite:
            blocks.append(Para([w("Source of this table:", "此表出处："), *cite], "source"))
        return blocks
    return spoken_table(ctx, name, caption, cite)


def _row_at(ctx: Ctx, name: str, inp: str, value: int) -> str:
    """The rule (outputs spoken as expressions) of the table's row that a value meets."""
    from ..runtime.expressions import Env

    table = ctx.r.tables[name]
    spec = (ctx.r.resolved.get("tables") or {}).get(name) or {}
    inputs = {n: 0 for n in table.inputs}
    inputs[inp] = value
    env = Env(None, {**table.options, **ctx.r.options, **inputs})
    for (when, _), row in zip(table.rows, spec.get("rows") or []):
        try:
            hit = when(env)
        except RulesdslError:
            return ""
        if hit:
            return output_words(ctx, {k: _spoken_output(ctx, v) for k, v in row.items()
                                      if k != "when"})
    return ""


def spoken_table(ctx: Ctx, name: str, caption: str, cite: Inline) -> list[Block]:
    """A table row by row in words: the first row whose condition holds applies."""
    w = ctx.w
    spec = (ctx.r.resolved.get("tables") or {}).get(name) or {}
    body: list[list[Inline]] = []
    for row in spec.get("rows") or []:
        when = str(row.get("when", "true"))
        folded = ctx.say.fold(when) if when else None
        if folded is not None and isinstance(folded, ast.Name) and folded.id == "false":
            continue  # a row the options switch off
        cond = ctx.condition(when)
        if folded is not None and isinstance(folded, ast.Name) and folded.id == "true":
            cond = w("always", "总是") if not body else w("in every other case", "其他情况")
        outputs = {k: _spoken_output(ctx, v) for k, v in row.items() if k != "when"}
        body.append([[cond], [output_words(ctx, outputs)]])
        if cond in (w("in every other case", "其他情况"), w("always", "总是")):
            break
    blocks: list[Block] = [Table([w("When", "条件"), w("Result", "结果")], body, caption,
                                 "rule-table", name=name)]
    blocks.append(Para([w("The first row that applies counts.", "按顺序取第一条符合的规则。"),
                        *cite], "source"))
    return blocks


# ---------------------------------------------------------------- formulas


def formula_value(ctx: Ctx, name: str, inputs: dict[str, int]) -> Any:
    formula = ctx.r.formulas[name]
    try:
        return formula.evaluate(inputs, ctx.r.options)
    except RulesdslError:
        return None


def formula_blocks(ctx: Ctx, name: str, lead: str = "") -> list[Block]:
    """A formula in words, and a table of sample values when its inputs have samples."""
    w = ctx.w
    formula = ctx.r.formulas.get(name)
    if formula is None:
        return []
    spec = (ctx.r.resolved.get("formulas") or {}).get(name) or {}
    words = ctx.formula(spec.get("expr", ""))
    cite = ctx.cite(("formulas", name))
    text = (lead + " " if lead and not w.zh else lead) + words
    blocks: list[Block] = [Para([w.sentence(text), *cite])]
    free = [n for n in formula.inputs if n in _names(spec.get("expr", ""))]
    values = {n: samples(ctx, n) for n in free}
    if not free or any(v is None for v in values.values()):
        return blocks
    fixed = {n: v[0] for n, v in values.items() if v is not None and len(v) == 1}
    varying = [n for n in free if n not in fixed]
    base = {n: 0 for n in formula.inputs}
    base.update(fixed)
    if len(varying) == 1:
        n = varying[0]
        rows: list[list[Inline]] = []
        for v in values[n] or []:
            got = formula_value(ctx, name, {**base, n: v})
            if got is not None:
                rows.append([[str(v)], [_num(got)]])
        if rows:
            blocks.append(Table([input_label(ctx, name, n), w("Value", "结果")], rows, "",
                                "sample-table"))
    elif len(varying) == 2:
        a, b = varying
        cols = values[b] or []
        rows = []
        for va in values[a] or []:
            row: list[Inline] = [[str(va)]]
            for vb in cols:
                got = formula_value(ctx, name, {**base, a: va, b: vb})
                row.append([_num(got) if got is not None else "—"])
            rows.append(row)
        head = [f"{input_label(ctx, name, a)} ↓  {ctx.say.name(b)} →", *[str(c) for c in cols]]
        blocks.append(Table(head, rows, "", "sample-table"))
    return blocks


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def card_points_rows(ctx: Ctx) -> list[list[Inline]]:
    w = ctx.w
    rows: list[list[Inline]] = []
    for rank, pts in sorted(ctx.r.points.items()):
        token = nt.format_card(nt.card_kind("H", rank)) if 2 <= rank <= nt.ACE \
            else nt.rank_name(rank)
        rows.append([[ctx.cards([token])], [w(f"{pts} points", f"{pts}分")]])
    return rows
