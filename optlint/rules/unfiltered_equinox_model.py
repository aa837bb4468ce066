"""OPT003 unfiltered-equinox-model: an Equinox module with non-array leaves handed to Optax.

`optax.adam(...).init(model)` builds optimizer state with `zeros_like` on every leaf; an activation
function stored in the model (as `eqx.nn.MLP` does) is not an array, so it raises. Filtering the
model with `eqx.filter(model, eqx.is_array)` keeps the arrays and replaces the rest with None.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.library_names import OPTAX_APPLY_UPDATES
from optlint.analysis.linesearch import linesearch_part
from optlint.analysis.optax_model import (
    keeps_param_state,
    params_reader,
    rejects_non_array_params,
    stateful_part,
)
from optlint.analysis.values import (
    Consumer,
    ModuleValue,
    OneOf,
    TransformValue,
    Unknown,
    Value,
    proven_leaves,
    unfiltered_module,
)
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.rule_helpers.phrases import leaves_phrase


class UnfilteredEquinoxModel(Rule):
    code = "OPT003"
    runtime_check = RuntimeCheck("params")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        optax_version = ctx.versions.get("optax").version
        # Read at most once per file, when a finding needs it: every call of the file is looked at.
        filtered: list[bool] = []

        def filtered_gradients() -> bool:
            if not filtered:
                filtered.append(_filtered_gradients(ctx))
            return filtered[0]

        for site in ctx.calls_where(("init", "update"), OPTAX_APPLY_UPDATES.__eq__):
            call = site.node
            func = call.func
            if ctx.qualify(func) == OPTAX_APPLY_UPDATES:
                model_arg = argument(call, 0, "params")
                if model_arg is not None:
                    module = unfiltered_module(ctx.value(model_arg.value, site))
                    if module is not None:
                        yield self._apply_updates_finding(ctx, call, module)
                continue
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
            module = unfiltered_module(ctx.value(params_arg.value, site))
            if module is None:
                continue
            optimizer = ctx.value(func.value, site)
            # L-BFGS and line searches are OPT005's: their fix also has to mind `value_fn`.
            if not _may_be_optax(optimizer) or linesearch_part(optimizer) is not None:
                continue
            if method == "init":
                harmful = keeps_param_state(optimizer, optax_version)
            else:
                harmful = rejects_non_array_params(optimizer, optax_version)
            if harmful is not False:
                yield self._params_finding(ctx, call, params_arg.value, module, optimizer,
                                           harmful is True, filtered_gradients)

    def _params_finding(self, ctx: RuleContext, call: cst.Call, node: cst.BaseExpression,
                        module: ModuleValue, optimizer: Value, proven: bool,
                        filtered_gradients: Callable[[], bool]) -> Finding:
        assert isinstance(call.func, cst.Attribute)
        method = call.func.attr.value
        eqx = ctx.import_alias("equinox", "eqx")
        what = _optimizer_phrase(optimizer)
        if method == "init":
            inner = stateful_part(optimizer)
            if inner is not None and not (isinstance(optimizer, TransformValue)
                                          and optimizer.name == inner):
                what = f"`{inner}` in it"
            harm = (f"{what} builds per-parameter state (`zeros_like`) over every leaf "
                    f"and raises TypeError on a function")
            if module.leaves.kind == "scalar":
                harm = (f"{what} gives those scalars optimizer state; their gradients are None "
                        f"(eqx.filter_grad) or rejected (jax.grad on an int or bool), so training fails")
        else:
            reader = params_reader(optimizer)
            if reader is not None:
                what = f"`{reader[0]}`"
            where = f"on {reader[1]}; " if reader is not None else ""
            does = reader[2] if reader is not None else "reads params"
            harm = (f"{what} {does} in `update` and raises on those leaves "
                    f"({where}{ctx.versions.describe('optax')})")
            if not proven:
                harm = (f"if {what} reads params in `update` (`lamb`; `adamw` before optax "
                        f"0.2.4), it raises on those leaves")
        message = (f"`{method}` is given Equinox module {module.class_name}, which "
                   f"{leaves_phrase(module)}: {harm}")
        filtered = f"{eqx}.filter({ctx.code(node)}, {eqx}.is_array)"
        fix = FixPlan("safe", f"Filter with `{eqx}.filter(..., {eqx}.is_array)`",
                      [(node, filtered)], [("equinox", eqx)])
        unseen = _unseen(module, optimizer, method, proven,
                         method == "init" and filtered_gradients())
        return Finding(node, message, fix, unproven=unseen, roles={"call": call})

    def _apply_updates_finding(self, ctx: RuleContext, call: cst.Call,
                               module: ModuleValue) -> Finding:
        eqx = ctx.import_alias("equinox", "eqx")
        message = (f"`optax.apply_updates` is given Equinox module {module.class_name}, which "
                   f"{leaves_phrase(module)}: with filtered updates it raises TypeError")
        fix = FixPlan("safe", f"Use `{eqx}.apply_updates`", [(call.func, f"{eqx}.apply_updates")],
                      [("equinox", eqx)])
        unseen = None if proven_leaves(module) else "which of its leaves are not arrays"
        return Finding(call, message, fix, unproven=unseen, roles={"call": call})


def _may_be_optax(value: object) -> bool:
    """An Optax transformation, or something we cannot see (a parameter, a config attribute)."""
    return isinstance(value, (TransformValue, OneOf, Unknown))


def _optimizer_phrase(optimizer: Value) -> str:
    if isinstance(optimizer, TransformValue):
        return f"`{optimizer.name}`"
    return "the optimizer"


def _filtered_gradients(ctx: RuleContext) -> bool:
    """The file takes gradients with Equinox's filtered functions only (no jax.grad): a float
    leaf gets a None gradient there, which the optimizer's state does not match."""
    names = {ctx.qualify(site.node.func) for site in ctx.calls()}
    return bool(names & apis.FILTERED_GRADIENTS) and not names & apis.JAX_GRADIENTS


def _unseen(module: ModuleValue, optimizer: Value, method: str, proven: bool,
            filtered_gradients: bool = False) -> str | None:
    """What the analysis could not see, for a finding that rests on it; None when proven."""
    consumer: Consumer = "optimizer_filter_grad" if filtered_gradients else "optimizer"
    if not proven_leaves(module, consumer):
        return "which of the module's leaves are not arrays"
    if proven:
        return None
    if isinstance(optimizer, Unknown):
        return "which optimizer this is"
    return ("whether every part of this optimizer keeps per-parameter state" if method == "init"
            else "whether this optimizer reads params in `update` on your optax")
