"""`rulesdsl lsp`: the language server, on pygls, over stdio.

Validation runs the validator itself (`rulesdsl.api.validate_file` on the editor's
buffer) in a worker thread: on open and save with the examples run, on change after
CHANGE_DELAY seconds without typing and without them (examples can take a while). Hover,
completion and definition run on another worker thread, so a long validation never holds
them up; they read the text as it is and the last good compile of the document, which is
kept while the file is mid-edit. Every handler catches what a hostile or half-typed file
can raise: the server answers (with nothing) rather than dies.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..api import validate_file
from ..language.yamlio import MAX_FILE_BYTES
from ..model.ruleset import Ruleset
from .completion import completions
from .cursor import place_at
from .definition import definition_site
from .diagnostics import internal_error, locate, quick_fixes, to_diagnostics, to_range
from .hover import hover_markdown
from .names import Index, build_index, same_file
from .resolve import resolve
from .text import from_client, offset_of, split_lines, word_at, word_text

log = logging.getLogger(__name__)
T = TypeVar("T")

CHANGE_DELAY = 0.3  # seconds without a change before a changed buffer is validated
TRIGGERS = [" ", "(", "[", "{", ",", ":", '"', "'"]


@dataclass
class DocState:
    """What the server keeps for one open document."""

    uri: str
    path: Path
    ruleset: Ruleset | None = None  # the last good compile (hover and completion use it)
    generation: int = 0  # bumped by every edit: a stale validation is not published
    task: asyncio.Task[Any] | None = None
    # The names of the text as last read: (that text, the compile it fell back on, index).
    index: tuple[str, Ruleset | None, Index] | None = None


@dataclass
class Snapshot:
    """One query's view of a document: its text, names and last good compile."""

    state: DocState
    text: str
    lines: list[str]
    index: Index
    ruleset: Ruleset | None
    encoding: str = "utf-16"


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulesdsl", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.docs: dict[str, DocState] = {}
        # One validation at a time (each may run examples); queries on their own thread.
        self.validator = ThreadPoolExecutor(1, thread_name_prefix="rulesdsl-validate")
        self.queries = ThreadPoolExecutor(1, thread_name_prefix="rulesdsl-query")
        from .views import Views

        self.views = Views()

    # -------------------------------------------------------------- documents

    def encoding(self) -> str:
        kind = self.workspace.position_encoding
        return str(getattr(kind, "value", kind) or "utf-16").lower()

    def state_of(self, uri: str) -> DocState:
        state = self.docs.get(uri)
        if state is None:
            state = self.docs[uri] = DocState(uri, path_of(uri))
        return state

    def text_of(self, uri: str) -> str | None:
        try:
            return self.workspace.get_text_document(uri).source
        except Exception:  # a document the client never opened
            return None

    def schedule(self, uri: str, delay: float, examples: bool) -> None:
        """Validate a document after `delay` seconds unless it changes again first."""
        state = self.state_of(uri)
        state.generation += 1
        if state.task is not None and not state.task.done():
            state.task.cancel()
        state.task = asyncio.ensure_future(self._validate(state, state.generation, delay,
                                                          examples))

    async def _validate(self, state: DocState, generation: int, delay: float,
                        examples: bool) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            text = self.text_of(state.uri)
            if text is None:
                return
            version = self.workspace.get_text_document(state.uri).version
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self.validator, _validated, state.path, text,
                                                examples)
            if generation != state.generation or state.uri not in self.docs:
                return  # edited (or closed) meanwhile: a newer validation follows
            ruleset, problems, failure = result
            if ruleset is not None:
                state.ruleset = ruleset
            encoding = self.encoding()
            if failure is not None:
                diagnostics = [internal_error(failure)]
            else:
                located = await loop.run_in_executor(self.queries, locate, problems,
                                                     state.path, text)
                diagnostics = to_diagnostics(located, text, encoding, uri_of)
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=state.uri, diagnostics=diagnostics, version=version))
        except asyncio.CancelledError:
            pass
        except Exception:  # never let one file take the server down
            log.exception("validating %s", state.uri)

    def revalidate_children(self, saved: str) -> None:
        """A saved file may be the parent of other open files: validate those again."""
        for uri in list(self.docs):
            if uri == saved:
                continue
            text = self.text_of(uri) or ""
            if "extends" in text:
                self.schedule(uri, CHANGE_DELAY, examples=True)

    # -------------------------------------------------------------- queries

    def snapshot(self, uri: str) -> Snapshot | None:
        """The document as a query sees it (on the query thread)."""
        state = self.docs.get(uri)
        text = self.text_of(uri) if state is not None else None
        if state is None or text is None or len(text) > MAX_FILE_BYTES:
            return None
        ruleset = state.ruleset
        # Built again when the text or the last good compile (a parent saved) changes.
        if state.index is None or state.index[0] != text or state.index[1] is not ruleset:
            fallback = ruleset.document if ruleset is not None else None
            state.index = (text, ruleset, build_index(state.path, text, fallback))
        return Snapshot(state, text, split_lines(text), state.index[2], ruleset,
                        self.encoding())

    async def query(self, uri: str, work: Callable[[Snapshot], T]) -> T | None:
        """Run `work` on the query thread; None (not an error) when anything fails."""
        def run() -> T | None:
            snap = self.snapshot(uri)
            return work(snap) if snap is not None else None

        try:
            return await asyncio.get_running_loop().run_in_executor(self.queries, run)
        except Exception:  # a query on a broken file answers nothing
            log.exception("query on %s", uri)
            return None


