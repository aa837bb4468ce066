"""The equinox.nn leaf table in optlint/analysis/apis.py, checked against the installed equinox."""

from __future__ import annotations

import warnings

import pytest

from optlint.analysis.apis import EQUINOX_NN_LEAVES, EQUINOX_NN_WITHOUT_ARRAYS

eqx = pytest.importorskip("equinox")
jax = pytest.importorskip("jax")

KEY = jax.random.PRNGKey(0)
BUILDERS = {
    "Linear": lambda: eqx.nn.Linear(2, 3, key=KEY),
    "MLP": lambda: eqx.nn.MLP(2, 3, 4, 2, key=KEY),
    "Conv2d": lambda: eqx.nn.Conv2d(2, 3, 3, key=KEY),
    "ConvTranspose1d": lambda: eqx.nn.ConvTranspose1d(2, 3, 3, key=KEY),
    "Embedding": lambda: eqx.nn.Embedding(10, 3, key=KEY),
    "LayerNorm": lambda: eqx.nn.LayerNorm(3),
    "RMSNorm": lambda: eqx.nn.RMSNorm(3),
    "GroupNorm": lambda: eqx.nn.GroupNorm(1, 3),
    "BatchNorm": lambda: eqx.nn.BatchNorm(3, "batch"),
    "GRUCell": lambda: eqx.nn.GRUCell(2, 3, key=KEY),
    "LSTMCell": lambda: eqx.nn.LSTMCell(2, 3, key=KEY),
    "Dropout": lambda: eqx.nn.Dropout(0.1),
    "MultiheadAttention": lambda: eqx.nn.MultiheadAttention(2, 4, key=KEY),
    "Identity": lambda: eqx.nn.Identity(),
    "Lambda": lambda: eqx.nn.Lambda(jax.nn.relu),
    "PReLU": lambda: eqx.nn.PReLU(),
    "MaxPool2d": lambda: eqx.nn.MaxPool2d(2),
    "AvgPool1d": lambda: eqx.nn.AvgPool1d(2),
    "AdaptiveAvgPool2d": lambda: eqx.nn.AdaptiveAvgPool2d(2),
    "WeightNorm": lambda: eqx.nn.WeightNorm(eqx.nn.Linear(2, 2, key=KEY)),
    "SpectralNorm": lambda: eqx.nn.SpectralNorm(eqx.nn.Linear(2, 2, key=KEY), "weight", key=KEY),
}


def measured_kind(module: object) -> str:
    leaves = [leaf for leaf in jax.tree_util.tree_leaves(module) if not eqx.is_array(leaf)]
    if any(callable(leaf) for leaf in leaves):
        return "callable"
    return "scalar" if leaves else "arrays"


@pytest.mark.parametrize("layer", sorted(BUILDERS))
def test_table_matches_installed_equinox(layer: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = BUILDERS[layer]()
    assert EQUINOX_NN_LEAVES[layer] == measured_kind(module)


@pytest.mark.parametrize("layer", sorted(BUILDERS))
def test_layers_without_arrays_match_installed_equinox(layer: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = BUILDERS[layer]()
    has_arrays = any(eqx.is_array(leaf) for leaf in jax.tree_util.tree_leaves(module))
    assert (layer in EQUINOX_NN_WITHOUT_ARRAYS) == (not has_arrays)


def test_function_types_match_installed_jax() -> None:
    """What `not isinstance(leaf, types.FunctionType)` keeps depends on these types."""
    import importlib
    import types

    from optlint.analysis.apis import JAX_CALLABLE_TYPES

    for name, expected in JAX_CALLABLE_TYPES.items():
        module, _, attribute = name.rpartition(".")
        function = getattr(importlib.import_module(module), attribute)
        assert isinstance(function, types.FunctionType) == (expected == "function"), name
        assert type(function).__name__ == expected, name


def test_mlp_keeps_its_activations_as_leaves() -> None:
    """apis.EQUINOX_NN_CALLABLE_ARGS: the default activation is jax.nn.relu, the final one a
    function, and a given activation is kept as it is."""
    import types

    leaves = [leaf for leaf in jax.tree_util.tree_leaves(eqx.nn.MLP(2, 3, 4, 2, key=KEY))
              if not eqx.is_array(leaf)]
    assert [type(leaf).__name__ for leaf in leaves] == ["custom_jvp", "function"]
    given = eqx.nn.MLP(2, 3, 4, 2, jax.nn.silu, key=KEY)
    assert given.activation is jax.nn.silu
    assert isinstance(given.final_activation, types.FunctionType)
