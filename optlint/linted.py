"""A text as the linter saw it, for callers that work on the findings' nodes (the verifier): the
tree the rules ran on, and each finding reported as the lint made it: the rule, its finding (its
node and roles, nodes of that tree) and the diagnostic the user sees, together."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

import libcst as cst

from optlint.diagnostics import Diagnostic
from optlint.records import record
from optlint.rules.base import Finding, Rule

if TYPE_CHECKING:
    from optlint.analysis.project import ProjectIndex
    from optlint.lint_types import FileResult


@record
class Reported:
    """One finding of a rule that the lint reported (not suppressed)."""

    rule: Rule
    finding: Finding
    diagnostic: Diagnostic


@record(frozen=False)
class Linted:
    filename: str
    project: ProjectIndex
    result: FileResult = field(init=False)  # set by `Linter.analyse_text` once the lint ran
    module: cst.Module | None = None  # None when the text was not parsed (prefilter, syntax)
    # The rules' reported findings, in the order of their diagnostics (the engine's own codes,
    # OPT000 and OPT100, have none).
    reports: list[Reported] = field(default_factory=list, init=False)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.result.diagnostics

    def only(self, code: str) -> None:
        """Keep the findings of `code` alone."""
        self.result.diagnostics = [d for d in self.result.diagnostics if d.code == code]
        self.reports = [report for report in self.reports if report.diagnostic.code == code]
