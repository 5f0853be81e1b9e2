"""Hidden information (issue 9): what a seat observes — state.observation(p), the seat's
view log (`play --log-view p`) and the PettingZoo observation — is a function of that
seat's information set. Two methods:

- swaps: change only what p cannot see (a card between two other seats' hands, between
  another hand and the hidden kitty / unused cards / wall, the order of the undealt cards or
  of the wall) on a clone; p's observation must not change;
- tokens: a card or tile kind whose every copy sits where p cannot see it, and that no
  public event showed, must not be written anywhere in p's observation or view log.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl import notation as nt
from rulesdsl.headless.agents import make_agents
from rulesdsl.headless.logs import play_game
from rulesdsl.resources import bundled_rulesets
from tests.soak import ruleset

NAMES = sorted(bundled_rulesets())
ROOT = Path(__file__).resolve().parent.parent
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(BJ|LJ|[SHDC](?:10|[2-9JQKA]))(?![A-Za-z0-9])")
# Log events whose cards stay hidden from everyone but their seat (the others see a count).
HIDDEN_EVENTS = {"deal", "take_kitty", "bury"}


def dump(obs) -> str:
    return json.dumps(obs, sort_keys=True, ensure_ascii=False)


# ---------------------------------------------------------------- hidden zones


def hidden_zones(state, p: int) -> list[tuple[str, list]]:
    """(name, list) of the places p cannot see that a swap may change, as mutable lists:
    other seats' count vectors, and card lists (kitty, unused, undealt, wall)."""
    family = state.game.ruleset.family
    zones: list[tuple[str, list]] = [(f"hand {s}", h) for s, h in enumerate(state.hands)
                                     if s != p]
    if family == "trick":
        if state.phase == "deal":
            zones.append(("undealt", state.deal_order))
        elif state.phase == "play" and state.dealer != p:
            zones.append(("kitty", state.kitty))
    elif family == "shedding":
        if state.phase == "auction":
            zones.append(("kitty", state.kitty))
        zones.append(("unused", state.unused))
    else:
        zones.append(("wall", state.wall))
    return zones


def _take(zone: list, state, name: str, rng: random.Random) -> int | None:
    """Remove one random card from a zone (count vector or list); its kind, or None."""
    if name.startswith("hand"):
        kinds = [k for k, c in enumerate(zone) if c]
        if not kinds:
            return None
        k = rng.choice(kinds)
        zone[k] -= 1
        return k
    lo, hi = _span(state, name, zone)
    if hi <= lo:
        return None
    return zone.pop(rng.randrange(lo, hi))


def _put(zone: list, state, name: str, kind: int, rng: random.Random) -> None:
    if name.startswith("hand"):
        zone[kind] += 1
        return
    lo, hi = _span(state, name, zone)
    zone.insert(rng.randrange(lo, hi + 1), kind)


def _span(state, name: str, zone: list) -> tuple[int, int]:
    """The hidden part of a list zone: the undealt cards, the wall between its ends."""
    if name == "undealt":
        return state.dealt, len(zone)
    if name == "wall":
        return state.front, state.back
    return 0, len(zone)


def swapped(state, p: int, rng: random.Random):
    """A clone differing only in what p cannot see (or None when nothing can move)."""
    twin = state.clone()
    zones = hidden_zones(twin, p)
    for _ in range(10):
        (na, a), (nb, b) = rng.sample(zones, 2) if len(zones) >= 2 else (zones[0], zones[0])
        ka = _take(a, twin, na, rng)
        if ka is None:
            continue
        kb = _take(b, twin, nb, rng)
        if kb is None:
            _put(a, twin, na, ka, rng)
            continue
        _put(a, twin, na, kb, rng)
        _put(b, twin, nb, ka, rng)
        if na == nb and not na.startswith("hand") or ka != kb:
            return twin
        # the same kind back: try again
    return None


# ---------------------------------------------------------------- secret kinds


def shown_kinds(state, p: int) -> Counter:
    """Kinds p has seen: its own cards, the turned tile, and every card of the log that is
    not a hidden event (plays, declarations, a turned-up or revealed kitty, claims)."""
    family = state.game.ruleset.family
    seen: Counter = Counter(k for k, c in enumerate(state.hands[p]) for _ in range(c))
    if family == "tiles":
        return seen  # the tile observation carries no log; its zones are checked by swaps
    for event in state.log:
        if event["type"] in HIDDEN_EVENTS and event.get("seat") != p:
            continue
        for token in CARD_TOKEN.findall(json.dumps(event)):
            seen[nt.parse_card(token)] += 1
    if family == "trick" and state.dealer == p and state.phase == "play":
        seen.update(state.kitty)
    return seen


def secret_kinds(state, p: int) -> set[int]:
    """Card kinds p cannot know of: held by others or hidden, never shown to p."""
    if state.game.ruleset.family == "tiles" or state.phase == "over":
        return set()
    hidden: Counter = Counter()
    for name, zone in hidden_zones(state, p):
        if name.startswith("hand"):
            hidden.update({k: c for k, c in enumerate(zone) if c})
        else:
            lo, hi = _span(state, name, zone)
            hidden.update(zone[lo:hi])
    shown = shown_kinds(state, p)
    return {k for k in hidden if not shown[k]}


def card_tokens(text: str) -> set[int]:
    return {nt.parse_card(t) for t in CARD_TOKEN.findall(text)}


# ---------------------------------------------------------------- random positions


