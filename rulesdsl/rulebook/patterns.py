"""Patterns in words and pictures: what each combination is, its smallest and a typical
example, with the cards laid down in the pattern's own order (a straight in ladder order).

The smallest example is `explain`'s (the lowest the deck allows in the typical hand); the
typical one moves it up its ladder to the middle (and a run of open length one step
longer), kept only when the rules still read it as the pattern.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .. import notation as nt
from ..model.hand import HandContext
from ..model.patterns import readings
from ..model.ruleset import PatternDef, Ruleset
from .exprwords import NotSpoken, Speaker
from .words import Words

OPEN = 20  # a run or group longer than this is "open-ended" in words


@dataclass
class PatternPictures:
    smallest: list[int] | None
    typical: list[int] | None


def _source(r: Ruleset, path: tuple) -> dict[str, Any]:
    node: Any = r.resolved
    for step in path:
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return {}
    return node if isinstance(node, dict) else {}


# ---------------------------------------------------------------- ordering cards


def _run_ladder(r: Ruleset, pd: PatternDef) -> list[int] | None:
    """The rank ladder a pattern's run climbs (its own or its key part's), if any."""
    for p in [pd, *pd.parts]:
        if p.run is not None and p.run.over is not None:
            return list(r.ranks.get(p.run.over) or []) or None
    return None


def _rank_positions(ladder: list[int], ranks: set[int]) -> dict[int, int]:
    """Each rank's place on a ladder; an ace sits low (the ladder's 1) when the ranks make
    a low run with it (A 2 3 4 5), high otherwise."""
    pos = {rank: i for i, rank in reversed(list(enumerate(ladder)))}
    if nt.ACE in ranks and nt.LOW_ACE in pos and 2 in ranks and 13 not in ranks:
        pos[nt.ACE] = pos[nt.LOW_ACE]
    return pos


def laid_down(r: Ruleset, hc: HandContext, pd: PatternDef | None, cards: list[int]) -> list[int]:
    """The cards as a player lays the pattern down: larger groups first, each run in its
    ladder's order, then the other cards low to high."""
    if r.sameness == "card" or pd is None:
        count = Counter(cards)
        return sorted(cards, key=lambda k: (-count[k], hc.strength[k], k))
    count = Counter(nt.card_rank(k) for k in cards)
    ladder = _run_ladder(r, pd)
    pos = _rank_positions(ladder, set(count)) if ladder else {}

    def key(k: int) -> tuple:
        rank = nt.card_rank(k)
        place = pos.get(rank)
        return (-count[rank], 0 if place is not None else 1,
                place if place is not None else hc.strength[k], k)

    return sorted(cards, key=key)


# ---------------------------------------------------------------- typical examples


def _reads_as(hc: HandContext, cards: list[int], name: str) -> bool:
    try:
        return any(x.pattern == name for x in readings(hc, cards))
    except Exception:  # noqa: BLE001 - a reading the model refuses is no reading
        return False


def _fits_deck(r: Ruleset, cards: list[int]) -> bool:
    return all(0 <= k < len(r.deck) and r.deck[k] >= n for k, n in Counter(cards).items())


def _shift_ranks(cards: list[int], ladder: list[int], index: dict[int, int],
                 steps: int) -> list[int] | None:
    """Every suited card moved `steps` places up the ladder, keeping its suit."""
    out = []
    for k in cards:
        if k >= nt.LITTLE_JOKER:
            out.append(k)
            continue
        i = index.get(nt.card_rank(k))
        if i is None or not 0 <= i + steps < len(ladder):
            return None
        new = ladder[i + steps]
        new = nt.ACE if new == nt.LOW_ACE else new
        out.append(nt.card_kind(nt.card_suit(k) or "S", new))
    return out


def _spread_suits(r: Ruleset, cards: list[int]) -> list[int] | None:
    """Cards with their ranks kept, moved to suits the deck holds enough copies of."""
    left = list(r.deck)
    out = []
    for k in cards:
        if k < len(left) and left[k] > 0:
            left[k] -= 1
            out.append(k)
            continue
        rank = nt.card_rank(k)
        for suit in nt.SUITS:
            other = nt.card_kind(suit, rank) if k < nt.LITTLE_JOKER else k
            if left[other] > 0:
                left[other] -= 1
                out.append(other)
                break
        else:
            return None
    return out


