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
