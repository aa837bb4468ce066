"""The editor's settings reach the language server (LSP `initializationOptions`, as ruff's
server reads them): a configuration file for every document, preview, library versions. A real
client (pytest-lsp) drives a real `optlint server`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from test_server import MASK, open_file

SETTINGS_FILE = 'ignore = ["OPT002"]\n'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("settings")
    (root / "pyproject.toml").write_text("[tool.optlint]\n")
    (root / "editor-optlint.toml").write_text(SETTINGS_FILE)
    return root


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "optlint", "server"]))
async def configured(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("neovim"),
        root_uri=workspace.as_uri(),
        initialization_options={"settings": {
            "configuration": str(workspace / "editor-optlint.toml"),
            "optaxVersion": "0.2.8", "preview": False}}))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_editors_configuration_file_governs_documents(configured: LanguageClient,
                                                                workspace: Path) -> None:
    # MASK has an OPT002 finding; the editor's configuration ignores OPT002.
    assert await open_file(configured, workspace / "masked.py", MASK) == []


def background_notices(root: Path, options: dict[str, object]) -> tuple[list[str], list[str]]:
    """The `window/showMessage` texts and the diagnostics' codes for MASK opened in a server
    started with `options` (a client without work-done progress: a background check is told
    with a message), and the log lines."""
    from test_reliability_server import RawClient

    root.mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.optlint]\n")
    path = root / "small.py"
    path.write_text(MASK)
    client = RawClient(root)
    try:
        client.send({"id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {},
            "initializationOptions": options}})
        shown, logged = [], []
        opened = False
        while (message := client.messages.get(timeout=60)).get("method") != \
                "textDocument/publishDiagnostics":
            if message.get("id") == 1 and not opened:  # initialized: open the document
                opened = True
                client.send({"method": "initialized", "params": {}})
                client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": path.as_uri(), "languageId": "python", "version": 1, "text": MASK}}})
            if message.get("method") == "window/showMessage":
                shown.append(message["params"]["message"])
            if message.get("method") == "window/logMessage":
                logged.append(message["params"]["message"])
        codes = [d["code"] for d in message["params"]["diagnostics"]]
        return shown + [f"diagnostics: {codes}"], logged
    finally:
        client.close()


def test_the_background_threshold_is_the_editors_setting(tmp_path: Path) -> None:
    # By default a small document shares the long-lived worker: no notice.
    shown, _ = background_notices(tmp_path / "default", {})
    assert shown == ["diagnostics: ['OPT002']"]
    # With a threshold below its length it is checked in the background, with a notice.
    shown, logged = background_notices(tmp_path / "low", {"backgroundCharacters": 10})
    assert shown == ["optlint: checking small.py (0 KiB)", "diagnostics: ['OPT002']"]
    assert any("runs in the background in worker" in line for line in logged)


def test_a_bad_background_threshold_is_said_once_and_the_defaults_hold(tmp_path: Path) -> None:
    shown, logged = background_notices(tmp_path, {"backgroundCharacters": True, "preview": True})
    assert shown == ["diagnostics: ['OPT002']"]
    assert [line for line in logged if "ignoring the editor's settings" in line] == [
        "optlint: ignoring the editor's settings: backgroundCharacters in the editor's settings "
        "must be a whole number of characters, not True"]
