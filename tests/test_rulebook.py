"""`rulesdsl doc`: a rulebook players learn from, rendered from a rule file alone.

Every bundled ruleset renders in both languages and both formats: the sections of how a
hand proceeds, a section with a picture for every pattern, each example once in the
closing appendix, footnotes that resolve, no raw rule-file syntax in what a reader sees,
and one self-contained page. Headless Chromium opens a trick, a shedding and a tile
rulebook in both languages: the DOM it builds, and screenshots (taken into pytest's
tmp_path) decoded here with zlib and struct and checked for size and content.
"""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.resources import bundled_rulesets
from rulesdsl.rulebook import render

IDS = sorted(bundled_rulesets())
LANGS = ("en", "zh")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SECTIONS = ("overview", "cards", "order", "patterns", "hand", "settlement", "variants",
            "examples")
# What a reader must never see: rule-file syntax, test-style expectations, notes to the
# author, source file names.
RAW = re.compile(r"\{group:|\{run:|key \d|//|→ ?(True|False)|\bgap:|seeds/|==|!=|\*\*|"
                 r"\bexpr\b|\bwhen:")
CJK = re.compile(r"[\u3400-\u9fff]")


def visible_text(page: str) -> str:
    """The words a reader sees: the body without tags, styles, SVG symbols or titles."""
    body = page.split("<body>", 1)[-1]
    body = re.sub(r"<svg class=\"defs\".*?</svg>", " ", body, flags=re.S)
    body = re.sub(r"<title>.*?</title>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return html.unescape(body)


def section(page: str, key: str) -> str:
    """One section's HTML, up to the next section of its level or above."""
    start = page.index(f'<section id="{key}"')
    depth, pos = 0, start
    for m in re.finditer(r"<section\b|</section>", page[start:]):
        depth += 1 if m.group(0) == "<section" else -1
        if depth == 0:
            pos = start + m.end()
            break
    return page[start:pos]


@pytest.fixture(scope="module")
def pages() -> dict[tuple[str, str, str], str]:
    out = {}
    for name in IDS:
        ruleset = rulesdsl.load(name)
        for lang in LANGS:
            for fmt in ("html", "md"):
                out[(name, lang, fmt)] = render(ruleset, fmt, lang)
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", IDS)
def test_every_rulebook_has_its_sections_patterns_and_examples(name, lang, pages):
    ruleset = rulesdsl.load(name)
    page, md = pages[(name, lang, "html")], pages[(name, lang, "md")]
    for key in SECTIONS:
        if key == "order" and ruleset.family == "tiles" and not ruleset.wilds:
            assert f'<section id="{key}"' not in page  # no wild tiles: nothing to order
            continue
        assert f'<section id="{key}"' in page, key
        assert f'<a id="{key}"></a>' in md, key
    # Every pattern has its own section with an SVG picture (tiles: every set kind).
    names = [p.name for p in ruleset.patterns] if ruleset.family != "tiles" else \
        [*ruleset.win["set_kinds"], "pair"]
    for p in names:
        part = section(page, f"pattern-{p}")
        assert "<svg" in part and "<use href=" in part, p
    # Each example once, in the appendix only.
    appendix = section(page, "examples")
    ids = re.findall(r'<li id="example-(\d+)"', page)
    assert len(ids) == len(set(ids)) == len(ruleset.examples)
    assert all(f'id="example-{i}"' in appendix for i in ids)
    for e in ruleset.examples:
        if e["kind"] == "scenario":
            title = html.escape(" ".join(str(e["raw"]["scenario"]).split()))
            assert page.count(title) == 1 and title in appendix, title
    # No rule-file syntax, expectations or author's notes where a reader looks.
    text = visible_text(page)
    found = RAW.search(text)
    assert found is None, text[max(0, found.start() - 80):found.end() + 40]
    # Footnote references all resolve, and notes hold no file names.
    refs = set(re.findall(r'href="#note-(\d+)"', page))
    notes = set(re.findall(r'<li id="note-(\d+)"', page))
    assert refs == notes
    assert "seeds/" not in page
    # One self-contained page: no scripts, no external resources.
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert page.startswith("<!DOCTYPE html>")
    assert f'<html lang="{"zh-CN" if lang == "zh" else "en"}">' in page


@pytest.mark.parametrize("name", ["huzhou-hong-wu", "dou-dizhu", "wenling-mahjong"])
def test_both_languages_are_complete(name, pages):
    zh, en = pages[(name, "zh", "html")], pages[(name, "en", "html")]
    titles_zh = re.findall(r"<h[23]>(.*?)</h[23]>", zh)
    titles_en = re.findall(r"<h[23]>(.*?)</h[23]>", en)
    assert len(titles_zh) == len(titles_en) > 10
    assert all(CJK.search(t) for t in re.findall(r"<h2>(.*?)</h2>", zh))
    assert not any(CJK.search(t) for t in re.findall(r"<h2>(.*?)</h2>", en))
    # The prose of how a hand proceeds is Chinese in the Chinese book, English in the other.
    for key in ("hand", "settlement"):
        zh_text = visible_text(section(zh, key))
        en_text = visible_text(section(en, key))
        letters = len(re.findall(r"[A-Za-z]", zh_text))
        assert len(CJK.findall(zh_text)) > 3 * letters, key
        assert len(re.findall(r"[A-Za-z]", en_text)) > 10 * len(CJK.findall(en_text)), key


def test_cli_writes_a_file(tmp_path, capsys):
    out = tmp_path / "book.html"
    assert main(["doc", "guan-pai", "--format", "html", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert main(["doc", "guan-pai", "--format", "md"]) == 0
    assert capsys.readouterr().out.count("\n## ") >= len(SECTIONS)


def test_render_refuses_an_unknown_language_or_format():
    ruleset = rulesdsl.load("guan-pai")
    with pytest.raises(ValueError):
        render(ruleset, "html", "fr")
    with pytest.raises(ValueError):
        render(ruleset, "pdf")


def _hostile_copy(tmp_path: Path) -> Path:
    """A copy of a bundled rule file with markup in a cited comment, its name, an option's
    doc and an example's note."""
    text = bundled_rulesets()["huzhou-hong-wu"].read_text(encoding="utf-8")
    text = "# <script>alert('comment')</script> & <b>bold</b>\n" + text
    text = text.replace("name: {zh: 湖州红五, en: Huzhou Hong Wu}",
                        "name: {zh: 湖州红五, en: \"<script>alert('name')</script>\"}", 1)
    text = text.replace("  hand_size: 39                 # 「每个玩家39张，留6张底牌」",
                        "  hand_size: 39                 # 「<img src=y onerror=alert(2)>」", 1)
    text = text.replace('note: "hearts trump:', 'note: "<img src=x onerror=alert(1)> hearts:', 1)
    text = text.replace('doc: "any: a side at 10', 'doc: "<iframe src=z></iframe> a side at 10',
                        1)
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_untrusted_text_is_escaped(tmp_path):
    ruleset = rulesdsl.load(_hostile_copy(tmp_path))
    assert "<script>" in ruleset.name["en"]
    for lang in LANGS:
        page, md = render(ruleset, "html", lang), render(ruleset, "md", lang)
        for out in (page, md):
            low = out.lower()
            assert "<script" not in low and "<img" not in low and "<iframe" not in low
        assert "&lt;script&gt;alert(&#x27;name&#x27;)&lt;/script&gt;" in page
        assert "&lt;img src=y onerror=alert(2)&gt;" in page  # the cited comment: a note
        assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the example's note
        assert "&lt;iframe src=z&gt;&lt;/iframe&gt;" in page  # the option's doc


# ---------------------------------------------------------------- headless Chromium


def _chromium(url: str, *flags: str, profile: Path) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={profile}", *flags, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90)


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit PNG, decoded with zlib (filters undone)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0 and color in (2, 6)
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    assert len(raw) == height * (stride + 1)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) \
                    & 255
        rows.append(bytes(line if bpp == 3 else
                          b"".join(line[i:i + 3] for i in range(0, stride, 4))))
        prev = line
    return width, height, rows


def pixel_counts(rows: list[bytes]) -> tuple[int, int, int]:
    """(pixels, non-white pixels, green pixels) of RGB rows."""
    total = inked = green = 0
    for row in rows:
        for i in range(0, len(row), 3):
            r, g, b = row[i], row[i + 1], row[i + 2]
            total += 1
            if r + g + b < 700:
                inked += 1
            if g > r + 40 and g > b + 20:
                green += 1
    return total, inked, green


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it; "
                    "locally: apt-get install chromium)")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["huzhou-hong-wu", "guan-pai", "wenling-mahjong"])
