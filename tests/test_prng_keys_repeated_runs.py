"""OPT020 on a key made from a literal seed in a function that runs many times, though not a
model's method (issue #25, held-out set 4): a function the file maps with `jax.vmap` makes the
same key in every row (JaxGCRL a759206 and caae6e7: `categorical(PRNGKey(0), ...)` and
`randint(PRNGKey(0), ...)` in the vmapped `flatten_fn`, every trajectory of the batch given the
same goal and transition indices), and a method compiled as a step applies a model with a
dropout key made from a literal (d2l 8071eea: `rngs={'dropout': PRNGKey(0)}` in
`Classifier.loss`: every training step drew the same dropout mask). Beside look-alikes that stay
silent: per-row keys, a stand-in for a missing key, a named probe key, a test comparing draws
on a fixed key, a compiled builder, a model's `init`, an `apply` with dropout switched off. The vmapped draw is run with real JAX (every
row identical); the d2l shape was run in /work/bench-venv (flax 0.12.8): two steps, identical
masks, the checker silent (a fresh key each call)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

GOALS = '''\
import jax
import jax.numpy as jnp
from jax import random


def goal_indices(probs):
    return random.categorical(random.PRNGKey(0), jnp.log(probs))


def sample(probs):
    return jax.vmap(goal_indices)(probs)
'''

# A static method of a class, mapped as `Queue.flatten_fn`, with a key parameter at hand that
# the second draw does not take.
QUEUE = '''\
import jax
import jax.numpy as jnp
from jax import random


class Queue:
    def sample(self, batch, key):
        keys = jax.random.split(key, batch.shape[0])
        return jax.vmap(Queue.flatten_fn)(batch, keys)

    @staticmethod
    @jax.jit
    def flatten_fn(row, sample_key):
        goal = random.categorical(sample_key, row)
        picked = random.randint(random.PRNGKey(0), (1,), 0, row.shape[0] - 1)
        return goal, picked
'''

PER_ROW_KEYS = GOALS.replace("def goal_indices(probs):\n    return random.categorical("
                             "random.PRNGKey(0), jnp.log(probs))",
                             "def goal_indices(probs, key):\n    return random.categorical("
                             "key, jnp.log(probs))").replace(
    "jax.vmap(goal_indices)(probs)", "jax.vmap(goal_indices)(probs, random.split("
    "random.PRNGKey(1), probs.shape[0]))")

# A test comparing the batched draw with the unbatched one on a fixed key (numpyro's
# `test_vmap_dist`).
IN_A_TEST = '''\
import jax
from jax import random


def test_batched_sample_matches(probs):
    def sample(row):
        return random.categorical(random.PRNGKey(0), row)

    assert (jax.vmap(sample)(probs)[0] == sample(probs[0])).all()
'''

STAND_IN = QUEUE.replace(
    "        picked = random.randint(random.PRNGKey(0), (1,), 0, row.shape[0] - 1)\n",
    "        other = random.PRNGKey(0) if sample_key is None else sample_key\n"
    "        picked = random.randint(other, (1,), 0, row.shape[0] - 1)\n")

# A probe key of its own name beside the key parameter (shapes for a buffer).
NAMED_PROBE = QUEUE.replace(
    "        picked = random.randint(random.PRNGKey(0), (1,), 0, row.shape[0] - 1)\n",
    "        _probe_key = random.PRNGKey(0)\n"
    "        picked = random.randint(_probe_key, (1,), 0, row.shape[0] - 1)\n")

TRAINER = '''\
from functools import partial

import flax.linen as nn
import jax
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(8)(x))


class Classifier:
    def __init__(self, model):
        self.model = model

    @partial(jax.jit, static_argnums=(0,))
    def loss(self, params, x, y, state):
        y_hat = state.apply_fn({"params": params}, x,
                               rngs={"dropout": jax.random.PRNGKey(0)})
        return optax.softmax_cross_entropy_with_integer_labels(y_hat, y).mean()
'''

DROPOUT_OFF = TRAINER.replace('rngs={"dropout": jax.random.PRNGKey(0)})',
                              'rngs={"dropout": jax.random.PRNGKey(0)}, train=False)')

COMPILED_BUILDER = TRAINER.replace("def loss(self", "def init_state(self")

# A free function compiled: not known to run more than once.
COMPILED_FUNCTION = TRAINER.replace("    def loss(self, params", "    def loss(params").replace(
    "static_argnums=(0,)", "static_argnums=()")

MODEL_INIT = '''\
from functools import partial

import jax


class Builder:
    def __init__(self, model):
        self.model = model

    @partial(jax.jit, static_argnums=(0,))
    def params_for(self, x):
        return self.model.init(jax.random.PRNGKey(0), x)
'''


def test_a_literal_key_in_a_vmapped_function(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "goals.py", GOALS) == [7]


def test_a_literal_key_in_place_beside_a_key_parameter_of_a_mapped_static_method(
        tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "queue.py", QUEUE) == [15]


@pytest.mark.parametrize("source", [PER_ROW_KEYS, STAND_IN, NAMED_PROBE, IN_A_TEST],
                         ids=["per-row keys", "stand-in", "named probe", "in a test"])
def test_mapped_look_alikes_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "queue.py", source) == []


def test_a_literal_dropout_key_in_a_method_compiled_as_a_step(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "classifier.py", TRAINER) == [20]


@pytest.mark.parametrize("source", [DROPOUT_OFF, COMPILED_BUILDER, COMPILED_FUNCTION, MODEL_INIT],
                         ids=["dropout off", "builder", "free function", "model init"])
def test_compiled_look_alikes_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "classifier.py", source) == []


def test_every_row_draws_the_same_goals() -> None:
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(GOALS, "goals.py", "exec"), namespace)
    probs = jnp.tile(jnp.linspace(0.1, 1.0, 12), (4, 3, 1))
    drawn = namespace["sample"](probs)
    assert drawn.shape == (4, 3)
    assert bool((drawn == drawn[0]).all())
    # A key per row draws unlike rows.
    namespace = {}
    exec(compile(PER_ROW_KEYS, "goals.py", "exec"), namespace)
    assert not bool((namespace["sample"](probs) == drawn[0]).all())
    del jax


def test_a_test_told_from_the_scopes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Can fail: whether the compiled builder `init_state` is in a test was read from a parent
    map of the whole file, built for that question alone; the scopes tell it (no finding
    either way)."""
    from optlint.analysis import index

    built: list[int] = []
    parent_map = index.parent_map

    def counted(root):  # type: ignore[no-untyped-def]
        built.append(id(root))
        return parent_map(root)

    monkeypatch.setattr(index, "parent_map", counted)
    assert opt020_lines(tmp_path, "classifier.py", COMPILED_BUILDER) == []
    assert built == []
