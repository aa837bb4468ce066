"""OPT009 and OPT013: leaves meant to stay fixed must not move.

OPT009 (`masked` as the whole optimizer): no leaf may be moved by exactly +gradient (the raw
gradient passed through a mask and added by apply_updates). OPT013 (weight decay on frozen
leaves): a leaf whose update does not depend on its gradient (frozen by `freeze`) must not move;
where no leaf is frozen that way (a buffer read through `jax.lax.stop_gradient`, whose gradient is
zero), a leaf must not move under zero gradients."""

from typing import Any

from optlint.verify.checks import Misbehaved, arrays, jitted_update, synthetic_grads

ZERO_STEPS = 50
# Enough for MultiSteps(every_k_schedule<=4) to emit twice.
UPHILL_STEPS = 8


def masked_out_leaves_stay(values: dict[str, Any]) -> str:
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    grads = synthetic_grads(params, fill=1.0)
    start, end = _floats(params), _floats(_run(optimizer, params, grads, UPHILL_STEPS))
    if not start:
        return "no float leaves: no masked-out check"
    # Every gradient entry is +1: a descent step moves against it, a passed-through one with it.
    uphill = [index for index in range(len(start)) if bool(jnp.all(end[index] > start[index]))]
    frozen = [index for index in range(len(start)) if bool(jnp.all(end[index] == start[index]))]
    if uphill:
        first = uphill[0]
        before = float(start[first].reshape(-1)[0])
        after = float(end[first].reshape(-1)[0])
        raise Misbehaved(f"{len(uphill)} of {len(start)} leaves moved along +gradient (uphill): "
                         f"{before:g} -> {after:g} after {UPHILL_STEPS} steps with gradient +1")
    return (f"no leaf moved along +gradient; {len(frozen)} of {len(start)} leaves stayed put "
            f"over {UPHILL_STEPS} steps")


def frozen_leaves_stay(values: dict[str, Any]) -> str:
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    grads = synthetic_grads(params, fill=1.0)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, grads)
    start = _floats(params)
    trained, without = _floats(_run(optimizer, params, grads)), _floats(_run(optimizer, params,
                                                                             zeros))
    if not start:
        return "no float leaves: no frozen-leaf check"
    # Frozen by the optimizer: where it ends up does not depend on the gradient.
    frozen = [index for index in range(len(start)) if bool(jnp.all(trained[index] == without[index]))]
    watched = frozen or list(range(len(start)))
    what = ("frozen leaves (the gradient does not move them)" if frozen
            else "leaves with zero gradient (as a stop_gradient buffer's)")
    moved = [index for index in watched if bool(jnp.any(start[index] != without[index]))]
    if moved:
        first = moved[0]
        position = int(jnp.argmax(jnp.abs(start[first] - without[first]).reshape(-1)))
        before = float(start[first].reshape(-1)[position])
        after = float(without[first].reshape(-1)[position])
        raise Misbehaved(f"{len(moved)} of {len(watched)} {what} moved under weight decay: "
                         f"{before:g} -> {after:.6g} after {ZERO_STEPS} zero-gradient steps")
    return f"the {len(watched)} {what} stayed put over {ZERO_STEPS} zero-gradient steps"


def _run(optimizer: Any, params: Any, grads: Any, steps: int = ZERO_STEPS) -> Any:
    import equinox as eqx

    update = jitted_update(optimizer)
    state = optimizer.init(params)
    for _ in range(steps):
        step, state = update(grads, state, params)
        params = eqx.apply_updates(params, step)
    return params


def _floats(tree: Any) -> list[Any]:
    import jax

    return _float_leaves(jax.tree_util.tree_leaves(arrays(tree)))


def _float_leaves(leaves: list[Any]) -> list[Any]:
    import jax.numpy as jnp

    return [leaf for leaf in leaves if hasattr(leaf, "dtype")
            and jnp.issubdtype(leaf.dtype, jnp.inexact)]
