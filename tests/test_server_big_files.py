"""A big document in `optlint server` (issue 21): analysed in a worker process of its own, with a
progress notice, never holding up the other documents, and stopped (its worker killed) as soon
as it changes or closes. A real LSP client (pytest-lsp) drives a real server subprocess."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import REPO
from lsp_session import vscode_session
from test_reliability_server import RawClient
from test_server import MASK, MASK_FIXED, change, open_file, published


def big_program(megabytes: float) -> str:
    """Copies of the 200-line training benchmark under their own names: one program of about
    `megabytes` that takes the analysis tens of seconds (minutes on a loaded machine)."""
    train = (REPO / "benchmarks" / "latency_train.py").read_text(encoding="utf-8")
    copies = round(megabytes * 2**20 / len(train))
    return "".join(train.replace("Model", f"Model{n}") for n in range(copies))


BIG = big_program(1.5)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    (root / "pyproject.toml").write_text("[tool.optlint]\n")
    return root


client = vscode_session  # a real server for this module (tests/lsp_session.py)


async def logged(client: LanguageClient, pattern: str, after: int,
                 timeout: float = 30.0) -> re.Match[str]:
    """The first log message since `after` matching `pattern`."""
    deadline = time.monotonic() + timeout
    while True:
        for message in client.log_messages[after:]:
            found = re.search(pattern, message.message)
            if found:
                return found
        if time.monotonic() > deadline:
            raise AssertionError(f"nothing logged like {pattern!r}: "
                                 f"{[m.message for m in client.log_messages[after:]]}")
        await asyncio.sleep(0.01)


def ended(pid: int, timeout: float) -> bool:
    """Whether the process has ended within `timeout` (a zombie counts: it runs no more)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.kill(pid, 0)
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (ProcessLookupError, FileNotFoundError):
            return True
        if state == "Z":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


async def gone(pid: int, timeout: float = 10.0) -> bool:
    return await asyncio.to_thread(ended, pid, timeout)


def open_big(client: LanguageClient, path: Path) -> None:
    path.write_text(BIG)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                             version=1, text=BIG)))


def hover(client: LanguageClient, uri: str, line: int, character: int):
    return client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=character)))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_big_file_never_holds_up_another_and_is_stopped_when_it_changes_or_closes(
        client: LanguageClient, project: Path):
    small = project / "small.py"
    assert [d.code for d in await open_file(client, small, MASK)] == ["OPT002"]
    big = project / "big.py"
    before = len(client.log_messages)
    open_big(client, big)
    pid = int((await logged(client, r"lint of big\.py .* in worker (\d+)", before)).group(1))
    # A progress notice is shown while it runs.
    await asyncio.sleep(0.5)
    begun = [value for reports in client.progress_reports.values() for value in reports
             if isinstance(value, types.WorkDoneProgressBegin)]
    assert len(begun) == 1 and re.fullmatch(r"checking big\.py \(1,5\d\d KiB\)", begun[0].message)

    # Meanwhile the small file is edited: its diagnostics and a hover come within a second.
    started = time.monotonic()
    change(client, small.as_uri(), 2, MASK_FIXED)
    assert await published(client, small.as_uri()) == []
    waited = time.monotonic() - started
    change(client, small.as_uri(), 3, MASK)
    assert [d.code for d in await published(client, small.as_uri())] == ["OPT002"]
    started = time.monotonic()
    answer = await hover(client, small.as_uri(), 7, 20)
    hovered = time.monotonic() - started
    assert "OPT002" in answer.contents.value
    # Hover on the big file answers at once too (nothing is known of it yet).
    assert await asyncio.wait_for(hover(client, big.as_uri(), 0, 0), 2.0) is None
    print(f"\nwith a 1.5 MB file being analysed: edit -> diagnostics {waited:.2f} s, "
          f"hover {hovered:.2f} s")
    assert waited < 1.0 and hovered < 1.0
    assert not await gone(pid, timeout=0.1)  # the big file's analysis is still under way

    # Saving either file does not throw the analysis away: its text is the same.
    before = len(client.log_messages)
    for saved in (small, big):
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=saved.as_uri())))
    await asyncio.sleep(1.0)
    assert not await gone(pid, timeout=0.1)
    assert not [m.message for m in client.log_messages[before:] if "big.py" in m.message]

    # A change to the big file stops its analysis at once: the worker is killed.
    before = len(client.log_messages)
    change(client, big.as_uri(), 2, BIG + "\n")
    killed = await logged(client, r"lint of big\.py cancelled \(the document changed\): "
                                  r"worker (\d+) killed", before)
    assert int(killed.group(1)) == pid
    assert await gone(pid)
    # ... and, after the pause for typing, a new one starts.
    pid = int((await logged(client, r"lint of big\.py .* in worker (\d+)", before)).group(1))
    assert pid != int(killed.group(1))

    # The progress notice's cancel button (VS Code's) stops it too.
    await asyncio.sleep(0.5)  # the client has accepted the token and been told it began
    (token,) = [token for token, reports in client.progress_reports.items()
                if not any(isinstance(value, types.WorkDoneProgressEnd) for value in reports)]
    before = len(client.log_messages)
    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL,
                           types.WorkDoneProgressCancelParams(token=token))
    killed = await logged(client, r"lint of big\.py cancelled \(cancelled in the editor\): "
                                  r"worker (\d+) killed", before)
    assert int(killed.group(1)) == pid
    assert await gone(pid)
    change(client, big.as_uri(), 3, BIG)
    pid = int((await logged(client, r"lint of big\.py .* in worker (\d+)", before)).group(1))

    before = len(client.log_messages)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=big.as_uri())))
    killed = await logged(client, r"lint of big\.py cancelled \(the document was closed\): "
                                  r"worker (\d+) killed", before)
    assert int(killed.group(1)) == pid
    assert await gone(pid)
    ended = [value for reports in client.progress_reports.values() for value in reports
             if isinstance(value, types.WorkDoneProgressEnd)]
    assert [value.message for value in ended] == ["stopped"] * 3


