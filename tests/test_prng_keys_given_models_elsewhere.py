"""OPT020 on a training script whose loss is given the model by its callers, the model being a
class of another file of the project (issue #25, broadcast; levanter ecb6b5f "split keys" and
7ee99a6 "use different keys for the different parts of the batch"): `partial(model,
key=key)` vmapped over the batch gives every example the same dropout mask, and a step pmapped
with the key `in_axes=None` gives every device the same key. What proves the model draws:
- the callers give an instance of `models.GPT` (another file), whose `__call__` is compiled
  (`@partial(jax.jit, static_argnums=2)`) and draws from `key` through its dropout;
- the model reaches the loss through `replicate(model)` (a function of the file also called
  with the optimiser state: what it returns here is what this call gives it) and through the
  step's own return (`loss, model, opt_state = make_step(...)`).
Checked by the real command line and run with JAX; look-alikes: one key per example, and a
model class whose `__call__` ignores its key."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import run_optlint_in_process

MODELS = '''\
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class GPT(eqx.Module):
    weight: jax.Array
    dropout: eqx.nn.Dropout

    def __init__(self, *, key):
        self.weight = jax.random.normal(key, (4, 4))
        self.dropout = eqx.nn.Dropout(0.5)

    @partial(jax.jit, static_argnums=2)
    def __call__(self, x, inference=True, *, key):
        return self.dropout(x @ self.weight, inference=inference, key=key)


class Frozen(eqx.Module):
    weight: jax.Array

    def __init__(self, *, key):
        self.weight = jax.random.normal(key, (4, 4))

    def __call__(self, x, inference=True, *, key):
        return x @ self.weight
'''

TRAIN = '''\
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

from models import GPT


def replicate(tree):
    return jax.device_put(tree, jax.devices()[0])


def train(x, steps=1, seed=0):
    model_key, training_key, eval_key = jax.random.split(jax.random.key(seed), 3)
    model = GPT(key=model_key)

    def compute_loss(model, x, inference, key):
        model = partial(model, inference=inference, key=key)
        pred_y = jax.vmap(model)(x)
        return jnp.mean(pred_y ** 2), pred_y

    compute_loss_and_grad = eqx.filter_value_and_grad(compute_loss, has_aux=True)
    optim = optax.sgd(0.1)
    opt_state = optim.init(model)

    def make_step(model, x, opt_state, key):
        (loss, pred_y), grads = compute_loss_and_grad(model, x, False, key)
        updates, opt_state = optim.update(grads, opt_state)
        model = eqx.apply_updates(model, updates)
        return pred_y, model, opt_state

    make_step = jax.pmap(make_step, in_axes=(None, 0, None, None))
    model = replicate(model)
    opt_state = replicate(opt_state)
    rows = []
    for k in jax.random.split(training_key, steps):
        pred_y, model, opt_state = make_step(model, x, opt_state, k)
        rows.append(pred_y)
    evaluation, _ = compute_loss(model, x[0], True, eval_key)
    return rows
'''
ROWS, DEVICES, PMAP = 21, 39, 34  # the vmapped partial, the pmapped step, `jax.pmap(...)`

# The fix: one key per example of the batch.
PER_ROW = TRAIN.replace(
    "        model = partial(model, inference=inference, key=key)\n"
    "        pred_y = jax.vmap(model)(x)",
    "        model = partial(model, inference=inference)\n"
    "        pred_y = jax.vmap(lambda x, k: model(x, key=k))(x, jax.random.split(key, len(x)))")
FROZEN = TRAIN.replace("from models import GPT", "from models import Frozen as GPT")


def _findings(tmp_path: Path, train: str) -> list[tuple[int, list[int]]]:
    import json

    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "train.py").write_text(train)
    result = run_optlint_in_process("check", "train.py", "--select", "OPT020", "--no-cache",
                                    "--output-format", "json", cwd=tmp_path)
    return sorted((f["line"], sorted({role["line"] for role in f["roles"].values()}))
                  for f in json.loads(result.stdout))


def _rows(tmp_path: Path, train: str) -> list[Any]:
    pytest.importorskip("equinox")
    import jax

    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "train.py").write_text(train)
    sys.path.insert(0, str(tmp_path))
    try:
        namespace = runpy.run_path(str(tmp_path / "train.py"))
        return namespace["train"](jax.numpy.ones((1, 3, 4)))  # one device, three examples
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("models", None)


def test_every_example_draws_the_same_mask(tmp_path: Path) -> None:
    first = _rows(tmp_path, TRAIN)[0][0]
    assert (first[0] == 0).tolist() == (first[1] == 0).tolist() == (first[2] == 0).tolist()
    found = _findings(tmp_path, TRAIN)
    assert [line for line, _ in found] == [ROWS, DEVICES]
    assert PMAP in dict(found)[DEVICES]  # where the step is pmapped with `in_axes=None`


def test_one_key_per_example_is_silent_in_the_loss(tmp_path: Path) -> None:
    first = _rows(tmp_path, PER_ROW)[0][0]
    assert (first[0] == 0).tolist() != (first[1] == 0).tolist()
    assert [line for line, _ in _findings(tmp_path, PER_ROW)] == [DEVICES]


def test_a_model_ignoring_its_key_is_silent(tmp_path: Path) -> None:
    assert _findings(tmp_path, FROZEN) == []
