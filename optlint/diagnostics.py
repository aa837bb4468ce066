"""The values that flow from the rules to the reporters and the fixer."""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from optlint.records import record

Applicability = Literal["safe", "unsafe"]


@record(order=True)
class Location:
    """1-based line, 1-based column (in characters), as editors and ruff count them."""

    line: int
    column: int


@record
class Edit:
    """Replace the text between `start` and `end` (end exclusive) with `content`."""

    start: Location
    end: Location
    content: str


@record
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]


@record
class Role:
    """A part of what a finding is about, by its name in the finding (`call`, `mask`, `traced`,
    `field`, ...; see `optlint.rules.base.Finding`), as plain data: its code and where it is,
    or, for a value the analysis inferred rather than a node (a field's name), that value."""

    name: str
    text: str
    start: Location | None = None
    end: Location | None = None
    # Set for notebooks: the cell the part is in (not always the finding's: a key made in
    # one cell and drawn from in another), `start`/`end` then count within it.
    cell: int | None = None


@record
class Diagnostic:
    code: str
    name: str
    message: str
    filename: str
    start: Location
    end: Location
    fix: Fix | None = None
    # Set for notebooks: the 1-based cell number, `start`/`end` then count within the cell.
    cell: int | None = field(default=None, compare=False)
    # What the finding is about, part by part (the verifier, the JSON output and editors read
    # these rather than the message).
    roles: tuple[Role, ...] = field(default=(), compare=False)
    # What to do about it (ruff's fix title): the fix's title, or advice where there is no fix.
    fix_title: str | None = None
    # Set for a notebook that is a text file (a MyST `.md`): the file's own line of `start`, which
    # the formats that place findings in the file (JSON, SARIF, annotations) give as well.
    file_line: int | None = field(default=None, compare=False)

    @property
    def file_end_line(self) -> int | None:
        """The file's line of `end` (a finding's end is in its start's cell)."""
        return None if self.file_line is None else self.file_line + self.end.line - self.line

    @property
    def line(self) -> int:
        return self.start.line

    @property
    def column(self) -> int:
        return self.start.column

    def role(self, name: str) -> Role | None:
        return next((role for role in self.roles if role.name == name), None)

    def message_with_help(self, separator: str = "; help: ") -> str:
        """The message and the fix title, for outputs that have room for one string only."""
        if self.fix_title is None:
            return self.message
        return f"{self.message}{separator}{self.fix_title}"

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.filename, self.cell or 0, self.start.line, self.start.column, self.code)


@record
class NotChecked:
    """A file the run could not check (undecodable, over max-file-size, ...): every output format
    says so, so that CI cannot mistake it for a clean file."""

    filename: str
    reason: str  # the one-line error, as printed on standard error
