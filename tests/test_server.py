"""`optlint server` through a real LSP session: pytest-lsp starts it as a subprocess and speaks
JSON-RPC to it over stdio, as an editor does. One server serves the whole module (starting one
costs about a second); each test opens documents of its own."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient


MASK = '''import optax


def decay_mask(params):
    return params


optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=1e-3, mask=decay_mask)
'''
MASK_FIXED = MASK.replace("(optax.adamw)", '(optax.adamw, static_args=("mask",))')
MULTISTEPS = ("optimizer = optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(1e-3)), "
              "every_k_schedule=4)\n")
MODEL = '''import equinox as eqx
import jax


class Net(eqx.Module):
    mlp: eqx.nn.MLP

    def __init__(self, key):
        self.mlp = eqx.nn.MLP(2, 1, 8, 2, key=key)
'''
ARRAY_MODEL = '''import equinox as eqx
import jax


class Net(eqx.Module):
    weight: jax.Array

    def __init__(self, key):
        self.weight = jax.random.normal(key, (2,))
'''
TRAIN = '''import jax
import optax

from model import Net

model = Net(jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
'''
CONFIG = '[tool.optlint]\noptax-version = "0.2.8"\n'


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / "pyproject.toml").write_text(CONFIG)
    (root / "model.py").write_text(MODEL)
    return root


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "optlint", "server"]))
async def client(lsp_client: LanguageClient, project: Path):
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)

    # These capabilities (a VS Code's) do not offer notebook sync, so the server does not
    # advertise it (its selector names cells only, as the specification allows, which
    # lsprotocol's client cannot read back); the notebook test sends the notifications anyway.
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        root_uri=project.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="project")]))
    yield
    await lsp_client.shutdown_session()


# helpers -----------------------------------------------------------------------------------------
async def published(client: LanguageClient, uri: str, timeout: float = 20.0):
    """The next diagnostics published for `uri` (the caller popped the last ones)."""
    deadline = time.monotonic() + timeout
    while uri not in client.diagnostics:
        if time.monotonic() > deadline:
            raise AssertionError(f"no diagnostics published for {uri}")
        await asyncio.sleep(0.01)
    return list(client.diagnostics.pop(uri))


async def open_file(client: LanguageClient, path: Path, text: str):
    path.write_text(text)
    client.diagnostics.pop(path.as_uri(), None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                             version=1, text=text)))
    return await published(client, path.as_uri())


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (ASCII text: UTF-16 units are characters) as an editor would."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: types.Position) -> int:
        return starts[min(position.line, len(lines))] + position.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def actions(client: LanguageClient, uri: str, at: types.Range,
                  only: list[str] | None = None,
                  named: list[types.Diagnostic] | None = None) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=at,
        context=types.CodeActionContext(diagnostics=named or [], only=only)))
    return [action for action in found or [] if isinstance(action, types.CodeAction)]


# tests ------------------------------------------------------------------------------------------
@pytest.mark.asyncio(loop_scope="module")
async def test_open_and_change_publish_diagnostics(client: LanguageClient, project: Path):
    path = project / "open_change.py"
    diagnostics = await open_file(client, path, MASK)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        ("OPT002", 7, 12)]
    assert diagnostics[0].source == "optlint"
    assert diagnostics[0].code_description.href.endswith("/rules/OPT002.md")
    # The editor is asked to report changes to other files: they can change this one's findings.
    (registration,) = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES

    started = time.monotonic()
    change(client, path.as_uri(), 2, MASK_FIXED)
    assert await published(client, path.as_uri()) == []
    # The debounce (0.2 s) plus one lint; generous for a loaded 2-core machine.
    assert time.monotonic() - started < 5


@pytest.mark.asyncio(loop_scope="module")
async def test_columns_are_counted_in_utf16_units(client: LanguageClient, project: Path):
    text = MASK.replace("optimizer = ", 'label = "\U0001F600"; optimizer = ')
    (diagnostic,) = await open_file(client, project / "emoji.py", text)
    # 25 characters before the call; the emoji is two UTF-16 code units
    assert diagnostic.range.start == types.Position(line=7, character=26)


@pytest.mark.asyncio(loop_scope="module")
async def test_quick_changes_publish_only_the_last_text(client: LanguageClient, project: Path):
    path = project / "typing.py"
    assert await open_file(client, path, MASK_FIXED) == []
    for version in range(2, 7):  # keystrokes inside the debounce: one lint, of the last text
        change(client, path.as_uri(), version, MASK_FIXED if version < 6 else MASK)
    assert [d.code for d in await published(client, path.as_uri())] == ["OPT002"]
    await asyncio.sleep(0.5)
    assert path.as_uri() not in client.diagnostics  # nothing stale published after it


@pytest.mark.asyncio(loop_scope="module")
async def test_fix_and_noqa_code_actions(client: LanguageClient, project: Path):
    path = project / "fix_noqa.py"
    diagnostic = (await open_file(client, path, MASK))[0]
    fix, disable, fix_all = await actions(client, path.as_uri(), diagnostic.range)
    assert fix_all.kind == "source.fixAll.optlint"
    assert fix.is_preferred and fix.kind == types.CodeActionKind.QuickFix
    # The fix title is the quick fix's title; the message says only what is wrong.
    assert fix.title == "Add static_args=(\"mask\",)"
    assert "static_args" not in diagnostic.message and "help:" not in diagnostic.message
    assert apply(MASK, fix.edit.changes[path.as_uri()]) == MASK_FIXED

    assert disable.title == "Disable OPT002 for this line" and not disable.is_preferred
    silenced = apply(MASK, disable.edit.changes[path.as_uri()])
    assert silenced.splitlines()[7].endswith("mask=decay_mask)  # noqa: OPT002")
    change(client, path.as_uri(), 2, silenced)
    assert await published(client, path.as_uri()) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_quick_fix_for_the_diagnostics_the_client_names(client: LanguageClient,
                                                              project: Path):
    """Neovim asks at the cursor (column 0 here, before the finding) and names the line's
    diagnostics in the context: their fixes are offered, as ruff's server does."""
    path = project / "named.py"
    diagnostic = (await open_file(client, path, MASK))[0]
    cursor = types.Range(start=types.Position(line=diagnostic.range.start.line, character=0),
                         end=types.Position(line=diagnostic.range.start.line, character=0))
    assert [a.kind for a in await actions(client, path.as_uri(), cursor)] == [
        "source.fixAll.optlint"]
    named = await actions(client, path.as_uri(), cursor, named=[diagnostic])
    assert [a.title for a in named][:2] == ["Add static_args=(\"mask\",)",
                                            "Disable OPT002 for this line"]


