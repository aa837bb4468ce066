"""Lines in OPT020's messages: ` (line 12)` in a Python file; in a notebook, a mark its cell and
line are written in for when the finding is placed (`optlint.program_lines`)."""

from __future__ import annotations

import libcst as cst

from optlint.context import RuleContext
from optlint.program_lines import program_line


def at_line(ctx: RuleContext, node: cst.CSTNode) -> str:
    """` (line 12)` for a message; in a notebook ` (cell 4, line 3)`, placed when the finding
    is (`program_lines`)."""
    return f" ({line_of(ctx, node)})"


def line_of(ctx: RuleContext, node: cst.CSTNode) -> str:
    """`line 12`, or in a notebook the mark its cell and line are written in for."""
    line = ctx.positions()[node].start.line
    return program_line(line) if ctx.filename.endswith((".ipynb", ".md")) else f"line {line}"
