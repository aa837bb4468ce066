"""OPT018 low-precision-hyperparams: `inject_hyperparams(...)` without `hyperparam_dtype` for
params that are all bfloat16 or float16.

Without `hyperparam_dtype`, inject_hyperparams stores every float hyperparameter in the params'
dtype (the first leaf's dtype up to optax 0.2.7, the highest one from 0.2.8). In bfloat16,
`b2=0.999` is exactly 1.0: Adam's second-moment average never moves from zero and its bias
correction divides by 1 - 1**t = 0, so every update is NaN from the first step (measured on optax
0.2.8). In float16, `eps=1e-8` is 0.0: an update is NaN wherever a gradient is exactly zero.
`hyperparam_dtype=jnp.float32` (every optax version) keeps them.

Without inject_hyperparams, adam-type optimizers (Transform.decay_in_params_dtype) keep their
second moment in the params' dtype and apply b2 there: in bfloat16, 0.999 is 1.0 and the second
moment stops being an average (measured on optax 0.2.8: after 3,000 steps of a constant gradient
adam's updates are 1.65x those on float32 params). That finding has no automatic fix.

Reported only where the params given to `init` are proven low precision (`astype`, a `dtype=` on
the constructors, a casting `tree.map`) and some hyperparameter, given or by its default, changes
meaning (becomes 1.0 or 0.0); mixed precision that keeps float32 params is not reported.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.dtypes import low_precision
from optlint.analysis.library_names import JAX_NUMPY, OPTAX_INJECT_FACTORIES as _INJECT
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import (
    InjectFactory,
    LibraryRef,
    OneOf,
    PartialValue,
    TransformValue,
)
from optlint.context import RuleContext
from optlint.fixes import with_keyword
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

_EFFECTS = {
    ("b2", 1.0): ", so the second-moment average never moves (measured with adam: NaN updates "
                 "from the first step)",
    ("eps", 0.0): ", so an update is NaN wherever a gradient is exactly 0 (0/0; measured with "
                  "adam)",
}


def rounded(value: float, dtype: str) -> float:
    """`value` stored in bfloat16 or float16 (round to nearest even)."""
    if dtype == "float16":
        try:
            return float(struct.unpack("<e", struct.pack("<e", value))[0])
        except OverflowError:
            return float("inf")
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


class LowPrecisionHyperparams(Rule):
    code = "OPT018"
    runtime_check = RuntimeCheck("transform", probe="optimizer_states:hyperparams_keep_precision")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        reported: set[int] = set()
        for site in ctx.calls_where(("init",)):
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "init"
                    and site.node.args):
                continue
            optimizer = ctx.value(func.value, site)
            options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
            parts = [part for option in options if isinstance(option, TransformValue)
                     for part in option.walk()]
            injects = [part for part in parts if part.name in _INJECT]
            # What inject_hyperparams wraps is its finding's (the stored hyperparameters).
            injected = {id(inner) for inject in injects for inner in inject.walk()[1:]}
            decaying = [part for part in parts if _decay_in_params_dtype(part)
                        and id(part) not in injected]
            if not injects and not decaying:
                continue
            params = site.node.args[0].value
            dtype = low_precision(ctx.inference, params, site.scope, site.order)
            if dtype is None:
                continue
            for part in decaying:
                if part.call is None or id(part.call) in reported:
                    continue
                found = self._moment_finding(ctx, part, dtype, params)
                if found is not None:
                    reported.add(id(part.call))
                    yield found
            for inject in injects:
                if inject.call is None or id(inject.call) in reported:
                    continue
                finding = self._finding(ctx, inject, dtype, params)
                if finding is not None:
                    reported.add(id(inject.call))
                    yield finding

    def _finding(self, ctx: RuleContext, inject: TransformValue, dtype: tuple[str, cst.CSTNode],
                 params: cst.BaseExpression) -> Finding | None:
        assert inject.call is not None
        site = ctx.site_of(inject.call)
        if site is None:
            return None  # built in another file: its call is not ours to edit
        factory = ctx.value(inject.call.func, site)
        if isinstance(factory, PartialValue) and isinstance(factory.func, InjectFactory):
            factory = factory.func
        if not isinstance(factory, InjectFactory) or factory.call is None:
            return None
        if _given(factory.call, "hyperparam_dtype"):
            return None
        changed = _changed(inject.call, factory, dtype[0])
        if not changed:
            return None
        name, value, stored = changed[0]
        effect = _EFFECTS.get((name, stored), "")
        more = f" (and {', '.join(f'{n}={v:g} becomes {s:g}' for n, v, s in changed[1:])})" if (
            len(changed) > 1) else ""
        where = ctx.code(params)
        cause = " ".join(ctx.code(dtype[1]).split())
        cause = cause if len(cause) <= 50 else cause[:47] + "..."
        message = (f"inject_hyperparams stores its hyperparameters in the params' dtype, and "
                   f"`{where}` is {dtype[0]} (`{cause}`): {name}={value:g} becomes exactly "
                   f"{stored:g}{effect}{more}")
        jnp = ctx.import_alias(JAX_NUMPY, "jnp")
        fix = FixPlan("safe", f"Add hyperparam_dtype={jnp}.float32",
                      [(factory.call, ctx.code(with_keyword(factory.call, "hyperparam_dtype",
                                                            f"{jnp}.float32")))],
                      [(JAX_NUMPY, jnp)])
        return Finding(factory.call, message, fix, roles={"call": factory.call})


    def _moment_finding(self, ctx: RuleContext, part: TransformValue,
                        dtype: tuple[str, cst.CSTNode], params: cst.BaseExpression
                        ) -> Finding | None:
        """A plain optimizer (no inject_hyperparams) whose moment decay, applied in the params'
        low-precision dtype, becomes 1.0 (Transform.decay_in_params_dtype)."""
        assert part.call is not None
        if ctx.site_of(part.call) is None:
            return None  # built in another file
        row = behaviour(part.name)
        if row is None:
            return None
        name = row.decay_in_params_dtype
        value = dict(row.float_defaults).get(name)
        given = argument(part.call, None, name)
        if any(arg.star for arg in part.call.args):
            return None
        if given is not None:
            value = _number(given.value)
        if value is None or rounded(value, dtype[0]) != 1.0 or value == 1.0:
            return None
        cause = " ".join(ctx.code(dtype[1]).split())
        cause = cause if len(cause) <= 50 else cause[:47] + "..."
        short = part.name.rsplit(".", 1)[-1]
        message = (f"`{short}` keeps its second moment in the params' dtype and applies "
                   f"{name}={value:g} there, and `{ctx.code(params)}` is {dtype[0]} (`{cause}`): "
                   f"{name} is applied as exactly 1.0, so the second moment stops being an "
                   f"average (measured with adam: after 3,000 steps of a constant gradient the "
                   f"updates are 1.65x those of float32 params)")
        advice = (f"Keep float32 params for the optimizer (cast to {dtype[0]} in the forward "
                  f"pass only)")
        return Finding(part.call, message, fix_title=advice, roles={"call": part.call})


def _decay_in_params_dtype(part: TransformValue) -> bool:
    row = behaviour(part.name)
    return row is not None and bool(row.decay_in_params_dtype)


def _changed(call: cst.Call, factory: InjectFactory,
             dtype: str) -> list[tuple[str, float, float]]:
    """The float hyperparameters (given as literals, or the inner factory's defaults from the
    table) whose stored value becomes 1.0 or 0.0 in `dtype`."""
    values: dict[str, float] = {}
    inner = factory.inner
    if isinstance(inner, LibraryRef):
        row = behaviour(inner.name)
        if row is not None:
            values.update(row.float_defaults)
    static = factory.static_args or ()
    for arg in call.args:
        if arg.keyword is None:
            continue
        number = _number(arg.value)
        name = arg.keyword.value
        if number is not None:
            values[name] = number
        else:
            values.pop(name, None)  # given otherwise: a schedule, a name
    changed = []
    for name, value in values.items():
        if name in static or value in (0.0, 1.0):
            continue
        stored = rounded(value, dtype)
        if stored in (0.0, 1.0):
            changed.append((name, value, stored))
    return changed


def _number(expr: cst.BaseExpression) -> float | None:
    sign = 1.0
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        sign, expr = -1.0, expr.expression
    if isinstance(expr, (cst.Integer, cst.Float)):
        try:
            return sign * float(expr.value.replace("_", ""))
        except ValueError:
            return None
    return None


def _given(call: cst.Call, name: str) -> bool:
    if any(arg.star for arg in call.args):
        return True  # `**kwargs` may give it
    return argument(call, 2, name) is not None if _is_inject(call) else (
        argument(call, None, name) is not None)


def _is_inject(call: cst.Call) -> bool:
    func = call.func
    return isinstance(func, (cst.Attribute, cst.Name)) and (
        (func.attr.value if isinstance(func, cst.Attribute) else func.value) in (
            "inject_hyperparams", "inject_stateful_hyperparams"))