def test_a_client_without_progress_support_is_told_with_a_message_and_workers_end_with_the_server(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    big = tmp_path / "big.py"
    big.write_text(BIG)
    client = RawClient(tmp_path)
    try:
        client.initialize(tmp_path)  # no capabilities: no work-done progress
        client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": big.as_uri(), "languageId": "python", "version": 1, "text": BIG}}})
        while (message := client.messages.get(timeout=30)).get("method") != "window/showMessage":
            pass
        assert message["params"]["type"] == 3  # Info
        assert re.fullmatch(r"optlint: checking big\.py \(1,5\d\d KiB\)",
                            message["params"]["message"])
        while not (found := re.search(r"lint of big\.py .* in worker (\d+)",
                                      client.messages.get(timeout=30).get("params", {})
                                      .get("message", ""))):
            pass
        time.sleep(1.0)  # the worker has its job: it reads nothing more from the server
        assert not ended(int(found.group(1)), timeout=0)
    finally:
        client.close()  # the server is killed outright, as when an editor crashes
    # Its worker, in the middle of the analysis, does not outlive it.
    assert ended(int(found.group(1)), timeout=20)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_long_document_is_published_when_done_and_checked_again_after_a_save(
        client: LanguageClient, project: Path):
    """Just over the size checked in the background: its findings come when the analysis is done;
    a save meanwhile does not throw that analysis away, and it is checked once more after it
    (another file may have changed what it finds)."""
    text = big_program(0.07)
    path = project / "long.py"
    path.write_text(text)
    before = len(client.log_messages)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                             version=1, text=text)))
    await logged(client, r"lint of long\.py .* in worker \d+", before)
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri())))
    diagnostics = await published(client, path.as_uri(), timeout=300)
    copies = text.count("import optax\n")
    assert [d.code for d in diagnostics] == ["OPT003"] * copies
    assert not [m for m in client.log_messages[before:] if "cancelled" in m.message]
    again = await published(client, path.as_uri(), timeout=300)  # the second lint, after it
    assert again == diagnostics
    starts = [m for m in client.log_messages[before:] if "lint of long.py" in m.message]
    assert len(starts) == 2
    ended = [value.message for reports in client.progress_reports.values() for value in reports
             if isinstance(value, types.WorkDoneProgressEnd)]
    assert ended.count("done") == 2
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri())))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_shared_worker_that_dies_is_replaced(client: LanguageClient, project: Path):
    path = project / "after_crash.py"
    assert [d.code for d in await open_file(client, path, MASK)] == ["OPT002"]
    shared = re.findall(r"the shared worker is (\d+)",
                        "\n".join(m.message for m in client.log_messages))
    pid = int(shared[-1])
    os.kill(pid, 9)  # as the kernel's out-of-memory killer would
    assert await gone(pid)
    change(client, path.as_uri(), 2, MASK_FIXED)
    assert await published(client, path.as_uri()) == []
    replaced = re.findall(r"the shared worker is (\d+)",
                          "\n".join(m.message for m in client.log_messages))
    assert int(replaced[-1]) != pid
