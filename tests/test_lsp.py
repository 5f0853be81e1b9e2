"""`rulesdsl lsp`: the language server, driven over stdio as an editor drives it.

One server process for the module (`python -m rulesdsl.lsp`), spoken to with real
JSON-RPC framing (tests/lsp_client.py). Every expectation comes from outside the server:
diagnostic ranges from the exact token planted in a copy of a bundled file, hover cards
from `rulesdsl explain`'s data (and from the define's own meaning), definition lines from
where the test finds the key in the text, completion lists from the file's own sections.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import rulesdsl
from rulesdsl.explain import explain_data, resolve_context
from rulesdsl.resources import bundled_rulesets

from .conftest import ROOT
from .lsp_client import LspClient

TRACTOR = ROOT / "rulesets" / "extra" / "tractor.yaml"
TAICANG = ROOT / "rulesets" / "taicang-zhongxin-wu.yaml"
MAHJONG = ROOT / "rulesets" / "wenling-mahjong.yaml"
DIAGNOSTICS = "textDocument/publishDiagnostics"
TRUMP_LINE = 'trump: "is_joker or level_card'  # the top-level trump expression


@pytest.fixture(scope="module")
def client() -> Any:
    lsp = LspClient([sys.executable, "-m", "rulesdsl.lsp"], cwd=ROOT)
    result = lsp.request("initialize", {"processId": None, "rootUri": None,
                                        "capabilities": {}})
    lsp.capabilities = result["capabilities"]
    lsp.notify("initialized", {})
    yield lsp
    assert lsp.close() == 0, "".join(lsp.stderr)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lsp")


_versions: dict[str, int] = {}


def open_doc(client: LspClient, path: Path, text: str) -> dict[str, Any]:
    """Open a document (written to disk too, as an editor's saved file) and return the
    diagnostics published for it."""
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    _versions[uri] = 1
    since = client.mark()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    return client.wait_for(DIAGNOSTICS, lambda p: p["uri"] == uri, since)


def shared(client: LspClient, folder: Path, name: str, source: Path) -> Path:
    """A copy of a bundled file opened once for the module and read by several tests
    (opened here by whichever test needs it first, so each test also runs alone)."""
    path = folder / name
    if path.as_uri() not in _versions:
        assert open_doc(client, path, source.read_text(encoding="utf-8"))["diagnostics"] == []
    return path


def change_doc(client: LspClient, path: Path, text: str) -> dict[str, Any]:
    """Replace a document's whole text (not saved) and return the diagnostics published
    for that version."""
    uri = path.as_uri()
    _versions[uri] += 1
    version = _versions[uri]
    since = client.mark()
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"text": text}]})
    return client.wait_for(DIAGNOSTICS, lambda p: p["uri"] == uri and
                           p.get("version") == version, since)


def position(text: str, line_has: str, word: str, within: int = 0) -> dict[str, int]:
    """The LSP position (UTF-16) `within` characters into `word`, on the first line that
    holds `line_has` (a comment line only when `line_has` is a comment)."""
    for n, line in enumerate(text.split("\n")):
        if line.lstrip().startswith("#") and not line_has.lstrip().startswith("#"):
            continue
        if line_has in line:
            column = line.index(word, line.index(line_has)) + within
            return {"line": n, "character": len(line[:column].encode("utf-16-le")) // 2}
    raise AssertionError(f"no line holds {line_has!r}")


def token_range(text: str, line_has: str, word: str) -> dict[str, Any]:
    start = position(text, line_has, word)
    return {"start": start, "end": {"line": start["line"],
                                    "character": start["character"] + len(word)}}


def at(client: LspClient, method: str, path: Path, pos: dict[str, int]) -> Any:
    return client.request(method, {"textDocument": {"uri": path.as_uri()}, "position": pos})


def hover_text(client: LspClient, path: Path, pos: dict[str, int]) -> str:
    found = at(client, "textDocument/hover", path, pos)
    assert found is not None, f"no hover at {pos}"
    return found["contents"]["value"]


def labels(client: LspClient, path: Path, pos: dict[str, int]) -> set[str]:
    found = at(client, "textDocument/completion", path, pos)
    items = found["items"] if isinstance(found, dict) else found
    return {item["label"] for item in items}


def explained(path: Path) -> dict[str, Any]:
    """`rulesdsl explain --format json` for a rule file (its default sample context)."""
    ruleset = rulesdsl.load(path)
    return explain_data(ruleset, *resolve_context(ruleset))


def cards_after(text: str, lead: str) -> list[str]:
    """The backticked cards on the hover line that starts with `lead`."""
    line = next(x for x in text.split("\n") if x.startswith(lead))
    return line.split("`")[1].split()


# ---------------------------------------------------------------- the session


def test_initialize_announces_every_feature(client: LspClient) -> None:
    caps = client.capabilities
    assert caps["hoverProvider"] and caps["definitionProvider"]
    assert "completionProvider" in caps
    assert "quickfix" in caps["codeActionProvider"]["codeActionKinds"]
    assert caps["textDocumentSync"]["openClose"] and caps["textDocumentSync"]["save"]


def test_a_valid_bundled_file_has_no_diagnostics(client: LspClient, folder: Path) -> None:
    found = open_doc(client, folder / "clean.yaml", TRACTOR.read_text(encoding="utf-8"))
    assert found["diagnostics"] == []


# ---------------------------------------------------------------- diagnostics


PLANTS = [
    # (what is replaced, by what, the line it is on, the wrong token, what the message says)
    ("select: level_card}", "select: levl_card}", "{name: off_level", "levl_card",
     "unknown name 'levl_card'"),
    ('trump: "is_joker or', 'trump: "is_jokr or', 'trump: "is_jokr', "is_jokr",
     "unknown name 'is_jokr'"),
    ("{name: pair, group: 2}", "{name: pair, gruop: 2}", "{name: pair", "gruop",
     "unknown key 'gruop'"),
    ("capture: kitty_capture", "capture: kitty_captur", "capture: ", "kitty_captur",
     "kitty_captur"),
    # after a character outside the BMP (two UTF-16 units): the range still fits
    ("en: Tractor}", "en: Tractor \U0001d11e, bda: 1}", "en: Tractor", "bda",
     "unknown key 'bda'"),
]


@pytest.mark.parametrize("old,new,line_has,token,words", PLANTS,
                         ids=[p[3] for p in PLANTS])
def test_each_problem_covers_exactly_the_planted_token(client: LspClient, folder: Path,
                                                       old: str, new: str, line_has: str,
                                                       token: str, words: str) -> None:
    original = TRACTOR.read_text(encoding="utf-8")
    assert original.count(old) == 1
    text = original.replace(old, new)
    path = folder / f"plant_{token}.yaml"
    found = open_doc(client, path, text)["diagnostics"]
    assert len(found) == 1, found
    (d,) = found
    assert d["range"] == token_range(text, line_has, token)
    assert words in d["message"] and d["source"] == "rulesdsl" and d["severity"] == 1


@pytest.mark.parametrize("old,new,line_has,token,words", PLANTS[:4],
                         ids=[p[3] for p in PLANTS[:4]])
def test_did_you_mean_is_a_quick_fix_that_repairs_the_file(
        client: LspClient, folder: Path, old: str, new: str, line_has: str, token: str,
        words: str) -> None:
    original = TRACTOR.read_text(encoding="utf-8")
    text = original.replace(old, new)
    path = folder / f"fix_{token}.yaml"
    (d,) = open_doc(client, path, text)["diagnostics"]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": path.as_uri()}, "range": d["range"],
        "context": {"diagnostics": [d]}})
    assert len(actions) == 1 and actions[0]["kind"] == "quickfix"
    (edit,) = actions[0]["edit"]["changes"][path.as_uri()]
    fixed = apply_edit(text, edit)
    assert fixed == original
    # The repaired buffer (a change, not saved) validates clean.
    assert change_doc(client, path, fixed)["diagnostics"] == []


def test_a_quick_fix_on_a_quoted_value_keeps_its_quotes(client: LspClient,
                                                        folder: Path) -> None:
    original = TRACTOR.read_text(encoding="utf-8")
    text = original.replace("expect: tractor", 'expect: "tractr"', 1)
    path = folder / "fix_quoted.yaml"
    (d,) = open_doc(client, path, text)["diagnostics"]
    assert d["range"] == token_range(text, 'expect: "tractr"', '"tractr"')
    (action,) = client.request("textDocument/codeAction", {
        "textDocument": {"uri": path.as_uri()}, "range": d["range"],
        "context": {"diagnostics": [d]}})
    (edit,) = action["edit"]["changes"][path.as_uri()]
    fixed = apply_edit(text, edit)
    assert fixed == original.replace("expect: tractor", 'expect: "tractor"', 1)


def test_typing_is_debounced_and_closing_clears(client: LspClient, folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = folder / "typing.yaml"
    assert open_doc(client, path, text)["diagnostics"] == []
    since = client.mark()
    uri = path.as_uri()
    # Three quick edits, the last one wrong: one validation, of the last version.
    for typed in ("levl", "leve", "levl_card"):
        _versions[uri] += 1
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": _versions[uri]},
            "contentChanges": [{"text": text.replace("select: level_card}",
                                                     f"select: {typed}}}")}]})
    last = client.wait_for(DIAGNOSTICS, lambda p: p["uri"] == uri and
                           p.get("version") == _versions[uri], since)
    assert [d["message"] for d in last["diagnostics"]] == [
        "expression 'levl_card': unknown name 'levl_card' (did you mean 'level_card'?)"]
    published = [n for n in client.notifications[since:]
                 if n.get("method") == DIAGNOSTICS and n["params"]["uri"] == uri]
    assert len(published) == 1
    since = client.mark()
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    closed = client.wait_for(DIAGNOSTICS, lambda p: p["uri"] == uri, since)
    assert closed["diagnostics"] == []


def apply_edit(text: str, edit: dict[str, Any]) -> str:
    lines = text.split("\n")
    start, end = edit["range"]["start"], edit["range"]["end"]
    assert start["line"] == end["line"] and lines[start["line"]].isascii()
    line = lines[start["line"]]
    lines[start["line"]] = line[:start["character"]] + edit["newText"] + line[end["character"]:]
    return "\n".join(lines)


def test_a_problem_without_its_end_is_measured_from_the_text() -> None:
    # Problems written before they carried an end (or by code that gives none): the
    # range is the name the message quotes, else the YAML token starting there.
    from rulesdsl.errors import Problem
    from rulesdsl.lsp.diagnostics import problem_span
    from rulesdsl.lsp.text import Span, scalar_tokens, split_lines

    text = ('trump: "is_jokr or rank == 5"\nby: natral  # a ladder\n'
            "order:\n  - {name: a, selcet: x}\n")
    lines, tokens = split_lines(text), scalar_tokens(text)

    def span(line: int, column: int, message: str, **end: int) -> Span:
        return problem_span(Problem("f.yaml", line, column, "", message, **end), lines,
                            tokens)

    assert span(1, 9, "unknown name 'is_jokr'") == Span(0, 8, 0, 15)
    assert span(1, 9, "unknown name 'is_jokr'", end_line=1, end_column=10) == \
        Span(0, 8, 0, 15)  # a one-character end is only a position
    assert span(1, 8, "type error") == Span(0, 7, 0, 29)  # the quoted scalar
    assert span(2, 5, "no ladder named 'natral'") == Span(1, 4, 1, 10)
    assert span(4, 15, "unknown key 'selcet'") == Span(3, 14, 3, 20)
    assert span(4, 15, "unknown key", end_line=4, end_column=21) == Span(3, 14, 3, 20)


def test_a_problem_in_the_parent_is_shown_at_extends(client: LspClient, folder: Path) -> None:
    parent_text = TRACTOR.read_text(encoding="utf-8").replace("select: level_card}",
                                                              "select: levl_card}")
    parent = folder / "broken_parent.yaml"
    parent.write_text(parent_text, encoding="utf-8")
    child_text = "extends: broken_parent.yaml\nid: child\nname: {en: Child}\n"
    found = open_doc(client, folder / "child_of_broken.yaml", child_text)["diagnostics"]
    assert len(found) == 1, found
    (d,) = found
    assert d["range"] == token_range(child_text, "extends:", "broken_parent.yaml")
    assert "broken_parent.yaml" in d["message"] and "levl_card" in d["message"]
    (related,) = d["relatedInformation"]
    assert related["location"]["uri"] == parent.as_uri()
    assert related["location"]["range"] == token_range(parent_text, "{name: off_level",
                                                       "levl_card")


def test_saving_a_parent_validates_its_open_children(client: LspClient, folder: Path) -> None:
    parent_text = TRACTOR.read_text(encoding="utf-8")
    parent = folder / "saved_parent.yaml"
    assert open_doc(client, parent, parent_text)["diagnostics"] == []
    child_text = "extends: saved_parent.yaml\nid: saved-child\nname: {en: Child}\n"
    child = folder / "saved_child.yaml"
    assert open_doc(client, child, child_text)["diagnostics"] == []
    broken = parent_text.replace("select: level_card}", "select: levl_card}")
    change_doc(client, parent, broken)
    since = client.mark()
    parent.write_text(broken, encoding="utf-8")
    client.notify("textDocument/didSave", {"textDocument": {"uri": parent.as_uri()}})
    found = client.wait_for(DIAGNOSTICS, lambda p: p["uri"] == child.as_uri(), since)
    (d,) = found["diagnostics"]
    assert "levl_card" in d["message"]
    assert d["range"] == token_range(child_text, "extends:", "saved_parent.yaml")


def test_examples_run_on_open_and_save_not_while_typing(client: LspClient,
                                                        folder: Path) -> None:
    # An example that now fails: the ladder says S4 is above H4.
    text = TRACTOR.read_text(encoding="utf-8").replace(
        '"BJ > LJ > S4 > H4 = D4 = C4 > SA', '"BJ > LJ > H4 > S4 = D4 = C4 > SA')
    path = folder / "example.yaml"
    on_open = open_doc(client, path, text)["diagnostics"]
    assert len(on_open) == 1 and "example fails" in on_open[0]["message"]
    assert on_open[0]["range"]["start"] == position(text, '"BJ > LJ > H4', '"BJ')
    typed = change_doc(client, path, text + "\n")  # a change: examples are not run
    assert typed["diagnostics"] == []
    since = client.mark()
    path.write_text(text + "\n", encoding="utf-8")
    client.notify("textDocument/didSave", {"textDocument": {"uri": path.as_uri()}})
    saved = client.wait_for(DIAGNOSTICS, lambda p: p["uri"] == path.as_uri(), since)
    assert len(saved["diagnostics"]) == 1


# ---------------------------------------------------------------- hover


def test_hover_on_a_define_lists_the_cards_it_selects(client: LspClient, folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "hover.yaml", TRACTOR)
    data = explained(TRACTOR)
    level = next(c["value"] for c in data["context"] if c["name"] == "level")
    every = [c for s in data["ladder"] for step in s["steps"] for c in step["cards"]]
    # level_card is "rank == level": every card of the sample level's rank, jokers aside.
    expected = {c for c in every if c not in ("BJ", "LJ") and c[1:] == level}
    assert len(expected) == 4
    shown = hover_text(client, path, position(text, TRUMP_LINE, "level_card", 3))
    assert "rank == level" in shown and f"level = {level}" in shown
    assert set(cards_after(shown, "Selects")) == expected


def test_hover_on_a_pattern_shows_explains_smallest_example(client: LspClient,
                                                            folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "hover.yaml", TRACTOR)
    data = {p["name"]: p for p in explained(TRACTOR)["patterns"]}
    for line_has, word in (("expect: tractor", "tractor"), ("{name: tractor", "tractor"),
                           ("{name: pair", "pair")):
        shown = hover_text(client, path, position(text, line_has, word, 1))
        assert f"**pattern** `{word}`" in shown
        assert cards_after(shown, "Smallest example") == data[word]["example"]
        assert data[word]["readings"][0] in shown


def test_hover_on_a_tier_lists_its_cards(client: LspClient, folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "hover.yaml", TRACTOR)
    steps = [step for s in explained(TRACTOR)["ladder"] for step in s["steps"]]
    for tier in ("off_level", "trump_level", "big_joker"):
        expected = [c for step in steps if step["tier"] == tier for c in step["cards"]]
        assert expected
        shown = hover_text(client, path, position(text, "{name: " + tier, tier))
        assert cards_after(shown, "Takes") == expected


def test_hover_on_options_tables_formulas_and_cards(client: LspClient, folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "hover.yaml", TRACTOR)
    spec = yaml.safe_load(text)
    shown = hover_text(client, path, position(text, "shape: {option:", "follow_format"))
    assert "**option** `follow_format`" in shown
    assert all(f"`{c}`" in shown for c in spec["options"]["follow_format"]["choices"])
    shown = hover_text(client, path, position(text, "capture: kitty_capture", "kitty_capture"))
    assert spec["formulas"]["kitty_capture"]["expr"] in shown
    shown = hover_text(client, path, position(text, "table: result", "result"))
    assert "**table** `result`" in shown and "points" in shown
    # A card in an example: its tier in the sample hand, as explain's ladder has it.
    steps = [step for s in explained(TRACTOR)["ladder"] for step in s["steps"]]
    tier = next(step["tier"] for step in steps if "S4" in step["cards"])
    shown = hover_text(client, path, position(text, 'order: "BJ > LJ > S4', "S4"))
    assert f"tier `{tier}`" in shown and "trump" in shown


def test_hover_uses_the_last_good_compile_while_the_file_is_broken(client: LspClient,
                                                                    folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = folder / "midedit.yaml"
    assert open_doc(client, path, text)["diagnostics"] == []
    good = hover_text(client, path, position(text, TRUMP_LINE, "level_card", 1))
    broken = text.replace("{name: pair, group: 2}", "{name: pair, group: 2")  # unclosed
    assert change_doc(client, path, broken)["diagnostics"] != []
    during = hover_text(client, path, position(broken, TRUMP_LINE, "level_card", 1))
    assert cards_after(during, "Selects") == cards_after(good, "Selects")


# ---------------------------------------------------------------- completion


def test_completion_in_an_expression(client: LspClient, folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "complete.yaml", TRACTOR)
    spec = yaml.safe_load(text)
    found = labels(client, path, position(text, TRUMP_LINE, "level_card"))
    assert set(spec["define"]) | set(spec["context"]) | set(spec["options"]) <= found
    deck = {c for s in explained(TRACTOR)["ladder"] for step in s["steps"]
            for c in step["cards"]}
    assert deck <= found and {"rank", "suit", "is_joker", "count"} <= found
    # Inside a table's row: the table's inputs too.
    assert "points" in labels(client, path, position(text, 'when: "points >= 5"', "points"))


def test_completion_of_names_where_a_position_names_them(client: LspClient,
                                                         folder: Path) -> None:
    text = TAICANG.read_text(encoding="utf-8")
    path = shared(client, folder, "complete_taicang.yaml", TAICANG)
    spec = yaml.safe_load(text)
    tiers = {t["name"] for t in spec["order"]}
    patterns = {p["name"] for p in spec["patterns"]["list"]}
    assert labels(client, path, position(text, "tiers: [trump_suit", "plain")) == tiers
    assert labels(client, path, position(text, "patterns: [tractor", "triple_tractor")) == \
        patterns
    tractor = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "complete.yaml", TRACTOR)
    assert labels(client, path, position(tractor, "shape: {option:", "follow_format")) == \
        set(yaml.safe_load(tractor)["options"])
    assert labels(client, path, position(tractor, "expect: tractor", "tractor")) == \
        {p["name"] for p in yaml.safe_load(tractor)["patterns"]["list"]} | {"none"}
    # The cards of an example: the deck in the notation.
    found = labels(client, path, position(tractor, 'pattern: "S3 S3 S5 S5"', "S5"))
    assert {"S5", "H10", "BJ", "LJ"} <= found and "turned" not in found


def test_completion_offers_tiles_in_a_tile_ruleset(client: LspClient, folder: Path) -> None:
    text = MAHJONG.read_text(encoding="utf-8")
    path = folder / "complete_tiles.yaml"
    open_doc(client, path, text)
    found = labels(client, path, position(text, "  wild: ", "if(", 3))
    assert {"1m", "9p", "7z", "8f", "turned", "is_flower", "number"} <= found
    assert "S8" not in found


def test_completion_after_extends_offers_rule_files(client: LspClient, folder: Path) -> None:
    text = "extends: tr\nid: child\n"
    (folder / "sibling.yaml").write_text("language: 1\n", encoding="utf-8")
    path = folder / "complete_extends.yaml"
    open_doc(client, path, text)
    found = labels(client, path, position(text, "extends:", "tr", 2))
    assert set(bundled_rulesets()) <= found and "sibling.yaml" in found


# ---------------------------------------------------------------- definition


def definition(client: LspClient, path: Path, pos: dict[str, int]) -> dict[str, Any]:
    found = at(client, "textDocument/definition", path, pos)
    assert found is not None, f"no definition at {pos}"
    return found[0] if isinstance(found, list) else found


def test_definition_of_names(client: LspClient, folder: Path) -> None:
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "hover.yaml", TRACTOR)
    cases = [  # (line, word used there, line of its definition, its name there)
        (TRUMP_LINE, "level_card", '  level_card: "rank == level"', "level_card"),
        ("capture: kitty_capture", "kitty_capture", "  kitty_capture:", "kitty_capture"),
        ("table: result", "result", "  result:", "result"),
        ("shape: {option:", "follow_format", "  follow_format:", "follow_format"),
        ("expect: tractor", "tractor", "{name: tractor", "tractor"),
        ("  level: {type: rank", "levels", "  levels: [2, 3", "levels"),
    ]
    for line_has, word, defined, name in cases:
        found = definition(client, path, position(text, line_has, word, 1))
        assert found["uri"] == path.as_uri()
        assert found["range"] == token_range(text, defined, name), word


def test_definition_of_a_tier_named_by_an_alternate(client: LspClient, folder: Path) -> None:
    text = TAICANG.read_text(encoding="utf-8")
    path = shared(client, folder, "complete_taicang.yaml", TAICANG)
    found = definition(client, path, position(text, "tiers: [trump_suit", "trump_suit"))
    assert found["range"] == token_range(text, "{name: trump_suit", "trump_suit")


def test_definition_follows_extends(client: LspClient, folder: Path) -> None:
    parent_text = TRACTOR.read_text(encoding="utf-8")
    parent = folder / "parent.yaml"
    parent.write_text(parent_text, encoding="utf-8")
    child_text = ("extends: parent.yaml\nid: child\nname: {en: Child}\n"
                  "define:\n  trump_level_card: \"level_card and suit == trump\"\n")
    child = folder / "child.yaml"
    assert open_doc(client, child, child_text)["diagnostics"] == []
    found = definition(client, child, position(child_text, "extends:", "parent.yaml", 2))
    assert found["uri"] == parent.as_uri() and found["range"]["start"] == \
        {"line": 0, "character": 0}
    # A name defined only in the parent: its line in the parent's file.
    found = definition(client, child, position(child_text, "trump_level_card:", "level_card",
                                               len("trump_level_card: ") + 2))
    assert found["uri"] == parent.as_uri()
    assert found["range"] == token_range(parent_text, '  level_card: "rank', "level_card")
    # ... and hover reads it through the merged, compiled child.
    shown = hover_text(client, child, position(child_text, "trump_level_card:", "trump_level"))
    assert len(cards_after(shown, "Selects")) == 1  # the trump suit's level card
    # A bundled id: its file in the package.
    text = "extends: tractor\nid: by-id\nname: {en: By id}\n"
    by_id = folder / "by_id.yaml"
    assert open_doc(client, by_id, text)["diagnostics"] == []
    found = definition(client, by_id, position(text, "extends:", "tractor", 3))
    assert Path(_fs(found["uri"])).resolve() == bundled_rulesets()["tractor"].resolve()


def _fs(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(uri).path)


# ---------------------------------------------------------------- bad input


BAD = {
    "not_yaml": "{{{: [\n\t- :\n  ]] ,,\n",
    "empty": "",
    "a_list": "- 1\n- 2\n",
    "controls": "language: 1\nid: \x00\x07\n",
    "deep": "[" * 5000 + "]" * 5000,
    "huge": "language: 1\n" + "# " + "x" * 1_200_000 + "\n",
    "many_keys": "language: 1\n" + "".join(f"k{i}: {i}\n" for i in range(40_000)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_never_stops_the_server(client: LspClient, folder: Path, name: str) -> None:
    text = BAD[name]
    path = folder / f"bad_{name}.yaml"
    found = open_doc(client, path, text)
    assert found["diagnostics"], name  # the validator says what is wrong
    for pos in ({"line": 0, "character": 0}, {"line": 1, "character": 3},
                {"line": 10_000, "character": 10_000}):
        at(client, "textDocument/hover", path, pos)
        at(client, "textDocument/definition", path, pos)
        at(client, "textDocument/completion", path, pos)
    # Still answering, on a good file too.
    good = TRACTOR.read_text(encoding="utf-8")
    assert "Selects" in hover_text(client, shared(client, folder, "hover.yaml", TRACTOR),
                                   position(good, TRUMP_LINE, "level_card"))


def test_unknown_documents_and_positions_answer_nothing(client: LspClient,
                                                        folder: Path) -> None:
    ghost = folder / "never_opened.yaml"
    assert at(client, "textDocument/hover", ghost, {"line": 0, "character": 0}) is None
    assert at(client, "textDocument/definition", ghost, {"line": 0, "character": 0}) is None
    text = TRACTOR.read_text(encoding="utf-8")
    path = shared(client, folder, "hover.yaml", TRACTOR)
    # A comment and a blank line name nothing.
    assert at(client, "textDocument/hover", path, position(text, "# [rules] big joker",
                                                            "joker")) is None
    assert labels(client, path, position(text, "# [rules] big joker", "joker")) == set()


def test_the_cli_command_starts_the_server(tmp_path: Path) -> None:
    # `rulesdsl lsp`, as an editor's settings name it, answers initialize and publishes
    # a located diagnostic for a broken file.
    lsp = LspClient([sys.executable, "-m", "rulesdsl", "lsp"], cwd=ROOT)
    result = lsp.request("initialize", {"processId": None, "rootUri": None,
                                        "capabilities": {}})
    assert "hoverProvider" in result["capabilities"]
    lsp.notify("initialized", {})
    path = tmp_path / "broken.yaml"
    path.write_text("language: 1\nid: x\nfamily: trick\nplayers: {count: four}\n",
                    encoding="utf-8")
    since = lsp.mark()
    lsp.notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": "yaml", "version": 1,
        "text": path.read_text(encoding="utf-8")}})
    published = lsp.wait_for("textDocument/publishDiagnostics",
                             lambda p: p["uri"] == path.as_uri() and p["diagnostics"],
                             since=since)
    four = [d for d in published["diagnostics"] if d["range"]["start"]["line"] == 3]
    assert four and four[0]["range"]["start"]["character"] == len("players: {count: ")
    assert lsp.close() == 0, "".join(lsp.stderr)
