"""`optlint server` fed frames an editor should not send (a huge, wrong or missing
Content-Length), requests after `shutdown`, many saves, and a "Disable for this line" on a line
continued with a backslash. The server is a subprocess spoken to in raw bytes."""

from __future__ import annotations

import asyncio
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")


class RawClient:
    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "optlint", "server"], cwd=root,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line == b"\r\n":
                    break
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def answer(self, number: int, timeout: float = 20) -> dict[str, Any]:
        while True:
            message = self.messages.get(timeout=timeout)
            if message.get("id") == number and "method" not in message:
                return message

    def initialize(self, root: Path) -> None:
        self.send({"id": 1, "method": "initialize",
                   "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}})
        assert "result" in self.answer(1)
        self.send({"method": "initialized", "params": {}})

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture
def client(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    started = RawClient(tmp_path)
    started.initialize(tmp_path)
    yield started
    started.close()


def body(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode()


HOVER = {"method": "textDocument/hover", "params": {
    "textDocument": {"uri": "file:///nowhere/none.py"}, "position": {"line": 0, "character": 0}}}


@pytest.mark.parametrize("frame", [
    b"Content-Length: 99999999999999999999\r\n\r\n" + body({"method": "initialized"}),
    b"Content-Length: 10\r\n\r\n" + body({"id": 7, **HOVER}),
    b"Content-Length: 400\r\n\r\n" + body({"id": 7, **HOVER}),
    b"Content-Type: application/json\r\n\r\n" + body({"id": 7, **HOVER}),
], ids=["huge", "short", "long", "missing"])
def test_a_bad_frame_does_not_end_or_stall_the_server(client: RawClient, frame: bytes) -> None:
    client.raw(frame)
    client.send({"id": 2, **HOVER})
    assert client.answer(2) == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert client.process.poll() is None


def test_requests_after_shutdown_are_answered_with_an_error(client: RawClient) -> None:
    client.send({"id": 2, "method": "shutdown"})
    assert client.answer(2)["result"] is None
    client.send({"id": 3, **HOVER})
    assert client.answer(3)["error"]["code"] == -32600  # InvalidRequest
    client.send({"method": "exit"})
    assert client.process.wait(timeout=20) == 0


def test_notifications_leave_no_future_behind(tmp_path: Path) -> None:
    from lsprotocol import types

    from optlint.server.protocol import build

    server = build()
    uri = (tmp_path / "saved.py").as_uri()

    async def save_many() -> int:
        for _ in range(20):
            server.protocol._handle_notification(
                types.TEXT_DOCUMENT_DID_SAVE,
                types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))
        await asyncio.sleep(0.2)
        return len(server.protocol._request_futures)

    assert asyncio.run(save_many()) == 0


BACKSLASH = (
    "import optax\n"
    "\n"
    "\n"
    "def decay_mask(params):\n"
    "    return params\n"
    "\n"
    "\n"
    "optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=1e-3, mask=decay_mask) \\\n"
    "    if True else None\n"
)


def test_disable_for_this_line_never_breaks_a_continued_line(client: RawClient,
                                                             tmp_path: Path) -> None:
    uri = (tmp_path / "cont.py").as_uri()
    (tmp_path / "cont.py").write_text(BACKSLASH)
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": BACKSLASH}}})
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}
    client.send({"id": 2, "method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}}})
    actions = client.answer(2)["result"]
    assert any(action["title"].startswith("Add static_args") for action in actions)
    for action in actions:
        if action["title"].startswith("Disable"):
            (edit,) = action["edit"]["changes"][uri]
            lines = BACKSLASH.splitlines(keepends=True)
            line = edit["range"]["start"]["line"]
            column = edit["range"]["start"]["character"]
            lines[line] = lines[line][:column] + edit["newText"] + lines[line][column:]
            compile("".join(lines), "cont.py", "exec")


@pytest.mark.parametrize("piece", [1, 7, 4096])
def test_frames_arriving_in_pieces(piece: int) -> None:
    from optlint.server.frames import Frames

    good = body({"id": 1, "method": "a", "params": {"text": "Content-Length: 3\\r\\n"}})
    stream = (b"Content-Length: %d\r\n\r\n" % len(good) + good
              + b"Content-Length: 3\r\n\r\n" + good  # too short
              + b"garbage\r\n\r\nnot json" + b"Content-Length: %d\r\n\r\n" % len(good) + good
              + b"Content-Length: 999\r\n\r\n" + good  # too long
              + b"\r\n\r\n" + good  # none
              + b"Content-Length: %d\r\n\r\n" % len(good) + good)
    frames = Frames()
    bodies = []
    for at in range(0, len(stream), piece):
        bodies += frames.feed(stream[at:at + piece])
    assert bodies == [good] * 6
