"""A key a state class holds by default: `rng_key: jax.Array = jax.random.PRNGKey(0)` in a
NamedTuple or dataclass. Every state built without that field (`RoundState(wall=w, turn=0)` in
`init(key)`) holds the same key, so states built apart (two environments, two episodes reset
with different seeds) draw the same numbers from it. Reported when a function of the file builds
the class without the field, the file never replaces the field (`state._replace(rng_key=k)`,
`state.rng_key = k`), and something of the file draws from `<state>.<field>`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.key_model_objects import FIELD_MAKERS
from optlint.analysis.key_syntax import calls_in
from optlint.analysis.prng_keys import SAMPLERS, Consumption
from optlint.analysis.values import ClassRef
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

_KEY_MAKERS = ("jax.random.PRNGKey", "jax.random.key")
# Calls deriving new keys from the key they are given.
_DERIVING = frozenset({"jax.random.split", "jax.random.fold_in"})
# Calls that copy an object with fields given anew (`state._replace(rng_key=k)`,
# `dataclasses.replace(state, rng_key=k)`, `state.replace(...)` of a Flax struct): a layer
# given `rng=self.rng` replaces nothing.
_REPLACERS = frozenset({"_replace", "replace", "evolve", "copy", "clone", "tree_at"})


@record
class DefaultKey:
    default: cst.Call  # `jax.random.PRNGKey(0)` in the class body
    owner: str  # the class
    field: str
    built: cst.Call  # a construction leaving the field out, in a function
    draw: cst.Call  # a draw from `<state>.<field>`


def default_keys(ctx: RuleContext,
                 consumes: Callable[[cst.Call], list[Consumption]] | None = None
                 ) -> Iterator[DefaultKey]:
    """`consumes`: the library consumptions of a call (a layer given `rng=self.rng`), beside
    the `jax.random` draws."""
    for info in ctx.index.classes.values():
        fields = list(info.fields)
        for position, (name, field) in enumerate(info.fields.items()):
            default = _given_default(ctx, field.default)
            if not (isinstance(default, cst.Call) and ctx.qualify(default.func) in _KEY_MAKERS
                    and default.args and isinstance(default.args[0].value, cst.Integer)):
                continue
            draw = next((site.node for site in ctx.calls()
                         if _draws_field(ctx, site.node, name, consumes)), None)
            if draw is None or _replaced(ctx, name):
                continue
            built = next((site.node for site in ctx.calls()
                          if site.scope.kind == "function"
                          and isinstance(ctx.value(site.node.func, site), ClassRef)
                          and ctx.value(site.node.func, site).info is info  # type: ignore[union-attr]
                          and _leaves_out(site.node, name, position, len(fields))), None)
            if built is not None:
                yield DefaultKey(default, info.name, name, built, draw)


def _given_default(ctx: RuleContext, default: cst.BaseExpression | None
                   ) -> cst.BaseExpression | None:
    """The value a field defaults to: `PRNGKey(0)` itself, or given through a field maker
    (`dataclasses.field(default=PRNGKey(0))`, `field(default_factory=lambda: PRNGKey(0))`)."""
    if not isinstance(default, cst.Call) or ctx.qualify(default.func) not in FIELD_MAKERS:
        return default
    for arg in default.args:
        if arg.keyword is not None and arg.keyword.value == "default":
            return arg.value
        if (arg.keyword is not None and arg.keyword.value == "default_factory"
                and isinstance(arg.value, cst.Lambda) and not arg.value.params.params):
            return arg.value.body
    return default


def _draws_field(ctx: RuleContext, call: cst.Call, field: str,
                 consumes: Callable[[cst.Call], list[Consumption]] | None) -> bool:
    """`jax.random.split(state.rng_key)`: a draw from the field of some object (or another
    library's consumer given it: `nn.Dropout(0.1)(x, rng=self.rng)`)."""
    qualified = ctx.qualify(call.func) or ""
    key = call.args[0].value if call.args else None
    if (qualified.startswith("jax.random.") and qualified.rsplit(".", 1)[1] in SAMPLERS
            and isinstance(key, cst.Attribute) and key.attr.value == field):
        return True
    if consumes is None or not any(isinstance(arg.value, cst.Attribute)
                                   and arg.value.attr.value == field for arg in call.args):
        return False
    return any(isinstance(use.key, cst.Attribute) and use.key.attr.value == field
               and use.kind == "draw" for use in consumes(call))


def _leaves_out(call: cst.Call, field: str, position: int, count: int) -> bool:
    if any(arg.star for arg in call.args):
        return False
    positional = sum(1 for arg in call.args if arg.keyword is None)
    return positional <= position and not any(
        arg.keyword is not None and arg.keyword.value == field for arg in call.args)


def _last_name(func: cst.BaseExpression) -> str:
    return (func.attr.value if isinstance(func, cst.Attribute)
            else func.value if isinstance(func, cst.Name) else "")


def fixed_default(ctx: RuleContext, default: cst.BaseExpression | None) -> bool:
    """A field's default is one key made from a literal seed (`PRNGKey(0)`, also through
    `field(default_factory=lambda: PRNGKey(0))`): every instance left without it holds it."""
    default = _given_default(ctx, default)
    return (isinstance(default, cst.Call) and ctx.qualify(default.func) in _KEY_MAKERS
            and bool(default.args) and isinstance(default.args[0].value, cst.Integer))


def _replaced(ctx: RuleContext, field: str) -> bool:
    """The file gives the field a value after building (`state._replace(rng_key=k)`,
    `replace(state, rng_key=k)`, `state.rng_key = k`)."""
    if any(arg.keyword is not None and arg.keyword.value == field
           and _last_name(site.node.func) in _REPLACERS
           and not isinstance(ctx.value(site.node.func, site), ClassRef)
           and not _split_from_field(ctx, site, arg.value, field)
           for site in ctx.calls() for arg in site.node.args):
        return True
    return any(binding.scope is not None
               for info in ctx.index.classes.values()
               for binding in info.attributes.get(field, []))


def _split_from_field(ctx: RuleContext, site: CallSite, value: cst.BaseExpression,
                      field: str) -> bool:
    """`state.replace(rng_key=k)` after `k, sub = split(state.rng_key)`: the new key is
    derived from the field's own key, so every state left its default follows one chain of
    keys from it; that replaces nothing."""
    if isinstance(value, cst.Name):
        binding = ctx.binding(value.value, site)
        if binding is None or binding.kind != "assign" or binding.value is None:
            return False
        value = binding.value
    return (isinstance(value, cst.Call) and bool(value.args)
            and (ctx.qualify(value.func) or "") in _DERIVING
            and isinstance(value.args[0].value, cst.Attribute)
            and value.args[0].value.attr.value == field)


def module_holds_fixed_key(ctx: RuleContext, info: ClassInfo, field: str) -> bool:
    """The module's `field` keeps one key for every call: an Equinox module's always; a Flax
    module's when every place the file builds it gives the field a key made without `make_rng`
    (Flax rebuilds submodules on each `apply`, often from a fresh `self.make_rng(...)`), or
    leaves it its default key made from a literal seed."""
    if ctx.inference.is_equinox_module(info):
        return True
    order = list(info.fields)
    built = [site.node for site in ctx.calls() if _last_name(site.node.func) == info.name]
    if not built or field not in order:
        return False
    for call in built:
        given = argument(call, order.index(field), field)
        if given is None and fixed_default(ctx, info.fields[field].default):
            continue
        if given is None or any(_last_name(node.func) == "make_rng"
                                for node in calls_in(given.value)):
            return False
    return True
