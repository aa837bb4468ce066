"""What a batching transformation (`jax.vmap`, `jax.pmap`, `eqx.filter_vmap`) gives each row
of the function it maps, read from its `in_axes` and from a `functools.partial` it maps:

- `in_axes` written out (`(0, None)`), held by a name bound once (`axes = (0, None)` then
  `vmap(f, in_axes=axes)`), or with a repeated tail (`(0, *(None,) * 4)`): a `None` position is
  broadcast, every row gets the whole argument; an int position is mapped, each row gets its
  own slice;
- `vmap(partial(f, key=key))(xs)`: what the partial binds is broadcast to every row.

A mapped key batch whose rows a consuming function draws from is consumed once by the batched
call (each row draws from its own key): given again afterwards, the same keys draw again
(`jax_debug_key_reuse` raises on the second `vmap(f)(keys)`, jax 0.10.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.key_model_loops import BATCHING, KEYWORDS_MAPPED, PARTITION_SPECS
from optlint.analysis.prng_keys import FOLDED_WITH, Consumption
from optlint.analysis.values import FunctionValue, PartialValue, TransformedFunction
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL, PARTIAL_MAKERS

if TYPE_CHECKING:
    from optlint.analysis.key_flow import KeyFlow
    from optlint.context import RuleContext

# What `in_axes` gives an argument position.
BROADCAST, MAPPED, UNKNOWN_AXIS = "broadcast", "mapped", "unknown"

# How far a name holding `in_axes` is followed (`axes = base_axes` then `base_axes = (...)`).
_DEPTH = 2


def in_axes_expression(ctx: RuleContext, transform: cst.Call, position: int | None,
                       site: CallSite | None, keyword: str = "in_axes"
                       ) -> cst.BaseExpression | None:
    """The `in_axes` (`keyword`) a batching call is given, followed through a name bound once
    in the function (None: not given)."""
    given = argument(transform, position, keyword)
    if given is None:
        return None
    axes = given.value
    for _ in range(_DEPTH):
        if not isinstance(axes, cst.Name) or axes.value == "None" or site is None:
            break
        binding = ctx.binding(axes.value, site)
        if (binding is None or binding.kind != "assign" or binding.path
                or binding.value is None or binding.scope is None
                or len(binding.scope.bindings.get(axes.value, [])) != 1):
            return cst.Name("_unknown_axes")  # rebound or not an assignment: not told
        axes = binding.value
    if isinstance(axes, (cst.Tuple, cst.List)) and site is not None:
        # `in_specs=(specs["x"], specs["key"])`: the entries of a dict written out once.
        axes = axes.with_changes(elements=[
            element.with_changes(value=_dict_entry(ctx, element.value, site))
            for element in axes.elements])
    return axes


def _dict_entry(ctx: RuleContext, value: cst.BaseExpression, site: CallSite
                ) -> cst.BaseExpression:
    """`specs["key"]` for `specs` a name bound once to a dict written out: its entry's value
    (`value` itself otherwise)."""
    if (not isinstance(value, cst.Subscript) or not isinstance(value.value, cst.Name)
            or len(value.slice) != 1 or not isinstance(value.slice[0].slice, cst.Index)
            or not isinstance(value.slice[0].slice.value, cst.SimpleString)):
        return value
    binding = ctx.binding(value.value.value, site)
    if (binding is None or binding.kind != "assign" or binding.path
            or not isinstance(binding.value, cst.Dict) or binding.scope is None
            or len(binding.scope.bindings.get(value.value.value, [])) != 1):
        return value
    wanted = value.slice[0].slice.value.evaluated_value
    for entry in binding.value.elements:
        if (isinstance(entry, cst.DictElement) and isinstance(entry.key, cst.SimpleString)
                and entry.key.evaluated_value == wanted):
            return entry.value
    return value


def axes_by_position(axes: cst.BaseExpression | None, count: int,
                     ctx: RuleContext | None = None) -> list[str]:
    """BROADCAST, MAPPED or UNKNOWN_AXIS for each of `count` argument positions (no `in_axes`:
    every position mapped, the default `0`). With `ctx`, `shard_map`'s specs are read too:
    `P()` replicates the argument to every shard, `P("data")` splits it."""
    if axes is None or isinstance(axes, cst.Integer):
        return [MAPPED] * count
    if (isinstance(axes, cst.Name) and axes.value == "None") or _spec(ctx, axes) == BROADCAST:
        return [BROADCAST] * count
    if not isinstance(axes, (cst.Tuple, cst.List)):
        return [UNKNOWN_AXIS] * count
    found: list[str] = []
    for element in axes.elements:
        if isinstance(element, cst.StarredElement):
            repeated = _repeated_axes(element.value)
            if repeated is None:
                break  # positions after it cannot be told
            found += repeated
            continue
        found.append(_spec(ctx, element.value) or _axis(element.value))
    return (found + [UNKNOWN_AXIS] * count)[:count]


def axes_by_argument(axes: cst.BaseExpression | None, call: cst.Call, batching: str,
                     ctx: RuleContext | None = None) -> list[str]:
    """The axis of each of the batched `call`'s arguments, in order: by `in_axes` for those
    given by position (or `*args`); MAPPED for those given by keyword where `batching` maps
    them (KEYWORDS_MAPPED), else UNKNOWN_AXIS."""
    positional = [arg for arg in call.args if arg.keyword is None and arg.star != "**"]
    by_position = iter(axes_by_position(axes, len(positional), ctx))
    keyword_axis = MAPPED if batching in KEYWORDS_MAPPED else UNKNOWN_AXIS
    return [next(by_position) if arg.keyword is None and arg.star != "**" else keyword_axis
            for arg in call.args]


def _spec(ctx: RuleContext | None, value: cst.BaseExpression) -> str | None:
    """`P()` or `P(None)`: replicated to every shard (BROADCAST); `P("data")`: split (MAPPED);
    None: not a partition spec. (jax 0.10.2, 2 host devices: a raw `PRNGKey` given `P(None)`
    drew equal halves, as with `P()`; a typed key, of no axis, takes only `P()`.)"""
    if (ctx is None or not isinstance(value, cst.Call)
            or ctx.qualify(value.func) not in PARTITION_SPECS):
        return None
    return MAPPED if any(not (isinstance(arg.value, cst.Name) and arg.value.value == "None")
                         for arg in value.args) else BROADCAST


def _axis(value: cst.BaseExpression) -> str:
    if isinstance(value, cst.Name) and value.value == "None":
        return BROADCAST
    if isinstance(value, cst.Integer) or (
            isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
            and isinstance(value.expression, cst.Integer)):
        return MAPPED
    return UNKNOWN_AXIS


def _repeated_axes(value: cst.BaseExpression) -> list[str] | None:
    """`(None,) * 4` or `[None] * 4` (either side): the axes it spells out."""
    if not isinstance(value, cst.BinaryOperation) or not isinstance(value.operator, cst.Multiply):
        return None
    for items, times in ((value.left, value.right), (value.right, value.left)):
        if isinstance(items, (cst.Tuple, cst.List)) and isinstance(times, cst.Integer):
            one = [_axis(element.value) for element in items.elements
                   if not isinstance(element, cst.StarredElement)]
            if len(one) != len(items.elements):
                return None
            return one * int(times.value, 0)
    return None


def mapped_partial(ctx: RuleContext, transform: cst.Call, site: CallSite, position: int = 0,
                   keyword: str = "fun") -> tuple[cst.Call, cst.BaseExpression] | None:
    """`vmap(partial(f, key=key))` (also through a name bound to the partial; or the body of a
    loop at `position`): the partial's call and the function it wraps, as written (`f`, a name
    or attribute)."""
    given = argument(transform, position, keyword)
    if given is None:
        return None
    expr = given.value
    if isinstance(expr, cst.Call):
        if ctx.qualify(expr.func) not in PARTIAL_MAKERS or not expr.args:
            return None
        return expr, expr.args[0].value
    value = ctx.value(expr, site)
    if isinstance(value, TransformedFunction):
        return None
    if isinstance(value, PartialValue) and value.call.args:
        return value.call, value.call.args[0].value
    binding = ctx.binding(expr.value, site) if isinstance(expr, cst.Name) else None
    if (binding is not None and binding.kind == "assign" and not binding.path
            and isinstance(binding.value, cst.Call) and binding.value.args
            and ctx.qualify(binding.value.func) in PARTIAL_MAKERS):
        return binding.value, binding.value.args[0].value  # `model = partial(model, key=key)`
    return None


def partial_function(ctx: RuleContext, wrapped: cst.BaseExpression, site: CallSite,
                     bound: bool = False) -> cst.FunctionDef | None:
    """The function of the file a partial wraps (not a method: its bound arguments would
    shift; unless `bound`, for a caller reading only what the function returns)."""
    value = ctx.value(wrapped, site)
    if (isinstance(value, FunctionValue) and (bound or not value.bound)
            and isinstance(value.node, cst.FunctionDef) and value.node in ctx.index.functions):
        return value.node
    return None


def decorated_batching(ctx: RuleContext, value: object, called: cst.BaseExpression
                       ) -> tuple[str, cst.Call] | None:
    """A def of the file decorated `@jax.vmap`, `@partial(jax.vmap, in_axes=(0, None))` or
    `@eqx.filter_vmap(in_axes=...)`, called as `called` (whose value is `value`): the
    transformation's name and a call applying it to `called` with the decorator's keywords
    (as `jax.vmap(f, in_axes=...)` would be written)."""
    if (not isinstance(value, FunctionValue) or value.bound
            or not isinstance(value.node, cst.FunctionDef) or not value.node.decorators):
        return None
    for decorator in value.node.decorators:
        made = decorator.decorator
        batching = ctx.qualify(made)
        keywords: list[cst.Arg] = []
        if batching not in BATCHING and isinstance(made, cst.Call):
            batching = ctx.qualify(made.func)
            if batching == FUNCTOOLS_PARTIAL and made.args:
                batching = ctx.qualify(made.args[0].value)  # `@partial(jax.vmap, ...)`
            elif batching in BATCHING and any(arg.keyword is None for arg in made.args):
                continue  # not a decorator factory: `@vmap(f)` is not written
            keywords = [arg for arg in made.args if arg.keyword is not None]
        if batching in BATCHING:
            return batching, cst.Call(func=made if not isinstance(made, cst.Call) else made.func,
                                      args=[cst.Arg(called), *keywords])
    return None


def decorated_def(ctx: RuleContext, call: cst.Call, site: CallSite | None
                  ) -> cst.FunctionDef | None:
    """The def of the file `call` calls (the def of a decorated batching)."""
    value = ctx.value(call.func, site) if site is not None else None
    if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
            and value.node in ctx.index.functions):
        return value.node
    return None


def held_in_every_row(ctx: RuleContext, call: cst.Call, transform: cst.Call,
                      method: cst.FunctionDef, flow: KeyFlow, batching: str
                      ) -> list[Consumption]:
    """`jax.vmap(self.sample)(xs)` where `sample` draws from `self.key`: the object is not
    batched, so every row draws from the one key it holds."""
    given = argument(transform, 0, "fun")
    info = ctx.index.functions.get(method)
    if (given is None or not isinstance(given.value, cst.Attribute) or info is None
            or info.scope.owner is None or info.scope.self_name is None):
        return []
    uses = []
    for name, use in flow.attribute_uses.items():
        base, _, field = name.partition(".")
        if (base != info.scope.self_name or "." in field or FOLDED_WITH in name or use.unseen
                or use.repeated or use.kind not in ("draw", "split")):
            continue
        uses += [Consumption(call, use.key, use.how, library=False),
                 Consumption(call, use.key, use.how, library=False, repeated=True,
                             over=f"{batching} (a key its object holds)")]
    return uses
