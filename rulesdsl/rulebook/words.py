"""Words for the rulebook in two languages: phrases, terms, cards and tiles by name.

Every sentence of the rulebook is written here or next to the code that builds it as an
English and a Chinese pair (`Words.__call__`), so both languages stay complete. Terms
(pattern, tier, scoring-item and engine names) come from the glossary of the project
(one name per Chinese term); an identifier the vocabulary does not know is shown as its
words (`off_level` → "off level") in both languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import notation as nt

LANGS = ("en", "zh")

# Identifiers → (English, Chinese). The English is only given where it differs from the
# identifier's own words.
TERMS: dict[str, tuple[str, str]] = {
    # patterns
    "single": ("single", "单张"),
    "pair": ("pair", "对子"),
    "triple": ("triple", "三张"),
    "trio": ("trio", "三张"),
    "tractor": ("tractor", "拖拉机"),
    "triple_tractor": ("tractor of triples", "三张拖拉机"),
    "straight": ("straight", "顺子"),
    "bomb": ("bomb", "炸弹"),
    "full_house": ("full house", "三带二"),
    "triple_with_two": ("triple with two", "三带二"),
    "consecutive_pairs": ("consecutive pairs", "连对"),
    "consecutive_triples": ("consecutive triples", "连三同张"),
    "butterfly": ("butterfly", "蝴蝶"),
    "flush": ("flush", "同花"),
    "straight_flush": ("straight flush", "同花顺"),
    "four_of_a_kind": ("four of a kind", "四条"),
    "trio_with_single": ("trio with a single", "三带一"),
    "trio_with_pair": ("trio with a pair", "三带对"),
    "pair_chain": ("pair chain", "连对"),
    "airplane": ("airplane", "飞机"),
    "airplane_with_singles": ("airplane with singles", "飞机带单"),
    "airplane_with_pairs": ("airplane with pairs", "飞机带对"),
    "four_with_two": ("four with two", "四带二"),
    "four_with_two_pairs": ("four with two pairs", "四带两对"),
    "rocket": ("rocket", "火箭"),
    "ace_bomb": ("ace bomb", "A炸"),
    "bare_bomb": ("bare bomb", "纯炸"),
    "bare_ace_bomb": ("bare ace bomb", "纯A炸"),
    "king_bomb": ("king bomb", "王炸"),
    "four_kings": ("four kings", "四大天王"),
    "three_pairs": ("three pairs", "三连对"),
    "steel_plate": ("steel plate", "钢板"),
    "four_jokers": ("four jokers", "四王"),
    "eight_jokers": ("eight jokers", "八王"),
    "four_big_jokers": ("four big jokers", "四大王"),
    "four_little_jokers": ("four little jokers", "四小王"),
    # tiers and defines
    "big_joker": ("big joker", "大王"),
    "little_joker": ("little joker", "小王"),
    "level_card": ("level card", "级牌"),
    "trump_level": ("trump-suit level card", "正级牌"),
    "off_level": ("off-suit level card", "副级牌"),
    "trump_suit": ("other trumps", "其他主牌"),
    "plain": ("plain cards", "副牌"),
    "counselor": ("counselor", "参谋"),
    "trump_counselor": ("trump-suit counselor", "正参谋"),
    "off_counselor": ("off-suit counselor", "副参谋"),
    "red_five": ("red five", "红五"),
    "diamond_five": ("diamond five", "方五"),
    "center_five": ("center five", "中心五"),
    "ranks": ("by rank", "按点数"),
    "wild": ("wild tile", "得（财神）"),
    "special": ("special tile", "特殊牌"),
    "bonus_tile": ("bonus tile", "花牌"),
    "red_flower": ("red flower", "红花"),
    "black_flower": ("black flower", "黑花"),
    # tile sets and waits
    "chow": ("chow", "顺子"),
    "pung": ("pung", "刻子"),
    "kong": ("kong", "杠"),
    "closed": ("closed wait", "嵌档"),
    "edge": ("edge wait", "靠柄"),
    "other": ("plain wait", "其他和法"),
    # scoring items and limit hands
    "all_pungs": ("all pungs", "对对和"),
    "full_flush": ("full flush", "清一色"),
    "half_flush": ("half flush", "混一色"),
    "seven_pairs": ("seven pairs", "七对"),
    "closed_wait": ("closed wait", "嵌档"),
    "edge_wait": ("edge wait", "靠柄"),
    "single_wait": ("pair wait", "单吊"),
    "plain_win": ("plain win", "旁和"),
    "kong_bloom": ("win on a kong's replacement", "杠上开花"),
    "robbed_kong_win": ("robbing a kong", "抢杠和"),
    "self_drawn_win": ("self-drawn win", "自摸"),
    "self_drawn_base": ("self-drawn win", "自摸"),
    "self_drawn_fan": ("self-drawn win", "自摸"),
    "self_drawn_wild": ("self-drawn wild", "自摸得"),
    "no_wild": ("no wild", "无得"),
    "two_wilds": ("two wilds", "两张得"),
    "three_wilds": ("three wilds", "三张得"),
    "wild_home": ("wild at home", "财神归位"),
    "double_wild_home": ("two wilds at home", "双财神归位"),
    "seat_wind_pair": ("seat-wind pair", "门风对"),
    "dragon_pair": ("dragon pair", "字牌对"),
    "pung_major": ("pung of terminals or honours", "幺九字牌刻子"),
    "pung_minor": ("other pung", "其他刻子"),
    "concealed_pung_major": ("concealed pung of terminals or honours", "幺九字牌暗刻"),
    "concealed_pung_minor": ("other concealed pung", "其他暗刻"),
    "exposed_kong_major": ("exposed kong of terminals or honours", "幺九字牌明杠"),
    "exposed_kong_minor": ("other exposed kong", "其他明杠"),
    "concealed_kong_major": ("concealed kong of terminals or honours", "幺九字牌暗杠"),
    "concealed_kong_minor": ("other concealed kong", "其他暗杠"),
    "exposed_special": ("exposed special tile", "翻白板"),
    "exposed_special_fan": ("exposed special tile", "翻白板"),
    "seat_flower_season": ("seat flower (season)", "门风花牌（季）"),
    "seat_flower_plant": ("seat flower (plant)", "门风花牌（花）"),
    "seat_wind_set": ("seat-wind set", "门风刻杠"),
    "dragon_set": ("dragon set", "字牌刻杠"),
    "golden_single_wait": ("golden single wait", "金钩钓"),
    "terminals_everywhere": ("terminals everywhere", "带幺九"),
    "two_five_eight_pungs": ("2-5-8 pungs", "将对"),
    "root": ("root", "根"),
    "kong_discard_win": ("win on a kong's discard", "杠上炮"),
    "last_tile_win": ("last tile", "海底捞月"),
    "heaven_or_earth": ("heavenly or earthly hand", "天胡、地胡"),
    "four_red_flowers": ("four red flowers", "四张红花"),
    "four_black_flowers": ("four black flowers", "四张黑花"),
    "four_whites": ("four whites", "四张白板"),
    "concealed_kong_seat_wind": ("concealed seat-wind kong", "暗杠门风"),
    "concealed_kong_dragon": ("concealed dragon kong", "暗杠字牌"),
    "four_winds": ("four winds", "四风会齐"),
    # table words (engine outputs)
    "dealer": ("the dealer's side", "庄家方"),
    "defenders": ("the defenders", "闲家"),
    "none": ("nobody", "无"),
    "partner": ("the dealer's partner", "庄家的对家"),
    "next_player": ("the dealer's next player", "庄家的下家"),
    "same": ("the same dealer", "原庄家"),
    "win": ("win", "胜"),
    "draw": ("draw", "平"),
    "lose": ("lose", "负"),
    "over": ("the hand ends", "本局结束"),
    "playing": ("play goes on", "继续"),
    "play": ("normal play", "正常出牌"),
    "live_tile": ("live-tile phase", "生牌阶段"),
    "exhausted": ("the wall is exhausted", "荒牌"),
    "all_points": ("all the points", "全部分数"),
    "majority": ("the majority of points", "多数分数"),
    "all_out": ("all out", "全部出完"),
    "first_out": ("the first out", "上游"),
    "random": ("a random player", "随机一位玩家"),
    "holder": ("the holder", "持牌者"),
}

# Words inside identifiers, for a Chinese name of an identifier the vocabulary lacks.
SUIT_WORDS = {"S": ("spades", "黑桃"), "H": ("hearts", "红桃"), "D": ("diamonds", "方块"),
              "C": ("clubs", "梅花")}
TILE_SUIT_WORDS = {"m": ("characters", "万"), "p": ("dots", "筒"), "s": ("bamboo", "条"),
                   "z": ("honours", "字牌"), "f": ("flowers", "花牌")}
WINDS = {1: ("East", "东风"), 2: ("South", "南风"), 3: ("West", "西风"), 4: ("North", "北风")}
DRAGONS = {5: ("white dragon", "白板"), 6: ("green dragon", "发财"), 7: ("red dragon", "红中")}
FLOWERS = {1: ("spring", "春"), 2: ("summer", "夏"), 3: ("autumn", "秋"), 4: ("winter", "冬"),
           5: ("plum", "梅"), 6: ("orchid", "兰"), 7: ("bamboo", "竹"), 8: ("chrysanthemum",
                                                                          "菊")}
ZH_NUMBERS = "零一二三四五六七八九十"


def words_of(ident: str) -> str:
    """An identifier as words: `off_level` → "off level"."""
    return str(ident).replace("_", " ").strip()


class Words:
    """The rulebook's language: `w(en, zh)` picks one of a pair of phrases."""

    def __init__(self, lang: str = "en"):
        if lang not in LANGS:
            raise ValueError(f"lang is one of {', '.join(LANGS)}, not {lang!r}")
        self.lang = lang
        self.zh = lang == "zh"

    def __call__(self, en: str, zh: str) -> str:
        return zh if self.zh else en

    # ---------------------------------------------------------------- sentences

    @property
    def stop(self) -> str:
        return "。" if self.zh else ". "

    def sentence(self, text: str) -> str:
        """A sentence with its full stop (none added after one already there)."""
        text = text.strip()
        if not text:
            return ""
        if self.zh:
            return text if text[-1] in "。！？" else text + "。"
        if text[0].islower():
            text = text[0].upper() + text[1:]
        return text if text[-1] in ".!?" else text + "."

    def join(self, items: Iterable[str], conj: str = "and") -> str:
        """a, b and c / a、b和c."""
        items = [i for i in items if i]
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        if self.zh:
            word = {"and": "和", "or": "或"}[conj]
            return "、".join(items[:-1]) + word + items[-1]
        return ", ".join(items[:-1]) + f" {conj} " + items[-1]

    def count(self, n: float, en_one: str, en_many: str | None = None, zh: str = "") -> str:
        """`3 cards` / `3张`."""
        shown = f"{n:g}" if isinstance(n, float) else str(n)
        if self.zh:
            return f"{shown}{zh}"
        many = en_many if en_many is not None else en_one + "s"
        return f"{shown} {en_one if n == 1 else many}"

    def cards(self, n: float, tiles: bool = False) -> str:
        if tiles:
            return self.count(n, "tile", zh="张")
        return self.count(n, "card", zh="张")

    def ordinal(self, n: int) -> str:
        if self.zh:
            return f"第{n}"
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"

    def number_range(self, lo: float, hi: float | None, unit: str = "") -> str:
        """`0–5`, `130 or more` / `0–5`, `130及以上`."""
        lo_s = f"{lo:g}" if isinstance(lo, float) else str(lo)
        if hi is None:
            return self(f"{lo_s}{unit} or more", f"{lo_s}{unit}及以上")
        hi_s = f"{hi:g}" if isinstance(hi, float) else str(hi)
        if lo == hi:
            return f"{lo_s}{unit}"
        return f"{lo_s}–{hi_s}{unit}"

    # ---------------------------------------------------------------- terms

    def title(self, ident: str) -> str:
        """A term as a title: capitalised in English."""
        text = self.term(ident)
        return text if self.zh or not text else text[0].upper() + text[1:]

    def term(self, ident: str) -> str:
        """A rule file's identifier (pattern, tier, item, output word) by name."""
        ident = str(ident)
        if ident in TERMS:
            en, zh = TERMS[ident]
            return zh if self.zh else en
        return words_of(ident)

    # ---------------------------------------------------------------- cards and tiles

    def suit(self, suit: str) -> str:
        en, zh = SUIT_WORDS[suit]
        return zh if self.zh else en

    def rank(self, value: int) -> str:
        if value == nt.LOW_ACE:
            return self("A (low)", "A（小）")
        return nt.rank_name(value)

    def card(self, token: str) -> str:
        """A card by name: `♠A` / `黑桃A`, the jokers in words."""
        if token == "BJ":
            return self("big joker", "大王")
        if token == "LJ":
            return self("little joker", "小王")
        if token[:1] in nt.SUITS and len(token) > 1:
            if self.zh:
                return SUIT_WORDS[token[0]][1] + token[1:]
            return nt.SUIT_PICTURES[token[0]] + token[1:]
        return token

    def tile(self, token: str) -> str:
        """A tile by name: `3 bamboo`, `East wind` / `三条`, `东风`."""
        try:
            kind = nt.tile_kind(token)
        except nt.NotationError:
            return token
        suit, number = nt.tile_suit(kind), nt.tile_number(kind)
        if suit in ("m", "p", "s"):
            en, zh = TILE_SUIT_WORDS[suit]
            return self(f"{number} {en}", f"{ZH_NUMBERS[number]}{zh}")
        if suit == "z":
            en, zh = WINDS.get(number) or DRAGONS[number]
            return self(en + (" wind" if number <= 4 else ""), zh)
        en, zh = FLOWERS[number]
        return self(f"flower {number} ({en})", f"花牌{zh}")

    def piece(self, token: str, tiles: bool) -> str:
        return self.tile(token) if tiles else self.card(token)

    def pieces(self, tokens: Sequence[str], tiles: bool) -> str:
        sep = "、" if self.zh else " "
        return sep.join(self.piece(t, tiles) for t in tokens)

    def seat(self, n: int) -> str:
        return self(f"seat {n}", f"{n}号位")
