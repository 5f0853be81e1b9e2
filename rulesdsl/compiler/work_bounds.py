"""Bounded work for valid files, checked at validation: the hands a deal can give are
searched for their plays under the engines' own work bound, and a pattern that would
need more is refused where it is defined, naming the bound.

The shedding move generator stops a search past MAX_LEAD_PLAYS (plays and wild fillings
of one hand) with a located error at play time, never a shorter list; this check finds
such a file before anyone plays it, counting wild fillings rather than making them. It
tries the hands that hold the most plays: every wild card the deal allows, then the
natural cards spread over every rank in turn (the most runs, groups and composite parts
at once), and the same hand without its wilds.
"""

from __future__ import annotations

from ..engine.shedding.moves import MAX_LEAD_PLAYS, LeadPlaysBound, MoveGenerator
from ..engine.shedding.suited import SuitedMoves
from ..errors import Problem
from ..model.hand import HandContext
from ..model.ruleset import Ruleset

MAX_PROBED_CONTEXTS = 16  # as the composite check: contexts beyond rarely add plays


def probe_lead_plays(ruleset: Ruleset) -> list[Problem]:
    """A problem for the first pattern whose plays in one hand exceed MAX_LEAD_PLAYS."""
    if ruleset.family != "shedding" or ruleset.is_tiles:
        return []
    deal = ruleset.deal
    size = deal.get("hand_size", 0) + deal.get("kitty", 0) + deal.get("dealer_extra", 0)
    size = min(size, sum(ruleset.deck))
    for n, ctx in enumerate(ruleset.all_contexts()):
        if n >= MAX_PROBED_CONTEXTS:
            break
        hc = HandContext(ruleset, ctx)
        ranks = MoveGenerator(hc)
        cards = SuitedMoves(ranks) if ruleset.reads_suits else None
        for hand in _widest_hands(ruleset, hc, ranks.rank_of, size):
            try:
                ranks.count_lead_plays(hand)  # wild fillings counted, not made
                if cards is not None:  # each rank play over the held suits, counted
                    cards.count_card_plays(hand)
            except LeadPlaysBound as exc:
                return [_problem(ruleset, exc, hand)]
    return []


def _widest_hands(ruleset: Ruleset, hc: HandContext, rank_of: list[int],
                  size: int) -> list[list[int]]:
    """Hands of `size` cards: the wilds first, then one card of each rank in turn (its
    copies' kinds in turn); and the same spread of natural cards alone."""
    out = []
    for with_wilds in (True, False):
        left = list(ruleset.deck)
        hand = [0] * len(left)
        taken = 0
        if with_wilds:
            for kind in hc.wild_of:
                take = min(left[kind], size - taken)
                hand[kind] += take
                left[kind] -= take
                taken += take
        by_rank: dict[int, list[int]] = {}
        for kind in sorted(ruleset.kinds(), key=lambda k: hc.strength[k]):
            if kind not in hc.wild_of:
                by_rank.setdefault(rank_of[kind], []).append(kind)
        rounds = 0
        while taken < size and any(left[k] for kinds in by_rank.values() for k in kinds):
            for kinds in by_rank.values():
                if taken >= size:
                    break
                for i in range(len(kinds)):
                    kind = kinds[(rounds + i) % len(kinds)]
                    if left[kind]:
                        hand[kind] += 1
                        left[kind] -= 1
                        taken += 1
                        break
            rounds += 1
        if with_wilds or hc.wild_of:  # without wilds the two hands are one
            out.append(hand)
    return out


def _problem(ruleset: Ruleset, exc: LeadPlaysBound, hand: list[int]) -> Problem:
    pd = exc.pattern
    path = pd.path if pd is not None else ("patterns",)
    name = pd.name if pd is not None else "?"
    assert ruleset.document is not None  # every compiled ruleset carries its document
    return ruleset.document.problem(
        path, f"pattern {name!r}: a hand of {sum(hand)} cards (as a deal can give) has more "
        f"than {MAX_LEAD_PLAYS} plays (max lead plays)",
        expected="fewer plays per hand: shorter runs or smaller groups, fewer wild cards, "
        "or a `where` that narrows the pattern")
