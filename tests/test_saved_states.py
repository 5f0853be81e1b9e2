"""Saved states, observations and the environment as untrusted input (issue 19).

- Every state random play reaches in every bundled ruleset restores, and a game restored
  after every single action plays on to the same end as uninterrupted play (its final
  to_json and returns): a field left out of the saved ones shows there, not in a round
  trip. The games pass through the positions where that matters (a trick half played, an
  auction, claims waiting, live discards, pung locks, declarations), asserted below.
- Every attribute a state sets is one of its FIELDS, and the check of a saved state reads
  every one of them (engine/saved/).
- Tampered states are refused with RulesdslError naming the field; random edits of saved
  JSON restore or raise RulesdslError, never anything else, and what restores plays on.
- An observation shares no object with the state; a bad seat raises RulesdslError.
- The PettingZoo environment refuses what is not an action index and keeps PettingZoo's
  rules after the end (stepping dead agents with None).
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.engine import saved
from rulesdsl.engine.shedding import state as shed_state
from rulesdsl.engine.trick import state as trick_state
from rulesdsl.errors import RulesdslError
from rulesdsl.resources import bundled_rulesets

BUNDLED = sorted(bundled_rulesets())
SEEDS = (0, 1)
HANDS = 2  # a second deal: a dealer carried over, results and totals to agree with
NESTED_EVENTS = {"trick": trick_state._NESTED_EVENTS, "shedding": shed_state._NESTED_EVENTS}


@functools.cache
def ruleset(name: str):
    return rulesdsl.load(name)


def features(state) -> set[str]:
    """The non-default positions a state is in (what a restore must carry over)."""
    out: set[str] = set()
    if state.phase == "over":
        return out
    if state.hand_no:
        out.add("second hand")
    family = state.game.ruleset.family
    if family == "trick":
        if state.trick:
            out.add("mid-trick")
        if state.phase == "deal" and state.declaration:
            out.add("declaration")
        if state.phase == "deal" and state.final_queue:
            out.add("final round of declaring")
        if state.phase == "bury":
            out.add("bury")
    elif family == "shedding":
        if state.phase == "auction":
            out.add("auction")
        if state.last is not None and state.passes:
            out.add("passes on a play")
        if state.phase == "play" and state.out:
            out.add("a seat out")
        if state.round_points:
            out.add("points on the table")
    else:
        if state.phase == "claims":
            out.add("claims pending")
        if state.claims:
            out.add("a claim waiting")
        if state.live_discards:
            out.add("live discards")
        if any(state.pung_locks):
            out.add("pung locks")
        if any(state.melds):
            out.add("melds")
    return out


def public_attributes(state) -> set[str]:
    """What a state holds that is not a memo or a shortcut (those start with `_`)."""
    return {k for k in vars(state) if not k.startswith("_") and k != "game"}


@functools.cache
def played(name: str) -> dict[str, Any]:
    """Per seed, an uninterrupted game and one restored from its to_json() after every
    action, both driven by equal rngs; what positions the restored one went through,
    every attribute the states set, and some saved texts along the way."""
    rs = ruleset(name)
    game = rs.game()
    out: dict[str, Any] = {"features": set(), "attributes": set(), "texts": [], "pairs": []}
    for seed in SEEDS:
        plain, restored = rs.new_game(seed=seed, hands=HANDS), rs.new_game(seed=seed,
                                                                           hands=HANDS)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        out["attributes"] |= public_attributes(plain) | public_attributes(type(plain)(game))
        steps = 0
        while not plain.is_terminal():
            plain.apply(plain.sample_action(rng_a))
            out["attributes"] |= public_attributes(plain)
            text = restored.to_json()
            restored = game.state_from_json(text)
            out["features"] |= features(restored)
            if steps % 23 == 0:
                out["texts"].append(text)
            restored.apply(restored.sample_action(rng_b))
            steps += 1
        restored = game.state_from_json(restored.to_json())  # the final state too
        out["texts"].append(restored.to_json())
        out["pairs"].append((plain.to_json(), restored.to_json(), plain.returns(),
                             restored.returns()))
    return out


# ---------------------------------------------------------------- what restores


@pytest.mark.parametrize("name", BUNDLED)
def test_restored_after_every_action_plays_on_to_the_same_end(name):
    for plain, restored, returns, restored_returns in played(name)["pairs"]:
        assert restored == plain  # the final to_json
        assert restored_returns == returns


FAMILY_FEATURES = {
    "trick": {"mid-trick", "declaration", "bury", "second hand", "final round of declaring"},
    "shedding": {"auction", "passes on a play", "a seat out", "points on the table",
                 "second hand"},
    "tiles": {"claims pending", "a claim waiting", "live discards", "pung locks", "melds",
              "second hand"},
}


ROB_HANDS = [  # seat 0 adds 5m to its pung; seat 2 waits on 5m; every tile within the deck
    "5m 1m 9m 2s 5s 8s 2z 3z 4z 9p 6z 7z 7z 7z",
    "2m 3m 8m 3p 6p 1s 4s 7s 2m 8m 3p 6p 1s 4s 2z 7z",
    "1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4m 6m 1z 1z",
    "1m 4m 7m 2p 5p 8p 3s 6s 9m 9p 2s 8s 8m 8p 1z 6z",
]


@pytest.mark.parametrize("answer", ["pass", "win"])
def test_a_kong_waiting_to_be_robbed_restores_and_plays_on(answer):
    """Random play never reaches the rob phase: a position built with the engine's own
    `position` (a whole tile set: the rest fills the wall) gets there."""
    from rulesdsl import notation as nt
    from rulesdsl.engine.base import Position

    game = ruleset("wenling-mahjong").game()
    state = game.position(Position(
        hands={s: nt.parse_tiles(h) for s, h in enumerate(ROB_HANDS)},
        context={"turned": nt.tile_kind("9s")}, wall_end=nt.parse_tiles("8s"),
        melds={0: [("pung", nt.tile_kind("5m"), False)]}))
    state.apply("added_kong 5m")
    assert state.phase == "rob" and state.to_act == 2
    plain, restored = state.clone(), game.state_from_json(state.to_json())
    plain.apply(answer)
    restored.apply(answer)
    rng_a, rng_b = random.Random(2), random.Random(2)
    while not plain.is_terminal():
        plain.apply(plain.sample_action(rng_a))
        restored = game.state_from_json(restored.to_json())
        restored.apply(restored.sample_action(rng_b))
    assert game.state_from_json(restored.to_json()) == plain
    assert restored.returns() == plain.returns()
    assert bool(plain.results[-1].get("robbed_kong")) == (answer == "win")


@pytest.mark.parametrize("family", sorted(FAMILY_FEATURES))
def test_the_restored_games_pass_through_non_default_positions(family):
    """So the comparison above covers them (else it would claim what it never ran)."""
    seen: set[str] = set()
    for name in BUNDLED:
        if ruleset(name).family == family:
            seen |= played(name)["features"]
    assert FAMILY_FEATURES[family] <= seen, FAMILY_FEATURES[family] - seen


@pytest.mark.parametrize("name", BUNDLED)
def test_every_state_attribute_is_saved(name):
    """An attribute a state sets (in __init__ or during play) and FIELDS leaves out would
    be lost by clone, to_json and state_from_json."""
    fields = type(ruleset(name).new_game(seed=0)).FIELDS
    attributes = played(name)["attributes"]
    assert attributes - set(fields) == set(), "set but not saved"
    assert set(fields) - attributes == set(), "saved but never set"


def test_a_field_left_out_of_fields_fails_the_attribute_test(monkeypatch):
    """The test above notices a field dropped from FIELDS (as a planted bug would)."""
    state = ruleset("wenling-duijia-tong").new_game(seed=0)
    monkeypatch.setattr(type(state), "FIELDS", tuple(
        k for k in type(state).FIELDS if k != "passes"))
    assert public_attributes(state) - set(type(state).FIELDS) == {"passes"}


class _Reads(dict):
    """A decoded state that records which top-level fields are read."""

    def __init__(self, data: dict[str, Any]):
        super().__init__(data)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_check_reads_every_saved_field(name):
    """A field added to FIELDS and not to engine/saved/ would restore unchecked."""
    game = ruleset(name).game()
    fields = type(ruleset(name).new_game(seed=0)).FIELDS
    read: set[str] = set()
    for text in played(name)["texts"]:
        data = _Reads(json.loads(text))
        saved.check_saved(ruleset(name).family, game, data)
        read |= data.read
    assert set(fields) - read == set()


# ---------------------------------------------------------------- what is refused


def position(name: str, wanted, seeds=range(6)) -> str:
    """The saved text of the first position of a seeded game that `wanted` accepts."""
    rs = ruleset(name)
    for seed in seeds:
        state = rs.new_game(seed=seed, hands=HANDS)
        rng = random.Random(seed)
        while not state.is_terminal():
            if wanted(state):
                return state.to_json()
            state.apply(state.sample_action(rng))
    raise AssertionError(f"no such position in {name}")


def mid_trick(s) -> bool:
    return s.phase == "play" and len(s.trick) == 2 and s.tricks_played >= 3


def shed_following(s) -> bool:
    return s.phase == "play" and s.last is not None and s.passes and s.hand_no == 1


def claims_pending(s) -> bool:
    return s.phase == "claims" and s.last_discard is not None


POSITIONS = {
    "trick": ("huzhou-hong-wu", mid_trick),
    "deal": ("taicang-zhongxin-wu", lambda s: s.phase == "deal" and s.declaration),
    "bury": ("wenling-hong-wu", lambda s: s.phase == "bury"),
    "shed": ("wenling-duijia-tong", shed_following),
    "auction": ("wenling-biao-tong", lambda s: s.phase == "auction" and s.auction["turns"]),
    "tiles": ("wenling-mahjong", claims_pending),
    "turn": ("wenling-mahjong", lambda s: s.phase == "turn" and any(
        m[0] != "kong" for ms in s.melds for m in ms)),
}


@functools.cache
def saved_position(key: str) -> str:
    return position(*POSITIONS[key])


def _held(data: dict, seat: int) -> int:
    return next(k for k, c in enumerate(data["hands"][seat]) if c)


def _move_card(data: dict) -> None:
    """One card from seat 1's hand to seat 2's (the deck is unchanged)."""
    k = _held(data, 1)
    data["hands"][1][k] -= 1
    data["hands"][2][k] += 1


def _duplicate_card(data: dict) -> None:
    k = next(k for k, c in enumerate(data["hands"][0]) if c == 1)
    data["hands"][0][k] += 1


def _set(path: str, value: Any):
    """An edit setting the value at a dotted path (`auction.bid`, `hands.2.14`)."""
    def edit(data: dict) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for p in parents:
            target = target[int(p)] if isinstance(target, list) else target[p]
        target[int(last) if isinstance(target, list) else last] = value
    return edit


def _first_open_meld(data: dict) -> list:
    return next(m for ms in data["melds"] for m in ms if m[0] != "kong")


def _other_tile(data: dict) -> None:
    data["wall"][data["front"]] = data["wall"][data["back"] - 1]


TAMPERED = [
    # (position, what, edit, what the message must name)
    ("trick", "a card moved between hands", _move_card, "hands[1]"),
    ("trick", "a duplicated card", _duplicate_card, "hands[0]"),
    ("trick", "a negative count", _set("hands.2.14", -3), "hands[2][14]: -3 is not a card count"),
    ("trick", "seat 9 to act", _set("to_act", 9), "to_act: 9 is not a seat (0–3)"),
    ("trick", "nobody to act mid-trick", _set("to_act", None), "to_act: None"),
    ("trick", "the next seat skipped", lambda d: d.update(to_act=(d["to_act"] + 1) % 4),
     "to_act"),
    ("trick", "tricks_played as text", _set("tricks_played", "3"), "tricks_played: '3'"),
    ("trick", "a hand that is no list", _set("hands", "S3 S4"), "hands: 'S3 S4' is not a list"),
    ("trick", "a float level", _set("level", 2.0), "level: 2.0 is not a rank"),
    ("trick", "a short hand", lambda d: d["hands"][0].pop(), "hands[0]: holds 53 entries"),
    ("trick", "points out of thin air", lambda d: d.update(defender_points=d[
        "defender_points"] + 100), "defender_points"),
    ("trick", "no hands to play", _set("max_hands", 0), "max_hands: 0 is not a number"),
    ("trick", "a negative hand number", _set("hand_no", -1), "hand_no: -1"),
    ("trick", "an unknown phase", _set("phase", "overtime"), "phase: 'overtime'"),
    ("trick", "a card of no kind", lambda d: d["trick"][0][1].__setitem__(0, 99),
     "trick[0][1][0]: 99 is not a card"),
    ("trick", "a log event of no kind", _set("log.3", "pass"), "log[3]"),
    ("trick", "a play event without its cards",
     lambda d: next(e for e in d["log"] if e["type"] == "play").pop("cards"), "cards"),
    ("deal", "a declaration of a count 0", _set("declaration.count", 0), "declaration.count"),
    ("deal", "a declaration as text", _set("declaration.count", "2"), "declaration.count"),
    ("deal", "a card dealt out of order", _move_card, "hands[1]"),
    ("deal", "a joker trump", _set("trump", "J"), "trump: 'J'"),
    ("bury", "the dealer without the kitty", _move_card, "hands["),
    ("bury", "someone else buries", lambda d: d.update(to_act=(d["to_act"] + 1) % 4),
     "to_act"),
    ("shed", "a card moved between hands", _move_card, "hands[1]"),
    ("shed", "a duplicated card", _duplicate_card, "hands[0]"),
    ("shed", "a negative count", _set("hands.2.14", -3), "hands[2][14]: -3 is not a card count"),
    ("shed", "seat 9 to beat", _set("last.seat", 9), "last.seat: 9 is not a seat"),
    ("shed", "nobody to act", _set("to_act", None), "to_act: None"),
    ("shed", "negative passes", _set("passes", -1), "passes: -1"),
    ("shed", "points captured from nowhere", _set("captured.0", 55), "captured"),
    ("shed", "a play to beat that was never played", _set("last.cards", "BJ"), "last"),
    ("shed", "a pattern the cards do not make", _set("last.key", 99.5), "last"),
    ("shed", "NaN totals", _set("totals.0", float("nan")), "totals[0]"),
    ("shed", "an unused card changed", lambda d: d["unused"].append(0), "unused"),
    ("auction", "a bid nobody made", lambda d: d["auction"].update(
        bid=20 if d["auction"]["bid"] != 20 else 15), "auction"),
    ("auction", "a dealer mid-auction", _set("dealer", 0), "dealer"),
    ("auction", "the kitty in a hand", _move_card, "hands[1]"),
    ("tiles", "a tile moved between hands", _move_card, "hands"),
    ("tiles", "a duplicated tile in the wall", _other_tile, "hands: the hands, melds"),
    ("tiles", "a negative count", _set("hands.2.14", -3), "hands[2][14]: -3 is not a tile count"),
    ("tiles", "seat 9 asked to claim", _set("claim_queue", [9]), "claim_queue[0]: 9"),
    ("tiles", "claims without a discard", _set("last_discard", None), "last_discard"),
    ("tiles", "nobody to act", _set("to_act", None), "to_act: None"),
    ("tiles", "a wall end before its front", lambda d: d.update(back=d["front"] - 1), "back"),
    ("turn", "a meld of no tile", _set("melds.0", [["pung", 50, False]]), "melds[0][0][1]"),
    ("turn", "a concealed pung", lambda d: _first_open_meld(d).__setitem__(2, True),
     "is never concealed"),
    ("turn", "claims pending on a turn", _set("claim_queue", [1]), "claim_queue"),
    ("turn", "an unknown tile source", _set("source", "thin air"), "source"),
]


@pytest.mark.parametrize(("key", "what", "edit", "named"), TAMPERED,
                         ids=[f"{k}-{w}" for k, w, _, _ in TAMPERED])
def test_tampered_states_are_refused_naming_the_field(key, what, edit, named):
    name = POSITIONS[key][0]
    data = json.loads(saved_position(key))
    edit(data)
    text = json.dumps(data)
    assert text != saved_position(key)
    with pytest.raises(RulesdslError) as info:
        ruleset(name).state_from_json(text)
    assert named in str(info.value), f"{what}: {info.value}"


@pytest.mark.parametrize("text", [
    "", "null", "[]", "{}", '"state"', "[" * 100_000 + "]" * 100_000, "1" * 5000, "NaN",
    '{"format": 1, "family": "trick"}', b"\xff\xfe".decode("latin-1"),
])
def test_what_is_no_saved_state_is_refused(text):
    with pytest.raises(RulesdslError):
        ruleset("huzhou-hong-wu").state_from_json(text)


def test_a_huge_number_in_a_saved_state_is_refused():
    data = json.loads(saved_position("shed"))
    data["totals"][0] = 10 ** 4000
    with pytest.raises(RulesdslError, match="totals"):
        ruleset("wenling-duijia-tong").state_from_json(json.dumps(data))


def test_an_unchecked_restore_takes_a_hand_built_position():
    """restore_state(check=False) is for positions built by hand in code (never for text
    from outside): the check is what refuses them."""
    from rulesdsl.engine.base import restore_state
    from rulesdsl.engine.trick.state import TrickState

    data = json.loads(saved_position("trick"))
    _move_card(data)
    game = ruleset("huzhou-hong-wu").game()
    state = restore_state(TrickState, game, json.dumps(data), check=False)
    assert state.hands == data["hands"]
    with pytest.raises(RulesdslError):
        restore_state(TrickState, game, json.dumps(data))


# -- random edits: restore or RulesdslError, and a restored state plays on


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.integers(),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
    st.sampled_from(["S3", "H5 H5", "BJ", "1m", "play", "pass", "hand_end", "deal", "over",
                     "claims", "auction", "pung", "chow", "kong", ""]),
    st.lists(st.integers(-2, 60), max_size=4), st.dictionaries(
        st.sampled_from(["seat", "tile", "type", "hand", "cards"]), st.integers(-1, 5),
        max_size=3),
)


@st.composite
def edited_states(draw) -> tuple[str, str]:
    """A saved position of some ruleset with one to three random edits: a value replaced,
    a key or list item deleted, an item duplicated, a number moved by one."""
    key = draw(st.sampled_from(sorted(POSITIONS)))
    data = json.loads(saved_position(key))
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(sorted(data)))  # each field as likely as the hands
        path = draw(st.sampled_from(_paths(data[field], (field,))))
        parent: Any = data
        for p in path[:-1]:
            parent = parent[p]
        last = path[-1]
        how = draw(st.sampled_from(["replace", "delete", "duplicate", "nudge"]))
        if how == "delete":
            del parent[last]
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(last, json.loads(json.dumps(parent[last])))
        elif how == "nudge" and type(parent[last]) is int:
            parent[last] += draw(st.sampled_from([-1, 1]))
        else:
            parent[last] = draw(JSON_VALUES)
    return POSITIONS[key][0], json.dumps(data)


@pytest.mark.parametrize("key", sorted(POSITIONS))
def test_edits_that_keep_a_state_possible_restore_and_play_on(key):
    """The other half of the property below: not everything is refused."""
    name = POSITIONS[key][0]
    data = json.loads(saved_position(key))
    data["seed"] += 1  # later shuffles differ; nothing now does
    data["max_hands"] += 1
    state = ruleset(name).state_from_json(json.dumps(data))
    use(state, random.Random(0), steps=30)


def use(state, rng: random.Random, steps: int = 4) -> None:
    """Drive a restored state through the API; only RulesdslError may come out."""
    for _ in range(steps):
        state.returns()
        for seat in range(state.game.players):
            state.observation(seat)
        if state.is_terminal():
            return
        assert state.legal_actions().count() > 0, "a restored state with no legal action"
        state.apply(state.sample_action(rng))
    state.clone()


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited_states())
def test_random_edits_restore_or_raise_rulesdsl_error(case):
    name, text = case
    game = ruleset(name).game()
    try:
        state = game.state_from_json(text)
    except RulesdslError as exc:
        assert str(exc).strip()
        return
    again = state.to_json()
    assert game.state_from_json(again).to_json() == again
    try:
        use(state, random.Random(0))
    except RulesdslError:
        pass  # an illegal action or a rule failing is a RulesdslError too


# ---------------------------------------------------------------- observations


def _containers(value: Any, out: dict[int, Any]) -> dict[int, Any]:
    """Every list and dict inside a value, by id (kept alive so ids stay unique)."""
    if isinstance(value, (list, dict)):
        out[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, out)
    return out


def _scribble(value: Any) -> None:
    """Change every list and dict inside an observation."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
        for key in list(value):
            value[key] = None
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


