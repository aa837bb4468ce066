"""OPT002: the optimizer runs, and with zero gradients weight decay moves exactly the leaves the
mask selects (a mask treated as a schedule, or ignored, moves others). OPT023: weight decay leaves
the norm layers' leaves and the biases where they are."""

from typing import Any

from optlint.verify.checks import Misbehaved, arrays, jitted_update, transform_kind


def decay_follows_mask(values: dict[str, Any]) -> str:
    detail = transform_kind(values)
    if "mask" not in values:
        return detail
    return detail + "; " + weight_decay_follows_mask(values["optimizer"], values["params"],
                                                     values["mask"])


def weight_decay_follows_mask(optimizer: Any, params: Any, mask: Any) -> str:
    """With zero gradients only weight decay moves a parameter: it must move where mask says."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    if isinstance(mask, eqx.Module) or not callable(mask):
        return "mask is not a function: no weight-decay check"
    # Flattened with `None` as a leaf in both trees, so that a mask written for filtered params
    # (`tree_map(..., is_leaf=lambda p: p is None)`, a bool where the params hold None) lines
    # up with them; then only the params' arrays are kept.
    none = lambda node: node is None  # noqa: E731
    every = jax.tree_util.tree_leaves(arrays(params), is_leaf=none)
    answers = jax.tree_util.tree_leaves(mask(arrays(params)), is_leaf=none)
    if len(answers) != len(every):
        return "the mask's structure differs from the params': no weight-decay check"
    selected = [answer for leaf, answer in zip(every, answers, strict=True) if leaf is not None]
    leaves = [leaf for leaf in every if leaf is not None]
    zeros = jax.tree_util.tree_map(jnp.zeros_like, arrays(params))
    updates, _ = jitted_update(optimizer)(zeros, optimizer.init(params), params)
    moved = jax.tree_util.tree_leaves(updates)
    if not (len(selected) == len(leaves) == len(moved)):
        return "the mask's structure differs from the params': no weight-decay check"
    wrong = []
    for index, (want, leaf, update) in enumerate(zip(selected, leaves, moved, strict=True)):
        if not bool(jnp.any(leaf != 0)):
            continue  # an all-zero leaf has nothing to decay
        if bool(want) != bool(jnp.any(update != 0)):
            wrong.append(index)
    if wrong:
        raise Misbehaved(f"weight decay does not follow the mask: {len(wrong)} of "
                         f"{len(leaves)} leaves decay where the mask says otherwise")
    return f"weight decay applied to exactly the {sum(map(bool, selected))} leaves the mask selects"


_NORMS = ("LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm")


def decay_spares_norms_and_biases(values: dict[str, Any]) -> str:
    """OPT023: with zero gradients only weight decay moves a parameter; a mask written to spare
    norms and biases must leave the norm layers' leaves and every `bias` where they are."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    optimizer, params = values["optimizer"], arrays(values["params"])
    update = jitted_update(optimizer)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    state, current = optimizer.init(params), params
    for _ in range(3):
        updates, state = update(zeros, state, current)
        current = eqx.apply_updates(current, updates)
    spared = 0
    before = jax.tree_util.tree_flatten_with_path(params)[0]
    after = jax.tree_util.tree_leaves(current)
    for (path, leaf), moved in zip(before, after, strict=True):
        holder = _holder(params, path)
        name = getattr(path[-1], "name", None) if path else None
        if type(holder).__name__ not in _NORMS and name != "bias":
            continue
        spared += 1
        if not bool(jnp.array_equal(leaf, moved)):
            raise Misbehaved(f"weight decay reaches {jax.tree_util.keystr(path)} "
                             f"({type(holder).__name__}), which the mask was written to spare")
    if not spared:
        return "the model has no norm layers or biases: no check"
    return f"{spared} norm and bias leaves left untouched by weight decay"


def _holder(tree: Any, path: Any) -> Any:
    """The object holding the leaf at `path` (its parent node)."""
    node = tree
    for key in path[:-1]:
        if hasattr(key, "name"):
            node = getattr(node, key.name)
        elif hasattr(key, "idx"):
            node = node[key.idx]
        elif hasattr(key, "key"):
            node = node[key.key]
        else:
            return None
    return node
