"""OPT015, OPT016, OPT018: what an optimizer state holds.

OPT015: the flagged state must have `hyperparams` (a chain's tuple state raises AttributeError);
a hyperparameter that follows a schedule there is overwritten at every update. OPT016:
`schedule_free_eval_params` must accept the flagged state. OPT018: the hyperparameters
inject_hyperparams stores must keep their meaning (b2 below 1, eps above 0) and the updates must
stay finite; an optimizer without inject_hyperparams, given low-precision params, must make the
same updates after 3,000 steps of a constant gradient as on float32 copies of the params (b2=0.999
applied in bfloat16 is 1.0: measured 1.65x with adam)."""

from typing import Any

from optlint.verify.checks import Misbehaved, all_finite, jitted_update, synthetic_grads


def hyperparams_reachable(values: dict[str, Any]) -> str:
    state = values["flagged"]()
    hyperparams = state.hyperparams  # AttributeError on a chain's or MultiSteps' state
    keys = ", ".join(sorted(hyperparams))
    return f"the state has hyperparams ({keys})"


def schedule_free_evaluates(values: dict[str, Any]) -> str:
    import jax
    import optax

    state = values["flagged"]()
    # The schedule-free state's z is shaped like the params: evaluate at it.
    evaluated = optax.contrib.schedule_free_eval_params(state, getattr(state, "z", None))
    if not all_finite(evaluated):
        raise Misbehaved("schedule_free_eval_params gave non-finite params")
    return f"schedule_free_eval_params gave {len(jax.tree_util.tree_leaves(evaluated))} leaves"


def hyperparams_keep_precision(values: dict[str, Any]) -> str:
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    state = optimizer.init(params)
    stored = {}
    for node in jax.tree_util.tree_leaves(state, is_leaf=lambda n: hasattr(n, "hyperparams")):
        for name, value in getattr(node, "hyperparams", {}).items():
            if hasattr(value, "dtype") and jnp.issubdtype(value.dtype, jnp.floating):
                stored[name] = value
    if not stored:
        return _matches_float32(optimizer, params)
    update = jitted_update(optimizer)
    # One zero gradient: where eps is stored as 0, Adam-type updates divide 0 by 0 there.
    leaves, treedef = jax.tree_util.tree_flatten(synthetic_grads(params))
    first = next((i for i, leaf in enumerate(leaves) if jnp.issubdtype(leaf.dtype, jnp.inexact)),
                 None)
    if first is not None:
        leaves[first] = leaves[first].reshape(-1).at[0].set(0).reshape(leaves[first].shape)
    grads = jax.tree_util.tree_unflatten(treedef, leaves)
    for step in range(1, 4):
        updates, state = update(grads, state, params)
        if not all_finite(updates):
            shown = ", ".join(f"{name}={float(value):g} ({value.dtype})"
                              for name, value in sorted(stored.items()))
            raise Misbehaved(f"updates are NaN or infinite at step {step}; stored hyperparameters: "
                             f"{shown}")
    for name, value in sorted(stored.items()):
        if name.startswith(("b", "momentum", "decay")) and float(value) == 1.0:
            raise Misbehaved(f"{name} is stored as exactly 1.0 ({value.dtype})")
    dtypes = sorted({str(value.dtype) for value in stored.values()})
    return (f"3 updates finite (one gradient exactly 0); hyperparameters stored as "
            f"{', '.join(dtypes) or 'nothing'}")


def _matches_float32(optimizer: Any, params: Any, steps: int = 3000) -> str:
    """The last update after `steps` constant-gradient steps, low-precision params over float32
    copies: within 15%, or the moments kept in low precision stopped averaging."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    params = eqx.filter(params, eqx.is_inexact_array)
    dtypes = sorted({str(leaf.dtype) for leaf in jax.tree_util.tree_leaves(params)})
    if not set(dtypes) & {"bfloat16", "float16"}:
        return f"params are {', '.join(dtypes) or 'empty'}: no low-precision check"

    @eqx.filter_jit
    def last_update(params: Any) -> Any:
        grads = jax.tree_util.tree_map(lambda leaf: jnp.full_like(leaf, 0.01), params)

        def one(carry: Any, _: Any) -> Any:
            current, state = carry
            updates, state = optimizer.update(grads, state, current)
            return (eqx.apply_updates(current, updates), state), None

        (current, state), _ = jax.lax.scan(one, (params, optimizer.init(params)), None,
                                           length=steps)
        updates, _ = optimizer.update(grads, state, current)
        return jnp.mean(jnp.stack([jnp.mean(jnp.abs(leaf.astype(jnp.float32)))
                                   for leaf in jax.tree_util.tree_leaves(updates)]))

    low = float(last_update(params))
    full = float(last_update(jax.tree_util.tree_map(lambda x: x.astype(jnp.float32), params)))
    ratio = low / full if full else float("inf")
    if not 0.85 <= ratio <= 1.15:
        raise Misbehaved(f"after {steps:,} steps of a constant gradient the updates with "
                         f"{', '.join(dtypes)} params are {ratio:.2f}x those with float32 params")
    return f"after {steps:,} steps the updates match float32 params' ({ratio:.2f}x)"
