"""The notice an editor shows while a long document is analysed in the background.

LSP work-done progress (`$/progress`) where the client supports it (VS Code and Neovim show it in
their status line, and VS Code offers to cancel it, which stops the analysis), otherwise one
`window/showMessage`. The analysis starts at once: it does not wait for the client to accept
the progress token.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

_tokens = itertools.count(1)


@asynccontextmanager
async def progress_notice(server: LanguageServer, title: str, message: str) -> AsyncIterator[None]:
    """Shows `message` while the block runs; a client's cancel cancels the block."""
    window = server.client_capabilities.window
    if not (window and window.work_done_progress):
        server.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Info, message=f"{title}: {message}"))
        yield
        return
    token = f"optlint-{next(_tokens)}"
    task = asyncio.current_task()
    state = {"begun": False, "over": False}

    def created(_: Any) -> None:
        if state["over"]:
            return
        state["begun"] = True
        server.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=title, message=message, cancellable=True))
        cancelled = server.work_done_progress.tokens.get(token)
        if cancelled is not None and task is not None:  # the client's cancel button
            cancelled.add_done_callback(
                lambda _: state["over"] or task.cancel("cancelled in the editor"))

    server.work_done_progress.create(token, created)
    ending = "done"
    try:
        yield
    except asyncio.CancelledError:
        ending = "stopped"
        raise
    finally:
        state["over"] = True
        if state["begun"]:
            server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=ending))
        server.work_done_progress.tokens.pop(token, None)
