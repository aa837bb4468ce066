"""Calls that switch a module's randomness off by position: `qf.apply(params, obs, act, False,
rngs={"dropout": key})` where the module's `__call__(self, obs, act, training)` takes the switch
third. `draws_nothing` reads the keyword form (`training=False`); the argument given in its
place binds to the same parameter, so the module draws nothing from the keys given either."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_consumers import NO_DRAW_SWITCHES

if TYPE_CHECKING:
    from optlint.context import RuleContext


def switched_off(ctx: RuleContext, call: cst.Call, made: cst.Call | None, first: int,
                 kept: tuple[str, ...]) -> bool:
    """`call` hands its arguments from position `first` on, and its keywords but those it
    keeps (`kept`: `rngs`, `method`, ...), to the `__call__` of the class of the file that
    `made` instantiates, and one of them is a switch set to draw nothing."""
    if made is None or not isinstance(made.func, cst.Name) or any(
            arg.keyword is not None and arg.keyword.value == "method" for arg in call.args):
        return False  # `apply(v, x, method=Model.sample)` runs another method
    info = ctx.index.classes.get(made.func.value)
    method = next((item for item in info.node.body.body if isinstance(item, cst.FunctionDef)
                   and item.name.value == "__call__"), None) if info is not None else None
    if method is None:
        return False
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in positional[:first]):
        return False
    forwarded = call.with_changes(args=[*positional[first:], *(
        arg for arg in call.args if arg.keyword is not None and arg.keyword.value not in kept)])
    return any(
        isinstance(value, cst.Name) and value.value in ("True", "False")
        and (value.value == "True") is NO_DRAW_SWITCHES.get(param.name.value)
        for param, value in bind_arguments(method, forwarded, bound=True))