@pytest.mark.parametrize("name", BUNDLED)
def test_an_observation_shares_nothing_with_the_state(name):
    game = ruleset(name).game()
    for text in played(name)["texts"]:
        state = game.state_from_json(text)
        for seat in range(game.players):
            state.observation(seat)  # once, so the remembered log views exist
            obs = state.observation(seat)
            held = _containers([getattr(state, k) for k in state.FIELDS], {})
            assert not set(_containers(obs, {})) & set(held), "an object of the state"
            seen = json.dumps(obs, sort_keys=True)
            _scribble(obs)
            assert state.to_json() == text
            assert json.dumps(state.observation(seat), sort_keys=True) == seen


@pytest.mark.parametrize("name", [n for n in BUNDLED if ruleset(n).family != "tiles"])
def test_only_the_known_events_hold_lists(name):
    """Observations deep-copy only these event types; another one holding a list or a
    dict would be shared with the state (a shallow copy)."""
    nested = NESTED_EVENTS[ruleset(name).family]
    game = ruleset(name).game()
    for text in played(name)["texts"]:
        for event in game.state_from_json(text).log:
            if event["type"] in nested or event["type"] == "deal":
                continue
            assert not any(isinstance(v, (list, dict)) for v in event.values()), event


@pytest.mark.parametrize("name", ["huzhou-hong-wu", "guan-pai", "wenling-mahjong"])
@pytest.mark.parametrize("seat", ["0", None, 7, 4, -1, True, 1.0, [0]])
def test_an_observation_of_no_seat_raises_rulesdsl_error(name, seat):
    state = ruleset(name).new_game(seed=1)
    n = state.game.players
    with pytest.raises(RulesdslError, match=f"from 0 to {n - 1}"):
        state.observation(seat)


