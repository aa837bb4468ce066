"""A JSON array of findings, with the fix (applicability, message, edits) and the fix title
(what to do, also where there is no fix) of each."""

from __future__ import annotations

from collections.abc import Sequence

import json
from typing import Any

from optlint.diagnostics import Diagnostic, Fix, NotChecked, Role


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
        "roles": {role.name: _role_to_dict(role) for role in diagnostic.roles},
    }
    if diagnostic.cell is not None:
        record["cell"] = diagnostic.cell
    if diagnostic.file_line is not None:  # a MyST notebook: `line` counts in the cell
        record["file_line"] = diagnostic.file_line
        record["file_end_line"] = diagnostic.file_end_line
    return record


def _role_to_dict(role: Role) -> dict[str, Any]:
    if role.start is None or role.end is None:
        return {"text": role.text}
    record = {"text": role.text, "line": role.start.line, "column": role.start.column,
              "end_line": role.end.line, "end_column": role.end.column}
    if role.cell is not None:
        record["cell"] = role.cell
    return record


def not_checked_to_dict(item: NotChecked) -> dict[str, Any]:
    """A file that could not be checked: an entry of its own (code None, name `not-checked`),
    with the fields a finding has, so a reader that skips unknown codes still works."""
    return {"code": None, "name": "not-checked", "message": item.reason,
            "filename": item.filename, "line": None, "column": None, "end_line": None,
            "end_column": None, "fix": None, "fix_title": None, "roles": {}}


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = ()) -> str:
    records = [diagnostic_to_dict(d) for d in diagnostics]
    records += [not_checked_to_dict(item) for item in not_checked]
    return json.dumps(records, indent=2) + "\n"
