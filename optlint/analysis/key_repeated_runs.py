"""Functions a file runs many times besides a model's methods, for keys made from a constant
seed in their bodies (`key_constant_seeds.py`): a function the file maps with `jax.vmap` (or
`pmap`, `eqx.filter_vmap`) runs once per row, so a key it makes from a literal is the same key
in every row (JaxGCRL a759206: `categorical(PRNGKey(0), log(probs))` in the vmapped
`flatten_fn` gave every trajectory of the batch the same goal indices); a method compiled as
a step with its object held static (`@partial(jax.jit, static_argnums=(0,))` on `def loss(self,
...)`) is the loss or update a training loop calls on every step (d2l 8071eea: `rngs={'dropout':
PRNGKey(0)}` in `Classifier.loss`, the same dropout mask on every step). A compiled method that
builds (`init`, `setup`, `create_*`) runs once, and a compiled free function is not known to
run more than once (tests/test_prng_keys_module_held.py keeps one silent). A test (a `test*`
function or a test file) fixes its seeds on purpose, to compare draws."""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_loops import BATCHING
from optlint.analysis.key_fields import compiled_step
from optlint.analysis.values import FunctionValue, TransformedFunction

if TYPE_CHECKING:
    from optlint.context import RuleContext

# Names of functions that build a model or a state once (a fixed key there picks the weights).
_BUILDER_NAME = re.compile(r"^_*(init|setup|create|make|build|new)(_|$)|^__\w+__$", re.IGNORECASE)


def repeated_run(ctx: RuleContext, function: cst.FunctionDef) -> str | None:
    """What runs `function` many times, for the message (`flatten_fn`, mapped by `jax.vmap`
    once per row): None where nothing the file shows does."""
    name = function.name.value
    if in_a_test(ctx, function):
        return None
    mapped = _batched_functions(ctx).get(id(function))
    if mapped is not None:
        return f"`{name}`, mapped by `{ctx.code(mapped.func)}` (every row makes the same key)"
    if (not _BUILDER_NAME.search(name) and _first_parameter(function) == "self"
            and compiled_step(function, ctx.qualify)):
        return f"`{name}`, a method compiled as a step (a training loop calls it on every step)"
    return None


def in_a_test(ctx: RuleContext, function: cst.FunctionDef) -> bool:
    """`function` is a test's or in a test file, where a literal seed keeps a comparison fixed
    on purpose (numpyro's `test_vmap_dist` vmaps `d.sample(random.key(0))` to compare it with
    the unbatched draw)."""
    path = PurePath(ctx.inference.path or "")
    if TEST_FILE.search(path.name):
        return True
    # The functions it is in, read from the scopes (every `def` opens one): no parent map of
    # the whole file. A function of another file (a step's caller) is only itself here.
    info = ctx.index.functions.get(function)
    scope = info.scope if info is not None else None
    if scope is None:
        return function.name.value.startswith("test")
    while scope is not None:
        if type(scope.node) is cst.FunctionDef and scope.node.name.value.startswith("test"):
            return True
        scope = scope.parent
    return False


TEST_FILE = re.compile(r"^(test_.*|.*_test|conftest)\.py$")


def _first_parameter(function: cst.FunctionDef) -> str | None:
    params = [*function.params.posonly_params, *function.params.params]
    return params[0].name.value if params else None


def _batched_functions(ctx: RuleContext) -> dict[int, cst.Call]:
    """The functions of the file given to a batching transformation, by id: the call that
    batches each (the first)."""
    def build() -> dict[int, cst.Call]:
        found: dict[int, cst.Call] = {}
        for site in ctx.calls_where(named=BATCHING.__contains__):
            call = site.node
            if not call.args or call.args[0].keyword is not None or call.args[0].star:
                continue
            mapped = call.args[0].value
            value = ctx.value(mapped, site)
            while isinstance(value, TransformedFunction):  # `vmap(jax.jit(f))`
                value = value.func
            if isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef):
                found.setdefault(id(value.node), call)
            elif (method := _class_method(ctx, mapped)) is not None:
                found.setdefault(id(method), call)
        return found
    return ctx.shared("key_batched_functions", build)


def _class_method(ctx: RuleContext, expr: cst.BaseExpression) -> cst.FunctionDef | None:
    """`Queue.flatten_fn`: the method a class of the file defines under that name (a static
    method read from its class)."""
    if not (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)):
        return None
    info = ctx.index.classes.get(expr.value.value)
    if info is None:
        return None
    return next((item for item in info.node.body.body if isinstance(item, cst.FunctionDef)
                 and item.name.value == expr.attr.value), None)