# ---------------------------------------------------------------- the environment


def _env(name: str, seed: int = 3):
    pytest.importorskip("pettingzoo")
    env = rulesdsl.env(name)
    env.reset(seed=seed)
    return env


@pytest.mark.parametrize("name", ["guan-pai", "wenling-mahjong"])
def test_the_environment_refuses_what_is_no_action_index(name):
    np = pytest.importorskip("numpy")
    env = _env(name)
    legal = int(np.flatnonzero(env.action_mask())[0])
    before = (env.state.to_json(), list(env.building), env.agent_selection)
    for bad in (None, 3.7, float(legal), "54", str(legal), True, False, np.bool_(True),
                np.float32(legal), [legal], -1, 10 ** 30):
        with pytest.raises(ValueError):
            env.step(bad)
        assert (env.state.to_json(), list(env.building), env.agent_selection) == before
    with pytest.raises(ValueError):
        env.step()
    env.step(np.int64(legal))  # a numpy integer, as action_space.sample() gives
    assert env.state.to_json() != before[0] or env.building != before[1]


@pytest.mark.parametrize("name", ["guan-pai", "wenling-mahjong"])
def test_the_environment_after_the_end(name):
    """Every agent gets its return once through last() and is stepped out with None;
    afterwards last() shows the final view with nothing more to collect, stepping None
    does nothing, and an action is refused."""
    np = pytest.importorskip("numpy")
    env = _env(name)
    rng = np.random.default_rng(3)
    got = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        got[agent] += reward
        env.step(None if terminated or truncated
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.state.is_terminal() and env.agents == []
    assert [got[a] for a in env.possible_agents] == env.state.returns()
    obs, reward, terminated, truncated, info = env.last()
    assert (reward, terminated, truncated, info) == (0.0, True, False, {})
    assert not obs["action_mask"].any()
    final = env.state.to_json()
    env.step(None)
    env.step()
    with pytest.raises(ValueError, match="over"):
        env.step(0)
    assert env.state.to_json() == final
    env.reset(seed=4)
    assert env.agents and not env.state.is_terminal()


def test_the_environment_before_reset():
    pytest.importorskip("pettingzoo")
    env = rulesdsl.env("guan-pai")
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="reset"):
        env.last()