@pytest.mark.asyncio(loop_scope="module")
async def test_noqa_action_extends_an_existing_directive(client: LanguageClient,
                                                         project: Path):
    path = project / "extend_noqa.py"
    text = MASK.replace("mask=decay_mask)", "mask=decay_mask)  # noqa: E501")
    diagnostic = (await open_file(client, path, text))[0]
    disable = (await actions(client, path.as_uri(), diagnostic.range))[1]
    silenced = apply(text, disable.edit.changes[path.as_uri()])
    assert silenced.splitlines()[7].endswith("mask=decay_mask)  # noqa: E501, OPT002")


@pytest.mark.asyncio(loop_scope="module")
async def test_unsafe_fix_is_offered_not_preferred_and_fix_all_skips_it(
        client: LanguageClient, project: Path):
    path = project / "unsafe.py"
    text = MASK + MULTISTEPS
    diagnostics = await open_file(client, path, text)
    assert [d.code for d in diagnostics] == ["OPT002", "OPT004"]
    unsafe = (await actions(client, path.as_uri(), diagnostics[1].range))[0]
    assert unsafe.title.endswith("(unsafe)") and not unsafe.is_preferred
    assert unsafe.title.startswith("Zero NaNs before accumulating: `optax.chain(")

    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0))
    (fix_all,) = await actions(client, path.as_uri(), whole, only=["source.fixAll"])
    assert fix_all.kind == "source.fixAll.optlint"
    assert apply(text, fix_all.edit.changes[path.as_uri()]) == MASK_FIXED + MULTISTEPS


