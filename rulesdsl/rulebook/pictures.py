"""Cards and tiles drawn as inline SVG that needs no font beyond Latin letters and digits.

Suit symbols are paths; a tile's face is drawn: circles for dots (筒), sticks for bamboo
(条), a numeral and a drawn stroke sign for characters (万), a Latin letter for the winds,
a frame for the white dragon, a drawn 中 for the red one, a flower for the flowers. The
only text in a picture is a rank, a numeral or a Latin letter, in the sans-serif every
system has, so nothing renders as an empty box.

Each card or tile kind is one `<symbol>` (`c-H5`, `t-3m`) in a hidden SVG at the top of the
page; every picture is a small `<svg>` that `<use>`s it.
"""

from __future__ import annotations

import html
import re

from .. import notation as nt

FONT = "Arial,Helvetica,sans-serif"
RED, BLACK, BLUE, GREEN = "#c8102e", "#1b1b1b", "#1f4e9c", "#1d7a3a"
CARD_BOX = (40, 56)
TILE_BOX = (36, 48)

SUIT_PATHS = {
    "H": '<path d="M50 92C22 68 2 50 2 29C2 13 14 3 28 3C38 3 46 9 50 18C54 9 62 3 72 3'
         'C86 3 98 13 98 29C98 50 78 68 50 92Z"/>',
    "D": '<path d="M50 2L88 50L50 98L12 50Z"/>',
    "S": '<path d="M50 2C62 22 98 40 98 63C98 79 86 88 73 88C64 88 57 84 53 77'
         'C55 88 60 95 69 98H31C40 95 45 88 47 77C43 84 36 88 27 88C14 88 2 79 2 63'
         'C2 40 38 22 50 2Z"/>',
    "C": '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="58" r="22"/>'
         '<circle cx="75" cy="58" r="22"/><path d="M46 55C46 78 41 91 31 98H69C59 91 54 78'
         ' 54 55Z"/>',
}
STAR = ("M20 18L23.5 27.5L33.5 27.8L25.6 34L28.4 43.7L20 38L11.6 43.7L14.4 34L6.5 27.8"
        "L16.5 27.5Z")

DOTS = {
    1: [(18, 23, 9.5)],
    2: [(18, 12, 5.5), (18, 34, 5.5)],
    3: [(9.5, 10, 5), (18, 23, 5), (26.5, 36, 5)],
    4: [(11, 13, 5.2), (25, 13, 5.2), (11, 33, 5.2), (25, 33, 5.2)],
    5: [(10, 11, 4.6), (26, 11, 4.6), (18, 23, 4.6), (10, 35, 4.6), (26, 35, 4.6)],
    6: [(11, 10, 4.6), (25, 10, 4.6), (11, 23, 4.6), (25, 23, 4.6), (11, 36, 4.6),
        (25, 36, 4.6)],
    7: [(8, 8, 3.8), (18, 12, 3.8), (28, 16, 3.8), (11, 27, 4), (25, 27, 4), (11, 37, 4),
        (25, 37, 4)],
    8: [(11, 8, 4), (25, 8, 4), (11, 18, 4), (25, 18, 4), (11, 28, 4), (25, 28, 4),
        (11, 38, 4), (25, 38, 4)],
    9: [(9, 10, 4.2), (18, 10, 4.2), (27, 10, 4.2), (9, 23, 4.2), (18, 23, 4.2), (27, 23, 4.2),
        (9, 36, 4.2), (18, 36, 4.2), (27, 36, 4.2)],
}
DOT_COLOURS = {1: [BLUE], 2: [GREEN, BLUE], 3: [BLUE, RED, GREEN], 4: [BLUE, GREEN, GREEN, BLUE],
               5: [BLUE, GREEN, RED, GREEN, BLUE], 6: [GREEN, GREEN, RED, RED, RED, RED],
               7: [GREEN, GREEN, GREEN, RED, RED, RED, RED], 8: [BLUE] * 8,
               9: [BLUE, BLUE, BLUE, RED, RED, RED, GREEN, GREEN, GREEN]}

# Bamboo sticks: (centre x, centre y, height); red sticks by index.
STICKS = {
    2: [(18, 13, 14), (18, 33, 14)],
    3: [(18, 13, 14), (11, 33, 14), (25, 33, 14)],
    4: [(11, 13, 14), (25, 13, 14), (11, 33, 14), (25, 33, 14)],
    5: [(10, 13, 14), (26, 13, 14), (18, 23, 14), (10, 33, 14), (26, 33, 14)],
    6: [(9, 13, 14), (18, 13, 14), (27, 13, 14), (9, 33, 14), (18, 33, 14), (27, 33, 14)],
    7: [(18, 9, 10), (9, 23, 10), (18, 23, 10), (27, 23, 10), (9, 37, 10), (18, 37, 10),
        (27, 37, 10)],
    8: [(7.5, 13, 14), (14, 13, 14), (22, 13, 14), (28.5, 13, 14), (7.5, 33, 14),
        (14, 33, 14), (22, 33, 14), (28.5, 33, 14)],
    9: [(9, 9, 10), (18, 9, 10), (27, 9, 10), (9, 23, 10), (18, 23, 10), (27, 23, 10),
        (9, 37, 10), (18, 37, 10), (27, 37, 10)],
}
RED_STICKS = {5: {2}, 7: {0}, 9: {1, 4, 7}}
WIND_LETTERS = {1: "E", 2: "S", 3: "W", 4: "N"}


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def symbol_id(token: str, tiles: bool) -> str:
    return ("t-" if tiles else "c-") + re.sub(r"[^A-Za-z0-9]", "_", token)


