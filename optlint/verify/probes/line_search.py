"""OPT005: a line search's `update` needs `value`, `grad` and `value_fn`: the params are exercised
with the ones a correct training step passes, so what fails is what the params are."""

from typing import Any

from optlint.verify.checks import arrays, params_kind


def updates_with_line_search(values: dict[str, Any]) -> str:
    if "apply" in values:
        return params_kind(values)
    return params_kind(values, **line_search_arguments(values["params"]))


def line_search_arguments(params: Any) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp

    def value_fn(p: Any) -> Any:
        return sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(arrays(p)))

    value, grad = jax.value_and_grad(value_fn)(arrays(params))
    return {"value": value, "grad": grad, "value_fn": value_fn}
