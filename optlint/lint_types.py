"""What a lint takes and gives, as plain data: its options (sent to worker processes) and one
file's result. Kept apart from the engine so that the cache and the verifier's view of a lint
(optlint.linted) need not import it."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from optlint.analysis.dependencies import Dependencies
from optlint.config import DEFAULT_MAX_FILE_SIZE
from optlint.diagnostics import Diagnostic
from optlint.fix_moves import EditRound
from optlint.records import record
from optlint.selection import Selection
from optlint.versions import LibraryVersions


@record
class LintOptions:
    """Everything a worker needs; plain data so it can be sent to other processes."""

    selection: Selection
    versions: LibraryVersions
    project_root: Path
    verbose: bool = False
    fix: bool = False
    unsafe_fixes: bool = False
    write: bool = True  # False for --diff: compute the fixed text, write nothing
    respect_noqa: bool = True  # False for flake8 --disable-noqa: report what noqa would hide
    preview: bool = False  # also report findings the analysis could not prove
    max_file_size: int = DEFAULT_MAX_FILE_SIZE  # bytes; libcst needs ~700 times that in memory
    # Whether each result carries its file's content hash, which only the cache reads: a run
    # without one (--no-cache, --fix) neither hashes nor imports hashlib (~3 ms of a one-file run).
    hash_contents: bool = True


@record(frozen=False)
class FileResult:
    filename: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one line each, for stderr
    notices: list[str] = field(default_factory=list)  # stderr too, but not errors (exit code)
    internal_error: bool = False
    original: str | None = None  # the text before fixes, kept only when they changed it (--diff)
    fixed: str | None = None  # set when fixes changed the text
    diff: str | None = None  # with fixes not written (--diff): what they change, as diffs
    fixes_applied: int = 0
    # The edits of each round of fixes, for mapping positions into the fixed text (`fix_moves`).
    fix_rounds: list[EditRound] = field(default_factory=list)
    # For the cache: the hash of the bytes checked, and what the analysis read of other files.
    content_hash: str | None = None
    dependencies: Dependencies | None = None
