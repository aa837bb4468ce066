"""A JSON array of findings, with the fix (applicability, message, edits) and the fix title
(what to do, also where there is no fix) of each."""

from __future__ import annotations

import json
from typing import Any

from optlint.diagnostics import Diagnostic, Fix


def fix_to_dict(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability,
        "message": fix.message,
        "edits": [
            {"content": edit.content, "line": edit.start.line, "column": edit.start.column,
             "end_line": edit.end.line, "end_column": edit.end.column}
            for edit in fix.edits
        ],
    }


def diagnostic_to_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    record: dict[str, Any] = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "message": diagnostic.message,
        "filename": diagnostic.filename,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "end_line": diagnostic.end.line,
        "end_column": diagnostic.end.column,
        "fix": fix_to_dict(diagnostic.fix),
        "fix_title": diagnostic.fix_title,
    }
    if diagnostic.cell is not None:
        record["cell"] = diagnostic.cell
    return record


def render(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([diagnostic_to_dict(d) for d in diagnostics], indent=2) + "\n"
