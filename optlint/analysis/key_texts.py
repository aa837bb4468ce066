"""How OPT020's messages name a call or an expression: its dotted name where it has one (no code
is written for most calls), else its code on one line, cut to a readable length."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.context import RuleContext

_SHOWN = 60  # characters: longer texts are cut


def called_text(ctx: RuleContext, call: cst.Call) -> str:
    return shown(ctx, call.func) if not isinstance(call.func, cst.Call) else shown(
        ctx, call.func) + "(...)"


def shown(ctx: RuleContext, node: cst.CSTNode) -> str:
    dotted = _dotted(node)  # without writing code: most calls are by a (dotted) name
    text = dotted if dotted is not None else " ".join(ctx.code(node).split())
    return text if len(text) <= _SHOWN else text[:_SHOWN - 4] + "...)"


def _dotted(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Name) and not node.lpar:
        return node.value
    if isinstance(node, cst.Attribute) and not node.lpar:
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None
