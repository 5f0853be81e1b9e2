"""The project's notation for cards, tiles and ranks.

Cards: suit letter then rank (`S2 H10 DK CA`; `T` for 10; `♠♥♦♣` for `SHDC`),
jokers `BJ` and `LJ`. Tiles: Tenhou notation (`1m`–`9m`, `1p`–`9p`, `1s`–`9s`,
`1z`–`7z`, flowers `1f`–`8f`), compact hands such as `123m456p11z` accepted.

Card kinds are small integers: suit index × 13 + (rank − 2) for the 52 suited
cards, then 52 = little joker, 53 = big joker. Tile kinds: m 0–8, p 9–17,
s 18–26, z 27–33, f 34–41.
"""

from __future__ import annotations

import re

from .errors import NotationError

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SUIT_PICTURES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_COLORS = {"S": "black", "C": "black", "H": "red", "D": "red"}

RANK_NAMES = {1: "1", 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_VALUES = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
LOW_ACE = 1
ACE = 14

LITTLE_JOKER = 52
BIG_JOKER = 53
CARD_KINDS = 54
# Jokers get ranks above every suited rank so "same rank" never joins them to others.
LJ_RANK = 15
BJ_RANK = 16

TILE_SUITS = ("m", "p", "s", "z", "f")
TILE_KINDS = 42
_TILE_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_TILE_MAX = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

_CARD_RE = re.compile(r"BJ|LJ|([SHDC♠♥♦♣])(10|[2-9TJQKA])")
_SEPARATORS = re.compile(r"[\s,]+")


def rank_value(token: object) -> int:
    """A rank token (`2`..`10`, `J Q K A`, `T`, `1` for a low ace) as an int 1..14."""
    if isinstance(token, bool):
        raise NotationError(f"{token!r} is not a rank")
    if isinstance(token, int):
        if 1 <= token <= 10:
            return token
        raise NotationError(f"{token} is not a rank; ranks are 1 (low ace), 2-10, J, Q, K, A")
    text = str(token).strip().upper()
    if text in RANK_VALUES:
        return RANK_VALUES[text]
    if text.isdigit() and 1 <= int(text) <= 10:
        return int(text)
    raise NotationError(f"{token!r} is not a rank; ranks are 1 (low ace), 2-10, J, Q, K, A")


def rank_name(value: int) -> str:
    if value == LJ_RANK:
        return "LJ"
    if value == BJ_RANK:
        return "BJ"
    return RANK_NAMES.get(value, str(value))


def card_kind(suit: str, rank: int) -> int:
    return SUITS.index(suit) * 13 + (rank - 2)


# A card read under another rank (demotion: ♠A as the lowest spade) is a
# "virtual" card: VIRTUAL_BASE + suit index × 16 + rank. It never appears in a deck.
VIRTUAL_BASE = 100


def virtual_card(suit: str, rank: int) -> int:
    return VIRTUAL_BASE + SUITS.index(suit) * 16 + rank


def card_suit(kind: int) -> str | None:
    if kind >= VIRTUAL_BASE:
        return SUITS[(kind - VIRTUAL_BASE) // 16]
    return SUITS[kind // 13] if kind < 52 else None


def card_rank(kind: int) -> int:
    if kind >= VIRTUAL_BASE:
        return (kind - VIRTUAL_BASE) % 16
    if kind == LITTLE_JOKER:
        return LJ_RANK
    if kind == BIG_JOKER:
        return BJ_RANK
    return kind % 13 + 2


def format_card(kind: int) -> str:
    if kind >= VIRTUAL_BASE:
        return f"{card_suit(kind)}{rank_name(card_rank(kind))}"
    if kind == LITTLE_JOKER:
        return "LJ"
    if kind == BIG_JOKER:
        return "BJ"
    return f"{card_suit(kind)}{rank_name(card_rank(kind))}"


def canonical_card_literal(text: str) -> str:
    return format_card(parse_card(text))


def parse_card(text: str) -> int:
    match = _CARD_RE.fullmatch(text.strip())
    if not match:
        raise NotationError(
            f"{text!r} is not a card; write suit then rank (S2 H10 DK CA) or BJ / LJ")
    if match.group(0) == "BJ":
        return BIG_JOKER
    if match.group(0) == "LJ":
        return LITTLE_JOKER
    suit = SUIT_SYMBOLS.get(match.group(1), match.group(1))
    return card_kind(suit, rank_value(match.group(2)))


def parse_cards(text: str) -> list[int]:
    """A space- or comma-separated list of cards (also written without spaces)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a list of cards")
    kinds: list[int] = []
    pos = 0
    stripped = text.strip()
    while pos < len(stripped):
        sep = _SEPARATORS.match(stripped, pos)
        if sep:
            pos = sep.end()
            continue
        match = _CARD_RE.match(stripped, pos)
        if not match:
            bad = _SEPARATORS.split(stripped[pos:], maxsplit=1)[0]
            exc = NotationError(
                f"{bad!r} is not a card; write suit then rank (S2 H10 DK CA) or BJ / LJ")
            exc.offset = pos + (len(text) - len(text.lstrip()))  # type: ignore[attr-defined]
            exc.token = bad  # type: ignore[attr-defined]
            raise exc
        kinds.append(parse_card(match.group(0)))
        pos = match.end()
    return kinds


def format_cards(kinds) -> str:
    return " ".join(format_card(k) for k in kinds)


def tile_kind(text: str) -> int:
    match = re.fullmatch(r"([0-9])([mpszf])", text.strip())
    if not match:
        raise NotationError(f"{text!r} is not a tile; write number then suit (5p, 1z, 3f)")
    number, suit = int(match.group(1)), match.group(2)
    if not 1 <= number <= _TILE_MAX[suit]:
        raise NotationError(
            f"{text!r} is not a tile; {suit} tiles run 1{suit}-{_TILE_MAX[suit]}{suit}")
    return _TILE_BASE[suit] + number - 1


def tile_suit(kind: int) -> str:
    for suit in reversed(TILE_SUITS):
        if kind >= _TILE_BASE[suit]:
            return suit
    raise NotationError(f"{kind} is not a tile kind")


def tile_number(kind: int) -> int:
    return kind - _TILE_BASE[tile_suit(kind)] + 1


def format_tile(kind: int) -> str:
    return f"{tile_number(kind)}{tile_suit(kind)}"


def parse_tiles(text: str) -> list[int]:
    """Tiles in Tenhou notation, spaced (`1m 2m`) or compact (`123m456p11z`)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a list of tiles")
    kinds: list[int] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        if not re.fullmatch(r"(?:[0-9]+[mpszf])+", chunk):
            raise NotationError(
                f"{chunk!r} is not tiles; write numbers then a suit letter (123m456p11z)")
        for digits, suit in re.findall(r"([0-9]+)([mpszf])", chunk):
            for d in digits:
                kinds.append(tile_kind(d + suit))
    return kinds


def format_tiles(kinds) -> str:
    return " ".join(format_tile(k) for k in kinds)
