"""OPT007 and OPT012: `update` called the way the code calls it.

The params are passed only where the call passes them (the `params` role, `None` included), the
extra keywords only where the call gives them (the `update_keywords` role), with the values a
training step would give (`value=` the loss at the params, `obj_fn=` the loss function). Where the
call passes no params (or None), the params its fix passes (else stand-ins) build the state and
the gradients.
"""

from typing import Any

from optlint.verify.checks import STEPS, Misbehaved, all_finite, arrays, standin_params, synthetic_grads

# `update`'s own parameters, which the probe passes by position.
_POSITIONAL = ("updates", "state", "params")


def update_as_written(values: dict[str, Any]) -> str:
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    optimizer = values["optimizer"]
    passes_params = "params" in values
    params = values["params"] if passes_params else None
    # Without params in the call: the ones its fix passes (role `fixed_params`), else stand-ins.
    trained = params if params is not None else values.get("fixed_params", standin_params())
    state = values["state"] if "state" in values and params is not None else optimizer.init(
        trained)

    def fast(p: Any) -> Any:  # lookahead's params: the gradients are taken at the fast weights
        return getattr(p, "fast", p)

    def loss(p: Any) -> Any:
        return sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(arrays(fast(p))))

    def step(p: Any, s: Any) -> Any:
        at = p if p is not None else trained
        grads = synthetic_grads(fast(at))
        given = {"value": loss(at), "loss": loss(at), "grad": grads}
        extra = {keyword: given.get(keyword, loss) for keyword in values.get(
            "update_keywords", ()) if keyword not in _POSITIONAL}
        if passes_params:
            return optimizer.update(grads, s, p, **extra)
        return optimizer.update(grads, s, **extra)

    jitted = eqx.filter_jit(step)
    for _ in range(STEPS):
        updates, state = jitted(params, state)
        if params is not None:
            params = eqx.apply_updates(params, updates)
    if params is not None and not all_finite(params):
        raise Misbehaved("the parameters became NaN/inf")
    how = "given params" if params is not None else "without params"
    return f"init and {STEPS} jitted updates {how} ran"