@pytest.mark.asyncio(loop_scope="module")
async def test_a_finding_without_a_fix_carries_its_fix_title_in_the_message(
        client: LanguageClient, project: Path):
    text = ("import jax\n\nkey = jax.random.PRNGKey(0)\nfor i in range(3):\n"
            "    x = jax.random.normal(key, (3,))\n")
    (diagnostic,) = await open_file(client, project / "key_loop.py", text)
    message, help_line = diagnostic.message.split("\n")
    assert message.endswith("every iteration draws the same random numbers")
    assert help_line.startswith("help: Split it in the loop (`key, subkey = ")


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_finding_and_on_a_noqa_code(client: LanguageClient, project: Path):
    path = project / "hover.py"
    text = MASK + "x = 1  # noqa: OPT004\n"
    diagnostics = await open_file(client, path, text)
    assert [d.code for d in diagnostics] == ["OPT002", "OPT100"]
    on_finding = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(line=7, character=20)))
    assert "**OPT002** `inject-hyperparams-callable`" in on_finding.contents.value
    assert "rules/OPT002.md" in on_finding.contents.value
    on_code = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(line=8, character=17)))
    assert "**OPT004** `zero-nans-in-multisteps`" in on_code.contents.value
    assert "OPT100" not in on_code.contents.value  # the code under the cursor, not the line's
    nowhere = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(line=0, character=2)))
    assert nowhere is None


@pytest.mark.asyncio(loop_scope="module")
async def test_notebook_cells_are_checked_as_one_program(client: LanguageClient,
                                                         project: Path):
    notebook = (project / "train.ipynb").as_uri()
    sources = ["# Training", "import optax\n%matplotlib inline",
               MASK.split("\n\n\n", 1)[1]]  # decay_mask and the optimizer: uses cell 2's import
    cells = [f"{notebook}#cell{number}" for number in range(3)]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(
            uri=notebook, notebook_type="jupyter-notebook", version=1, cells=[
                types.NotebookCell(kind=types.NotebookCellKind.Markup, document=cells[0]),
                types.NotebookCell(kind=types.NotebookCellKind.Code, document=cells[1]),
                types.NotebookCell(kind=types.NotebookCellKind.Code, document=cells[2])]),
        cell_text_documents=[
            types.TextDocumentItem(uri=uri, language_id="markdown" if number == 0 else "python",
                                   version=1, text=text)
            for number, (uri, text) in enumerate(zip(cells, sources, strict=True))]))
    assert await published(client, cells[1]) == []
    (diagnostic,) = await published(client, cells[2])
    assert diagnostic.code == "OPT002" and diagnostic.range.start.line == 4  # in the cell

    fix, _, fix_all = await actions(client, cells[2], diagnostic.range)
    assert list(fix.edit.changes) == [cells[2]]
    fixed = apply(sources[2], fix.edit.changes[cells[2]])
    assert 'static_args=("mask",)' in fixed
    assert fix_all.kind == "source.fixAll.optlint"  # the same edit, to the same cell only
    assert list(fix_all.edit.changes) == [cells[2]]
    assert apply(sources[2], fix_all.edit.changes[cells[2]]) == fixed

    client.diagnostics.pop(cells[2], None)
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=notebook, version=2),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
            text_content=[types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=cells[2], version=2),
                changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)])]))))
    assert await published(client, cells[2]) == []
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=notebook),
        cell_text_documents=[types.TextDocumentIdentifier(uri=uri) for uri in cells]))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_file_gets_opt000_and_the_server_stays_up(client: LanguageClient,
                                                                 project: Path):
    path = project / "broken.py"
    (diagnostic,) = await open_file(client, path, "import optax\ndef f(:\n")
    assert diagnostic.code == "OPT000" and diagnostic.range.start.line == 1
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert await actions(client, path.as_uri(), diagnostic.range) == []  # no noqa for syntax
    assert [d.code for d in await open_file(client, project / "after_broken.py", MASK)] == [
        "OPT002"]


