"""OPT019 and OPT022: what happens to a model's fields in training, on the model the file builds
(`values["call"]()` constructs it). The fields are the finding's "field" and "other_field" values
(`values["probe"]["fields"]`)."""

from typing import Any

from optlint.verify.checks import Misbehaved


def static_array_stays_put(values: dict[str, Any]) -> str:
    """A static array field is no leaf: an update of every leaf leaves it where it was, and
    `eqx.filter_jit` given an equal copy of the model raises (non-scalar arrays)."""
    import copy
    import warnings

    import equinox as eqx
    import jax
    import jax.numpy as jnp

    fields = values["probe"]["fields"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = values["call"]()
    held = getattr(model, fields[0]) if fields else None
    if not fields or not isinstance(held, jax.Array):
        return "the field holds no JAX array here: nothing to check"
    name = fields[0]
    if any(leaf is held for leaf in jax.tree_util.tree_leaves(model)):
        return f"`{name}` is a leaf of the model here"
    params = eqx.filter(model, eqx.is_inexact_array)
    moved = eqx.apply_updates(model, jax.tree_util.tree_map(jnp.ones_like, params))
    change = float(jnp.max(jnp.abs(jnp.asarray(getattr(moved, name)) - held)))
    leaves = len(jax.tree_util.tree_leaves(params))
    detail = (f"static field `{name}` ({held.dtype}{list(held.shape)}) is no leaf: an update of "
              f"+1 on the model's {leaves} array leaves moved it by {change:g}")
    jitted = eqx.filter_jit(lambda m: 0)
    jitted(model)
    try:
        jitted(copy.deepcopy(model))
    except ValueError as error:
        reason = str(error).split(".")[0]
        detail += f"; eqx.filter_jit given a copy of the model raised ValueError ({reason})"
    if any("set as static" in str(warning.message) for warning in caught):
        detail += "; Equinox warned at construction"
    raise Misbehaved(detail)


def aliased_fields_untie(values: dict[str, Any]) -> str:
    """Two fields holding one module: after one update with gradients that differ between the
    two places, the copies must still be equal (they are not: the pytree holds two copies)."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    fields = values["probe"]["fields"]
    model = values["call"]()
    if len(fields) < 2:
        return "the finding names no two fields: nothing to check"
    first, second = (getattr(model, name) for name in fields)
    if first is not second:
        return f"`{fields[0]}` and `{fields[1]}` hold different objects here"
    params = eqx.filter(model, eqx.is_inexact_array)
    leaves = jax.tree_util.tree_leaves(params)
    distinct = len({id(leaf) for leaf in leaves})

    def loss(p: Any) -> Any:
        # Each leaf position weighs differently, as two places of a network do.
        return sum((i + 1) * jnp.sum(leaf) for i, leaf in enumerate(jax.tree_util.tree_leaves(p)))

    grads = jax.grad(loss)(params)
    updated = eqx.apply_updates(model, jax.tree_util.tree_map(lambda g: -0.01 * g, grads))
    apart = [float(jnp.max(jnp.abs(a - b))) for a, b in zip(
        jax.tree_util.tree_leaves(eqx.filter(getattr(updated, fields[0]), eqx.is_array)),
        jax.tree_util.tree_leaves(eqx.filter(getattr(updated, fields[1]), eqx.is_array)),
        strict=True)]
    if max(apart, default=0.0) == 0.0:
        return "the two fields are still equal after one update"
    raise Misbehaved(f"`{fields[1]}` and `{fields[0]}` start as one {type(first).__name__}, but "
                     f"the model flattens to {len(leaves)} array leaves ({distinct} distinct "
                     f"{'object' if distinct == 1 else 'objects'}): after one SGD step (lr 0.01) the two copies differ by up to "
                     f"{max(apart):.3g}")
