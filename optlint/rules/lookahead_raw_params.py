"""OPT012 lookahead-raw-params: `optax.lookahead` updated with plain params.

`lookahead`'s `update` reads `params.fast` and `params.slow`: it needs `optax.LookaheadParams`
(`LookaheadParams.init_synced(params)` once, then the whole `LookaheadParams` trained with
`apply_updates`, gradients taken at `params.fast`). Given a plain dict, array or Equinox model it
raises `AttributeError: ... has no attribute 'fast'` (measured on optax 0.2.8; the code is the same
since optax 0.1.4). Its `init` accepts plain params (a logged warning, then it takes them as the
fast ones), so only `update` is reported.
"""

from __future__ import annotations

from collections.abc import Iterator


from optlint.analysis.binding import argument
from optlint.analysis.library_names import OPTAX_LOOKAHEAD
from optlint.analysis.optax_model import update_reaches
from optlint.analysis.values import (
    ArrayValue,
    DictValue,
    ModuleValue,
    OneOf,
    ParamTree,
    SequenceValue,
    TransformValue,
    Value,
)
from optlint.context import RuleContext
from optlint.rules.base import Finding, Rule, RuntimeCheck


class LookaheadRawParams(Rule):
    code = "OPT012"
    runtime_check = RuntimeCheck("params", probe="update_arguments:update_as_written")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        version = ctx.versions.get("optax").version
        for site, optimizer in ctx.method_invocations("update"):
            call = site.node
            params = argument(call, 2, "params")
            if params is None:
                continue  # no params at all: OPT007's
            plain = _plain(ctx.value(params.value, site))
            if plain is None:
                continue
            if not isinstance(optimizer, (TransformValue, OneOf)):
                continue
            proven, _ = update_reaches(optimizer, lambda row: row.name == OPTAX_LOOKAHEAD,
                                       version)
            if proven is not True:
                continue
            optax = ctx.import_alias("optax", "optax")
            yield Finding(params.value, (
                f"`optax.lookahead`'s `update` is given {plain}, not `{optax}.LookaheadParams`: it "
                f"raises AttributeError (no attribute 'fast') on the first call"), fix_title=(
                f"Build the params once with `{optax}.LookaheadParams.init_synced(params)`, train "
                f"that object (gradients at `params.fast`, `{optax}.apply_updates` on the whole "
                f"of it) and evaluate `params.slow`"), roles={"call": call})


def _plain(value: Value) -> str | None:
    """How to name params that are evidently not LookaheadParams, or None."""
    if isinstance(value, OneOf):
        described = [_plain(option) for option in value.options]
        if not described or any(item is None for item in described):
            return None
        return described[0]
    if isinstance(value, ModuleValue):
        return (f"Equinox module {value.class_name}" if value.derived_by is None
                else f"a pytree of Equinox module {value.class_name} (`{value.derived_by}`)")
    if isinstance(value, DictValue):
        return "a dict"
    if isinstance(value, ParamTree):
        return f"the {value.library.capitalize()} parameters (a dict)"
    if isinstance(value, SequenceValue):
        return f"a {value.kind}"
    if isinstance(value, ArrayValue):
        return "an array"
    return None
