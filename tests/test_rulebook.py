"""`rulesdsl doc`: a rulebook rendered from a rule file alone, as markdown and HTML."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.resources import bundled_rulesets
from rulesdsl.rulebook import render

from .conftest import ROOT

IDS = sorted(bundled_rulesets())
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TITLES = ["牌 Deck", "发牌 Deal", "大小 Ladder", "牌型 Patterns", "打法 Play", "计分 Scoring",
          "例子 Examples"]


def _example_texts(ruleset) -> list[str]:
    return [str(e["raw"][e["kind"]]) for e in ruleset.examples]


@pytest.mark.parametrize("name", IDS)
def test_markdown_and_html_hold_every_pattern_and_example(name):
    ruleset = rulesdsl.load(name)
    md, page = render(ruleset, "md"), render(ruleset, "html")
    for title in TITLES:
        assert f"## {title}" in md
        assert html.escape(title) in page
    for p in ruleset.patterns:
        assert f"`{p.name}`" in md and f"<code>{p.name}</code>" in page
    for text in _example_texts(ruleset):
        assert text in md
        assert html.escape(text) in page
    # One self-contained page: no scripts, no external resources.
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


def test_cli_writes_a_file(tmp_path, capsys):
    out = tmp_path / "book.html"
    assert main(["doc", "guan-pai", "--format", "html", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert main(["doc", "guan-pai", "--format", "md"]) == 0
    assert capsys.readouterr().out.count("## ") >= len(TITLES)


def _hostile_copy(tmp_path: Path) -> Path:
    """A copy of a bundled rule file with markup in its comment, name and an example note."""
    text = bundled_rulesets()["huzhou-hong-wu"].read_text(encoding="utf-8")
    text = "# <script>alert('comment')</script> & <b>bold</b>\n" + text
    text = text.replace("name: {zh: 湖州红五, en: Huzhou Hong Wu}",
                        "name: {zh: 湖州红五, en: \"<script>alert('name')</script>\"}", 1)
    text = text.replace('note: "hearts trump:', 'note: "<img src=x onerror=alert(1)> hearts:', 1)
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_untrusted_text_is_escaped(tmp_path):
    ruleset = rulesdsl.load(_hostile_copy(tmp_path))
    assert "<script>" in ruleset.name["en"]
    page, md = render(ruleset, "html"), render(ruleset, "md")
    for out in (page, md):
        assert "<script" not in out.lower() and "<img" not in out.lower()
    assert "&lt;script&gt;alert(&#x27;name&#x27;)&lt;/script&gt;" in page
    assert "&lt;script&gt;alert(&#x27;comment&#x27;)" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def _chromium(url: str, *flags: str, profile: Path) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={profile}", *flags, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it; "
                    "locally: apt-get install chromium)")
@pytest.mark.parametrize("name", ["huzhou-hong-wu", "wenling-mahjong"])
def test_html_renders_in_headless_chromium(name, tmp_path):
    ruleset = rulesdsl.load(name)
    page = tmp_path / f"{name}.html"
    page.write_text(render(ruleset, "html"), encoding="utf-8")
    url = page.resolve().as_uri()
    dom = _chromium(url, "--dump-dom", profile=tmp_path / "profile").stdout
    assert '<section id="ladder">' in dom and "大小 Ladder" in dom
    assert '<section id="examples">' in dom
    for text in _example_texts(ruleset)[:10]:
        assert html.escape(text, quote=False) in dom
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"rulebook-{name}.png"
    shot.unlink(missing_ok=True)
    _chromium(url, f"--screenshot={shot}", "--window-size=1200,3000",
              profile=tmp_path / "profile")
    assert shot.is_file() and shot.stat().st_size > 10_000
