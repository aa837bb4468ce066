"""OPT010 is-array-like-filter: `eqx.filter(model, eqx.is_array_like)` as an optimizer's params.

`eqx.is_array_like` keeps Python floats, ints and bools (`eqx.nn.Dropout`'s `p` and `inference`),
so `opt.init` gives them optimizer state. `eqx.filter_grad` differentiates inexact arrays only: their
gradients are None, and `update` then raises (`ValueError: pytree structure error` in adam's
moments on jax 0.10; `TypeError: where requires ndarray` on older stacks), or, with `jax.grad` over
the partitioned params, a float field is silently trained. `eqx.is_inexact_array` keeps what
`filter_grad` differentiates; `eqx.is_array` would still keep an int array (a step counter) and
fail the same way (measured on jax 0.10.2, equinox 0.13.8, optax 0.2.8).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.library_names import EQUINOX_FILTER_CALLS as _FILTERS, EQUINOX_IS_ARRAY_LIKE
from optlint.analysis.optax_model import (
    fails_on_python_scalars,
    python_scalar_failer,
    rejects_non_array_params,
)
from optlint.analysis.values import ModuleValue, TransformValue, Value, holds_python_scalars
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck


class IsArrayLikeFilter(Rule):
    code = "OPT010"
    # The default params exercise trains with gradients of the arrays only (None at the Python
    # scalars, as eqx.filter_grad gives): the original raises in `update`, the fix runs.
    runtime_check = RuntimeCheck("params")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        optax_version = ctx.versions.get("optax").version
        reported: set[int] = set()
        for site in ctx.calls_where(("init", "update")):
            call = site.node
            func = call.func
            if not isinstance(func, cst.Attribute) or func.attr.value not in ("init", "update"):
                continue
            method = func.attr.value
            if method == "init":
                if len(call.args) != 1 or call.args[0].keyword is not None:
                    continue
                params_arg: cst.Arg | None = call.args[0]
            else:
                params_arg = argument(call, 2, "params")
            if params_arg is None:
                continue
            params = ctx.value(params_arg.value, site)
            if not (isinstance(params, ModuleValue) and params.derived_by in _FILTERS
                    and params.made_by is not None and id(params.made_by) not in reported):
                continue
            if params.kept != "array_like":
                continue
            # The filter spec, when the filter call is in this file (else the finding is at the
            # optimizer's call, without a fix).
            spec_arg = argument(params.made_by, 1, "filter_spec")
            spec = spec_arg.value if spec_arg is not None and ctx.site_of(
                params.made_by) is not None else None
            model = params.source
            if model is None or not (model.leaves.kind in ("scalar", "unknown")
                                     or _known_scalars(model)):
                continue  # arrays only: nothing extra is kept; functions: is_array_like drops them
            optimizer = ctx.value(func.value, site)
            if method == "init":
                harmful = fails_on_python_scalars(optimizer, optax_version)
            else:
                harmful = rejects_non_array_params(optimizer, optax_version)
            if harmful is False:
                continue
            reported.add(id(params.made_by))
            finding = self._finding(ctx, spec, params.made_by, model, optimizer, method,
                                    harmful is True, call)
            finding.roles["call"] = call
            yield finding

    def _finding(self, ctx: RuleContext, spec: cst.BaseExpression | None, made_by: cst.Call,
                 model: ModuleValue, optimizer: Value, method: str, proven: bool,
                 call: cst.Call) -> Finding:
        eqx = ctx.import_alias("equinox", "eqx")
        part = python_scalar_failer(optimizer) if method == "init" else None
        who = f"`{part}`" if part else _optimizer_phrase(optimizer)
        if method == "init":
            harm = (f"{who} keeps state for them but their gradients are None "
                    f"(`{eqx}.filter_grad`), so training raises (`update`: ValueError, pytree "
                    f"structure error)")
        else:
            harm = f"{who} reads params in `update` and raises on their None gradients"
        if model.leaves.kind == "scalar":
            kept = (f"keeps the Python scalars of {model.class_name}"
                    + (f" ({model.leaves.reason})" if model.leaves.reason else ""))
        elif _known_scalars(model):
            types = ", ".join(sorted(_known_scalars(model)))
            kept = (f"drops the functions of {model.class_name} but keeps its Python scalars "
                    f"({types})")
        else:
            kept = (f"keeps any Python scalars of {model.class_name} (its fields could not all "
                    f"be resolved)")
        if spec is None:
            # The filter is in another file: its code is not this file's to quote or edit.
            message = (f"The params given to `{method}` come from an `eqx.filter`/`partition` "
                       f"with an `is_array_like` filter (in another file), which {kept}: "
                       f"{harm}")
            fix = None
        else:
            message = (f"`{ctx.code(made_by.func)}(..., {ctx.code(spec)})` {kept} in the "
                       f"params given to `{method}`: {harm}")
            # `qx.is_array_like` keeps its module's spelling; anything else (a from-import, a
            # name bound to it, a lambda) becomes the file's alias.
            spelled = (isinstance(spec, cst.Attribute)
                       and ctx.qualify(spec) == EQUINOX_IS_ARRAY_LIKE)
            prefix = ctx.code(spec.value) if spelled and isinstance(spec, cst.Attribute) else eqx
            fix = FixPlan("safe", f"Filter with `{prefix}.is_inexact_array`",
                          [(spec, f"{prefix}.is_inexact_array")],
                          [] if spelled else [("equinox", eqx)])
        unseen = None
        if _known_scalars(model) and model.leaves.kind == "callable":
            unseen = None if proven else (
                "whether every part of this optimizer keeps state for Python scalars")
        elif model.leaves.kind != "scalar" or not holds_python_scalars(model):
            unseen = ("which of the module's fields are Python scalars without gradients"
                      if model.leaves.kind == "scalar" else
                      "whether the module holds Python scalars")
        elif not proven:
            unseen = "whether every part of this optimizer keeps state for Python scalars"
        return Finding(spec if spec is not None else call, message, fix, unproven=unseen,
                       fix_title=None if fix is not None else (
                           f"Filter with `{eqx}.is_inexact_array` where the params are built"))


def _known_scalars(model: ModuleValue) -> frozenset[str]:
    """The Python scalar types the module is known to hold besides its functions (an
    `eqx.nn.Dropout`'s float `p` and bool `inference` next to an MLP's activation): what a filter
    keeping arrays and scalars keeps once the functions are dropped."""
    types = model.leaves.scalar_types - {"branch"}
    return types if model.leaves.kind == "callable" else frozenset()


def _optimizer_phrase(optimizer: Value) -> str:
    if isinstance(optimizer, TransformValue):
        return f"`{optimizer.name}`"
    return "the optimizer"
