"""Which functions of a file consume a key, directly or through one another: a cheap gate, so
that only calls by these names are resolved and summarised (`FileKeyCalls.helpers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_consumers import LOOP_BODIES, STREAM_DRAWS
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_syntax import enclosing_def, param_owner
from optlint.analysis.key_transforms import aliased_qualify
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

# The last names of the `jax.lax` loops (a cheap gate before qualifying a call).
_LOOP_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in LOOP_BODIES)


@record(frozen=False)
class KeyHelpers:
    consuming: set[str]  # functions that consume a key
    drawing: set[str]  # functions drawing from an rng stream (`hk.next_rng_key()`)
    higher_order: set[str]  # functions calling a function they are given


def key_helpers(ctx: RuleContext, candidates: set[int]) -> KeyHelpers:
    """Names of the file's functions that consume a key, directly or through one another
    (a cheap gate: only calls by these names are resolved and summarised)."""
    by_function: dict[str, list[tuple[bool, set[str]]]] = {}
    for info in ctx.index.functions.values():
        if isinstance(info.node, cst.FunctionDef):
            by_function.setdefault(info.node.name.value, [])
    calls_in: dict[str, set[str]] = {name: set() for name in by_function}
    consuming: set[str] = set()
    drawing: set[str] = set()
    higher_order: set[str] = set()
    # Functions running a `jax.lax` loop (by name first: a cheap gate).
    looping = {enclosing_def(site) for site in ctx.calls()
               if last_name(site.node.func) in _LOOP_NAMES
               and aliased_qualify(ctx, site.node.func, site) in LOOP_BODIES}
    for site in ctx.calls():
        function = enclosing_def(site)
        if function is None:
            continue
        if id(site.node) in candidates:
            consuming.add(function)
        if ctx.qualify(site.node.func) in STREAM_DRAWS:
            drawing.add(function)
        last = last_name(site.node.func)
        given_to = param_owner(site.scope, site.node.func) if isinstance(
            site.node.func, cst.Name) else None
        if given_to is not None and (given_to == function or given_to in looping):
            # Calls a function it is given, itself or in a function nested in it that a
            # loop it runs steps (`scan(lambda c, x: f(x, c), ...)`).
            higher_order.add(given_to)
        called = calls_in.setdefault(function, set())
        if last is not None:
            called.add(last)
        # A helper handed to a transformation or loop (`jax.grad(loss)`, `scan(body, ...)`).
        called.update(arg.value.value for arg in site.node.args
                      if isinstance(arg.value, cst.Name))
    # Names bound to a transformed helper (`grad_fn = eqx.filter_value_and_grad(loss)`).
    wrapping = [(name, _wrapped_names(binding.value))
                for scope in ctx.index.every_scope
                for name, bindings in scope.bindings.items() for binding in bindings
                if isinstance(binding.value, cst.Call) and not binding.path]
    # A class built runs its constructor: `Env(seed)` consumes what its `__init__` does.
    wrapping += [(info.name, {item.name.value}) for info in ctx.index.classes.values()
                 for item in info.node.body.body if isinstance(item, cst.FunctionDef)
                 and item.name.value in ("__init__", "__post_init__")]
    # The functions each function defines (`make_dropout` defines `apply`), and names
    # bound to what a function returns (`drop = make_dropout(0.5)`): a factory's closure.
    defines: dict[str, set[str]] = {}
    for info in ctx.index.functions.values():
        parent = info.scope.parent
        if (isinstance(info.node, cst.FunctionDef) and parent is not None
                and isinstance(parent.node, cst.FunctionDef)):
            defines.setdefault(parent.node.name.value, set()).add(info.node.name.value)
    made = [(name, factory) for name, factory in (
        (name, last_name(binding.value.func))
        for scope in ctx.index.every_scope
        for name, bindings in scope.bindings.items() for binding in bindings
        if isinstance(binding.value, cst.Call)) if factory in defines]
    # A transformation of a factory's closure (`train = jax.jit(jax.vmap(make_train(c)))`).
    made += [(name, factory) for name, wrapped in wrapping for factory in wrapped
             if factory in defines]
    for found in (consuming, drawing):
        changed = True
        while changed:
            changed = False
            for name, factory in made:
                if name not in found and defines[factory] & found:
                    found.add(name)
                    changed = True
            for function, called in calls_in.items():
                if function not in found and called & found:
                    found.add(function)
                    changed = True
            for name, wrapped in wrapping:
                if name not in found and wrapped & found:
                    found.add(name)
                    changed = True
    return KeyHelpers(consuming, drawing, higher_order)


def _wrapped_names(call: cst.Call) -> set[str]:
    """The names a call is given (`jax.jit(step)`: `step`), also inside the transformations
    it is given and the factories they are given: `jax.jit(jax.vmap(make_train(c)))` gives
    `make_train`."""
    names: set[str] = set()
    pending = [call]
    while pending:
        current = pending.pop()
        for arg in current.args:
            if isinstance(arg.value, cst.Name):
                names.add(arg.value.value)
            elif isinstance(arg.value, cst.Attribute) and arg is current.args[0]:
                names.add(arg.value.attr.value)  # `jax.vmap(self._sample)`: a method
            elif isinstance(arg.value, cst.Call) and arg is current.args[0]:
                pending.append(arg.value)
                name = last_name(arg.value.func)
                if name is not None:
                    names.add(name)
    return names
