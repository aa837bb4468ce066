"""OPT020 on flax.linen's `init` and `apply` beside a `jax.random` call given the same key
(issue #25; whole-repository set 2: gymnax `examples/00_getting_started.ipynb` cell 16:21,
`model.init(key, ...)` after `jax.random.split(key, num_envs)`, labelled FP: no key-reuse
error, and none of init's keys equals a split key). Flax draws from keys it folds from the one
given with data of its own, so such a call repeats only another such call's draws (two `init`s
of one key give equal parameters: reported) and no split's or sampler's (silent). A split and
a sampler of the key around an `init` still conflict with each other."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from conftest import opt020_lines

SOURCE = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(4)(x)
        return nn.Dense(1)(x)


def split_then_init(key):
    keys = jax.random.split(key, 8)
    params = MLP().init(key, jnp.zeros((2, 3)))
    return keys, params


def init_then_split(key):
    params = MLP().init(key, jnp.zeros((2, 3)))
    keys = jax.random.split(key, 8)
    return keys, params


def init_twice(key):
    params = MLP().init(key, jnp.zeros((2, 3)))
    target = MLP().init(key, jnp.zeros((2, 3)))
    return params, target


def split_init_normal(key):
    keys = jax.random.split(key, 8)
    params = MLP().init(key, jnp.zeros((2, 3)))
    noise = jax.random.normal(key, (3,))
    return keys, params, noise


def init_split_init(key):
    params = MLP().init(key, jnp.zeros((2, 3)))
    keys = jax.random.split(key, 8)
    target = MLP().init(key, jnp.zeros((2, 3)))
    return keys, params, target


def init_then_apply(key, x):
    params = MLP().init(key, x)
    out = MLP().apply(params, x, rngs={"dropout": key})
    return out


def init_then_init_of_a_new_key(key):
    params = MLP().init(key, jnp.zeros((2, 3)))
    key = jax.random.fold_in(key, 1)
    target = MLP().init(key, jnp.zeros((2, 3)))
    return params, target
'''


def test_flax_draws_conflict_only_with_flax_draws(tmp_path: Path) -> None:
    # 27 and 41: `init` twice on one key, the second past a split; 34: the split and the
    # sampler around an `init`; 47: `init` then `apply` of one key (flax against flax).
    # Silent: a split before or after an `init` (16, 21), and `init` of a key folded anew.
    assert opt020_lines(tmp_path, "models.py", SOURCE) == [27, 34, 41, 47]


def test_flax_keys_are_not_split_keys_when_run(tmp_path: Path) -> None:
    """The fact the analysis rests on, measured: no key flax's `init` draws from equals a key
    `split` makes from the one given, the checker raises for neither order, and two `init`s of
    one key give equal parameters."""
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp
    import numpy as np

    (tmp_path / "models.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "models.py"))
    seen: list[np.ndarray] = []
    lecun = jax.nn.initializers.lecun_normal()

    def recording(key, shape, dtype=jnp.float32):
        seen.append(np.asarray(jax.random.key_data(key)))
        return lecun(key, shape, dtype)

    import flax.linen as nn

    key = jax.random.key(0)

    class Root(nn.Module):
        @nn.compact
        def __call__(self, x):
            return x @ self.param("w", recording, (x.shape[-1], 3))

    class Layers(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(1, kernel_init=recording)(nn.Dense(4, kernel_init=recording)(x))

    for module in (Root(), Layers()):
        module.init(key, jnp.zeros((2, 3)))
    split = [np.asarray(jax.random.key_data(made)) for n in (2, 3, 8)
             for made in jax.random.split(key, n)]
    assert len(seen) == 3
    assert not any((drawn == made).all() for drawn in seen for made in split)

    first, second = namespace["init_twice"](key)
    assert jax.tree.all(jax.tree.map(lambda a, b: bool((a == b).all()), first, second))
    with jax.debug_key_reuse(True):
        namespace["split_then_init"](jax.random.key(1))
        namespace["init_then_split"](jax.random.key(1))


FOLDED = '''\
import flax.linen as nn
import jax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        return nn.Dropout(0.1, deterministic=not train)(nn.Dense(3)(x))


model = Net()


def step_with_flax(params, x, rng):
    _, new_rng = jax.random.split(rng)
    dropout_rng = jax.random.fold_in(rng, jax.lax.axis_index("batch"))

    def loss_fn(p):
        return model.apply(p, x, True, rngs=dict(dropout=dropout_rng)).sum()

    return jax.grad(loss_fn)(params), new_rng


def step_with_normal(params, x, rng):
    _, new_rng = jax.random.split(rng)
    dropout_rng = jax.random.fold_in(rng, jax.lax.axis_index("batch"))
    return x + jax.random.normal(dropout_rng, x.shape), new_rng


def apply_twice(params, x, key):
    first = model.apply(params, x, True, rngs=dict(dropout=key))
    second = model.apply(params, x, True, rngs=dict(dropout=key))
    return first, second
'''


def test_a_folded_key_only_flax_draws_from_is_preview(tmp_path: Path) -> None:
    """vit `train.py:46` (set 2, FP: no two dropout masks equal): the key folded with the device
    index equals a split key, but flax folds it again before drawing; whether the split keys
    meet such a call is past this step, so the pair is `--preview`. Drawn from by `normal`, the
    folded key repeats the split key's bits: reported. `rngs=dict(dropout=key)` is a key given
    to flax as `{"dropout": key}` is: two such calls are a reuse."""
    assert opt020_lines(tmp_path, "steps.py", FOLDED) == [26, 32]
    assert opt020_lines(tmp_path, "steps.py", FOLDED, "--preview") == [16, 26, 32]


THROUGH_CALLS = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.Dense(4)(x))


def init_params(key):
    return MLP().init(key, jnp.zeros((2, 3)))


def init_and_noise(key):
    params = MLP().init(key, jnp.zeros((2, 3)))
    return params, jax.random.normal(key, (3,))


def made_then_split(key):
    params = init_params(key)
    keys = jax.random.split(key, 4)
    return params, keys


def made_twice(key):
    return init_params(key), init_params(key)


def drawn_in_the_helper_then_split(key):
    params, noise = init_and_noise(key)
    keys = jax.random.split(key, 4)
    return params, noise, keys
'''


def test_a_helper_whose_only_draw_is_flax_is_a_flax_draw(tmp_path: Path) -> None:
    """A function of the file that only gives its key to flax `init` conflicts, for its
    callers, only with another such call (28: the same helper twice; 23: silent); one that
    also samples from its key conflicts with a split too (33)."""
    assert opt020_lines(tmp_path, "helpers.py", THROUGH_CALLS) == [28, 33]