# ---------------------------------------------------------------- cards


def _suit(suit: str, x: float, y: float, size: float) -> str:
    return (f'<use href="#suit-{suit}" x="{x:g}" y="{y:g}" width="{size:g}" '
            f'height="{size:g}"/>')


def _card_body(token: str) -> str:
    frame = ('<rect x="0.75" y="0.75" width="38.5" height="54.5" rx="4.5" fill="#fff" '
             'stroke="#8a8a8a" stroke-width="1.5"/>')
    if token in ("BJ", "LJ"):
        colour = RED if token == "BJ" else BLACK
        letters = "".join(f'<text x="5.5" y="{11 + 8.6 * i:g}" font-size="8.5" '
                          f'text-anchor="middle">{c}</text>' for i, c in enumerate("JOKER"))
        star = (f'<path d="{STAR}" transform="translate(4 0)" fill="{colour}"/>'
                if token == "BJ" else
                f'<path d="{STAR}" transform="translate(4 0)" fill="none" stroke="{colour}" '
                'stroke-width="2"/>')
        return (f'{frame}<g font-family="{FONT}" font-weight="700" fill="{colour}">'
                f'{letters}</g>{star}')
    suit, rank = token[0], token[1:]
    colour = RED if nt.SUIT_COLORS[suit] == "red" else BLACK
    size = 12.5 if len(rank) == 1 else 10.5
    spacing = ' letter-spacing="-0.8"' if len(rank) > 1 else ""
    corner = (f'<text x="{7.5 if len(rank) == 1 else 7.8:g}" y="13.5" font-size="{size:g}" '
              f'text-anchor="middle"{spacing}>{_esc(rank)}</text>{_suit(suit, 3.5, 16, 8)}')
    return (f'{frame}<g font-family="{FONT}" font-weight="700" fill="{colour}">{corner}'
            f'<g transform="rotate(180 20 28)">{corner}</g>'
            f'{_suit(suit, 11, 19, 18)}</g>')


# ---------------------------------------------------------------- tiles


def _stick(x: float, y: float, h: float, colour: str) -> str:
    top = y - h / 2
    return (f'<rect x="{x - 2.3:g}" y="{top:g}" width="4.6" height="{h:g}" rx="2.2" '
            f'fill="{colour}"/><path d="M{x - 2.3:g} {y:g}H{x + 2.3:g}" stroke="#fffdf5" '
            'stroke-width="0.9"/>')


