"""From the rules' findings to the diagnostics the user sees: 1-based spans, the roles' code,
and each fix plan as edits (with the imports it needs, placed where they bind in time)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

import libcst as cst
from libcst.metadata import CodeRange

from optlint.context import RuleContext
from optlint.diagnostics import Diagnostic, Edit, Fix, Location, Role
from optlint.fix_imports import TopLevel, first_party_test, import_edits
from optlint.positions import PositionsOnDemand
from optlint.rules.base import Finding, FixPlan, Rule


def to_diagnostics(findings: list[tuple[Rule, Finding]], module: cst.Module, ctx: RuleContext,
                    filename: str) -> list[Diagnostic]:
    positions = ctx.positions()

    def span(node: cst.CSTNode) -> tuple[Location, Location]:
        code_range = positions[node]
        return (Location(code_range.start.line, code_range.start.column + 1),
                Location(code_range.end.line, code_range.end.column + 1))

    imports = _ImportPlaces(module, positions, ctx.filename)
    diagnostics = []
    for rule, finding in findings:
        start, end = span(finding.node)
        fix = to_fix(finding.fix, span, imports) if finding.fix else None
        roles = tuple(_role(name, node, module, span)
                      for name, node in finding.roles.items()) + tuple(
            Role(name, value) for name, value in finding.values.items())
        diagnostics.append(Diagnostic(rule.code, rule.name, finding.message, filename, start, end,
                                      fix, roles=roles, fix_title=finding.fix_title))
    return diagnostics


def _role(name: str, node: cst.CSTNode, module: cst.Module,
          span: Callable[[cst.CSTNode], tuple[Location, Location]]) -> Role:
    """A role at its place in the file; a role the analysis found in another file (where a callee
    there makes the key) has no place in this one, so it keeps its code and no span."""
    try:
        return Role(name, module.code_for_node(node), *span(node))
    except KeyError:
        return Role(name, module.code_for_node(node))


class _ImportPlaces:
    """What placing a fix's import reads of the file, gathered when a fix first needs it and
    then kept for the file's other fixes."""

    def __init__(self, module: cst.Module, positions: Mapping[cst.CSTNode, CodeRange],
                 filename: str) -> None:
        self.module, self.positions, self.filename = module, positions, filename
        self._top: TopLevel | None = None
        self._first_party: Callable[[str], bool] | None = None

    def edits(self, imports: Sequence[tuple[str, str]], use_line: int,
              use: cst.CSTNode | None) -> list[Edit]:
        """`use`: a node at `use_line`, which places it among the top-level statements."""
        if self._top is None or self._first_party is None:
            self._top = TopLevel(self.module, self.positions)
            self._first_party = first_party_test(self.filename)
        use_path = (self.positions.holding(use) if use is not None
                    and isinstance(self.positions, PositionsOnDemand) else None)
        return import_edits(self.module, self.positions, imports, use_line, self._first_party,
                            self._top, use_path)


def to_fix(plan: FixPlan, span: Callable[[cst.CSTNode], tuple[Location, Location]],
           imports: _ImportPlaces) -> Fix:
    edits = []
    for node, content in plan.replacements:
        start, end = span(node)
        edits.append(Edit(start, end, content))
    if plan.imports:
        use_line, use = min(((edit.start.line, node) for edit, (node, _) in zip(
            edits, plan.replacements, strict=True)), default=(sys.maxsize, None),
            key=lambda line_and_node: line_and_node[0])
        edits.extend(imports.edits(plan.imports, use_line, use))
    return Fix(plan.applicability, plan.message, tuple(edits))
