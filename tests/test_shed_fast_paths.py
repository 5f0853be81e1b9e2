"""The move generator's fast paths list exactly what its general walk lists (issue 22).

Two shortcuts serve hands holding no wild card: a group or run pattern whose instances
ask the same count of each of their ranks finds its held instances by the ranks held
that often (a list kept per set of ranks), and a composite of a key part and kickers of
one size is two loops with a mask filter. Here a generator with both switched off (the
instances filtered one by one, every composite walked part by part) lists the same lead
entries, in the same order, as one with them, for hands of every shedding ruleset whose
plays are ranks and of the suited ones (whose rank plays they spread)."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl.engine.shedding.composites import Composites
from rulesdsl.engine.shedding.moves import MoveGenerator
from rulesdsl.resources import bundled_rulesets

SHEDDING = [name for name in sorted(bundled_rulesets())
            if rulesdsl.load(name).family == "shedding"]


def general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch both fast paths off for generators made from now on."""
    plan = Composites._plan
    monkeypatch.setattr(Composites, "_plan",
                        lambda self, pd: plan(self, pd)._replace(kicked=False, last_size=0))

    def no_table(self, pd):
        self._even[id(pd)] = None
        return None

    monkeypatch.setattr(MoveGenerator, "_even_table", no_table)


def test_every_shedding_ruleset_is_covered():
    assert {"dou-dizhu", "guan-pai", "big-two", "guandan", "wenling-liujia-tong"} \
        <= set(SHEDDING)


@pytest.mark.parametrize("name", SHEDDING)
def test_fast_paths_list_what_the_general_walk_lists(name, monkeypatch):
    ruleset = rulesdsl.load(name)
    rng = random.Random(5)
    positions = []
    for g in range(8):
        state = ruleset.new_game(seed=700 + g, hands=1)
        while state.phase != "play":
            state.apply(state.sample_action(rng))
        for seat in range(ruleset.players):
            cards = [k for k, c in enumerate(state.hands[seat]) for _ in range(c)]
            for size in (len(cards), rng.randrange(1, len(cards) + 1)):
                hand = [0] * len(state.hands[seat])
                for k in rng.sample(cards, size):
                    hand[k] += 1
                positions.append((state.hc, hand))
    hc = positions[0][0]
    fast = MoveGenerator(hc)
    wild = sum(1 for _, hand in positions if any(hand[k] for k in hc.wild_of))
    assert wild < len(positions)  # hands without wilds, where the fast paths run
    with monkeypatch.context() as m:
        general(m)
        slow = MoveGenerator(hc)
        expected = [[(e.play, e.name, e.reading) for e in slow.hand_plays(hand).entries]
                    for _, hand in positions]
    listed = [[(e.play, e.name, e.reading) for e in fast.hand_plays(hand).entries]
              for _, hand in positions]
    assert listed == expected
    assert sum(map(len, listed)) > 100
    # ...and the fast paths did run: held instances by ranks, kickers by masks.
    assert any(table is not None and table[2] for table in fast._even.values())
    assert not any(table is not None for table in slow._even.values())
    if name in KICKED:
        assert any(plan.kicked for plan in fast._plans.values())


# The rulesets with a composite of a key part and one part of kickers (three with one or
# two, a full house).
KICKED = {"dou-dizhu", "guan-pai", "big-two", "guandan", "wenling-biao-tong",
          "wenling-duijia-tong", "wenling-liujia-tong"}
