"""A call of a `functools.partial` of a function of the file: `g = jax.jit(partial(f, puzzle,
model))` then `g(params, key)` runs `f(puzzle, model, params, key)`, so the call's arguments
bind `f`'s parameters after the ones the partial binds. Where `f` consumes the parameter a key
fills, the call consumes that key, as a call of `f` itself would (JAxtar's
`jited_get_datasets(..., key)` after a scan had split `key`). Jitting the partial changes
nothing: the compiled function draws from the key it is given.

Only the keys the call itself passes are followed here; a key the partial binds is one key
given to every call (`key_bound_partials.py`, `key_batched_partials.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_model_objects import STEPPING
from optlint.analysis.key_project_calls import param_use
from optlint.analysis.values import FunctionValue, PartialValue, TransformedFunction

if TYPE_CHECKING:
    from optlint.analysis.index import CallSite
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.analysis.prng_keys import Consumption


class PartialCalls:
    """What a call of a partial of a function of the file consumes."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        # The call each partial call runs, by the partial call's id: (`f`, `f(...)`, bound).
        self.runs: dict[int, tuple[cst.FunctionDef, cst.Call, bool]] = {}

    def consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        value = self.ctx.value(call.func, site)
        stepping = False
        while isinstance(value, TransformedFunction) and value.transform in STEPPING:
            value, stepping = value.func, True  # `jax.jit(partial(f, ...))`
        if not isinstance(value, PartialValue):
            return []
        made, wrapped = value.call, value.func
        if (not isinstance(wrapped, FunctionValue) or not isinstance(wrapped.node, cst.FunctionDef)
                or wrapped.node not in self.ctx.index.functions
                or any(arg.star for arg in (*made.args, *call.args))):
            return []
        function = wrapped.node
        flow = self.calls.summary(function)
        if flow is None or not flow.consumed_params:
            return []
        # The call `f` runs: the partial's positionals, the call's, then every keyword.
        bound = [arg for arg in made.args[1:] if arg.keyword is None]
        keywords = [arg for arg in made.args[1:] if arg.keyword is not None]
        given = [arg for arg in call.args if arg.keyword is None]
        runs = call.with_changes(args=[*bound, *given, *keywords,
                                       *(arg for arg in call.args if arg.keyword is not None)])
        own = {id(arg.value) for arg in call.args}
        self.runs[id(call)] = (function, runs, wrapped.bound)
        how = self.calls.callee(call)
        return [param_use(call, expr, how, stepping, param.name.value, flow, function)
                for param, expr in bind_arguments(function, runs, wrapped.bound)
                if id(expr) in own and param.name.value in flow.consumed_params]

    def surely_consumes(self, use: Consumption) -> bool:
        """`use` is a partial call's, whose function consumes the key on every path (as
        `FileKeyCalls.surely_consumes` asks of a call of the function itself)."""
        known = self.runs.get(id(use.call))
        if known is None:
            return False
        function, runs, bound = known
        flow = self.calls.summary(function)
        return flow is not None and any(
            expr is use.key and param.name.value not in flow.not_surely
            for param, expr in bind_arguments(function, runs, bound))
