"""GitHub Actions workflow commands: each finding becomes an `::error` annotation on the diff.

A notebook's line numbers count within a cell, which an annotation cannot say: those findings
are attached to the file as a whole and name the cell and line in the message.
"""

from __future__ import annotations

from optlint.diagnostics import Diagnostic


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(diagnostic: Diagnostic) -> str:
    properties = [f"file={_escape_property(diagnostic.filename)}"]
    # An annotation shows line breaks: the fix title goes on a line of its own.
    message = diagnostic.message_with_help("\nhelp: ")
    if diagnostic.cell is None:
        properties += [f"line={diagnostic.line}", f"col={diagnostic.column}",
                       f"endLine={diagnostic.end.line}", f"endColumn={diagnostic.end.column}"]
    else:
        message = f"cell {diagnostic.cell}, line {diagnostic.line}: {message}"
    properties.append(f"title={_escape_property(f'optlint ({diagnostic.code})')}")
    return f"::error {','.join(properties)}::{_escape_data(message)}"


def render(diagnostics: list[Diagnostic]) -> str:
    return "".join(annotation(d) + "\n" for d in diagnostics)