@pytest.mark.asyncio(loop_scope="module")
async def test_settings_reload_when_pyproject_changes(client: LanguageClient, project: Path):
    path = project / "settings.py"
    assert [d.code for d in await open_file(client, path, MASK)] == ["OPT002"]
    config = project / "pyproject.toml"
    config.write_text(CONFIG + 'ignore = ["OPT002"]\n')
    try:
        client.diagnostics.pop(path.as_uri(), None)
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))
        assert await published(client, path.as_uri()) == []
    finally:
        config.write_text(CONFIG)
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))
    assert [d.code for d in await published(client, path.as_uri())] == ["OPT002"]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_configuration_is_shown_and_defaults_are_used(client: LanguageClient,
                                                                      tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\nselect = 3\n')
    finding, problem = await open_file(client, tmp_path / "configured.py", MASK)
    assert problem.range.start.line == 0 and problem.severity == types.DiagnosticSeverity.Error
    assert "'select' must be a list of strings" in problem.message
    assert finding.code == "OPT002"


@pytest.mark.asyncio(loop_scope="module")
async def test_excluded_files_are_not_checked(client: LanguageClient, tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\nextend-exclude = ["generated"]\n')
    (tmp_path / "generated").mkdir()
    assert await open_file(client, tmp_path / "generated" / "out.py", MASK) == []
    assert [d.code for d in await open_file(client, tmp_path / "kept.py", MASK)] == ["OPT002"]


@pytest.mark.asyncio(loop_scope="module")
async def test_another_files_change_refreshes_cross_file_findings(client: LanguageClient,
                                                                  project: Path):
    path = project / "train.py"
    assert [d.code for d in await open_file(client, path, TRAIN)] == ["OPT003"]  # via model.py
    model = project / "model.py"
    model.write_text(ARRAY_MODEL)  # the model now holds arrays only: nothing to filter
    try:
        client.diagnostics.pop(path.as_uri(), None)
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=model.as_uri(), type=types.FileChangeType.Changed)]))
        assert await published(client, path.as_uri()) == []
    finally:
        model.write_text(MODEL)
    client.diagnostics.pop(path.as_uri(), None)  # an editor saving model.py says so too
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=model.as_uri())))
    assert [d.code for d in await published(client, path.as_uri())] == ["OPT003"]


# the command around the server -------------------------------------------------------------------
def test_check_does_not_import_pygls_and_server_without_it_says_how_to_install_it():
    # One interpreter for both (each start costs a second or two): `optlint.cli` is imported
    # and pygls must not be; then pygls is hidden, as where it is not installed.
    probe = ("import sys, optlint.cli\n"
             "print(sorted(m for m in sys.modules if m.startswith(('pygls', 'lsprotocol'))))\n"
             "sys.modules['pygls'] = None\n"
             "sys.argv = ['optlint', 'server']\n"
             "optlint.cli.main()\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60)
    assert run.stdout.strip() == "[]"
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: `optlint server` needs pygls: pip install 'pygls>=2,<3' (or install optlint's "
        "`server` extra)"]


def test_malformed_requests_get_errors_and_the_server_stays_up(project: Path):
    """Raw JSON-RPC, as a client with a bug would send it (pytest-lsp only sends valid params)."""
    server = subprocess.Popen([sys.executable, "-m", "optlint", "server"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    stdin, stdout = server.stdin, server.stdout

    def send(message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def reply(to: int) -> dict:
        while True:
            length = 0
            while (header := stdout.readline().strip()):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            message = json.loads(stdout.read(length))
            if message.get("id") == to and "method" not in message:
                return message

    try:
        send({"id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": project.as_uri(),
            "capabilities": {"notebookDocument": {"synchronization": {}}}}})
        capabilities = reply(1)["result"]["capabilities"]
        assert capabilities["notebookDocumentSync"]["notebookSelector"] == [
            {"cells": [{"language": "python"}]}]  # any notebook with Python cells
        send({"method": "initialized", "params": {}})
        send({"id": 2, "method": "textDocument/hover",
              "params": {"textDocument": 5, "position": "here"}})
        assert reply(2)["error"]["code"] == -32602  # Invalid params
        send({"id": 3, "method": "optlint/noSuchMethod", "params": {}})
        assert reply(3)["error"]["code"] == -32601  # Method not found
        send({"method": "textDocument/didOpen", "params": {"textDocument": None}})  # no answer

        uri = (project / "raw.py").as_uri()
        send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": MASK}}})
        send({"id": 4, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 7, "character": 20}}})
        assert "OPT002" in reply(4)["result"]["contents"]["value"]  # still up, still linting
        send({"id": 5, "method": "shutdown"})
        reply(5)
        send({"method": "exit"})
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
