"""OPT020 and an Equinox model switched to inference mode (issue #25, the blind negative
`neg_eqx_eval_in_inference_mode_with_train_key`): the training step's key given again to the
evaluation of `eqx.nn.inference_mode(model)`, whose only draw is a `Dropout`, draws nothing a
second time: silent. Still reported: the model not switched, switched back (`value=False`),
or drawing some other way too (`jax.random.normal` in its `__call__`).

The library facts the rows rest on (`apis.INFERENCE_SWITCHES`,
`key_consumers.QUIET_IN_INFERENCE`) are measured here on the installed equinox."""

from __future__ import annotations

from pathlib import Path

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import opt020_lines

SOURCE = '''\
from pathlib import Path

import equinox as eqx
import jax


class Classifier(eqx.Module):
    hidden: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.hidden = eqx.nn.Linear(4, 3, key=key)
        self.dropout = eqx.nn.Dropout(p=0.5)

    def __call__(self, x, *, key):
        {extra}
        return self.dropout(self.hidden(x), key=key)


def loss_fn(model, x, key):
    return model(x, key=key).sum()


@eqx.filter_jit
def eval_fn(model, x, key):
    return jax.vmap(lambda xi: model(xi, key=key))(x).sum()


def main(x):
    init_key, train_key = jax.random.split(jax.random.key(0))
    model = Classifier(init_key)
    train_loss = loss_fn(model, x[0], train_key)
    eval_model = {switched}
    return train_loss, eval_fn(eval_model, x, train_key)
'''

EVAL_AGAIN = 34  # `eval_fn(eval_model, x, train_key)`
BROADCAST = 26  # `model(xi, key=key)` in every row of the vmap
DROPOUT = 17  # the noise's key given to the dropout too (the model's own reuse)


@pytest.mark.parametrize(("switched", "extra", "expected"), [
    ("eqx.nn.inference_mode(model)", "pass", []),
    ("eqx.nn.inference_mode(model, value=True)", "pass", []),
    ("eqx.tree_inference(model, True)", "pass", []),
    ("model", "pass", [BROADCAST, EVAL_AGAIN]),  # not switched: the dropout draws
    ("eqx.nn.inference_mode(model, value=False)", "pass", [BROADCAST, EVAL_AGAIN]),
    # noise of its own, drawn in any mode
    ("eqx.nn.inference_mode(model)", "x = x + jax.random.normal(key, x.shape)",
     [DROPOUT, BROADCAST, EVAL_AGAIN]),
])
def test_a_model_in_inference_mode(tmp_path: Path, switched: str, extra: str,
                                   expected: list[int]) -> None:
    source = SOURCE.format(switched=switched, extra=extra)
    assert opt020_lines(tmp_path, "evaluate.py", source) == expected


class _DropNet(eqx.Module):
    hidden: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key: jax.Array) -> None:
        self.hidden = eqx.nn.Linear(4, 4, key=key)
        self.dropout = eqx.nn.Dropout(p=0.5)

    def __call__(self, x: jax.Array, *, key: jax.Array) -> jax.Array:
        return self.dropout(self.hidden(x), key=key)


class _AttentionNet(eqx.Module):
    attention: eqx.nn.MultiheadAttention

    def __init__(self, key: jax.Array) -> None:
        self.attention = eqx.nn.MultiheadAttention(2, 4, dropout_p=0.5, key=key)

    def __call__(self, x: jax.Array, *, key: jax.Array) -> jax.Array:
        return self.attention(x[None], x[None], x[None], key=key)


def _draws(model: eqx.Module) -> bool:
    """Whether the model draws from its key: JAX's checker raises for one key given twice,
    or another key changes the output."""
    x = jnp.ones(4)
    key = jax.random.key(1)
    with jax.debug_key_reuse(True):
        try:
            first = model(x, key=key)
            model(x, key=key)
        except Exception as error:  # noqa: BLE001 (jax's KeyReuseError is private)
            assert type(error).__name__ == "KeyReuseError"
            return True
    return not np.array_equal(first, model(x, key=jax.random.key(2)))


@pytest.mark.parametrize(("switch", "draws"), [
    (lambda m: m, True),
    (eqx.nn.inference_mode, False),
    (lambda m: eqx.nn.inference_mode(m, value=True), False),
    (lambda m: eqx.tree_inference(m, True), False),
    (lambda m: eqx.nn.inference_mode(m, value=False), True),
])
def test_dropout_in_inference_mode_when_run(switch, draws: bool) -> None:
    assert _draws(switch(_DropNet(jax.random.key(0)))) is draws


def test_attention_in_inference_mode_still_splits_its_key() -> None:
    assert _draws(eqx.nn.inference_mode(_AttentionNet(jax.random.key(0))))
