"""OPT020 on a key given to a function a caller passes in (issue #25, the Equinox BERT fix):
`jax.vmap(model, in_axes=(0, None, None))(x, True, key)` in a loss whose callers all pass an
instance of a class of the file draws the same numbers in every row when that class's
`__call__` draws from its key. Proven, it is reported by default; a caller the analysis cannot
follow, a class that draws nothing, or a switch that turns drawing off keeps it out (or in
`--preview`). Each program is checked by the real command line; the bug is run with real JAX."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint
from conftest import opt020_lines

BROADCAST_TO_A_GIVEN_MODEL = '''\
import functools

import equinox as eqx
import jax
import jax.numpy as jnp


class Noisy(eqx.Module):
    rate: float = 0.5

    def __call__(self, x, train, key=None):
        if key is None or not train:
            return x
        keep = jax.random.bernoulli(key, self.rate, x.shape)
        return jnp.where(keep, x, 0.0)


def rows(model, xs, key):
    return jax.vmap(model, in_axes=(0, None, None))(xs, True, key)


def step(model, xs, key, scale):
    key, new_key = jax.random.split(key)
    return scale * rows(model, xs, key), new_key


model = jax.device_put(Noisy())
train_step = eqx.filter_jit(functools.partial(step, scale=1.0))
OUT, _ = train_step(model, jnp.ones((4, 64)), jax.random.key(0))
'''


def _opt020_lines(tmp_path: Path, source: str, *extra: str) -> list[int]:
    return opt020_lines(tmp_path, "train.py", source, *extra)


def test_every_row_draws_the_same_mask_with_real_jax() -> None:
    """The program's bug is real: every row of the batch is given the same mask."""
    pytest.importorskip("equinox")
    namespace: dict[str, object] = {}
    exec(compile(BROADCAST_TO_A_GIVEN_MODEL, "train.py", "exec"), namespace)
    out = namespace["OUT"]
    assert bool((out == out[0]).all()) and 0 < float(out[0].sum()) < 64


