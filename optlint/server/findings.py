"""Lint one subject and express what the linter says in the editor's terms.

A file the linter cannot check still gets a diagnostic: invalid syntax is OPT000 as on the
command line, and anything else it reports as an error (a file too large or too deep, a rule
that failed, a broken `[tool.optlint]`) is shown on the first line, because an editor showing
nothing would say the file is clean.
"""

from __future__ import annotations


from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from optlint.diagnostics import Diagnostic, Fix
from optlint.report.sarif import RULE_PAGE_URI
from optlint.catalog import KNOWN_CODES, SYNTAX_ERROR, UNUSED_NOQA
from optlint.records import record
from optlint.server.documents import Subject, to_editor_range
from optlint.server.projects import Project

SOURCE = "optlint"


@record
class EditorFinding:
    uri: str  # the document (or notebook cell) it is shown in
    lsp: types.Diagnostic
    code: str | None = None  # None: not a rule's finding but a problem checking the file
    fix: Fix | None = None
    # The fix's edits by document; None without a fix, or with one the editor cannot take
    # (an edit of a notebook's IPython line, which the linter saw as `pass`).
    edits: dict[str, list[types.TextEdit]] | None = None
    fix_title: str | None = None  # the quick fix's title


@record(frozen=False)
class Outcome:
    subject: Subject
    findings: list[EditorFinding]

    def shown_in(self, uri: str) -> list[EditorFinding]:
        return [finding for finding in self.findings if finding.uri == uri]


@record(frozen=False)
class Checked:
    """What the linter said about a text, as a worker process sends it back: its findings and
    the problems checking it (one line each)."""

    diagnostics: list[Diagnostic]
    problems: list[str]


def check(project: Project, program: str, filename: str) -> Checked:
    """Lint `program` (in a worker process); nothing here is in the editor's terms yet."""
    problems = [f"optlint uses its default settings here: {project.problem}"] \
        if project.problem else []
    diagnostics: list[Diagnostic] = []
    try:
        result = project.linter.lint_text(program, filename)
        diagnostics = result.diagnostics
        problems += [_without_filename(error, filename) for error in result.errors]
    except Exception as error:  # noqa: BLE001 - a linter bug must not take the server down
        problems.append(f"optlint could not check this file: internal error: {error!r}")
    return Checked(diagnostics, problems)


def outcome(subject: Subject, checked: Checked, codec: PositionCodec) -> Outcome:
    """What the editor shows for the subject's text (in the server, with its position codec)."""
    findings = [_finding(diagnostic, subject, codec) for diagnostic in checked.diagnostics]
    return Outcome(subject, findings + _problems(subject, checked.problems))


def failed(subject: Subject, message: str) -> Outcome:
    """The outcome for a subject that could not be linted at all."""
    return Outcome(subject, _problems(subject, [message]))


def _finding(diagnostic: Diagnostic, subject: Subject, codec: PositionCodec) -> EditorFinding:
    uri, start = subject.place(diagnostic.start)
    end_uri, end = subject.place(diagnostic.end)
    if end_uri != uri:  # never expected; a range cannot span editor documents
        end = start
    lines = subject.lines(uri)
    edits = _edits(diagnostic, subject, codec)
    # The fix title is the quick fix's title; with no quick fix to carry it, the message does.
    message = diagnostic.message_with_help("\nhelp: ") if edits is None else diagnostic.message
    lsp = types.Diagnostic(
        range=to_editor_range(lines, start, end, codec),
        message=message,
        severity=(types.DiagnosticSeverity.Error if diagnostic.code == SYNTAX_ERROR.code
                  else types.DiagnosticSeverity.Warning),
        code=diagnostic.code,
        code_description=(types.CodeDescription(href=RULE_PAGE_URI.format(code=diagnostic.code))
                          if diagnostic.code in KNOWN_CODES else None),
        source=SOURCE,
        tags=[types.DiagnosticTag.Unnecessary] if diagnostic.code == UNUSED_NOQA.code else None,
    )
    return EditorFinding(uri, lsp, diagnostic.code, diagnostic.fix, edits, diagnostic.fix_title)


def _edits(diagnostic: Diagnostic, subject: Subject,
           codec: PositionCodec) -> dict[str, list[types.TextEdit]] | None:
    if diagnostic.fix is None:
        return None
    edits: dict[str, list[types.TextEdit]] = {}
    for edit in diagnostic.fix.edits:
        if subject.on_placeholder(edit.start) or subject.on_placeholder(edit.end):
            return None
        uri, start = subject.place(edit.start)
        end_uri, end = subject.place(edit.end)
        if end_uri != uri:
            return None
        edits.setdefault(uri, []).append(types.TextEdit(
            range=to_editor_range(subject.lines(uri), start, end, codec),
            new_text=edit.content))
    return edits


def _problems(subject: Subject, messages: list[str]) -> list[EditorFinding]:
    """Shown at the start of the file (of a notebook's first code cell; none without one)."""
    first = next(iter(subject.texts), None)
    if first is None:
        return []
    at = types.Position(line=0, character=0)
    return [EditorFinding(first, types.Diagnostic(
        range=types.Range(start=at, end=at), message=message,
        severity=types.DiagnosticSeverity.Error, source=SOURCE)) for message in messages]


def _without_filename(error: str, filename: str) -> str:
    """The linter's one-line errors start with the file's name, which the editor shows already."""
    return error[len(filename) + 2:] if error.startswith(filename + ": ") else error
