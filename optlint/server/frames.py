"""Reading the editor's messages: `Content-Length` frames, read so that one bad frame costs only
itself.

pygls trusts the length: a huge one ends the server (it tries to read that many bytes at once), a
wrong or missing one leaves it reading bodies as headers and never answering again. Here the
length is a hint. A body is one JSON object, and a raw line break (`\\r\\n`) can never be inside a
JSON string, so a `Content-Length: N\\r\\n` line inside a declared body is the next frame's header:
a body that does not parse at its declared length is read as the JSON object that starts there,
and bytes that hold none are skipped up to the next header.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
import os
from typing import TYPE_CHECKING

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

MAX_MESSAGE = 256 * 2**20  # a longer declared length is not waited for
_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*(\d{1,12})[ \t]*\r\n", re.IGNORECASE)
_HEADER_END = b"\r\n\r\n"
_CHUNK = 2**16
_decoder = json.JSONDecoder()
logger = logging.getLogger(__name__)


class Frames:
    """Bytes in, message bodies out (each a JSON object's bytes), whatever the headers say."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self._searched = 0  # where the search for a next header goes on (a body arriving in
        # many pieces is searched once, not once per piece)

    def feed(self, data: bytes) -> list[bytes]:
        self.buffer += data
        bodies = []
        while (body := self._next()) is not None:
            if body:
                bodies.append(body)
        return bodies

    def _consume(self, end: int) -> None:
        del self.buffer[:end]
        self._searched = 0

    def _following(self, start: int) -> re.Match[bytes] | None:
        """The next header after `start` (a header split between two pieces is found whole)."""
        found = _HEADER.search(self.buffer, max(start, self._searched - 64))
        self._searched = len(self.buffer)
        return found

    def _next(self) -> bytes | None:
        """The next body; b"" for bytes skipped; None to wait for more."""
        end = self.buffer.find(_HEADER_END)
        if end < 0:
            if len(self.buffer) > MAX_MESSAGE:
                self._consume(len(self.buffer))  # no header in all that: nothing to recover
            return None
        start = end + len(_HEADER_END)
        declared = [int(match.group(1)) for match in _HEADER.finditer(self.buffer, 0, end + 2)]
        length = declared[-1] if declared and declared[-1] <= MAX_MESSAGE else None
        following = self._following(start)
        if length is not None and len(self.buffer) - start >= length:
            body = bytes(self.buffer[start:start + length]).strip()
            inside = following is not None and following.start() < start + length
            if body.startswith(b"{") and body.endswith(b"}") and not inside:
                self._consume(start + length)
                return body
        elif length is not None and following is None:
            return None  # the body is still arriving
        # No length, a wrong one, or a body that does not parse: the object that starts here.
        found = _object_at(self.buffer, start)
        if found is not None:
            body = bytes(self.buffer[start:found])
            self._consume(found)
            return body
        if following is None:
            if len(self.buffer) - start > MAX_MESSAGE:
                self._consume(len(self.buffer))
                return b""
            return None  # the rest of the object may still be arriving
        self._consume(following.start())  # garbage up to the next header
        return b""


def _object_at(buffer: bytearray, start: int) -> int | None:
    """The end (in bytes) of the JSON object starting at `start` (after spaces), if complete."""
    text = bytes(buffer[start:]).decode("utf-8", "surrogateescape")
    at = len(text) - len(text.lstrip())
    try:
        value, end = _decoder.raw_decode(text, at)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    return start + len(text[:end].encode("utf-8", "surrogateescape"))


async def read_messages(server: LanguageServer, descriptor: int) -> None:
    """pygls's reading loop, on `Frames`: every body goes to the protocol as pygls would give
    it; one that is not a message is reported and the next is read."""
    loop = asyncio.get_running_loop()
    frames = Frames()
    stop = server._stop_event
    while stop is None or not stop.is_set():
        data = await loop.run_in_executor(server.thread_pool, os.read, descriptor, _CHUNK)
        if not data:
            break
        for body in frames.feed(data):
            try:
                message = json.loads(body, object_hook=server.protocol.structure_message)
                server.protocol.handle_message(message)
            except Exception as error:  # noqa: BLE001 - one bad message must not end the server
                logger.exception("Unable to handle message")
                server.report_server_error(error, JsonRpcException)


def serve_stdio(server: LanguageServer) -> None:
    """`server.start_io()`, reading frames with `Frames`."""
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        asyncio.run(read_messages(server, sys.stdin.fileno()))
    except BrokenPipeError:
        logger.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
