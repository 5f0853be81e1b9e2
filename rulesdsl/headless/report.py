"""A designer's report of a simulation: statistics with 95% confidence intervals, shown as
tables (rich on a terminal, aligned plain text when piped), and two rulesets compared.

The statistics are small and written here (no numpy or scipy):

* a rate (wins / games, a pattern's plays / all plays) is a `proportion`: its Wilson score
  interval, which stays inside [0, 1] and behaves for 0 or n successes and small n;
* a mean is a `mean_summary`: the sample mean, the sample standard deviation (n − 1) and
  the interval mean ± t(0.975, n − 1) · sd / √n, with Student's t computed from the
  regularised incomplete beta function (for n ≥ 30 it is within 4% of the normal
  approximation ±1.96 · sd / √n);
* two rates are compared by the two-proportion z-test (pooled, normal approximation,
  fine when each side has a few successes and failures), two means by Welch's t-test
  (Welch–Satterthwaite degrees of freedom; Student's t again, so small samples are not
  over-trusted). Both are two-sided. Rulesets compared on the same deals give correlated
  samples; treating them as independent makes the tests conservative, never eager.

Everything reads the summary's JSON (simulate.summarise): the text shows exactly the
numbers `--json` prints.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, TextIO

LEVEL = 0.95
Z95 = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.95996…
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


# ------------------------------------------------------------------ statistics

def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (z = 1.96 for 95%)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact at the edges (0 and n successes), where rounding would leave a hair of a gap
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-14:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's t with df degrees of freedom (the normal for huge df)."""
    if math.isinf(t):
        return 0.0
    if df > 1e7:
        return 2 * (1 - NormalDist().cdf(abs(t)))
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_critical(df: float, level: float = LEVEL) -> float:
    """The t with P(|T| ≥ t) = 1 − level (bisection on t_two_sided_p)."""
    alpha = 1 - level
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > alpha:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def quantile(sorted_xs: list[float], q: float) -> float:
    """Linear interpolation between order statistics: position (n − 1)·q (numpy's
    default, R's type 7)."""
    if not sorted_xs:
        return 0.0
    h = (len(sorted_xs) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (h - lo) * (sorted_xs[hi] - sorted_xs[lo])


def _r(x: float) -> float:
    return round(x, 4)


def proportion(k: int, n: int) -> dict[str, Any]:
    """k of n as JSON: the counts, the rate and its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": _r(k / n) if n else 0.0, "ci": [_r(lo), _r(hi)]}


def mean_summary(xs: list[float], quantiles: bool = False) -> dict[str, Any]:
    """A sample as JSON: n, mean, sample sd and the 95% t interval of the mean; with
    `quantiles`, also min, the 10/25/50/75/90% quantiles and max."""
    n = len(xs)
    if n == 0:
        out: dict[str, Any] = {"n": 0, "mean": 0.0, "sd": 0.0, "ci": [0.0, 0.0]}
    else:
        mean = math.fsum(xs) / n
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
        half = t_critical(n - 1) * sd / math.sqrt(n) if n > 1 else 0.0
        out = {"n": n, "mean": _r(mean), "sd": _r(sd), "ci": [_r(mean - half), _r(mean + half)]}
    if quantiles:
        s = sorted(xs)
        out["quantiles"] = {"min": _r(s[0]) if s else 0.0,
                            **{f"p{round(q * 100)}": _r(quantile(s, q)) for q in QUANTILES},
                            "max": _r(s[-1]) if s else 0.0}
    return out


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """Two-sided p-value of the pooled two-proportion z-test (None without data)."""
    if n1 <= 0 or n2 <= 0:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = k2 / n2 - k1 / n1
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return 2 * (1 - NormalDist().cdf(abs(diff) / se))


def welch_test(m1: float, s1: float, n1: int, m2: float, s2: float, n2: int) -> float | None:
    """Two-sided p-value of Welch's t-test for two means (sample sds; None below n = 2)."""
    if n1 < 2 or n2 < 2:
        return None
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    se = math.sqrt(v1 + v2)
    if se == 0:
        return 1.0 if m1 == m2 else 0.0
    df = (v1 + v2) ** 2 / ((v1 * v1) / (n1 - 1) + (v2 * v2) / (n2 - 1))
    return t_two_sided_p((m2 - m1) / se, df)


def compare_stats(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """B − A for two proportion or mean dicts, with the test's p and its 95% verdict."""
    if "k" in a:
        if not a["n"] or not b["n"]:
            return {}  # a rate of nothing (a pattern never played has no win rate)
        diff = b["rate"] - a["rate"]
        p = two_proportion_test(a["k"], a["n"], b["k"], b["n"])
    else:
        if not a["n"] or not b["n"]:
            return {}
        diff = b["mean"] - a["mean"]
        p = welch_test(a["mean"], a["sd"], a["n"], b["mean"], b["sd"], b["n"])
    return {"diff": _r(diff), "p": None if p is None else _r(p),
            "significant": p is not None and p < 1 - LEVEL}


# ------------------------------------------------------------------ tables

@dataclass
class Section:
    """One table: a row per label, a statistic (a proportion or mean dict) per column."""

    title: str
    label: str  # the first column's heading
    columns: list[str]
    rows: list[tuple[str, list[dict[str, Any] | None]]] = field(default_factory=list)
    note: str = ""
    quantiles: bool = False  # show the first column's quantiles too


def sections(s: dict[str, Any]) -> list[Section]:
    """The report's tables, read from a summary (simulate.summarise)."""
    out: list[Section] = []
    shedding_first = any("first_out" in seat for seat in s["seats"])
    cols = ["wins", "mean return"] + (["went out first"] if shedding_first else [])
    seats = Section("Seats", "seat", cols, note="a seat wins a game when its return is > 0; "
                    "the mean return is per game")
    for seat in s["seats"]:
        seats.rows.append((str(seat["seat"]), [seat["wins"], seat["returns"],
                                               *([seat.get("first_out")] if shedding_first
                                                 else [])]))
    out.append(seats)
    if s.get("sides"):
        sides = Section("Sides", "side", ["wins"], note="a side wins when its members' "
                        "summed return beats the others'; teams per game, the dealer's side "
                        "per hand")
        for side in s["sides"]:
            sides.rows.append((side["label"], [side["wins"]]))
        out.append(sides)
    length = Section("Hand length", "per hand", ["mean"], note="decisions are the agents' "
                     "actions; the other rows count the events of each kind")
    for unit, stat in s["hand_length"].items():
        length.rows.append((unit, [stat]))
    if s["hands"] != s["games"]:
        length.rows.append(("decisions per game", [s["decisions_per_game"]]))
    out.append(length)
    plays = s.get("pattern_plays")
    if plays and plays["rows"]:
        sec = Section("Patterns", "pattern", ["share of " + plays["counted"], plays["won"]],
                      note=plays["note"])
        for row in plays["rows"]:
            bomb = row.get("bomb") and "bomb" not in row["pattern"]
            label = row["pattern"] + (" (a bomb)" if bomb else "")
            sec.rows.append((label, [row["share"], row["wins"]]))
        out.append(sec)
    if s.get("points"):
        sec = Section("Points and stakes", "statistic", ["mean"], quantiles=True,
                      note="quantiles: linear interpolation between order statistics")
        for row in s["points"]:
            sec.rows.append((row["label"], [row["values"]]))
        out.append(sec)
    if s.get("rates"):
        sec = Section("Outcomes", "of hands", ["rate"])
        for row in s["rates"]:
            sec.rows.append((row["label"], [row["value"]]))
        out.append(sec)
    for key, title in (("scoring_items", "Scoring items among wins"),
                       ("limit_hands", "Limit hands among wins")):
        rows = s.get(key)
        if rows:
            sec = Section(title, "item" if key == "scoring_items" else "limit hand",
                          ["share of wins"], note="a win counts an item once, however often "
                          "it applied")
            for row in rows:
                sec.rows.append((row["name"], [row["wins"]]))
            out.append(sec)
    return out


def _num(x: float) -> str:
    if x == int(x) and abs(x) >= 1000:
        return f"{int(x)}"
    return f"{x:.2f}"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def fmt_value(stat: dict[str, Any] | None) -> str:
    if stat is None:
        return ""
    if "k" in stat:
        # from the counts: the rounded rate rounded again could differ in the last digit
        return f"{_pct(stat['k'] / stat['n'])} ({stat['k']}/{stat['n']})" if stat["n"] \
            else "—"
    return _num(stat["mean"]) if stat["n"] else "—"


def fmt_ci(stat: dict[str, Any] | None) -> str:
    if stat is None or stat["n"] == 0:
        return ""
    lo, hi = stat["ci"]
    if "k" in stat:
        return f"{_pct(lo)} – {_pct(hi)}"
    return f"{_num(lo)} – {_num(hi)}"


def _grid(sec: Section) -> tuple[list[str], list[list[str]]]:
    """A section as display cells: each statistic gives a value and a 95% CI column."""
    head = [sec.label]
    for c in sec.columns:
        head += [c, "95% CI"]
    if sec.quantiles:
        head += ["min", *[f"p{round(q * 100)}" for q in QUANTILES], "max"]
    rows = []
    for label, stats in sec.rows:
        cells = [label]
        for st in stats:
            cells += [fmt_value(st), fmt_ci(st)]
        if sec.quantiles:
            qs = (stats[0] or {}).get("quantiles", {})
            cells += [_num(v) for v in qs.values()]
        rows.append(cells)
    return head, rows


def header_line(s: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in sorted(s.get("options", {}).items()))
    return (f"{s['ruleset']}{f' ({opts})' if opts else ''}: {s['games']} games, "
            f"{s['hands']} hands, {s['players']} players, agents {s.get('agents') or 'random'}, "
            f"seed {s.get('seed', 0)}; intervals are 95% confidence intervals")


def plain_table(title: str, head: list[str], rows: list[list[str]], note: str = "") -> str:
    """Aligned plain text: the first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        parts = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:],
                                                                          widths[1:])]
        return "  ".join(parts).rstrip()

    out = [title, line(head), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    if note:
        out.append(f"({note})")
    return "\n".join(out)


def render_plain(s: dict[str, Any]) -> str:
    parts = [header_line(s)]
    for sec in sections(s):
        head, rows = _grid(sec)
        parts.append(plain_table(sec.title, head, rows, sec.note))
    return "\n\n".join(parts) + "\n"


def _rich_table(title: str, head: list[str], rows: list[list[str]], note: str = ""):
    from rich.table import Table

    table = Table(title=title, caption=note or None, title_justify="left",
                  caption_justify="left")
    for i, h in enumerate(head):
        table.add_column(h, justify="left" if i == 0 else "right", no_wrap=i > 0)
    for r in rows:
        table.add_row(*r)
    return table


def render_rich(s: dict[str, Any], console: Any) -> None:
    console.print(header_line(s), style="bold")
    for sec in sections(s):
        head, rows = _grid(sec)
        console.print()
        console.print(_rich_table(sec.title, head, rows, sec.note))


# ------------------------------------------------------------------ comparing two runs

LEGEND = ("* = B − A is significant at the 95% level (two-sided p < 0.05: two-proportion "
          "z-test for rates, Welch's t-test for means); no mark = not significant")


def _name(s: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in sorted(s.get("options", {}).items()))
    return s["ruleset"] + (f" ({opts})" if opts else "")


def comparison(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Every statistic of either run, paired by table and row: A, B, and where both have
    it, B − A with the test's p and whether it is significant at 95%."""
    def cells(s: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
        out = {}
        for sec in sections(s):
            for label, stats in sec.rows:
                for col, st in zip(sec.columns, stats):
                    table = sec.title if len(sec.columns) == 1 else f"{sec.title}: {col}"
                    row = f"{sec.label} {label}" if label.isdigit() else label
                    out[(table, row)] = {"table": table, "row": row, "stat": st}
        return out

    in_a, in_b = cells(a), cells(b)
    rows = []
    for key in dict.fromkeys([*in_a, *in_b]):
        st_a = in_a[key]["stat"] if key in in_a else None
        st_b = in_b[key]["stat"] if key in in_b else None
        row: dict[str, Any] = {"table": key[0], "row": key[1], "a": st_a, "b": st_b}
        if st_a is not None and st_b is not None:
            row.update(compare_stats(st_a, st_b))
        rows.append(row)
    return rows


def _diff_text(row: dict[str, Any]) -> str:
    if "diff" not in row:
        return ""
    d = row["diff"]
    if "k" in row["a"]:
        return f"{d * 100:+.1f} pp"
    return f"{d:+.2f}"


def _short(stat: dict[str, Any] | None) -> str:
    """A statistic in one cell: the rate or mean, and its interval in brackets."""
    if stat is None or stat["n"] == 0:
        return "—"
    lo, hi = stat["ci"]
    if "k" in stat:
        return f"{_pct(stat['k'] / stat['n'])} [{lo * 100:.1f}–{_pct(hi)}]"
    return f"{_num(stat['mean'])} [{_num(lo)} – {_num(hi)}]"


def _compare_grid(rows: list[dict[str, Any]]) -> dict[str, list[list[str]]]:
    grids: dict[str, list[list[str]]] = {}
    for row in rows:
        p = row.get("p")
        grids.setdefault(row["table"], []).append([
            row["row"], _short(row["a"]), _short(row["b"]), _diff_text(row),
            "" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}",
            "*" if row.get("significant") else ""])
    return grids


COMPARE_HEAD = ["", "A", "B", "B − A", "p", "sig"]


def _compare_intro(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [f"A = {_name(a)}", f"B = {_name(b)}",
            f"{a['games']} games each ({a['hands']} and {b['hands']} hands), {a['players']} "
            f"players, the same game seeds (the same deals where the decks agree); "
            f"[…] = 95% confidence interval", LEGEND]


def render_compare_plain(a: dict[str, Any], b: dict[str, Any]) -> str:
    parts = ["\n".join(_compare_intro(a, b))]
    for title, rows in _compare_grid(comparison(a, b)).items():
        parts.append(plain_table(title, COMPARE_HEAD, rows))
    parts.append(LEGEND)
    return "\n\n".join(parts) + "\n"


def render_compare_rich(a: dict[str, Any], b: dict[str, Any], console: Any) -> None:
    intro = _compare_intro(a, b)
    for line in intro[:-1]:
        console.print(line, style="bold", highlight=False)
    console.print(intro[-1], highlight=False)
    for title, rows in _compare_grid(comparison(a, b)).items():
        console.print()
        console.print(_rich_table(title, COMPARE_HEAD, rows))
    console.print(LEGEND, highlight=False)


def print_report(a: dict[str, Any], b: dict[str, Any] | None = None,
                 file: TextIO | None = None, console: Any = None) -> None:
    """Rich tables on a terminal (or on the console given), aligned plain text otherwise."""
    out = file or sys.stdout
    if console is None and out.isatty():
        from rich.console import Console

        console = Console(file=out)
    if console is not None:
        if b is None:
            render_rich(a, console)
        else:
            render_compare_rich(a, b, console)
        return
    out.write(render_plain(a) if b is None else render_compare_plain(a, b))
