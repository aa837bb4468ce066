"""A callee chosen by a condition between a function and a compiled form of it:
`(jax.jit(sample) if jit else sample)(ids, params, rng)` (the Flax Stable Diffusion pipeline's
calling convention). `jax.jit` runs the function it wraps once per call with the arguments it is
given, so either arm runs `sample` with the call's arguments: the call is read as a call of
`sample`. Arms that differ in anything else are left unresolved."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_objects import CALLED_ONCE

if TYPE_CHECKING:
    from optlint.context import RuleContext


def chosen_callee(ctx: RuleContext, func: cst.BaseExpression) -> cst.BaseExpression:
    """The name both arms of a conditional callee run (`sample` for `jax.jit(sample) if jit
    else sample`); `func` itself when it is not such a choice."""
    if not isinstance(func, cst.IfExp):
        return func
    body, orelse = _run_by(ctx, func.body), _run_by(ctx, func.orelse)
    if body is None or orelse is None or body.value != orelse.value:
        return func
    return orelse if isinstance(func.orelse, cst.Name) else body


def _run_by(ctx: RuleContext, arm: cst.BaseExpression) -> cst.Name | None:
    """The name an arm runs with the call's own arguments: the name, or the one function a
    compiling wrapper is given (`jax.jit(sample, static_argnums=...)`)."""
    while isinstance(arm, cst.Call) and ctx.qualify(arm.func) in CALLED_ONCE:
        positional = [arg for arg in arm.args if arg.keyword is None]
        if len(positional) != 1 or positional[0].star:
            return None
        arm = positional[0].value
    return arm if isinstance(arm, cst.Name) else None
