"""GitHub Actions workflow commands: each finding becomes an `::error` annotation on the diff.

A notebook's line numbers count within a cell, which an annotation cannot say: those findings
are attached to the file as a whole and name the cell and line in the message. A MyST notebook's
(`.md`) are placed on the file's own line, and name the cell and line too.
"""

from __future__ import annotations

from collections.abc import Sequence

from optlint.diagnostics import Diagnostic, NotChecked


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(diagnostic: Diagnostic) -> str:
    properties = [f"file={_escape_property(diagnostic.filename)}"]
    # An annotation shows line breaks: the fix title goes on a line of its own.
    message = diagnostic.message_with_help("\nhelp: ")
    line, end_line = diagnostic.line, diagnostic.end.line
    if diagnostic.file_line is not None and diagnostic.file_end_line is not None:
        line, end_line = diagnostic.file_line, diagnostic.file_end_line  # a MyST notebook
    if diagnostic.cell is None or diagnostic.file_line is not None:
        properties += [f"line={line}", f"col={diagnostic.column}",
                       f"endLine={end_line}", f"endColumn={diagnostic.end.column}"]
    if diagnostic.cell is not None:
        message = f"cell {diagnostic.cell}, line {diagnostic.line}: {message}"
    properties.append(f"title={_escape_property(f'optlint ({diagnostic.code})')}")
    return f"::error {','.join(properties)}::{_escape_data(message)}"


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = ()) -> str:
    unchecked = [f"::error file={_escape_property(item.filename)},"
                 f"title={_escape_property('optlint (not checked)')}::{_escape_data(item.reason)}"
                 for item in not_checked]
    return "".join(line + "\n" for line in [*(annotation(d) for d in diagnostics), *unchecked])
