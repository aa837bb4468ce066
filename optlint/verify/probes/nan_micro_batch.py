"""OPT004: after a NaN gradient at a micro-step, `MultiSteps` must emit finite updates again and
the parameter must keep moving (zero_nans inside MultiSteps freezes it for good)."""

from typing import Any

from optlint.verify.checks import (
    Misbehaved,
    all_finite,
    jitted_update,
    synthetic_grads,
    transform_kind,
)


def nan_gradient_recovers(values: dict[str, Any]) -> str:
    detail = transform_kind(values)
    return detail + "; " + nan_micro_batch_recovers(values["optimizer"], values["params"])


def nan_micro_batch_recovers(optimizer: Any, params: Any) -> str:
    """A NaN gradient at a non-emitting micro-step must not poison the accumulator for good."""
    import jax
    import jax.numpy as jnp

    update = jitted_update(optimizer)
    every = emit_period(update, optimizer, params)
    if every is None or every < 2:
        return "no accumulation period found: no NaN check"
    leaves, treedef = jax.tree_util.tree_flatten(synthetic_grads(params))
    first = next(i for i, leaf in enumerate(leaves) if jnp.issubdtype(leaf.dtype, jnp.inexact))
    poisoned = list(leaves)
    poisoned[first] = leaves[first].reshape(-1).at[0].set(jnp.nan).reshape(leaves[first].shape)
    nan_grads = jax.tree_util.tree_unflatten(treedef, poisoned)
    state = optimizer.init(params)
    _, state = update(nan_grads, state, params)  # micro-step 1 of `every`: does not emit
    last = None
    grads = synthetic_grads(params)
    for step in range(2, 2 * every + 1):
        updates, state = update(grads, state, params)
        if step == every and not accumulators_finite(state):
            raise Misbehaved(f"a NaN gradient at micro-step 1 of {every} is still in the "
                             f"accumulator after the next emit")
        last = updates
    moved = jax.tree_util.tree_leaves(last)[first].reshape(-1)[0]
    if not bool(jnp.isfinite(moved)) or float(moved) == 0.0:
        raise Misbehaved("after a NaN micro-batch gradient that parameter stopped moving")
    return f"a NaN micro-batch gradient (every {every} steps) was dropped; the parameter moves"


def emit_period(update: Any, optimizer: Any, params: Any) -> int | None:
    import jax
    import jax.numpy as jnp

    state = optimizer.init(params)
    grads = synthetic_grads(params)
    for step in range(1, 17):
        updates, state = update(grads, state, params)
        if any(bool(jnp.any(u != 0)) for u in jax.tree_util.tree_leaves(updates)):
            return step
    return None


def accumulators_finite(state: Any) -> bool:
    import jax

    nodes = jax.tree_util.tree_leaves(state, is_leaf=lambda node: hasattr(node, "acc_grads"))
    return all(all_finite(node.acc_grads) for node in nodes if hasattr(node, "acc_grads"))
