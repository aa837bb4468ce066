"""The LSP session the server tests share: pytest-lsp starts a real `optlint server` subprocess
and speaks JSON-RPC to it over stdio, as an editor does, with VS Code's capabilities (so
work-done progress is shown). A test module takes it as its own module-scoped fixture,
`client = vscode_session`, and defines the `project` fixture it opens (its root folder)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "optlint", "server"]))
async def vscode_session(lsp_client: LanguageClient, project: Path):
    # The server registers file watchers after `initialized`; a client must answer the request.
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        pass

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        root_uri=project.as_uri()))
    yield
    await lsp_client.shutdown_session()
