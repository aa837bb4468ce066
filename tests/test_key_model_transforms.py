"""The transformations OPT020's key analysis reads as a training step (`STEPPING`) or as
returning a gradient rather than their function's value (`DIFFERENTIATING`) are named whole in
the model, not matched by a part of the name (`"grad" in name`): each is a name the evaluator
wraps a function in (`values.TransformedFunction`), and over those names the two readings agree."""

from __future__ import annotations

from optlint.analysis import apis, library_layers
from optlint.analysis.key_model_objects import DIFFERENTIATING, STEPPING

# Every transformation the evaluator's brains wrap a function in.
WRAPPED = {*apis.JAX_FUNCTION_TRANSFORMS, *apis.FILTERING_FUNCTION_TRANSFORMS,
           *apis.VECTORIZING_TRANSFORMS, *library_layers.FLAX_LIFTED,
           *library_layers.HAIKU_TRANSFORMS}


def test_every_name_is_one_the_evaluator_wraps() -> None:
    assert DIFFERENTIATING <= STEPPING <= WRAPPED


def test_value_and_grad_returns_no_value_as_written_and_batching_is_no_step() -> None:
    # `value_and_grad(f)(x)` is `(f(x), grad)`: what `f` returns sits one level down.
    assert {"jax.value_and_grad", "equinox.filter_value_and_grad",
            "optax.value_and_grad_from_state"} <= DIFFERENTIATING
    assert "jax.jit" in STEPPING - DIFFERENTIATING
    assert not STEPPING & {*apis.VECTORIZING_TRANSFORMS, *library_layers.HAIKU_TRANSFORMS,
                           "flax.linen.scan", "flax.linen.vmap"}