def test_html_renders_in_headless_chromium(name, lang, tmp_path):
    ruleset = rulesdsl.load(name)
    page = tmp_path / f"{name}.{lang}.html"
    page.write_text(render(ruleset, "html", lang), encoding="utf-8")
    url = page.resolve().as_uri()
    profile = tmp_path / "profile"
    dom = _chromium(url, "--dump-dom", profile=profile).stdout
    for key in SECTIONS:
        assert f'<section id="{key}"' in dom, key
    pictures = len(re.findall(r'<svg class="(card|tile)"', dom))
    assert pictures > 50
    names = [p.name for p in ruleset.patterns] if ruleset.family != "tiles" else \
        ["chow", "pung", "kong", "pair"]
    for p in names:
        assert f'<section id="pattern-{p}"' in dom, p
    shot = tmp_path / f"{name}.{lang}.png"
    _chromium(url, f"--screenshot={shot}", "--window-size=1000,1500", profile=profile)
    assert shot.is_file() and shot.stat().st_size > 10_000
    width, height, rows = read_png(shot)
    assert (width, height) == (1000, 1500)
    total, inked, green = pixel_counts(rows)
    assert inked > total // 50, f"{inked} of {total} pixels are not white"
    if ruleset.family == "tiles":
        # The tiles' faces are drawn (green bamboo and dragons), not left as empty boxes.
        assert green > 500, f"{green} green pixels"
