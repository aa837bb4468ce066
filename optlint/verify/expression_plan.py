"""Builds "expression" checks: the flagged expression as written, and as the fix rewrites it (the
fix's edit of exactly the flagged range), each evaluated where the flagged statement stands, given
to the probe as the role `flagged`."""

from __future__ import annotations

import libcst as cst

from optlint.linted import Reported
from optlint.rules.base import RuntimeCheck
from optlint.verify.planning import Planning, Variants


def expression_variants(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    node, diagnostic = report.finding.node, report.diagnostic
    if not isinstance(node, cst.BaseExpression):
        return {"original": {"unbuildable": "the flagged node is no expression"}}
    original, fixed = planner.original, planner.fixed
    statement = original.statement_of(node)
    variants = {"original": planner.variant(
        original, node, check, None, {"flagged": f"lambda: ({original.code(node)})"})}
    if fixed is not None and diagnostic.fix is not None:
        edits = [edit for edit in diagnostic.fix.edits
                 if (edit.start, edit.end) == (diagnostic.start, diagnostic.end)]
        number = original.number[id(statement)]
        # The statement where the fixes' edits moved it; where they cannot tell, the one of the
        # same number.
        again = planner.in_fixed(statement)
        if again is None and number < len(fixed.statements):
            again = fixed.statements[number]
        # A fix that rewrites more than the expression (a read becoming a function call)
        # has nothing to probe: the original alone is run.
        if len(edits) == 1 and again is not None:
            variants["fixed"] = planner.variant(
                fixed, again, check, None, {"flagged": f"lambda: ({edits[0].content})"})
    return variants
