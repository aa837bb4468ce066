"""From the rules' findings to the diagnostics the user sees: 1-based spans, the roles' code,
and each fix plan as edits (with the imports it needs, placed where they bind in time)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping

import libcst as cst
from libcst.metadata import CodeRange

from optlint.context import RuleContext
from optlint.diagnostics import Diagnostic, Edit, Fix, Location, Role
from optlint.fix_imports import first_party_test, import_edits
from optlint.rules.base import Finding, FixPlan, Rule


def to_diagnostics(findings: list[tuple[Rule, Finding]], module: cst.Module, ctx: RuleContext,
                    filename: str) -> list[Diagnostic]:
    positions = ctx.positions()

    def span(node: cst.CSTNode) -> tuple[Location, Location]:
        code_range = positions[node]
        return (Location(code_range.start.line, code_range.start.column + 1),
                Location(code_range.end.line, code_range.end.column + 1))

    diagnostics = []
    for rule, finding in findings:
        start, end = span(finding.node)
        fix = to_fix(finding.fix, span, module, ctx, positions) if finding.fix else None
        roles = tuple(Role(name, module.code_for_node(node), *span(node))
                      for name, node in finding.roles.items()) + tuple(
            Role(name, value) for name, value in finding.values.items())
        diagnostics.append(Diagnostic(rule.code, rule.name, finding.message, filename, start, end,
                                      fix, roles=roles, fix_title=finding.fix_title))
    return diagnostics


def to_fix(plan: FixPlan, span: Callable[[cst.CSTNode], tuple[Location, Location]],
           module: cst.Module, ctx: RuleContext, positions: Mapping[cst.CSTNode, CodeRange]
           ) -> Fix:
    edits = []
    for node, content in plan.replacements:
        start, end = span(node)
        edits.append(Edit(start, end, content))
    if plan.imports:
        use_line = min((edit.start.line for edit in edits), default=sys.maxsize)
        edits.extend(import_edits(module, positions, plan.imports, use_line,
                                  first_party_test(ctx.filename)))
    return Fix(plan.applicability, plan.message, tuple(edits))
