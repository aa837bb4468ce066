"""Keys a returned closure makes from a seed fixed when it was made: a factory (`Dropout(rate,
seed=0)`) returns a function (`apply_fun`) that makes its key from the factory's `seed` and
draws from it. The factory's caller runs the returned function again and again (a layer's apply
on every step), and every run makes the same key and draws the same numbers (the same dropout
mask)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_syntax import small_statements
from optlint.analysis.prng_keys import SAMPLERS
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext

_KEY_MAKERS = ("jax.random.PRNGKey", "jax.random.key")


@dataclass(frozen=True)
class FixedClosureKey:
    made: cst.Call  # `random.PRNGKey(seed)` in the returned function
    draw: cst.Call  # the draw from it
    closure: str  # the returned function
    factory: str  # the function returning it
    seed: str  # the factory's parameter the key is made from


def fixed_closure_keys(ctx: RuleContext) -> Iterator[FixedClosureKey]:
    for info in ctx.index.functions.values():
        closure = info.node
        parent = info.scope.parent
        if (not isinstance(closure, cst.FunctionDef) or parent is None
                or not isinstance(parent.node, cst.FunctionDef)
                or not _returns(parent.node, closure.name.value)):
            continue
        factory = parent.node
        seeds = {param.name.value for param in (
            *factory.params.posonly_params, *factory.params.params,
            *factory.params.kwonly_params)}
        own = {param.name.value for param in (
            *closure.params.posonly_params, *closure.params.params,
            *closure.params.kwonly_params)}
        made: dict[str, tuple[cst.Call, str]] = {}  # key name -> (its making, the seed)
        for statement in small_statements(closure):
            if (isinstance(statement, cst.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0].target, cst.Name)
                    and isinstance(statement.value, cst.Call)
                    and ctx.qualify(statement.value.func) in _KEY_MAKERS
                    and statement.value.args
                    and isinstance(statement.value.args[0].value, cst.Name)):
                seed = statement.value.args[0].value.value
                if seed in seeds and seed not in own:
                    made[statement.targets[0].target.value] = (statement.value, seed)
        for call in _calls(closure.body):
            qualified = ctx.qualify(call.func) or ""
            key = call.args[0].value if call.args else None
            if (qualified.startswith("jax.random.") and qualified.rsplit(".", 1)[1] in SAMPLERS
                    and isinstance(key, cst.Name) and key.value in made):
                making, seed = made.pop(key.value)
                yield FixedClosureKey(making, call, closure.name.value, factory.name.value, seed)


def _returns(factory: cst.FunctionDef, name: str) -> bool:
    """`factory` returns the function `name` (alone, or in a returned tuple)."""
    for statement in small_statements(factory):
        if isinstance(statement, cst.Return) and statement.value is not None:
            value = statement.value
            items = ([element.value for element in value.elements]
                     if isinstance(value, cst.Tuple) else [value])
            if any(isinstance(item, cst.Name) and item.value == name for item in items):
                return True
    return False


def _calls(node: cst.CSTNode) -> Iterator[cst.Call]:
    """The calls in `node`, in order, not those of nested functions or lambdas."""
    if isinstance(node, cst.Call):
        yield node
    for child in child_nodes(node):
        if not isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            yield from _calls(child)
