"""A text as the linter saw it, for callers that work on the findings' nodes (the verifier): the
tree the rules ran on, the diagnostics reported, and each diagnostic's finding (its node and
roles, nodes of that tree)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from optlint.diagnostics import Diagnostic
from optlint.rules.base import Finding

if TYPE_CHECKING:
    from optlint.analysis.project import ProjectIndex
    from optlint.engine import FileResult


@dataclass
class Linted:
    filename: str
    project: ProjectIndex
    result: FileResult = field(init=False)  # set by `Linter.analyse_text` once the lint ran
    module: cst.Module | None = None  # None when the text was not parsed (prefilter, syntax)
    _findings: dict[int, Finding] = field(default_factory=dict, init=False, repr=False)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.result.diagnostics

    def record(self, module: cst.Module, pairs: list[tuple[Diagnostic, Finding]]) -> None:
        self.module = module
        self._findings = {id(diagnostic): finding for diagnostic, finding in pairs}

    def finding(self, diagnostic: Diagnostic) -> Finding | None:
        """The rule's finding behind one of `diagnostics` (None for the engine's own codes)."""
        return self._findings.get(id(diagnostic))
