"""A small Language Server Protocol client for tests: it starts a server as a subprocess
and talks JSON-RPC to it over stdio with real `Content-Length` framing, as an editor does.

Responses are matched to requests by id; notifications (publishDiagnostics …) are kept in
arrival order and waited for with a predicate; requests from the server to the client
(capability registration, progress) are answered with null, as a minimal editor would.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO


class LspError(Exception):
    """The server answered a request with an error, or did not answer in time."""


class LspClient:
    def __init__(self, command: list[str], cwd: Path | None = None,
                 env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self._next_id = 0
        self._lock = threading.Condition()
        self._responses: dict[int, dict[str, Any]] = {}
        self.notifications: list[dict[str, Any]] = []
        self.stderr: list[str] = []
        self.closed = False
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True).start()

    # -------------------------------------------------------------- wire

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self, stream: BinaryIO) -> None:
        try:
            while True:
                length = None
                while True:  # headers, up to the empty line
                    line = stream.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.lower() == "content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                message = json.loads(stream.read(length).decode("utf-8"))
                self._dispatch(message)
        finally:
            with self._lock:
                self.closed = True
                self._lock.notify_all()

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "method" in message and "id" in message:  # a request from the server
            self._send({"id": message["id"], "result": None})
            return
        with self._lock:
            if "id" in message:
                self._responses[message["id"]] = message
            else:
                self.notifications.append(message)
            self._lock.notify_all()

    def _drain(self, stream: BinaryIO) -> None:
        for line in stream:
            self.stderr.append(line.decode("utf-8", "replace"))

    # -------------------------------------------------------------- API

    def request(self, method: str, params: Any = None, timeout: float = 20) -> Any:
        with self._lock:
            self._next_id += 1
            msg_id = self._next_id
        self._send({"id": msg_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._lock:
            while msg_id not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise LspError(f"no answer to {method} within {timeout}s; server stderr:\n"
                                   + "".join(self.stderr[-30:]))
                self._lock.wait(left)
            response = self._responses.pop(msg_id)
        if "error" in response:
            raise LspError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"method": method, "params": params})

    def mark(self) -> int:
        """A point in the notification stream; wait_for looks only after it."""
        with self._lock:
            return len(self.notifications)

    def wait_for(self, method: str, predicate: Callable[[Any], bool] = lambda p: True,
                 since: int = 0, timeout: float = 20) -> Any:
        """The params of the first notification after `since` that matches."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for note in self.notifications[since:]:
                    if note.get("method") == method and predicate(note.get("params")):
                        return note.get("params")
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise LspError(f"no {method} within {timeout}s; server stderr:\n"
                                   + "".join(self.stderr[-30:]))
                self._lock.wait(left)

    def close(self) -> int:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit")
        except (LspError, OSError, ValueError):
            pass
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