def test_a_key_broadcast_to_a_model_every_caller_gives(tmp_path: Path) -> None:
    """The caller gives `Noisy` through a jitted `partial` and `jax.device_put`: proven, and
    the message says what proves it."""
    assert _opt020_lines(tmp_path, BROADCAST_TO_A_GIVEN_MODEL) == [19]
    result = run_optlint("check", "train.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    (finding,) = json.loads(result.stdout)
    assert ("every caller gives `model` a `Noisy`, whose `__call__` draws from the key"
            in finding["message"])


def test_a_model_that_draws_nothing_stays_silent(tmp_path: Path) -> None:
    """The same code with a class whose `__call__` ignores its key: nothing is drawn, so
    nothing is proven (`--preview` still says the key may be drawn from)."""
    silent = BROADCAST_TO_A_GIVEN_MODEL.replace(
        "        keep = jax.random.bernoulli(key, self.rate, x.shape)\n"
        "        return jnp.where(keep, x, 0.0)\n", "        return x * self.rate\n")
    assert _opt020_lines(tmp_path, silent) == []


def test_a_switch_that_turns_drawing_off_is_not_proven(tmp_path: Path) -> None:
    """`train=False` given to the model: it draws nothing, so only `--preview` tells."""
    off = BROADCAST_TO_A_GIVEN_MODEL.replace("(xs, True, key)", "(xs, False, key)")
    assert _opt020_lines(tmp_path, off) == []
    assert _opt020_lines(tmp_path, off, "--preview") == [19]


def test_a_caller_that_gives_something_unknown_is_not_proven(tmp_path: Path) -> None:
    """A second caller gives a function the file does not define: not every caller is known."""
    unknown = BROADCAST_TO_A_GIVEN_MODEL + (
        "import somewhere\n\nOTHER, _ = step(somewhere.model, jnp.ones((4, 64)), "
        "jax.random.key(1), 2.0)\n")
    assert _opt020_lines(tmp_path, unknown) == []
    assert _opt020_lines(tmp_path, unknown, "--preview") == [19]


def test_a_model_a_library_call_returned_is_not_proven(tmp_path: Path) -> None:
    """`eqx.nn.inference_mode(Noisy())`: a library call may give the model back changed (in
    inference mode a dropout layer draws nothing), so only `--preview` tells."""
    changed = BROADCAST_TO_A_GIVEN_MODEL.replace(
        "jax.device_put(Noisy())", "jax.device_put(eqx.nn.inference_mode(Noisy()))")
    assert _opt020_lines(tmp_path, changed) == []
    assert _opt020_lines(tmp_path, changed, "--preview") == [19]


def test_split_keys_per_row_stay_silent(tmp_path: Path) -> None:
    """The fix: one key per row (`in_axes=0` over `split(key, n)`)."""
    fixed = BROADCAST_TO_A_GIVEN_MODEL.replace(
        "    return jax.vmap(model, in_axes=(0, None, None))(xs, True, key)\n",
        "    keys = jax.random.split(key, xs.shape[0])\n"
        "    return jax.vmap(model, in_axes=(0, None, 0))(xs, True, keys)\n")
    assert _opt020_lines(tmp_path, fixed, "--preview") == []


TRAIN_STATE_APPLY_FN = '''\
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def forward(params, x, key):
    return x * params + jax.random.normal(key, x.shape)


def loss(apply_fn, params, xs, key):
    return jax.vmap(apply_fn, in_axes=(None, 0, None))(params, xs, key)


state = train_state.TrainState.create(apply_fn=forward, params=jnp.ones(3), tx=optax.sgd(0.1))
OUT = loss(state.apply_fn, state.params, jnp.zeros((4, 3)), jax.random.key(0))
'''


def test_a_train_state_apply_fn_that_draws(tmp_path: Path) -> None:
    """`state.apply_fn` holds the `apply_fn=` the state was made with: `forward` draws from
    the key in every row."""
    assert _opt020_lines(tmp_path, TRAIN_STATE_APPLY_FN) == [12]
    unknown = TRAIN_STATE_APPLY_FN.replace("apply_fn=forward", "apply_fn=jax.numpy.add")
    assert _opt020_lines(tmp_path, unknown) == []


def test_every_row_gets_the_same_noise_with_real_flax() -> None:
    pytest.importorskip("flax")
    namespace: dict[str, object] = {}
    exec(compile(TRAIN_STATE_APPLY_FN, "train.py", "exec"), namespace)
    out = namespace["OUT"]
    assert bool((out == out[0]).all()) and float(abs(out[0]).sum()) > 0


OLD_FLAX_MODEL = '''\
import jax
from flax import nn, optim


class Seq2seq(nn.Module):
    def apply(self, rng_key, inputs):
        return inputs + jax.random.normal(rng_key, inputs.shape)


def create_optimizer(model):
    return optim.Adam(learning_rate=0.1).create(model)


@jax.jit
def train_step(optimizer, batch, rng):
    def loss_fn(model):
        return model(rng, batch).sum()
    grad = jax.grad(loss_fn)(optimizer.target)
    return optimizer.apply_gradient(grad)


def train(batches, params):
    optimizer = create_optimizer(nn.Model(Seq2seq, params))
    rng = jax.random.PRNGKey(0)
    for batch in batches:
        optimizer = train_step(optimizer, batch, rng)
'''


def test_old_flax_model_held_by_an_optimizer(tmp_path: Path) -> None:
    """`optimizer.target` is the `nn.Model(Seq2seq, params)` the optimizer was created with,
    and calling it runs `Seq2seq.apply`, which draws: the loop gives `train_step` the same key
    every step (flax's seq2seq fix). Given `apply` that draws nothing, nothing is proven."""
    assert _opt020_lines(tmp_path, OLD_FLAX_MODEL) == [26]
    silent = OLD_FLAX_MODEL.replace("inputs + jax.random.normal(rng_key, inputs.shape)",
                                    "inputs * 2")
    assert _opt020_lines(tmp_path, silent) == []


HELD_BY_A_TRAINER = '''\
import equinox as eqx
import jax
import jax.numpy as jnp


class Noisy(eqx.Module):
    def __call__(self, x, key):
        return x + jax.random.normal(key, x.shape)


def rows(model, xs, key):
    return jax.vmap(model, in_axes=(0, None))(xs, key)


class Trainer:
    def __init__(self, model, scale):
        self.model = model
        self.scale = scale

    def loss(self, xs, key):
        return self.scale * rows(self.model, xs, key).mean()


trainer = Trainer(jax.device_put(Noisy()), 2.0)
LOSS = trainer.loss(jnp.zeros((4, 3)), jax.random.key(0))
'''


def test_a_model_a_trainer_holds(tmp_path: Path) -> None:
    """`rows(self.model, ...)`: `self.model` is what `__init__` was given, and the only
    construction gives a `Noisy` (on a device). A second construction with something unknown:
    unproven."""
    assert _opt020_lines(tmp_path, HELD_BY_A_TRAINER) == [12]
    unknown = HELD_BY_A_TRAINER + "OTHER = Trainer(jnp.tanh, 1.0)\n"
    assert _opt020_lines(tmp_path, unknown) == []
