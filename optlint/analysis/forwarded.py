"""Keyword arguments that reach a call through a helper's `**kwargs`.

`def with_logged_lr(opt_fn, **kwargs): return optax.inject_hyperparams(opt_fn)(**kwargs)` says
nothing about the keywords by itself; the calls of `with_logged_lr` do, each for itself (one
passes `mask=fn`, another none). A rule asks here for each call of the helper and the keywords
it passes on, and reports at that call, where the argument is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import positional_params
from optlint.analysis.index import CallSite

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator


def forwarded_keywords(inference: Evaluator,
                       site: CallSite) -> list[tuple[CallSite, list[cst.Arg]]]:
    """For a call `f(..., **kwargs)` in a function whose own `**` parameter that is (and not
    rebound there): each call of the function in this file, with the keyword arguments it passes that
    the function's named parameters do not take. Empty when there is no such `**`, or when the
    function's calls cannot all be seen (then a keyword may come from anywhere)."""
    function = site.scope.node if site.scope.kind == "function" else None
    if not isinstance(function, cst.FunctionDef):
        return []
    star = function.params.star_kwarg
    name = star.name.value if isinstance(star, cst.Param) else None
    if name is None or not any(
            arg.star == "**" and isinstance(arg.value, cst.Name) and arg.value.value == name
            for arg in site.node.args):
        return []
    if len(site.scope.bindings.get(name, [])) != 1 or not _only_spread(function, name):
        # `kwargs` is rebound, read or changed (`kwargs.pop("mask")`) in the function: what
        # reaches the call may not be what the callers pass.
        return []
    named = {param.name.value for param in (*positional_params(function),
                                            *function.params.kwonly_params)}
    invocations = inference.invocations_of(function)
    if not invocations:
        return []
    found: list[tuple[CallSite, list[cst.Arg]]] = []
    for path, call_site, _ in invocations:
        if path != inference.path:
            continue  # in another file: its nodes are no place to report in this one
        if any(arg.star == "**" for arg in call_site.node.args):
            continue  # `helper(**options)`: which keywords is not written here
        extra = [arg for arg in call_site.node.args
                 if arg.keyword is not None and arg.keyword.value not in named]
        if extra:
            found.append((call_site, extra))
    return found


class _Uses(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.uses = 0
        self.spread = 0

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.uses += 1

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.star == "**" and isinstance(node.value, cst.Name) and node.value.value == self.name:
            self.spread += 1


def _only_spread(function: cst.FunctionDef, name: str) -> bool:
    """Whether the function's body uses `name` only as `**name` in calls."""
    uses = _Uses(name)
    function.body.visit(uses)
    return uses.uses == uses.spread
