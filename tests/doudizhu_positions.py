"""Hand-made Dou Dizhu positions for the rules the rule file spells out, shared by the tests
that hold our engine against RLCard's judge (test_doudizhu_rlcard.py) and against the
hand-written peer (test_handwritten_peer.py): (hand, previous play or None), in RLCard
strings (3456789TJQKA2, B the little joker, R the big one)."""

from rulesdsl import notation as nt

TRICKY = [
    ("33334444555666777888", None),  # chain ranks held four times; airplanes of all sizes
    ("QQQKKKAAA222BR3456", None),    # 222 flies with QQQKKKAAA; the rocket is no pair of wings
    ("3334445556667772BR", None),    # 333444555666777 + 2 is no play
    ("333344445555666678", None),    # bombs in wings, four with two pairs of one rank
    ("3333444455556666BR", "BR"),    # nothing beats the rocket
    ("3333444455556666BR", "2222"),  # only the rocket beats 2222
    ("3333444455556666BR", "KKKK"),
    ("33334444AA2BR", "TTTT9J"),     # four with two: higher fours, bombs, the rocket
    ("KKKK5BR", "TTTT9J"),           # KKKK5B, KKKK5R, KKKK, BR: the rocket is no kicker
    ("KKKKBR", "TTTT9J"),
    ("3334445556667778889T", "33344456"),
    ("444555666777888999TT", "333444555666"),
    ("JJJQQQKKKAAA22223", "3334445556667789"),
    ("33344455566677789TJQ", None),  # an airplane of five with five wings
    ("444555666777888TJQKA", "33344455566677789TJQ"),
    ("33344455566677788899", None),  # airplanes of two to six; wings next to them
    ("3456789TJQKA2BR", "3456789TJQKA"),  # nothing beats the longest straight but bombs
    ("334455667788", "334455"),
]


def kinds_of(text: str) -> list[int]:
    """Our card kinds for an RLCard string, suits assigned in turn."""
    used: dict[str, int] = {}
    out = []
    for ch in text:
        if ch in "BR":
            out.append(nt.LITTLE_JOKER if ch == "B" else nt.BIG_JOKER)
            continue
        suit = nt.SUITS[used.get(ch, 0)]
        used[ch] = used.get(ch, 0) + 1
        out.append(nt.parse_card(suit + ("10" if ch == "T" else ch)))
    return out