def positions(name: str, seed: int, every: int = 3):
    """The states of one random hand, every few actions."""
    state = ruleset(name).new_game(seed=seed, hands=1)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state
        state.apply(state.sample_action(rng))
        step += 1
    yield state


EVERY = {"wenling-liujia-tong": 14, "wenling-duijia-tong": 5, "huzhou-hong-wu": 5,
         "taicang-zhongxin-wu": 5}


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 2**31 - 1))
def test_observations_do_not_change_with_hidden_information(name, seed):
    rng = random.Random(seed)
    swaps = 0
    for state in positions(name, seed, EVERY.get(name, 3)):
        p = rng.randrange(state.game.players)
        twin = swapped(state, p, rng)
        if twin is None:
            continue
        assert twin.to_json() != state.to_json()
        assert dump(twin.observation(p)) == dump(state.observation(p)), \
            f"seat {p}'s observation depends on hidden cards ({state.phase})"
        swaps += 1
    assert swaps >= 3


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(seed=st.integers(0, 2**31 - 1))
def test_observations_never_name_a_secret_card(name, seed):
    checked = 0
    for state in positions(name, seed, EVERY.get(name, 3)):
        for p in range(state.game.players):
            secret = secret_kinds(state, p)
            leaked = secret & card_tokens(dump(state.observation(p)))
            assert not leaked, f"seat {p} sees {nt.format_cards(sorted(leaked))}"
            checked += len(secret)
    if ruleset(name).family != "tiles":
        assert checked > 0


def test_the_secret_card_search_finds_a_leak():
    """The token method is not vacuous: another seat's hand pasted in is caught."""
    state = next(s for s in positions("wenling-hong-wu", 1) if s.phase == "play")
    obs = state.observation(0)
    obs["leak"] = nt.format_cards([k for k, c in enumerate(state.hands[1]) for _ in range(c)])
    assert secret_kinds(state, 0) & card_tokens(dump(obs))


def test_the_swap_method_finds_a_leak():
    state = next(s for s in positions("wenling-mahjong", 1) if s.phase == "turn")
    twin = swapped(state, 0, random.Random(0))
    assert twin is not None

    def leaky(s):
        return {**s.observation(0), "wall": s.wall[s.front:s.back],
                "hands": [list(h) for h in s.hands]}

    assert dump(leaky(twin)) != dump(leaky(state))


# ---------------------------------------------------------------- the PettingZoo env


@pytest.mark.parametrize("name", NAMES)
def test_env_observations_do_not_change_with_hidden_information(name):
    env = rulesdsl.env(name)
    rng = random.Random(5)
    compared = 0
    for state in positions(name, 5, EVERY.get(name, 3) * 2):
        if state.is_terminal():
            continue
        p = rng.randrange(state.game.players)
        twin = swapped(state, p, rng)
        if twin is None:
            continue
        agent = env.possible_agents[p]
        env.reset(seed=5)
        env.state = state
        a = env.observe(agent)
        env.state = twin
        env._mask_cache = None
        b = env.observe(agent)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        compared += 1
    assert compared >= 3


# ---------------------------------------------------------------- view logs


@pytest.mark.parametrize("name", NAMES)
def test_a_view_log_never_names_a_secret_card_nor_the_seed(name, tmp_path):
    rs = ruleset(name)
    seed = 17
    p = seed % rs.players
    full, view = tmp_path / "full.jsonl", tmp_path / "view.jsonl"
    play_game(rs, seed, make_agents("random", rs.players), 1, str(full))
    play_game(rs, seed, make_agents("random", rs.players), 1, str(view), view=p)
    records = [json.loads(line) for line in view.read_text(encoding="utf-8").splitlines()]
    header = records[0]
    assert header["view"] == p and "seed" not in header
    actions = [r["action"] for r in map(json.loads, full.read_text("utf-8").splitlines())
               if r["type"] == "action"]
    state = rs.new_game(seed=seed, hands=1)
    observations = [r for r in records if r["type"] == "observation"]
    lines = [r for r in records[1:] if r["type"] in ("observation", "action")]
    assert len(observations) == len(actions) + 1
    i = 0
    for record in lines:
        if record["type"] == "action":
            state.apply(actions[i])
            i += 1
            if record["seat"] == p:
                continue
            text = dump(record)
        else:
            assert record["observation"] == json.loads(dump(state.observation(p)))
            text = dump(record["observation"])
        if rs.family == "tiles":
            if record["type"] == "action" and record["action"]["type"] == "concealed_kong":
                assert set(record["action"]) == {"type"}
            continue
        leaked = secret_kinds(state, p) & card_tokens(text)
        assert not leaked, f"{record['type']} shows seat {p} {nt.format_cards(sorted(leaked))}"


@pytest.mark.parametrize("name", ["wenling-hong-wu", "wenling-mahjong"])
def test_the_cli_view_log_holds_no_seed_no_hands_no_wall(name, tmp_path):
    log = tmp_path / "view.jsonl"
    proc = subprocess.run([sys.executable, "-m", "rulesdsl", "play", name, "--seed", "9",
                           "--log", str(log), "--log-view", "2"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = log.read_text(encoding="utf-8")
    header = json.loads(text.splitlines()[0])
    assert header["view"] == 2 and "seed" not in header
    body = text.split("\n", 1)[1]
    for secret in ('"hands"', '"deal_order"', '"wall"', '"unused"', '"seed"'):
        assert secret not in body
