"""OPT008, OPT014, OPT017, OPT024: the order of a chain's transformations, checked by its behaviour.

clip_meets_gradients: gradients of norm 1e6 and 1e9 must leave the same optimizer state when the
clip comes first; after the optimizer they reach its state unclipped, 1000x apart.
decay_shrinks_weights: with zero gradients, weight decay must shrink the weights, not grow them.
accumulation_holds_steps: on a micro-batch where `apply_every` is still accumulating, neither the
weights nor the state of the other transformations may change (as with optax.MultiSteps).
plateau_reduces_step: after reduce_on_plateau lowers its scale once (a constant loss), and the
loss then improves, the step must stay reduced; a scale-invariant optimizer after it undoes it.
"""

import math
from typing import Any

from optlint.verify.checks import Misbehaved, arrays, jitted_update, synthetic_grads


def _norm(tree: Any) -> float:
    import jax
    import jax.numpy as jnp

    leaves = [leaf for leaf in jax.tree_util.tree_leaves(arrays(tree))
              if jnp.issubdtype(leaf.dtype, jnp.inexact)]
    return float(jnp.sqrt(sum(jnp.sum(jnp.square(leaf)) for leaf in leaves)))


def _inexact_leaves(tree: Any) -> list[Any]:
    import jax
    import jax.numpy as jnp

    return [leaf for leaf in jax.tree_util.tree_leaves(tree)
            if hasattr(leaf, "dtype") and jnp.issubdtype(leaf.dtype, jnp.inexact)]


def clip_meets_gradients(values: dict[str, Any]) -> str:
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    update = jitted_update(optimizer)
    grads = synthetic_grads(params)
    norm = _norm(grads)
    states = []
    for target in (1e6, 1e9):
        spike = jax.tree_util.tree_map(lambda leaf, t=target: leaf * (t / norm), grads)
        _, state = update(spike, optimizer.init(params), params)
        states.append(_inexact_leaves(state))
    if not states[0]:
        return "the optimizer keeps no floating-point state: no spike check"
    same = all(bool(jnp.allclose(a, b, rtol=1e-3, atol=0.0))
               for a, b in zip(states[0], states[1], strict=True))
    if not same:
        largest = [max(float(jnp.max(jnp.abs(leaf))) for leaf in state) for state in states]
        ratio = largest[1] / largest[0] if largest[0] else float("inf")
        raise Misbehaved(f"gradients of norm 1e6 and 1e9 leave optimizer states {ratio:,.0f}x "
                         f"apart: the gradients reach the optimizer unclipped")
    return "gradients of norm 1e6 and 1e9 leave the same optimizer state: clipped first"


def decay_shrinks_weights(values: dict[str, Any]) -> str:
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    update = jitted_update(optimizer)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, arrays(params))
    state, current = optimizer.init(params), params
    for _ in range(10):
        updates, state = update(zeros, state, current)
        current = eqx.apply_updates(current, updates)
    before, after = _norm(params), _norm(current)
    if after > before * (1 + 1e-6):
        raise Misbehaved(f"with zero gradients the weights grow: norm {before:.4g} -> "
                         f"{after:.4g} in 10 steps")
    return f"with zero gradients the weights' norm goes {before:.4g} -> {after:.4g} in 10 steps"


def plateau_reduces_step(values: dict[str, Any]) -> str:
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    update = eqx.filter_jit(lambda g, s, p, v: optimizer.update(g, s, p, value=v))
    grads = synthetic_grads(params)
    state = optimizer.init(params)

    def scale(state: Any) -> float | None:
        nodes = jax.tree_util.tree_leaves(state, is_leaf=lambda node: hasattr(node, "scale"))
        found = [float(node.scale) for node in nodes if hasattr(node, "scale")]
        return min(found) if found else None

    before = None
    for _ in range(1000):  # a constant loss until the first reduction
        updates, state = update(grads, state, params, jnp.asarray(1.0))
        reached = scale(state)
        if reached is None:
            return "no reduce_on_plateau scale in the state: no plateau check"
        if reached < 1.0:
            break
        before = _norm(updates)
    else:
        return "the scale did not drop in 1,000 plateau steps: no plateau check"
    if not before:
        return "no update before the reduction: no plateau check"
    # Then a loss that keeps improving (below the plateau's 1.0): no further reduction.
    losses = jnp.asarray([0.99 ** (step + 1) for step in range(3000)], dtype=jnp.float32)

    @eqx.filter_jit
    def improve(state: Any) -> Any:
        def one(state: Any, loss: Any) -> Any:
            updates, state = optimizer.update(grads, state, params, value=loss)
            return state, updates
        state, updates = jax.lax.scan(one, state, losses)
        return state, jax.tree_util.tree_map(lambda leaf: leaf[-1], updates)

    state, updates = improve(state)
    after, reached = _norm(updates) / before, scale(state)
    assert reached is not None
    if not 0.0 < reached < 1.0:
        return f"the plateau scale went on to {reached:g}: no plateau check"
    # The share of the reduction (in log terms) still in the step: 1 when it holds, 0 undone.
    kept = math.log(after) / math.log(reached) if 0.0 < after < 1.0 else 0.0
    if kept < 0.5:
        raise Misbehaved(f"the plateau scale fell to {reached:g}, but 3,000 steps later the step "
                         f"is {after:.2f} of its size before: the optimizer after it undid the "
                         f"reduction")
    return f"the plateau scale fell to {reached:g} and the step to {after:.2g} of its size"


def accumulation_holds_steps(values: dict[str, Any]) -> str:
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], values["params"]
    update = jitted_update(optimizer)
    grads = synthetic_grads(params)

    def accumulator(node: Any) -> bool:
        return type(node).__name__ == "ApplyEvery"

    def split(state: Any) -> tuple[list[Any], list[Any]]:
        nodes = jax.tree_util.tree_leaves(state, is_leaf=accumulator)
        own = [node for node in nodes if accumulator(node)]
        rest = [node for node in nodes if not accumulator(node) and hasattr(node, "dtype")]
        return own, rest

    state, current = optimizer.init(params), params
    if not split(state)[0]:
        return "no apply_every state: no accumulation check"
    for step in range(1, 33):
        updates, new_state = update(grads, state, current)
        moved = eqx.apply_updates(current, updates)
        own, rest = split(new_state)
        accumulating = any(bool(jnp.any(leaf != 0)) for node in own
                           for leaf in jax.tree_util.tree_leaves(node.grad_acc))
        if accumulating:
            if _norm(moved) != _norm(current):
                raise Misbehaved(f"the weights move at micro-batch {step}, while apply_every is "
                                 f"still accumulating")
            before = split(state)[1]
            changed = [i for i, (a, b) in enumerate(zip(before, rest, strict=True))
                       if a.shape == b.shape and not bool(jnp.array_equal(a, b))]
            if changed:
                raise Misbehaved(f"the other transformations' state changes at micro-batch "
                                 f"{step}, while apply_every is still accumulating: they see "
                                 f"single micro-batches")
        state, current = new_state, moved
    return "32 micro-batches: weights and state change only when apply_every emits"