def _tile_face(suit: str, number: int) -> str:
    if suit == "p":
        out = []
        for (x, y, r), colour in zip(DOTS[number], DOT_COLOURS[number]):
            out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{colour}"/>'
                       f'<circle cx="{x:g}" cy="{y:g}" r="{r * 0.45:g}" fill="#fffdf5"/>')
            if number == 1:
                out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r * 0.22:g}" fill="{RED}"/>')
        return "".join(out)
    if suit == "s":
        if number == 1:
            return (f'<rect x="14" y="7" width="8" height="32" rx="3.5" fill="{GREEN}"/>'
                    '<path d="M14 17H22M14 29H22" stroke="#fffdf5" stroke-width="1.2"/>'
                    f'<circle cx="18" cy="7.5" r="3.2" fill="{RED}"/>')
        reds = RED_STICKS.get(number, set())
        return "".join(_stick(x, y, h, RED if i in reds else GREEN)
                       for i, (x, y, h) in enumerate(STICKS[number]))
    if suit == "m":
        # the numeral, then the character sign drawn as strokes (no font for 万)
        return (f'<text x="18" y="18" font-family="{FONT}" font-weight="700" font-size="15" '
                f'text-anchor="middle" fill="{BLUE}">{number}</text>'
                f'<g fill="none" stroke="{RED}" stroke-width="2.4" stroke-linecap="round" '
                'stroke-linejoin="round"><path d="M8.5 24.5H27.5"/>'
                '<path d="M15.5 24.5C15.5 32 14 37.5 8.5 41"/>'
                '<path d="M15.8 30.5H25.5C25.5 35.5 24.5 39.5 20.5 40.5"/></g>')
    if suit == "z":
        if number in WIND_LETTERS:
            return (f'<text x="18" y="31.5" font-family="{FONT}" font-weight="700" '
                    f'font-size="23" text-anchor="middle" fill="{BLUE}">'
                    f'{WIND_LETTERS[number]}</text>')
        if number == 5:  # white dragon: a blue frame
            return (f'<rect x="8" y="8.5" width="20" height="29" rx="1.5" fill="none" '
                    f'stroke="{BLUE}" stroke-width="2.4"/><rect x="11.5" y="12" width="13" '
                    f'height="22" fill="none" stroke="{BLUE}" stroke-width="1"/>')
        if number == 6:  # green dragon: a green F in a ring
            return (f'<circle cx="18" cy="23" r="12" fill="none" stroke="{GREEN}" '
                    f'stroke-width="1.6"/><text x="18" y="31" font-family="{FONT}" '
                    f'font-weight="700" font-size="21" text-anchor="middle" fill="{GREEN}">F'
                    '</text>')
        # red dragon: 中 drawn as a box and a stroke
        return (f'<g fill="none" stroke="{RED}" stroke-linecap="round">'
                '<rect x="8.5" y="15" width="19" height="13" rx="1.5" stroke-width="2.8"/>'
                '<path d="M18 7.5V40" stroke-width="3.2"/></g>')
    # flowers: seasons red, plants blue; the number within its four at the corner
    colour = RED if number <= 4 else BLUE
    petals = "".join(
        f'<circle cx="{18 + 6.2 * dx:.2f}" cy="{22 + 6.2 * dy:.2f}" r="4.3" fill="{colour}"/>'
        for dx, dy in ((0, -1), (0.951, -0.309), (0.588, 0.809), (-0.588, 0.809),
                       (-0.951, -0.309)))
    return (f'<path d="M18 27V41M18 35C21 33 24 33 26 34" stroke="{GREEN}" stroke-width="1.8" '
            f'fill="none"/>{petals}<circle cx="18" cy="22" r="3" fill="#e6a700"/>'
            f'<text x="5" y="10" font-family="{FONT}" font-weight="700" font-size="8" '
            f'text-anchor="middle" fill="{colour}">{(number - 1) % 4 + 1}</text>')


def _tile_body(token: str) -> str:
    kind = nt.tile_kind(token)
    suit, number = nt.tile_suit(kind), nt.tile_number(kind)
    return ('<rect x="1" y="2.5" width="34" height="45" rx="4.5" fill="#d8cfae"/>'
            '<rect x="1" y="0.75" width="34" height="44" rx="4.5" fill="#fffdf5" '
            'stroke="#a39b7f" stroke-width="1.2"/>'
            f'<g transform="translate(0 -1)">{_tile_face(suit, number)}</g>')


# ---------------------------------------------------------------- the page's symbols


def is_tile_token(token: str) -> bool:
    return re.fullmatch(r"[1-9][mps]|[1-7]z|[1-8]f", token) is not None


def is_card_token(token: str) -> bool:
    return token in ("BJ", "LJ") or re.fullmatch(r"[SHDC](10|[2-9JQKA])", token) is not None


def symbols(cards: set[str], tiles: set[str]) -> str:
    """One hidden SVG with a symbol per card and tile kind shown on the page."""
    defs = []
    if cards:
        defs += [f'<symbol id="suit-{s}" viewBox="0 0 100 100">{p}</symbol>'
                 for s, p in SUIT_PATHS.items()]
    for token in sorted(cards):
        if is_card_token(token):
            w, h = CARD_BOX
            defs.append(f'<symbol id="{symbol_id(token, False)}" viewBox="0 0 {w} {h}">'
                        f'{_card_body(token)}</symbol>')
    for token in sorted(tiles):
        if is_tile_token(token):
            w, h = TILE_BOX
            defs.append(f'<symbol id="{symbol_id(token, True)}" viewBox="0 0 {w} {h}">'
                        f'{_tile_body(token)}</symbol>')
    return ('<svg class="defs" width="0" height="0" aria-hidden="true" '
            'style="position:absolute;width:0;height:0;overflow:hidden">'
            f'<defs>{"".join(defs)}</defs></svg>')


def picture(token: str, tiles: bool, label: str) -> str:
    """One card or tile: a small SVG using its symbol (a token that is neither is text)."""
    ok = is_tile_token(token) if tiles else is_card_token(token)
    if not ok:
        return f'<span class="piece-text">{_esc(token)}</span>'
    w, h = TILE_BOX if tiles else CARD_BOX
    cls = "tile" if tiles else "card"
    return (f'<svg class="{cls}" viewBox="0 0 {w} {h}" role="img" aria-label="{_esc(label)}">'
            f'<title>{_esc(label)}</title><use href="#{symbol_id(token, tiles)}"/></svg>')
