"""Keys consumed by a function a transformation runs many times: a `jax.lax.scan` /
`fori_loop` / `while_loop` body drawing from a key it closes over or carries back unchanged, a
function batched by `jax.vmap` / `pmap` with its key broadcast or replicated, a function
`tree_map`ped over leaves closing over a key, and Haiku / Flax NNX batching that gives every
row the same rng stream. Each is one key drawn from on every step or row."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument, bind_arguments
from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.key_consumers import (
    AXES_KEYWORDS,
    BATCHING,
    CALLED_ONCE,
    ITEM_MAPS,
    LOOP_BODIES,
    REPEATING_ITERABLES,
    REPLICATING,
    REPLICATING_NAMES,
    STACKING,
    STATEFUL_BATCHING,
    STREAM_BROADCASTS,
    STREAM_LAYERS,
    TREE_MAPS,
)
from optlint.analysis.key_batched_args import (
    BROADCAST,
    MAPPED,
    axes_by_position,
    decorated_batching,
    decorated_def,
    in_axes_expression,
    mapped_partial,
)
from optlint.analysis.key_batched_partials import BatchedPartials
from optlint.analysis.key_carried_in import carried_in
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_syntax import own_method, target_names
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import (
    FunctionValue,
    InstanceValue,
    ModuleValue,
    PartialValue,
    TransformedFunction,
)

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


class TransformedKeyCalls:
    """The transformed calls of one file, read with the file's summaries (`calls`)."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self.sites = calls.sites
        # The file's calls found to be none of these (asked again by every walk that meets
        # them): by id.
        self._plain: set[int] = set()

    def _function_arg(self, call: cst.Call, position: int, keyword: str
                      ) -> cst.FunctionDef | None:
        arg = argument(call, position, keyword)
        site = self.sites.get(id(call))
        if arg is None or site is None:
            return None
        value = self.ctx.value(arg.value, site)
        if isinstance(value, TransformedFunction):
            value = value.func
        if isinstance(value, ModuleValue) and value.cls is not None:
            value = InstanceValue(value.cls.info, value.cls.path)
        if isinstance(value, InstanceValue) and value.path == self.ctx.inference.path:
            method = own_method(value.info, "__call__")  # a model vmapped: its `__call__`
            if method is not None:
                value = FunctionValue(method, bound=True)
        if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
                and value.node in self.ctx.index.functions):
            return value.node
        return None

    def _tree_mapped(self, call: cst.Call, qualified: str) -> list[Consumption]:
        """`tree_map(lambda leaf: ... normal(key, ...), tree)`: a key the mapped function closes
        over is drawn from once per leaf, the same numbers for every leaf."""
        arg = argument(call, 0, "f")
        function: cst.CSTNode | None = arg.value if arg is not None else None
        site = self.sites.get(id(call))
        if isinstance(function, cst.Name) and site is not None:
            binding = self.ctx.binding(function.value, site)
            function = (binding.value if binding is not None and not binding.path
                        and isinstance(binding.value, cst.Lambda) else
                        binding.node if binding is not None
                        and isinstance(binding.node, cst.FunctionDef) else None)
        if isinstance(function, cst.Lambda):
            flow: KeyFlow | None = self._lambda_flow(function)
        elif isinstance(function, cst.FunctionDef) and self.calls.nested(function):
            flow = self.calls.summary(function)
        else:
            return []
        if flow is None:
            return []
        return self._closed_over(call, flow, f"{qualified} (a key closed over)")

    def _lambda_flow(self, function: cst.Lambda) -> KeyFlow:
        flow = KeyFlow(self.calls.consumer, [param.name.value for param in (
            *function.params.posonly_params, *function.params.params,
            *function.params.kwonly_params)])
        flow.run_expression(function.body)
        return flow

    def _closed_over(self, call: cst.Call, flow: KeyFlow, over: str) -> list[Consumption]:
        """The keys a function run once per leaf or row (`flow`, its walk) draws from without
        being given them: each is drawn from by `call`, and again on every leaf or row."""
        uses = []
        for inner in flow.free_consumed().values():
            if inner.repeated or inner.kind == "fold":
                continue
            uses.append(Consumption(call, inner.key, self.calls.callee(call), library=False,
                                    unseen=inner.unseen))
            # Reported at the draw, where each leaf needs a key of its own.
            uses.append(Consumption(inner.call, inner.key, self.calls.callee(inner.call),
                                    library=False, repeated=True, repeated_by=call,
                                    unseen=inner.unseen, over=over))
        return uses

    def consumptions(self, call: cst.Call) -> list[Consumption] | None:
        """A `jax.lax` loop or a batching transformation applied to a project function: the
        keys its body consumes once per step or per row (None: not such a call)."""
        if id(call) in self._plain:
            return None
        site = self.sites.get(id(call))
        qualified = aliased_qualify(self.ctx, call.func, site) if site is not None else None
        if qualified in TREE_MAPS:
            return self._tree_mapped(call, qualified)
        if qualified in LOOP_BODIES:
            position, carry = LOOP_BODIES[qualified]
            given = argument(call, position, "body_fun" if position else "f")
            if given is not None and isinstance(given.value, cst.Lambda):
                # `lax.map(lambda x: draw(x, key), xs)`: the key it closes over, every step.
                return self._closed_over(call, self._lambda_flow(given.value),
                                         f"{qualified} (a key closed over)")
            body = self._function_arg(call, position, "body_fun" if position else "f")
            flow = self.calls.summary(body) if body is not None else None
            if body is None or flow is None:
                return []
            uses = self._closure_uses(call, body, flow, qualified)
            if carry is not None:
                # The carry handed back with a key the step consumed: the next step draws again.
                split = {id(use) for made in flow.derived_uses.values() for use in made}
                uses += [replace(inner, repeated=True, over=qualified,
                                 carried_on=id(inner) in split)
                         for path, inner in flow.returned.items()
                         if path[:len(carry)] == carry and not inner.repeated]
                uses += carried_in(call, body, flow, qualified, self.calls.callee(call))
            return uses
        if site is not None and _item_map(self.ctx, call, site):
            return self._item_mapped(call, site)
        if isinstance(call.func, cst.Call) and self.ctx.qualify(call.func.func) in CALLED_ONCE:
            given = argument(call.func, 0, "fun")
            if given is not None and isinstance(given.value, cst.Lambda):
                # `jax.grad(lambda p: loss(p, key))(params)`: the lambda runs once, here.
                return [Consumption(call, inner.key, self.calls.callee(inner.call),
                                    library=False, unseen=inner.unseen, proof=inner.proof)
                        for inner in self._lambda_flow(given.value).free_consumed().values()
                        if not inner.repeated]
        stream = self._stream_broadcast(call)
        if stream is not None:
            return stream
        made = self._batching(call)
        if made is None:
            if site is not None:  # what makes it none of these is fixed for the file's run
                self._plain.add(id(call))
            return None
        batching, transform = made
        function = self._function_arg(transform, 0, "fun")
        if function is None and transform.args and transform.args[0].value is call.func:
            function = decorated_def(self.ctx, call, site)  # `@partial(jax.vmap, ...)` def
        if function is None:
            given = argument(transform, 0, "fun")
            if given is not None and isinstance(given.value, cst.Lambda):
                # `vmap(lambda x: draw(key, x))(xs)`: the key it closes over, in every row.
                return self._closed_over(call, self._lambda_flow(given.value),
                                         f"{batching} (a key closed over)")
            partial = mapped_partial(self.ctx, transform, site) if site is not None else None
            if partial is not None:
                return BatchedPartials(self.calls).consumptions(call, batching, *partial)
            return self._given_batched(call, batching, transform)
        flow = self.calls.summary(function)
        if flow is None:
            return []
        # Reported at the batched call, where the key is handed to every row.
        uses = [replace(use, call=call, how=use.how if not use.repeated else self.calls.callee(
            use.call)) for use in self._closure_uses(call, function, flow, batching)]
        axes = axes_by_position(in_axes_expression(
            self.ctx, transform, BATCHING[batching], site,
            AXES_KEYWORDS.get(batching, "in_axes")), len(call.args), self.ctx)
        info = self.ctx.index.functions.get(function)
        method = info is not None and info.scope.owner is not None
        for param, expr in bind_arguments(function, call, method):
            inner = flow.param_uses.get(param.name.value)
            index = next((i for i, a in enumerate(call.args) if a.value is expr), None)
            if inner is None or index is None:
                continue
            replicated = self._replicated(expr, call)
            if axes[index] == MAPPED and replicated is None:
                # Each row draws from its own key of the batch: the batch is consumed once,
                # by what draws in each row.
                uses.append(Consumption(call, expr, inner.how, library=False,
                                        unseen=inner.unseen, proof=inner.proof))
                continue
            if axes[index] != BROADCAST and replicated is None:
                continue
            uses.append(Consumption(call, replicated or expr, self.calls.callee(call),
                                    library=False, unseen=inner.unseen))
            uses.append(Consumption(call, replicated or expr, self.calls.callee(inner.call),
                                    library=False, repeated=True, unseen=inner.unseen,
                                    over=f"{batching} " + (
                                        "(a replicated key)" if replicated is not None
                                        else "(in_specs=P())" if batching in AXES_KEYWORDS
                                        else "(in_axes=None)")))
        return uses

    def _item_mapped(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        """`map(f, jobs, [seed] * n)`: `f` runs once per item, and an iterable that repeats one
        key or seed gives every run the same one; where `f` consumes that parameter, every item
        draws the same numbers."""
        if not call.args or any(arg.keyword is not None or arg.star for arg in call.args):
            return []
        mapped = self.ctx.value(call.args[0].value, site)
        fixed, keywords = 0, set()
        if isinstance(mapped, PartialValue):  # `partial(f, a, k=v)`: `a` fills f's first
            given = mapped.call.args[1:]
            if any(arg.star for arg in given):
                return []
            fixed = sum(1 for arg in given if arg.keyword is None)
            keywords = {arg.keyword.value for arg in given if arg.keyword is not None}
            mapped = mapped.func
        if (not isinstance(mapped, FunctionValue) or not isinstance(mapped.node, cst.FunctionDef)
                or mapped.node not in self.ctx.index.functions):
            return []
        function = mapped.node
        flow = self.calls.summary(function)
        if flow is None:
            return []
        params = [*function.params.posonly_params, *function.params.params][
            1 if mapped.bound else 0:]
        uses = []
        for index, arg in enumerate(call.args[1:]):
            position = fixed + index
            if position >= len(params) or params[position].name.value in keywords:
                break
            inner = flow.param_uses.get(params[position].name.value)
            repeated = None if inner is None else _repeated_item(self.ctx, arg.value, site)
            if inner is None or repeated is None:
                continue
            how = function.name.value
            proof = f"`{self.ctx.code(arg.value)}` gives the same value as every item"
            uses.append(Consumption(call, repeated, how, library=False, unseen=inner.unseen))
            uses.append(Consumption(call, repeated, how, library=False, repeated=True,
                                    unseen=inner.unseen, proof=proof, over="map"))
        return uses

    def _given_batched(self, call: cst.Call, batching: str, transform: cst.Call
                       ) -> list[Consumption]:
        """`jax.vmap(model, in_axes=(0, None))(x, key)` where `model` is a parameter: a key
        broadcast to a function the caller gives, which may draw from it in every row or not
        (a consumption for `--preview` only)."""
        given = argument(transform, 0, "fun")
        site = self.sites.get(id(call))
        if (given is None or not isinstance(given.value, cst.Name) or site is None
                or not self.calls.given_function(given.value, site)):
            return []
        axes = axes_by_position(in_axes_expression(
            self.ctx, transform, BATCHING[batching], site,
            AXES_KEYWORDS.get(batching, "in_axes")), len(call.args), self.ctx)
        broadcast = {index for index, axis in enumerate(axes) if axis == BROADCAST}
        unseen = (f"`{given.value.value}` is a function given by a caller; the analysis "
                  f"cannot see it draw from the key")
        drawn, proof = self.calls.drawn_by_given(given.value, site, call)
        for index in sorted(broadcast):
            if index < len(call.args) and self.calls.reads_as_key(call.args[index].value):
                key = call.args[index].value
                proven, proof = ("", proof) if id(key) in drawn else (unseen, "")
                return [Consumption(call, key, self.calls.callee(call), library=False,
                                    unseen=proven, proof=proof),
                        Consumption(call, key, self.calls.callee(call), library=False,
                                    repeated=True, unseen=proven, proof=proof,
                                    over=f"{batching} (in_axes=None)")]
        return []

    def _stream_broadcast(self, call: cst.Call) -> list[Consumption] | None:
        """`hk.vmap(f, split_rng=False)(x)` where `f` draws from the rng stream: every row is
        given the same stream (None: not such a call)."""
        if not isinstance(call.func, cst.Call):
            return None
        batching = self.ctx.qualify(call.func.func)
        if batching in STATEFUL_BATCHING:
            return self._module_broadcast(call, batching)
        switch = STREAM_BROADCASTS.get(batching or "")
        if switch is None:
            return None
        keyword, broadcasting = switch
        given = argument(call.func, None, keyword)
        function = argument(call.func, 0, "fun")
        if (given is None or not isinstance(given.value, cst.Name)
                or given.value.value != str(broadcasting) or function is None
                or last_name(function.value) not in self.calls.stream_drawers):
            return []
        return [Consumption(call, function.value, self.calls.callee(call), library=True,
                            repeated=True, over=f"{batching} ({keyword}={broadcasting})",
                            stream=True)]

    def _module_broadcast(self, call: cst.Call, batching: str) -> list[Consumption]:
        """`nnx.vmap(f, in_axes=(None, 0))(model, xs)` where `model` holds an rng stream
        (`nnx.Dropout(..., rngs=rngs)`): broadcast, every row draws from the same stream."""
        transform = call.func
        assert isinstance(transform, cst.Call)
        site = self.sites.get(id(call))
        axes = axes_by_position(in_axes_expression(
            self.ctx, transform, STATEFUL_BATCHING[batching], site), len(call.args))
        broadcast = {index for index, axis in enumerate(axes) if axis == BROADCAST}
        for index in sorted(broadcast):
            if site is None or index >= len(call.args):
                break
            value = self.ctx.value(call.args[index].value, site)
            if isinstance(value, ModuleValue) and value.cls is not None:
                value = InstanceValue(value.cls.info, value.cls.path)
            if isinstance(value, InstanceValue) and self._holds_stream(value.info):
                return [Consumption(call, call.args[index].value, self.calls.callee(call),
                                    repeated=True, over=f"{batching} (in_axes=None)",
                                    stream=True)]
        return []

    def _holds_stream(self, info: ClassInfo) -> bool:
        """A class of the file that builds a layer drawing from an rng stream it is given."""
        return any(
            isinstance(binding.value, cst.Call)
            and self.ctx.qualify(binding.value.func) in STREAM_LAYERS
            and any(arg.keyword is not None and arg.keyword.value == "rngs"
                    for arg in binding.value.args)
            for bindings in info.attributes.values() for binding in bindings)

    def _batching(self, call: cst.Call) -> tuple[str, cst.Call] | None:
        """`jax.vmap(f, ...)(...)`, or a name bound to it called: the transformation's name and
        its call."""
        if isinstance(call.func, cst.Call):
            batching = self.ctx.qualify(call.func.func)
            return (batching, call.func) if batching in BATCHING else None
        if not isinstance(call.func, cst.Name) or call.func.value not in self.calls.helpers:
            return None
        site = self.sites.get(id(call))
        value = self.ctx.value(call.func, site) if site is not None else None
        if (isinstance(value, TransformedFunction) and value.transform in BATCHING
                and value.call is not None):
            return value.transform, value.call
        decorated = decorated_batching(self.ctx, value, call.func)
        if decorated is not None:
            return decorated
        binding = self.ctx.binding(call.func.value, site) if site is not None else None
        if binding is not None and not binding.path and isinstance(binding.value, cst.Call):
            batching = self.ctx.qualify(binding.value.func)  # `draw = jax.pmap(f)`
            if batching in BATCHING:
                return batching, binding.value
        return None

    def _replicated(self, expr: cst.BaseExpression, call: cst.Call
                    ) -> cst.BaseExpression | None:
        """The key a `replicate(key)` copies to every device (also through a name)."""
        if isinstance(expr, cst.Name):
            site = self.sites.get(id(call))
            binding = self.ctx.binding(expr.value, site) if site is not None else None
            if binding is None or binding.path or not isinstance(binding.value, cst.Call):
                return None
            expr = binding.value
        if (isinstance(expr, cst.Call) and expr.args
                and (self.ctx.qualify(expr.func) in REPLICATING
                     or last_name(expr.func) in REPLICATING_NAMES)):
            copied = expr.args[0].value
            if (isinstance(copied, cst.Subscript) and len(copied.slice) == 1
                    and isinstance(copied.slice[0].slice, cst.Index)
                    and isinstance(copied.slice[0].slice.value, cst.Name)
                    and copied.slice[0].slice.value.value == "None"):
                copied = copied.value  # `jnp.repeat(key[None], n, axis=0)`
            return copied
        if isinstance(expr, cst.Call) and expr.args and self.ctx.qualify(expr.func) in STACKING:
            site = self.sites.get(id(call))  # `jnp.stack([key] * n)`: n copies of `key`
            return (_repeated_item(self.ctx, expr.args[0].value, site)
                    if site is not None else None)
        return None

    def _closure_uses(self, call: cst.Call, function: cst.FunctionDef, flow: KeyFlow,
                      over: str) -> list[Consumption]:
        """A key of the enclosing function drawn from by a body run once per step or row."""
        if not self.calls.nested(function):
            return []
        uses = []
        for inner in flow.free_consumed().values():
            uses.append(Consumption(call, inner.key, self.calls.callee(call), library=False,
                                    closed=inner.closed or inner, unseen=inner.unseen))
            if not inner.repeated:
                uses.append(replace(inner, repeated=True, over=over))
        return uses



def aliased_qualify(ctx: RuleContext, func: cst.BaseExpression, site: CallSite) -> str | None:
    """The qualified name of `func`, also through a local alias (`tree_map = tree_util.tree_map`
    then `tree_map(...)`)."""
    qualified = ctx.qualify(func)
    if qualified is not None or not isinstance(func, cst.Name):
        return qualified
    binding = ctx.binding(func.value, site)
    if (binding is not None and binding.kind == "assign" and not binding.path
            and isinstance(binding.value, (cst.Name, cst.Attribute))):
        return ctx.qualify(binding.value)
    return None


def runs_per_step_or_row(ctx: RuleContext, site: CallSite) -> bool:
    """A `jax.lax` loop, or a batching transformation's result called."""
    call = site.node
    qualified = aliased_qualify(ctx, call.func, site)
    if qualified in LOOP_BODIES:
        return True
    if qualified in TREE_MAPS:
        return bool(call.args) and isinstance(call.args[0].value, (cst.Lambda, cst.Name))
    if _item_map(ctx, call, site):
        return len(call.args) > 1
    return isinstance(call.func, cst.Call) and (
        ctx.qualify(call.func.func) in BATCHING or ctx.qualify(call.func.func) in STREAM_BROADCASTS
        or ctx.qualify(call.func.func) in STATEFUL_BATCHING)


def _item_map(ctx: RuleContext, call: cst.Call, site: CallSite) -> bool:
    """A call of Python's own `map` (not a name the file binds)."""
    return (isinstance(call.func, cst.Name) and call.func.value in ITEM_MAPS
            and ctx.binding(call.func.value, site) is None)


def _repeated_item(ctx: RuleContext, iterable: cst.BaseExpression, site: CallSite,
                   depth: int = 2) -> cst.BaseExpression | None:
    """The one value an iterable gives as every item: `[seed] * n`, `n * [seed]`,
    `[seed for _ in range(n)]`, `itertools.repeat(seed)`, or a name bound to one (None: not
    such an iterable)."""
    if isinstance(iterable, cst.Name) and depth > 0:
        binding = ctx.binding(iterable.value, site)
        if (binding is None or binding.kind != "assign" or binding.path
                or binding.value is None or binding.scope is None
                or len(binding.scope.bindings.get(iterable.value, [])) != 1):
            return None
        return _repeated_item(ctx, binding.value, site, depth - 1)
    if isinstance(iterable, cst.BinaryOperation) and isinstance(iterable.operator, cst.Multiply):
        for side in (iterable.left, iterable.right):
            if isinstance(side, (cst.List, cst.Tuple)) and len(side.elements) == 1 \
                    and not isinstance(side.elements[0], cst.StarredElement):
                return side.elements[0].value
        return None
    if (isinstance(iterable, cst.ListComp) and iterable.for_in.inner_for_in is None
            and not iterable.for_in.ifs and isinstance(iterable.elt, (cst.Name, cst.Integer))
            and not (isinstance(iterable.elt, cst.Name)
                     and iterable.elt.value in set(target_names(iterable.for_in.target)))):
        return iterable.elt
    if (isinstance(iterable, cst.Call) and iterable.args
            and ctx.qualify(iterable.func) in REPEATING_ITERABLES
            and iterable.args[0].keyword is None):
        return iterable.args[0].value
    return None
