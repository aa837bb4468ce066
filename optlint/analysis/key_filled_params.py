"""A key a function draws from only to fill in a value its caller may give instead:

    def get_loc_scale(pdf, rng=None, mixture=None):
        if mixture is None:
            mixture = pdf.mixture_distribution.sample(seed=rng)

A call that gives `mixture` (`get_loc_scale(pdf_u, rng, mixture=mixture)`) draws from `rng`
only if what it gives is None at run time, which the analysis does not see: a reuse resting on
that call is `--preview` (big_vision `parallel_decode.py:282`, set 2, FP: the second call is
given the mixture the first drew, and draws nothing). A call leaving `mixture` out, or giving
`None`, draws as before.

Only a shape the code proves counts: every read of the key parameter lies in the body of an
`if <other> is None:` test of one other parameter, and that parameter is bound nowhere else.
"""

from __future__ import annotations

import libcst as cst

from dataclasses import replace

from optlint.analysis.binding import bind_arguments, positional_params
from optlint.analysis.key_syntax import tested_none
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.walk import child_nodes


def unless_given(use: Consumption, function: cst.FunctionDef, call: cst.Call, bound: bool,
                 param: str) -> Consumption:
    """`use` (what `call` consumes giving its key as `param`), `--preview` when `function`
    draws from `param` only to fill in a parameter `call` gives."""
    if use.unseen:
        return use
    given = _given_none_defaults(function, call, bound)
    if not given:  # the cheap test first: no parameter defaulting to None is given
        return use
    guard = filled_only_unless(function, param)
    if guard is None or guard not in given:
        return use
    return replace(use, unseen=(
        f"`{use.how}` draws from `{param}` only when `{guard}` is None, and this call gives "
        f"`{guard}`: whether it draws depends on that value"))


def filled_only_unless(function: cst.FunctionDef, param: str) -> str | None:
    """The parameter whose being None every read of `param` in `function` depends on (`if
    mixture is None:` above), or None when some read of `param` lies outside such a test."""
    names = {p.name.value for p in (*positional_params(function),
                                     *function.params.kwonly_params)}
    guards: set[str] = set()
    outside = [False]

    def visit(node: cst.CSTNode, guard: str | None) -> None:
        if isinstance(node, cst.If):
            tested = tested_none(node.test)
            visit(node.test, guard)
            inner = tested if tested in names and tested != param and guard is None else guard
            visit(node.body, inner)
            if node.orelse is not None:
                visit(node.orelse, guard)
            return
        if isinstance(node, cst.Name):
            if node.value == param:
                if guard is None:
                    outside[0] = True
                else:
                    guards.add(guard)
            return
        if isinstance(node, (cst.Attribute, cst.Arg)):
            visit(node.value, guard)  # not an attribute's name nor a keyword
            return
        for child in child_nodes(node):
            visit(child, guard)

    visit(function.body, None)
    if outside[0] or len(guards) != 1:
        return None
    guard = next(iter(guards))
    return guard if _bound_only_under(function.body, guard) else None


def _given_none_defaults(function: cst.FunctionDef, call: cst.Call, bound: bool) -> set[str]:
    """The parameters defaulting to None that `call` gives a value other than the literal
    None (none for a call with `*args` or `**kwargs`, which may give anything)."""
    if any(arg.star for arg in call.args):
        return set()
    defaults_none = {p.name.value for p in (*positional_params(function),
                                             *function.params.kwonly_params)
                     if isinstance(p.default, cst.Name) and p.default.value == "None"}
    if not defaults_none:
        return set()
    return {each.name.value for each, expr in bind_arguments(function, call, bound)
            if each.name.value in defaults_none
            and not (isinstance(expr, cst.Name) and expr.value == "None")}


def _bound_only_under(body: cst.CSTNode, name: str) -> bool:
    """Every binding of `name` in `body` lies in the body of an `if name is None:` (filling it
    in), so the test sees the value the caller gave."""
    pending: list[tuple[cst.CSTNode, bool]] = [(body, False)]
    while pending:
        node, filling = pending.pop()
        if isinstance(node, cst.If) and tested_none(node.test) == name:
            pending.append((node.body, True))
            if node.orelse is not None:
                pending.append((node.orelse, filling))
            continue
        if not filling and _binds(node, name):
            return False
        pending.extend((child, filling) for child in child_nodes(node))
    return True


def _binds(node: cst.CSTNode, name: str) -> bool:
    if isinstance(node, cst.Assign):
        targets: list[cst.CSTNode] = [target.target for target in node.targets]
    elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)):
        targets = [node.target]
    elif isinstance(node, cst.AsName):
        targets = [node.name]
    elif isinstance(node, (cst.Global, cst.Nonlocal)):
        return any(item.name.value == name for item in node.names)
    else:
        return False
    pending = targets
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Name) and current.value == name:
            return True
        if isinstance(current, (cst.Tuple, cst.List, cst.StarredElement, cst.Element)):
            pending.extend(child_nodes(current))
    return False
