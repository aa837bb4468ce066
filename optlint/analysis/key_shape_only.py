"""Keys handed to a transformation that traces for shapes only: `nnx.eval_shape(factory,
nnx.Rngs(jax.random.key(seed)))` builds a module abstractly, so the `Rngs` and the key made
for it give shapes and dtypes, never random numbers. Measured on jax 0.10.2 and flax 0.12.8
(`tests/test_prng_keys_shape_only.py` runs it): `jax.eval_shape(lambda k: normal(k, (3,)), key)`
returns a `ShapeDtypeStruct`, `nnx.eval_shape(f, nnx.Rngs(key))` a module of
`ShapeDtypeStruct`s, and under `jax_debug_key_reuse` a draw from the same key after either
raises nothing. Only the key makers and `Rngs` given straight to such a call are left out:
any other argument is evaluated as Python evaluates it, before the trace (`split(key)` there
consumes the key)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.context import RuleContext

# Calls that run the function they are given abstractly, returning only shapes and dtypes.
SHAPES_ONLY = frozenset({"jax.eval_shape", "flax.nnx.eval_shape", "equinox.filter_eval_shape"})
_LAST_NAMES = frozenset(name.rsplit(".", 1)[1] for name in SHAPES_ONLY)
# What makes or wraps a key without drawing from it.
KEY_WRAPPERS = frozenset({"jax.random.key", "jax.random.PRNGKey", "flax.nnx.Rngs"})


def shape_only_key_calls(ctx: RuleContext) -> set[int]:
    """The ids of the calls making or wrapping a key given (directly, or inside one another)
    to a call tracing for shapes only."""
    found: set[int] = set()
    for site in ctx.calls():
        func = site.node.func
        last = func.attr.value if type(func) is cst.Attribute else (  # type: ignore[attr-defined]
            func.value if type(func) is cst.Name else None)  # type: ignore[attr-defined]
        if last not in _LAST_NAMES or ctx.qualify(func) not in SHAPES_ONLY:
            continue
        pending = [arg.value for arg in site.node.args]
        while pending:
            node = pending.pop()
            if type(node) is cst.Call and ctx.qualify(node.func) in KEY_WRAPPERS:  # type: ignore[attr-defined]
                found.add(id(node))
                pending.extend(arg.value for arg in node.args)  # type: ignore[attr-defined]
    return found
