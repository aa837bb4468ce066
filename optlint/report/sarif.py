"""SARIF 2.1.0, the format GitHub code scanning (and other viewers) read.

The driver lists every rule optlint has, so a result's `ruleIndex` points into a fixed table and
viewers can show rules with no findings. Columns count characters (`unicodeCodePoints`), as
optlint does everywhere. A notebook finding's region counts within its cell, which SARIF cannot
say, so it carries the cell in `properties.cell` and offers no fix (a fix's region would be wrong
for the .ipynb file). A MyST notebook's (`.md`) region is in the file's lines, its line in the
cell `properties.cellLine`. A result's `properties.fixTitle` says what to do, also where there is no
fix to offer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from optlint import __version__
from optlint.diagnostics import Diagnostic, Edit, Fix, Location, NotChecked
from optlint.pages import page_text
from optlint.catalog import RuleInfo, catalog

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/optlint/optlint"
RULE_PAGE_URI = INFORMATION_URI + "/blob/main/rules/{code}.md"
SOURCE_ROOT = "%SRCROOT%"


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = ()) -> str:
    rules = catalog()
    index_of = {info.code: position for position, info in enumerate(rules)}
    run = {
        "tool": {"driver": {
            "name": "optlint",
            "version": __version__,
            "informationUri": INFORMATION_URI,
            "rules": [_rule(info) for info in rules],
        }},
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": Path.cwd().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index_of[d.code]) for d in diagnostics],
        # Files that could not be checked: the run did not do all it was asked to.
        "invocations": [{
            "executionSuccessful": not not_checked,
            "toolExecutionNotifications": [
                {"level": "error", "message": {"text": item.reason},
                 "locations": [{"physicalLocation": {"artifactLocation": _artifact(item.filename)}}]}
                for item in not_checked],
        }],
    }
    document = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2) + "\n"


def _rule(info: RuleInfo) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": info.code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "helpUri": RULE_PAGE_URI.format(code=info.code),
        "defaultConfiguration": {"level": "error"},
        "properties": {"fixAvailability": info.fix_availability},
    }
    page = page_text(info.code)
    if page is not None:
        rule["help"] = {"text": info.summary, "markdown": page}
    return rule


def _result(diagnostic: Diagnostic, rule_index: int) -> dict[str, Any]:
    artifact = _artifact(diagnostic.filename)
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": "error",
        "message": {"text": diagnostic.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": artifact,
            "region": _region(*_in_file(diagnostic)),
        }}],
    }
    properties: dict[str, Any] = {}
    if diagnostic.fix_title is not None:
        properties["fixTitle"] = diagnostic.fix_title
    if diagnostic.cell is not None:
        properties["cell"] = diagnostic.cell
        if diagnostic.file_line is not None:
            properties["cellLine"] = diagnostic.line
    elif diagnostic.fix is not None:
        result["fixes"] = [_fix(diagnostic.fix, artifact)]
    if properties:
        result["properties"] = properties
    return result


def _artifact(filename: str) -> dict[str, str]:
    """A URI relative to the folder optlint ran in, as code scanning wants; else absolute.
    Percent-encoded (`spa ce.py` -> `spa%20ce.py`, `%` -> `%25`): the schema's `uri-reference`."""
    path = Path(filename)
    if path.is_absolute():
        try:
            path = path.relative_to(Path.cwd())
        except ValueError:
            return {"uri": path.as_uri()}
    # From the file name's bytes, so a name that is not UTF-8 is encoded as it is on disk.
    return {"uri": quote(os.fsencode(path.as_posix()), safe="/"), "uriBaseId": SOURCE_ROOT}


def _in_file(diagnostic: Diagnostic) -> tuple[Location, Location]:
    """Where the finding is in its file: a MyST notebook's cells are lines of it (an .ipynb's
    are not: its region counts within the cell)."""
    start, end = diagnostic.start, diagnostic.end
    if diagnostic.file_line is None or diagnostic.file_end_line is None:
        return start, end
    return (Location(diagnostic.file_line, start.column),
            Location(diagnostic.file_end_line, end.column))


def _region(start: Location, end: Location) -> dict[str, int]:
    return {"startLine": start.line, "startColumn": start.column,
            "endLine": end.line, "endColumn": end.column}


def _fix(fix: Fix, artifact: dict[str, str]) -> dict[str, Any]:
    return {
        "description": {"text": fix.message},
        "artifactChanges": [{
            "artifactLocation": artifact,
            "replacements": [_replacement(edit) for edit in fix.edits],
        }],
        "properties": {"applicability": fix.applicability},
    }


def _replacement(edit: Edit) -> dict[str, Any]:
    # An insertion is the empty region at its point (start == end).
    return {"deletedRegion": _region(edit.start, edit.end),
            "insertedContent": {"text": edit.content}}
