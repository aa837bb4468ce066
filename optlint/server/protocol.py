"""The LSP handlers: when to lint, what to publish, and answers to code-action and hover requests.

Linting runs in worker processes (`optlint.server.analyses`): this process only reads the
editor's messages and answers from results, so it is never stalled by an analysis. A keystroke
cancels a lint still waiting, and kills a long document's analysis under way; a lint it makes
stale is not published. A change is linted after a short pause (`DEBOUNCE_SECONDS`), an open or
a save at once; results are published only for the text they were computed from. A document
analysed in the background shows a progress notice meanwhile; hover and code actions on it
answer from its last results rather than wait.
"""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from optlint import __version__
from optlint.config import ConfigError
from optlint.server.actions import FIX_ALL, KINDS, fix_all, has_safe_fix, quick_fixes, wanted
from optlint.server.analyses import Analyses
from optlint.notebook import MYST_SUFFIX
from optlint.server.documents import (
    Subject,
    file_subject,
    myst_subject,
    notebook_subject,
    uri_path,
)
from optlint.server.findings import Outcome, failed, outcome
from optlint.server.frames import serve_stdio
from optlint.server.hover import hover
from optlint.server.progress import progress_notice
from optlint.server.projects import ClientSettings
from optlint.server.workers import JobFailed, WorkerGone

DEBOUNCE_SECONDS = 0.2
_PYTHON_SUFFIXES = (".py", ".pyi")
_CONFIGS = ("pyproject.toml", "optlint.toml", ".optlint.toml")


class _Protocol(LanguageServerProtocol):
    """pygls logs a request it cannot read and drops it, leaving the client waiting for ever:
    answer it with the error instead. The same after `shutdown`: pygls drops every request but
    `exit`; each gets InvalidRequest. And pygls keeps the future of every notification handled
    by a coroutine (a save, a change of watched files) for the server's lifetime: each is
    dropped when it is done."""

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        if self._shutdown and method not in (None, types.EXIT) and hasattr(message, "id"):
            error = JsonRpcInvalidRequest(f"the server is shut down; {method} not handled")
            self._send_response(message.id, error=error.to_response_error())
            return
        super().handle_message(message)

    # pygls registers its built-in handlers by this marker: an override without it would leave
    # document changes unapplied.
    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        """A change to a document the client never opened (a client's bug, or a race with
        `didClose`) is ignored: pygls would raise KeyError and pop "Error in server"."""
        if params.text_document.uri not in self.workspace.text_documents:
            return
        # pygls's handler is a generator (it yields the server's own handler to run): so is this.
        yield from super().lsp_text_document__did_change(params)

    def _check_handler_result(self, future: Any) -> None:
        super()._check_handler_result(future)
        for key in [key for key, kept in self._request_futures.items() if kept is future]:
            del self._request_futures[key]

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if isinstance(data, dict) and "method" in data and "id" in data:
                self._send_response(data["id"], error=error.to_response_error())
            raise


class OptlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "optlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithCells(
                    cells=[types.NotebookCellLanguage(language="python")])],
                save=True),
            protocol_cls=_Protocol)
        self.analyses = Analyses(self.info)
        self.outcomes: dict[str, Outcome] = {}  # by subject (file or notebook) uri
        self.shown: dict[str, set[str]] = {}  # subject uri -> the uris diagnostics went to
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.starting: asyncio.Future[None] | None = None
        self.linting: dict[str, Subject] = {}  # what is being analysed in the background
        self.again: set[str] = set()  # documents to lint once more when their lint is done

    # what is open -----------------------------------------------------------------------------
    def subject_uri(self, uri: str) -> str:
        """A notebook cell's requests are answered from its notebook's lint."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        return notebook.uri if notebook is not None else uri

    def subject(self, uri: str) -> Subject | None:
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            return notebook_subject(self.workspace, notebook)
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        if _is_python(uri, document.language_id):
            return file_subject(uri, document.source, document.version)
        if uri.endswith(MYST_SUFFIX):  # linted when its front matter declares a notebook
            return myst_subject(uri, document.source, document.version)
        return None

    def open_subjects(self) -> list[str]:
        cells = {cell.document for notebook in self.workspace.notebook_documents.values()
                 for cell in notebook.cells}
        files = [uri for uri, document in self.workspace.text_documents.items()
                 if uri not in cells and (_is_python(uri, document.language_id)
                                          or uri.endswith(MYST_SUFFIX))]
        return [*self.workspace.notebook_documents, *files]

    # linting ----------------------------------------------------------------------------------
    async def outcome(self, uri: str) -> Outcome | None:
        """The lint of the subject's current text: the published one if still current. A
        document analysed in the background is not waited for: until its analysis is done,
        it has no findings (hover on a `# noqa` code still answers)."""
        subject = self.subject(uri)
        if subject is None:
            return None
        known = self.outcomes.get(uri)
        if known is not None and known.subject.same_text(subject):
            return known
        if self.analyses.in_background(subject):
            return Outcome(subject, [])
        return await self.lint(subject)

    async def lint(self, subject: Subject) -> Outcome:
        try:
            if self.analyses.in_background(subject):
                size = f"{len(subject.program) / 1024:,.0f} KiB"
                async with progress_notice(self, "optlint",
                                           f"checking {subject.path.name} ({size})"):
                    checked = await self.analyses.lint(subject)
            else:
                checked = await self.analyses.lint(subject)
        except WorkerGone as error:
            return failed(subject, f"optlint could not check this file: its worker ended "
                                   f"({error}); it is checked again on the next change")
        except JobFailed as error:
            self.log(f"optlint: linting {subject.uri} failed:\n{error}")
            return failed(subject, "optlint could not check this file: internal error (see "
                                   "the server's log)")
        return outcome(subject, checked, self.workspace.position_codec)

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Lint and publish `uri` after `delay`, replacing a lint still waiting or under way."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel("the document changed")
        self.again.discard(uri)
        self.linting.pop(uri, None)
        self.pending[uri] = asyncio.ensure_future(self._publish_later(uri, delay))

    def recheck(self, uri: str) -> None:
        """Lint `uri` again, its text unchanged (a save; another file changed on disk). An
        analysis of this text under way in the background is not thrown away: it is published
        when done, and the document is linted once more after it."""
        linting, current = self.linting.get(uri), self.subject(uri)
        if linting is not None and current is not None and linting.same_text(current):
            self.again.add(uri)
        else:
            self.schedule(uri)

    async def _publish_later(self, uri: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            subject = self.subject(uri)
            if subject is None:  # a `.md` whose front matter no longer declares a notebook
                self._withdraw(uri)
                return
            if self.analyses.in_background(subject):
                self.linting[uri] = subject
            linted = await self.lint(subject)
            current = self.subject(uri)
            if current is None or not current.same_text(subject):
                return  # the text changed meanwhile: its own lint is scheduled
            self.publish(linted)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - report it and keep serving the other documents
            self.log(f"optlint: linting {uri} failed:\n{traceback.format_exc()}")
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]
                self.linting.pop(uri, None)
                if uri in self.again:
                    self.schedule(uri)

    def publish(self, outcome: Outcome) -> None:
        uri = outcome.subject.uri
        self.outcomes[uri] = outcome
        targets = set(outcome.subject.texts)
        for target in sorted(targets | self.shown.get(uri, set())):  # cleared cells too
            diagnostics = [finding.lsp for finding in outcome.shown_in(target)]
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=target, diagnostics=diagnostics,
                version=outcome.subject.version if target == uri else None))
        self.shown[uri] = targets

    def forget(self, uri: str) -> None:
        waiting = self.pending.pop(uri, None)
        self.again.discard(uri)
        self.linting.pop(uri, None)
        if waiting is not None:
            waiting.cancel("the document was closed")
        self._withdraw(uri)

    def _withdraw(self, uri: str) -> None:
        """Clear what was published for `uri` (its cells too)."""
        self.outcomes.pop(uri, None)
        for target in sorted(self.shown.pop(uri, set())):
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=target, diagnostics=[]))

    async def files_changed(self, paths: list[Path]) -> None:
        """Settings or other project files changed on disk: lint every open document again."""
        if any(path.name in _CONFIGS for path in paths):
            await self.analyses.reload()
        else:
            refreshed = [await self.analyses.refresh(path) for path in paths]
            if not any(refreshed):
                return
        for uri in self.open_subjects():
            self.recheck(uri)

    def shutdown(self) -> None:
        self.analyses.stop()
        super().shutdown()

    def log(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error,
                                                       message=message))

    def info(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Log,
                                                       message=message))


def _is_python(uri: str, language_id: str | None) -> bool:
    return language_id == "python" or uri.endswith(_PYTHON_SUFFIXES)


def build() -> OptlintServer:
    server = OptlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: OptlintServer, params: types.InitializeParams) -> None:
        try:
            ls.analyses.client = ClientSettings.read(params.initialization_options)
        except ConfigError as error:  # a bad version: said once, the defaults are used
            ls.log(f"optlint: ignoring the editor's settings: {error}")

    @server.feature(types.INITIALIZED)
    def initialized(ls: OptlintServer, params: types.InitializedParams) -> None:
        watched = ls.client_capabilities.workspace and \
            ls.client_capabilities.workspace.did_change_watched_files
        if watched and watched.dynamic_registration:
            # Another file's change can change this one's findings (an imported model class).
            ls.client_register_capability(types.RegistrationParams(registrations=[
                types.Registration(
                    id="optlint-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                        types.FileSystemWatcher(glob_pattern="**/*.py"),
                        *(types.FileSystemWatcher(glob_pattern=f"**/{name}")
                          for name in _CONFIGS)]))]))
        # The shared worker, ahead of the first document (a task: a `shutdown` arriving first
        # must not find this notification's handler still running).
        ls.starting = asyncio.ensure_future(ls.analyses.start())

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: OptlintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: OptlintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: OptlintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.recheck(params.text_document.uri)
        await ls.files_changed([uri_path(params.text_document.uri)])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: OptlintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(ls: OptlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(ls: OptlintServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(ls: OptlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.recheck(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(ls: OptlintServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.forget(params.notebook_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls: OptlintServer, params: types.DidChangeWatchedFilesParams) -> None:
        await ls.files_changed([uri_path(change.uri) for change in params.changes])

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=KINDS))
    async def code_action(ls: OptlintServer,
                          params: types.CodeActionParams) -> list[types.CodeAction] | None:
        outcome = await ls.outcome(ls.subject_uri(params.text_document.uri))
        if outcome is None:
            return None
        codec = ls.workspace.position_codec
        only = list(params.context.only) if params.context.only else None
        actions = []
        if wanted(types.CodeActionKind.QuickFix, only):
            actions += quick_fixes(outcome, params.text_document.uri, params.range, codec,
                                   params.context.diagnostics or ())
        if wanted(FIX_ALL, only) and has_safe_fix(outcome):
            fixed = await ls.analyses.fix(outcome.subject)
            every = fix_all(outcome.subject, fixed, codec)
            if every is not None:
                actions.append(every)
        return actions

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: OptlintServer, params: types.HoverParams) -> types.Hover | None:
        outcome = await ls.outcome(ls.subject_uri(params.text_document.uri))
        if outcome is None:
            return None
        return hover(outcome, params.text_document.uri, params.position,
                     ls.workspace.position_codec)

    return server


def serve() -> None:
    serve_stdio(build())