def _validated(path: Path, text: str, examples: bool) -> tuple[Ruleset | None, list[Any],
                                                                 BaseException | None]:
    """validate_file on a buffer, never raising: (compiled ruleset, problems, failure)."""
    try:
        result = validate_file(path, run_examples_too=examples, text=text)
        return result.ruleset, list(result.problems), None
    except Exception as exc:  # a validator bug is shown, not fatal
        log.exception("validator failed on %s", path)
        return None, [], exc


def path_of(uri: str) -> Path:
    """The file a URI names; an unsaved buffer is placed in the working folder."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path:
        return Path(path)
    name = uri.rsplit("/", 1)[-1].rsplit(":", 1)[-1] or "untitled"
    return Path(os.getcwd()) / (name if name.endswith((".yaml", ".yml")) else name + ".yaml")


def uri_of(file: str) -> str:
    return from_fs_path(os.path.abspath(file)) or file


def _at(snap: Snapshot, position: lsp.Position) -> tuple[int, int]:
    return from_client(snap.lines, position.line, position.character, snap.encoding)


# ---------------------------------------------------------------- the handlers


def _symbol_at(snap: Snapshot, position: lsp.Position) -> tuple[Any, Any]:
    line, column = _at(snap, position)
    place = place_at(snap.text, offset_of(snap.lines, line, column))
    word = word_at(snap.lines, line, column)
    if place is not None and place.path == ("extends",) and not place.on_key:
        return resolve(place.scalar, place, snap.index, snap.ruleset), None
    if word is None:
        return None, None
    return resolve(word_text(snap.lines, word), place, snap.index, snap.ruleset), word


def build_server() -> RulesServer:
    server = RulesServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0, examples=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, CHANGE_DELAY, examples=False)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0, examples=True)
        ls.revalidate_children(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
        state = ls.docs.pop(params.text_document.uri, None)
        if state is not None and state.task is not None:
            state.task.cancel()
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
        def work(snap: Snapshot) -> lsp.Hover | None:
            symbol, word = _symbol_at(snap, params.position)
            if symbol is None:
                return None
            view = ls.views.of(snap.ruleset) if snap.ruleset is not None else None
            text = hover_markdown(symbol, snap.index, snap.ruleset, view)
            if not text:
                return None
            return lsp.Hover(
                contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                range=to_range(snap.lines, word, snap.encoding) if word is not None else None)

        return await ls.query(params.text_document.uri, work)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=TRIGGERS))
    async def complete(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        def work(snap: Snapshot) -> lsp.CompletionList:
            line, column = _at(snap, params.position)
            place = place_at(snap.text, offset_of(snap.lines, line, column))
            view = ls.views.of(snap.ruleset) if snap.ruleset is not None else None
            return lsp.CompletionList(is_incomplete=False,
                                      items=completions(place, snap.index, snap.ruleset, view))

        found = await ls.query(params.text_document.uri, work)
        return found or lsp.CompletionList(is_incomplete=False, items=[])

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: RulesServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        def work(snap: Snapshot) -> lsp.Location | None:
            symbol, _ = _symbol_at(snap, params.position)
            site = definition_site(symbol, snap.index) if symbol is not None else None
            if site is None:
                return None
            here = same_file(site.file, snap.state.path)
            lines = snap.lines if here else _lines_of(site.file)
            uri = params.text_document.uri if here else uri_of(site.file)
            return lsp.Location(uri=uri, range=to_range(lines, site.span, snap.encoding))

        return await ls.query(params.text_document.uri, work)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: RulesServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        text = ls.text_of(params.text_document.uri)
        if text is None:
            return []
        try:
            return quick_fixes(params.text_document.uri, text, ls.encoding(),
                               list(params.context.diagnostics))
        except Exception:  # no fix rather than an error
            log.exception("code actions on %s", params.text_document.uri)
            return []

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: RulesServer, params: Any) -> None:
        for executor in (ls.validator, ls.queries):
            executor.shutdown(wait=False, cancel_futures=True)

    return server


def _lines_of(file: str) -> list[str]:
    try:
        with open(file, "rb") as f:
            return split_lines(f.read(MAX_FILE_BYTES).decode("utf-8", "replace"))
    except OSError:
        return []


def main() -> int:
    """Serve the language server protocol on stdin/stdout until the client exits."""
    level = getattr(logging, os.environ.get("RULESDSL_LSP_LOG", "WARNING").upper(), None)
    logging.basicConfig(level=level if isinstance(level, int) else logging.WARNING,
                        stream=sys.stderr)
    # Only JSON-RPC may reach stdout: anything printed elsewhere goes to stderr.
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    build_server().start_io(sys.stdin.buffer, stdout)
    return 0
