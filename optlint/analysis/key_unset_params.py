"""Parameters no call in the project gives, which hold their default `None` in every run the
project makes (ManifoldRG/MultiNet e170d5c: `evaluate_model(self, model, key, loader,
max_samples=None)`, called only as `evaluate_model(model, key, loader)`). A branch on
`max_samples is not None` then never runs, and what it would rebind (`for key in batch:`,
shadowing the key) is never rebound: the key walk takes the branch that runs, so the draw from
`key` in every iteration of the loop is a reuse on every path, not only on some.

What is proven, and only then: the parameter defaults to the literal `None`; the function's
body never rebinds it; the function is called at least once, every call of it is seen
(`Parameters.invocations_of`: in this file, and for a module-level function in the project's
other files; a method's name named in no other project file), and no call gives the parameter
or spreads `*args` / `**kwargs` into it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_known_names import KnownNames, names_tested

if TYPE_CHECKING:
    from optlint.analysis.index import FunctionInfo
    from optlint.context import RuleContext


def with_unset_params(ctx: RuleContext, constants: KnownNames,
                      info: FunctionInfo | None) -> KnownNames:
    """`constants`, and, for the walk of `info`'s function, its parameters left `None`."""
    if info is None or not isinstance(info.node, cst.FunctionDef):
        return constants
    unset = _unset_none_params(ctx, info)
    if not unset:
        return constants
    known = KnownNames({name: value for name, value in constants.items() if name not in unset})
    known.update({name: False for name in unset})
    known.nones = constants.nones | unset
    return known


def _unset_none_params(ctx: RuleContext, info: FunctionInfo) -> frozenset[str]:
    function = info.node
    assert isinstance(function, cst.FunctionDef)
    params = function.params
    # Cheap first: a parameter defaulting to `None` that an `if` of the body tests.
    candidates = {param.name.value for param in (*params.params, *params.kwonly_params)
                  if isinstance(param.default, cst.Name) and param.default.value == "None"}
    candidates &= names_tested(function)
    candidates = {name for name in candidates if len(info.scope.bindings.get(name, ())) == 1}
    if not candidates:
        return frozenset()
    if info.scope.owner is not None and _named_elsewhere(ctx, function.name.value):
        return frozenset()  # a method other files may call with anything
    invocations = ctx.inference.invocations_of(function)
    if not invocations:
        return frozenset()  # not all calls seen, or none: a caller unseen may give it
    for invocation in invocations:
        call = invocation.site.node
        if any(arg.star for arg in call.args):
            return frozenset()
        given = {param.name.value for param, _ in bind_arguments(function, call, invocation.bound)}
        candidates -= given
        if not candidates:
            break
    return frozenset(candidates)


def _named_elsewhere(ctx: RuleContext, name: str) -> bool:
    """Whether a project file other than this one names `name` (True when that cannot be
    told: the project is too large to read)."""
    project = ctx.inference.project
    texts = project.project_texts() if project is not None else None
    if texts is None:
        return project is not None
    here = Path(ctx.filename).resolve()
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(name in text and word.search(text) and path.resolve() != here
               for path, text in texts.items())
