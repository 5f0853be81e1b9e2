"""Checks on a whole compiled ruleset, across every context: every card reaches a tier,
trumps rank above plain cards, ladders hold their tiers' ranks, the points add up, the
wild cards stay within bounds."""

from __future__ import annotations

from typing import Any

from .. import notation as nt
from ..errors import NotationError
from ..model.order_memo import OrderMemo, attach_order_memo
from ..model.ruleset import Ruleset
from ..runtime.expressions import Env, EvaluationError
from .limits import MAX_WILD_CARDS


class StaticChecks:
    """Mixed into the compiler: these read its `family`, `element`, `values_types` and
    `normalised` (each expression's canonical text), and report with `error`."""

    family: str
    element: str
    values_types: dict[str, str]
    normalised: dict[tuple, str]
    # The order memo of the ruleset this file was compiled for before, with other option
    # defaults (compile_with_options): kept when the order is the same.
    shared_order_memo: OrderMemo | None = None

    def error(self, path: tuple, message: str, **kw: Any) -> None:
        raise NotImplementedError

    def _order_key(self, ruleset: Ruleset) -> tuple:
        """What `tier_assignment` computes from besides the values it reads: the trump and
        tier expressions (canonical text, with the defines and the types of the names
        they may read), the ladders and the deck. Equal keys, equal orders."""
        text = self.normalised
        return (self.element, tuple(sorted(self.values_types.items())),
                tuple(sorted((p[1:], t) for p, t in text.items() if p[0] == "define")),
                text.get(("trump",)),
                tuple((t.name, text.get(t.path + ("select",)), t.ladder) for t in ruleset.tiers),
                tuple(ruleset.deck), tuple(sorted((n, tuple(r)) for n, r in ruleset.ranks.items())))

    def _static_checks(self, ruleset: Ruleset) -> None:
        from ..model.hand import tier_assignment

        attach_order_memo(ruleset, self._order_key(ruleset), self.shared_order_memo)
        if not ruleset.tiers or ruleset.is_tiles:
            if not ruleset.is_tiles and not ruleset.tiers:
                self.error((), "missing key 'order'", expected="the per-hand order of cards")
            self._check_points_total(ruleset)
            return
        reached = [False] * len(ruleset.tiers)
        reported: set[tuple] = set()
        kinds = ruleset.kinds()
        for ctx in ruleset.all_contexts():
            values = ruleset.context_values(ctx)
            try:
                assignment = tier_assignment(ruleset, values)
            except EvaluationError as exc:
                self.error(("order",), f"evaluating the order failed: {exc}")
                return
            where = ", ".join(f"{k}={show_value(v, ruleset)}" for k, v in ctx.items())
            where = f" ({where})" if where else ""
            trump_tiers: set[int] = set()
            plain_tiers: set[int] = set()
            fallen = [k for k in kinds if assignment[k][0] is None and ("fall", k) not in reported]
            if fallen:
                reported.update(("fall", k) for k in fallen)
                shown = " ".join(nt.format_card(k) for k in fallen[:8])
                more = f" and {len(fallen) - 8} more" if len(fallen) > 8 else ""
                self.error(("order",), f"{shown}{more} match no tier{where}",
                           expected="a last tier that takes every remaining card, "
                                    "e.g. select: \"true\"")
            ladder_misses: list[tuple[int, int]] = []
            tier_cards: dict[tuple[int, bool], list[int]] = {}
            for kind in kinds:
                tier, _, is_trump = assignment[kind]
                if tier is None:
                    continue
                reached[tier] = True
                tier_cards.setdefault((tier, is_trump), []).append(kind)
                t = ruleset.tiers[tier]
                if t.ladder is not None:
                    rank = nt.card_rank(kind)
                    ladder = ruleset.ranks[t.ladder]
                    if rank not in ladder and not (rank == nt.ACE and 1 in ladder):
                        ladder_misses.append((tier, kind))
                (trump_tiers if is_trump else plain_tiers).add(tier)
            mixed = trump_tiers & plain_tiers
            for tier in sorted(mixed):
                key = ("mixed", tier)
                if key not in reported:
                    reported.add(key)
                    trumps = " ".join(nt.format_card(k) for k in tier_cards[(tier, True)][:6])
                    self.error(ruleset.tiers[tier].path, f"tier {ruleset.tiers[tier].name!r} "
                               f"holds both trumps ({trumps}) and plain cards{where}",
                               expected="separate tiers for trumps and plain cards")
            for tier, kind in ladder_misses:
                t = ruleset.tiers[tier]
                rank = nt.card_rank(kind)
                key = ("ladder", tier, rank)
                if tier in mixed or key in reported:
                    continue
                reported.add(key)
                what = "a joker has no rank on a ladder" if kind >= 52 else \
                    f"rank {nt.rank_name(rank)} is not on ladder {t.ladder!r}"
                self.error(t.path + ("by",), f"{nt.format_card(kind)} is in tier {t.name!r} but "
                           f"{what}{where}", expected="a tier of its own, or a ladder with every "
                           "rank the tier holds")
            if trump_tiers and plain_tiers and max(trump_tiers) > min(plain_tiers) \
                    and not mixed:
                low = ruleset.tiers[max(trump_tiers)]
                key = ("cover", max(trump_tiers))
                if key not in reported:
                    reported.add(key)
                    self.error(low.path, f"the order does not rank every trump above the plain "
                               f"cards: tier {low.name!r} holds trumps below a plain tier"
                               f"{where}", expected="every trump tier before the plain tiers")
        for i, ok in enumerate(reached):
            if not ok:
                t = ruleset.tiers[i]
                self.error(t.path + ("select",), f"no card reaches tier {t.name!r} in any "
                           "context", expected="a tier some card can reach",
                           suggestion="check the select and the tiers above it")
        self._check_points_total(ruleset)

    def _check_wild_count(self, ruleset: Ruleset) -> None:
        """Card families: at most MAX_WILD_CARDS wild cards in the deck, in any context."""
        if ruleset.is_tiles or not ruleset.wilds:
            return
        kinds = ruleset.kinds()
        for ctx in ruleset.all_contexts():
            values = ruleset.context_values(ctx)
            try:
                wild = sum(ruleset.deck[k] for k in kinds
                           if any(w.select(Env(k, values)) for w in ruleset.wilds))
            except EvaluationError as exc:
                self.error(("wilds",), f"evaluating the wilds failed: {exc}")
                return
            if wild > MAX_WILD_CARDS:
                self.error(("wilds",), f"{wild} cards of the deck are wild, over the limit "
                           f"of {MAX_WILD_CARDS} (max wild cards)", key=True,
                           expected=f"at most {MAX_WILD_CARDS} wild cards")
                return

    def _check_composite_bounds(self, ruleset: Ruleset) -> None:
        """Every composite pattern is read within MAX_PART_COMBINATIONS from any hand: the
        engines stop there, so a file that asks for more is refused, never read short."""
        if ruleset.sameness != "rank" or ruleset.is_tiles:
            return
        from ..model.hand import HandContext
        from ..model.patterns import MAX_PART_COMBINATIONS, _part_walk_size, _RankMatcher

        deal = ruleset.deal
        largest = deal.get("hand_size", 0) + deal.get("kitty", 0) + deal.get("dealer_extra", 0)
        composites = [pd for pd in ruleset.patterns if pd.shape == "parts"]
        if not composites:
            return
        for n_ctx, ctx in enumerate(ruleset.all_contexts()):
            if n_ctx >= 16:
                break
            matcher = _RankMatcher(HandContext(ruleset, ctx))
            for pd in composites:
                for n in range(1, largest + 1):
                    ways = _part_walk_size(matcher, pd, n)
                    if ways > MAX_PART_COMBINATIONS:
                        self.error(pd.path, f"pattern {pd.name!r} can be made {ways} ways "
                                   f"from {n} cards, over the limit of "
                                   f"{MAX_PART_COMBINATIONS} (max part combinations)",
                                   expected="fewer or smaller parts, or a `where` that "
                                   "narrows them")
                        return

    def _check_points_total(self, ruleset: Ruleset) -> None:
        if ruleset.points_total is not None:
            total = ruleset.total_points()
            if total != ruleset.points_total:
                self.error(("points_total",), f"the cards carry {total} points, not "
                           f"{ruleset.points_total}", expected=str(total))


def card_hint(text: Any) -> str | None:
    """A likely intended card for a near-miss (`S1` → `SA`, `H1O` → `H10`)."""
    t = str(text).strip().upper().replace("O", "0")
    if len(t) >= 2 and t[0] in "SHDC" and t[1:] == "1":
        return f"did you mean '{t[0]}A'? rank 1 is the low ace, only used in ladders"
    try:
        return f"did you mean '{nt.format_card(nt.parse_card(t))}'?" if t != text else None
    except NotationError:
        return None


def show_value(value: Any, ruleset: Ruleset) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        if ruleset.is_tiles:
            return nt.format_tile(value) if value < nt.TILE_KINDS else str(value)
        return nt.rank_name(value)
    return str(value)