def _system_ladder(r: Ruleset, hc: HandContext, system: Any) -> list[int]:
    """The kinds of one suit-system, weakest first, one per place."""
    seen: dict[Any, int] = {}
    for k in sorted((k for k in r.kinds() if hc.system[k] == system),
                    key=lambda k: (hc.strength[k], k)):
        seen.setdefault(hc.strength[k], k)
    return list(seen.values())


def typical_example(r: Ruleset, hc: HandContext, pd: PatternDef,
                    smallest: list[int]) -> list[int] | None:
    """A typical play of the pattern: the smallest moved to the middle of its ladder, a run
    of open length one step longer; None when none reads as the pattern."""
    if pd.shape in ("cards",) or not smallest:
        return None
    grow = pd.run is not None and pd.run.length[1] > pd.run.length[0] and pd.shape == "run"
    candidates: list[list[int]] = []
    if r.sameness == "card":
        system = hc.system[smallest[0]]
        ladder = _system_ladder(r, hc, system)
        place = {k: i for i, k in enumerate(ladder)}
        for k in smallest:  # equal cards share a place: map through the representative
            place.setdefault(k, next((i for i, o in enumerate(ladder)
                                      if hc.strength[o] == hc.strength[k]), -1))
        low = min(place[k] for k in smallest)
        high = max(place[k] for k in smallest)
        extra = 1 if grow else 0
        middle = max(0, (len(ladder) - (high - low + 1 + extra)) // 2 - low)
        for steps in _around(middle):
            moved = [ladder[place[k] + steps] if 0 <= place[k] + steps < len(ladder) else -1
                     for k in smallest]
            if -1 in moved:
                continue
            if grow:
                top = max(place[k] for k in smallest) + steps + 1
                if top < len(ladder):
                    candidates.append(moved + [ladder[top]] * pd.run.group)  # type: ignore
            candidates.append(moved)
    else:
        ladder = _run_ladder(r, pd) or list(r.ranks.get(pd.by or "", []) or []) or \
            list(r.ranks.get("single") or []) or sorted({nt.card_rank(k) for k in r.kinds()
                                                         if k < nt.LITTLE_JOKER})
        ranks = [nt.card_rank(k) for k in smallest if k < nt.LITTLE_JOKER]
        if not ranks:
            return None
        if pd.shape == "parts":
            candidates = _composite_candidates(r, hc, pd, ladder)
        else:
            index = _rank_positions(ladder, set(ranks))
            places = [index[x] for x in ranks if x in index]
            if len(places) != len(ranks):
                return None
            low, high = min(places), max(places)
            extra = 1 if grow else 0
            middle = max(0, (len(ladder) - (high - low + 1 + extra)) // 2 - low)
            for steps in _around(middle):
                moved = _shift_ranks(smallest, ladder, index, steps)
                if moved is None:
                    continue
                if grow:
                    top = high + steps + 1
                    if top < len(ladder):
                        rank = ladder[top]
                        rank = nt.ACE if rank == nt.LOW_ACE else rank
                        assert pd.run is not None
                        longer = moved + [nt.card_kind(nt.SUITS[i % 4], rank)
                                          for i in range(pd.run.group)]
                        candidates.append(longer)
                candidates.append(moved)
    for cards in candidates[:40]:
        fitted = cards if r.sameness == "card" else _spread_suits(r, cards)
        if fitted and fitted != smallest and _fits_deck(r, fitted) and \
                _reads_as(hc, fitted, pd.name):
            return fitted
    return None


def _part_ranks(hc: HandContext, part: PatternDef, ladder: list[int]) -> list[int]:
    """The ladder's ranks a part may use (its `where` holds for some card of the rank)."""
    from ..runtime.expressions import Env

    out = []
    for rank in ladder:
        real = nt.ACE if rank == nt.LOW_ACE else rank
        if part.where is None or any(part.where(Env(nt.card_kind(s, real), hc.values))
                                     for s in nt.SUITS):
            out.append(rank)
    return out


def _composite_candidates(r: Ruleset, hc: HandContext, pd: PatternDef,
                          ladder: list[int]) -> list[list[int]]:
    """Plays of a composite built part by part: the key part in the middle of its ladder,
    the other parts on the lowest ranks left free (not next to the key part)."""
    key_index = pd.key if pd.key < len(pd.parts) else 0
    key = pd.parts[key_index]
    out: list[list[int]] = []
    allowed = _part_ranks(hc, key, ladder)
    length = key.run.length[0] if key.run is not None else 1
    group = key.run.group if key.run is not None else (key.group or (1, 1))[0]
    starts = _around(max(0, (len(allowed) - length) // 2)) + [0]
    for start in starts:
        window = allowed[start:start + length]
        if len(window) < length:
            continue
        demand: list[tuple[int, int]] = [(x, group) for x in window]
        used = set(window)
        near = {ladder[i] for x in window for i in (ladder.index(x) - 1, ladder.index(x) + 1)
                if 0 <= i < len(ladder)}
        ok = True
        for i, part in enumerate(pd.parts):
            if i == key_index:
                continue
            times = length if part.repeat else 1
            p_group = part.run.group if part.run is not None else (part.group or (1, 1))[0]
            p_len = part.run.length[0] if part.run is not None else 1
            free = [x for x in _part_ranks(hc, part, ladder) if x not in used and x not in near]
            if part.run is not None:
                picks = free[:p_len] if len(free) >= p_len else []
                picks = picks if picks and all(
                    ladder.index(b) - ladder.index(a) == 1 for a, b in zip(picks, picks[1:])) \
                    else []
            else:
                picks = free[:times]
            if len(picks) < (p_len if part.run is not None else times):
                ok = False
                break
            used.update(picks)
            demand += [(x, p_group) for x in picks]
        if not ok:
            continue
        cards = []
        for rank, n in demand:
            real = nt.ACE if rank == nt.LOW_ACE else rank
            cards += [nt.card_kind(nt.SUITS[j % 4], real) for j in range(n)]
        out.append(cards)
    return out


def _around(middle: int) -> list[int]:
    out = [middle]
    for d in range(1, 8):
        out += [middle - d, middle + d]
    return [s for s in out if s > 0]


# ---------------------------------------------------------------- words


def _unit(w: Words, g: int, card: bool, plural: bool = False) -> str:
    en = {1: ("single card", "single cards"), 2: ("pair", "pairs"), 3: ("triple", "triples"),
          4: ("four of a kind", "fours of a kind")}.get(g, (f"group of {g}", f"groups of {g}"))
    zh = {1: "单张", 2: "对子", 3: "三张", 4: "四张"}.get(g, f"{g}张一组")
    if card and g > 1 and not w.zh:
        en = (f"identical {en[0]}", f"identical {en[1]}")
    return w(en[1] if plural else en[0], zh)


def _length(w: Words, lo: int, hi: int) -> str:
    if lo == hi:
        return str(lo)
    if hi >= OPEN:
        return w(f"at least {lo}", f"至少{lo}")
    return w(f"{lo} to {hi}", f"{lo}至{hi}")


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


def _plural_part(w: Words, text: str) -> str | None:
    """`a single card` → `single cards`, `a pair` → `pairs` (English)."""
    if w.zh:
        return text
    for one, many in (("a single card", "single cards"), ("a pair", "pairs"),
                      ("a triple", "triples")):
        if text == one:
            return many
    return None


def ladder_text(w: Words, ladder: list[int]) -> str:
    return " ".join(nt.rank_name(x) if x != nt.LOW_ACE else "A" for x in ladder)


class PatternWords:
    """Describes a ruleset's patterns in one language."""

    def __init__(self, r: Ruleset, w: Words, speaker: Speaker):
        self.r = r
        self.w = w
        self.say = speaker

    def _where(self, pd: PatternDef) -> str:
        src = _source(self.r, pd.path)
        text = src.get("where")
        if text is None:
            return ""
        try:
            return self.say.condition(text)
        except NotSpoken:
            return ""

    def _shape(self, pd: PatternDef, part: bool = False, ladder: bool = True) -> str:
        w, r = self.w, self.r
        card = r.sameness == "card"
        if pd.shape == "group" and pd.group is not None:
            lo, hi = pd.group
            if lo == hi == 1:
                return w("a single card", "单张") if part else w("any one card", "任意一张牌")
            if part and lo == hi:
                text = w(f"a {_unit(w, lo, card)}", _unit(w, lo, card))
            elif lo == hi:
                text = w(f"{lo} identical cards (same suit and rank)" if card else
                         f"{lo} cards of the same rank",
                         f"{lo}张完全相同（花色、点数都相同）的牌" if card
                         else f"{lo}张点数相同的牌")
            elif hi >= OPEN:
                text = w(f"{lo} or more cards of the same rank", f"{lo}张或更多点数相同的牌")
            else:
                text = w(f"{lo} to {hi} cards of the same rank", f"{lo}至{hi}张点数相同的牌")
            return text
        if pd.shape == "run" and pd.run is not None:
            run = pd.run
            lo, hi = run.length
            length = _length(w, lo, hi)
            if run.group_max is not None:
                steps = w(f"steps of {run.group} to {run.group_max} cards of one rank",
                          f"每档{run.group}至{run.group_max}张同点数牌")
                if run.equal_steps:
                    steps += w(", every step as large", "，每档张数相同")
                text = w(f"a run of {length} consecutive ranks, {steps}",
                         f"{length}个连续点数的连串，{steps}")
            else:
                units = _unit(w, run.group, card, plural=True)
                if run.group == 1:
                    text = w(f"a run of {length} consecutive cards", f"{length}张点数连续的牌")
                else:
                    text = w(f"a run of {length} consecutive {units}",
                             f"{length}组连续的{units}")
            if run.over is not None and ladder:
                ranks = list(r.ranks.get(run.over) or [])
                if ranks:
                    text += w(f" (ranks in the order {ladder_text(w, ranks)})",
                              f"（点数顺序：{ladder_text(w, ranks)}）")
            elif not part:
                text += w(", all in one suit-system and adjacent in the card order",
                          "，同一花色系统内按大小顺序相邻")
                if r.hollow == "allowed":
                    text += w("; cards taken out of the suit (as trumps) are skipped",
                              "；本花色中成为主牌的点数可以跳过")
                else:
                    text += w("; a rank taken out of the suit breaks the run",
                              "；本花色中缺少的点数会断开连串")
            return text
        if pd.shape == "cards" and pd.cards:
            named = []
            for k, n in sorted(pd.cards.items()):
                name = w.card(nt.format_card(k))
                named.append(w(f"{n} {name}s" if n > 1 else f"the {name}",
                               f"{n}张{name}" if n > 1 else name))
            return w(f"exactly {w.join(named)}", f"正好是{w.join(named)}")
        if pd.shape == "any" and pd.group is not None:
            lo, hi = pd.group
            n = str(lo) if lo == hi else _length(w, lo, hi)
            return w(f"any {n} cards", f"任意{n}张牌")
        if pd.shape == "parts":
            return self._parts(pd)
        return w.term(pd.name)

    def _parts(self, pd: PatternDef) -> str:
        w = self.w
        key_index = pd.key if pd.key < len(pd.parts) else 0
        key = pd.parts[key_index]
        main = self._shape(key, part=True, ladder=False)
        where = self._where(key)
        if where:
            main += w(f" (where {where})", f"（{where}）")
        others: list[str] = []
        repeats: list[str] = []
        counts: dict[str, int] = {}
        for i, p in enumerate(pd.parts):
            if i == key_index:
                continue
            text = self._shape(p, part=True, ladder=False)
            pw = self._where(p)
            if pw:
                text += w(f" (where {pw})", f"（{pw}）")
            if p.repeat:
                step = _unit(w, key.run.group, self.r.sameness == "card") \
                    if key.run is not None else w("step", "档")
                repeats.append(w(f"one {text.removeprefix('a ').removeprefix('an ')} per "
                                 f"{step}", f"每组{step}带{text}"))
                continue
            if text not in counts:
                others.append(text)
            counts[text] = counts.get(text, 0) + 1
        said = []
        for text in others:
            n = counts[text]
            if n == 1:
                said.append(text)
            elif p_unit := _plural_part(w, text):
                said.append(w(f"{_NUMBER_WORDS.get(n, str(n))} {p_unit}",
                              f"{n}张单牌" if text == "单张" else f"{n}个{text}"))
            else:
                said.append(w(f"{n} × {text}", f"{n}个{text}"))
        text = main
        if said:
            text = w(f"{text} with {w.join(said)}", f"{text}带{w.join(said)}")
        if repeats:
            text = w(f"{text}, with {w.join(repeats)}", f"{text}，{w.join(repeats)}")
        notes = []
        if pd.distinct is True:
            notes.append(w("every part of a different rank", "各部分点数互不相同"))
        elif pd.distinct == "key":
            notes.append(w("the added cards of other ranks than the main part",
                           "所带的牌与主体点数不同"))
        if pd.same_length:
            notes.append(w("the runs equally long", "各连串长度相同"))
        if pd.bomb_free:
            notes.append(w("the added cards holding no bomb", "所带的牌不能含炸弹"))
        if pd.maximal:
            notes.append(w("the added cards not lengthening the run", "所带的牌不能延长连串"))
        if notes:
            text += w(f", {w.join(notes)}", "，" + "，".join(notes))
        runs = [p.run.over for p in pd.parts if p.run is not None and p.run.over]
        if runs and self.r.ranks.get(runs[0]):
            order = ladder_text(w, list(self.r.ranks[runs[0]]))
            text += w(f" (ranks in the order {order})", f"（点数顺序：{order}）")
        return text

    def describe(self, pd: PatternDef) -> str:
        """One paragraph: the pattern in words."""
        w, r = self.w, self.r
        sentences = [w.sentence(_capital(w, self._shape(pd)))]
        where = self._where(pd) if pd.shape != "parts" else ""
        if where:
            sentences.append(w.sentence(w(f"Every card: {where}", f"每张牌：{where}")))
        if pd.suit == "same":
            sentences.append(w.sentence(w("All its cards are of one suit", "所有牌同一花色")))
        if pd.ties is not None and r.suit_order:
            order = w.join([w.suit(s) for s in r.suit_order])
            if pd.ties == "suit_first":
                sentences.append(w.sentence(w(
                    f"It ranks by the suit of its top card first ({order}, lowest first), "
                    "then by rank",
                    f"先比最大那张牌的花色（由小到大：{order}），再比点数")))
            else:
                sentences.append(w.sentence(w(
                    f"Two of equal rank compare by the suit of their top card ({order}, "
                    "lowest first)",
                    f"点数相同时比最大那张牌的花色（由小到大：{order}）")))
        if not pd.wilds:
            sentences.append(w.sentence(w("A wild card plays only as itself in it",
                                          "其中百搭只能当作自身")))
        if pd.last_only:
            sentences.append(w.sentence(w("It may only be a player's last play, all the cards "
                                          "left in the hand",
                                          "只能作为最后一手牌（出完手中所有牌）")))
        if pd.bomb:
            text = w("A bomb: it beats any play that is not a bomb",
                     "炸弹：可以压任何非炸弹的牌")
            if pd.counts_as_size:
                size = pd.counts_as_size
                shown = f"{size:g}"
                if size != int(size):
                    text += w(f"; among bombs it ranks between bombs of {int(size)} and "
                              f"{int(size) + 1} cards",
                              f"；在炸弹中排在{int(size)}张与{int(size) + 1}张的炸弹之间")
                else:
                    text += w(f"; among bombs it ranks as a bomb of {shown} cards",
                              f"；在炸弹中相当于{shown}张的炸弹")
            else:
                text += w("; bombs compare by their number of cards, then by rank",
                          "；炸弹之间先比张数，再比点数")
            sentences.append(w.sentence(text))
        if pd.exclusive:
            if pd.excludes:
                names = w.join([w.term(x) for x in sorted(pd.excludes)], "or")
                sentences.append(w.sentence(w(f"Cards that make it never count as {names}",
                                              f"能组成它的牌不再算作{names}")))
            else:
                sentences.append(w.sentence(w("Cards that make it count only as this",
                                              "能组成它的牌只算作此牌型")))
        return (" " if not w.zh else "").join(sentences)

    def pictures(self, hc: HandContext, pd: PatternDef,
                 smallest_tokens: list[str] | None) -> PatternPictures:
        r = self.r
        if not smallest_tokens:
            return PatternPictures(None, None)
        try:
            smallest = nt.parse_cards(" ".join(smallest_tokens))
        except nt.NotationError:
            return PatternPictures(None, None)
        typical = typical_example(r, hc, pd, smallest)
        return PatternPictures(laid_down(r, hc, pd, smallest),
                               laid_down(r, hc, pd, typical) if typical else None)


def _capital(w: Words, text: str) -> str:
    if w.zh or not text:
        return text
    return text[0].upper() + text[1:]
