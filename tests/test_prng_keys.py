"""OPT020's choices that fixtures cannot show: test code, notebooks, draws nothing reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint
from conftest import opt020_lines


TEST_REUSE = '''\
import jax.random as jr


def test_vmap():
    key1, key2 = jr.split(jr.key(3), 2)
    x = jr.uniform(key1, (4, 4))
    x2 = jr.uniform(key1, (5, 4, 4))
    assert (x + x2[0]).shape == (4, 4)
'''


@pytest.mark.parametrize("name", ["tests/test_model.py", "pkg/model_test.py", "conftest.py"])
def test_test_code_is_checked(tmp_path: Path, name: str) -> None:
    """A key reused in a test is still reuse (JAX's checker raises there too); only code
    inside `pytest.raises(...)` fails on purpose."""
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    assert opt020_lines(tmp_path, name, TEST_REUSE) == [7]


def _notebook(cells: list[str]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": str(i), "metadata": {}, "execution_count": None,
         "outputs": [], "source": source} for i, source in enumerate(cells)]})


def test_notebook_key_consumed_in_two_cells(tmp_path: Path) -> None:
    """Cells are one program in execution order: a key drawn from in one cell and again in a
    later one is a reuse, reported in the later cell."""
    (tmp_path / "train.ipynb").write_text(_notebook([
        "import jax.random as jr\nkey = jr.PRNGKey(0)\n",
        "w = jr.normal(key, (3, 3))\n",
        "noise = jr.normal(key, (3,))\n",
        "print(w + noise)\n",
    ]))
    result = run_optlint("check", "train.ipynb", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    findings = json.loads(result.stdout)
    assert [f["code"] for f in findings] == ["OPT020"]
    assert findings[0]["cell"] == 3


def test_notebook_end_is_the_program_end(tmp_path: Path) -> None:
    """A notebook is run, not imported: a draw in its last cells that nothing reads reaches no
    result (no reuse with it), while one whose shape the notebook prints still does."""
    cells = ["import jax.random as jr\nkey = jr.PRNGKey(0)\n",
             "w = jr.normal(key, (3, 3))\nprint(w)\n",
             "key, sub = jr.split(key)\n"]
    (tmp_path / "unread.ipynb").write_text(_notebook(cells))
    (tmp_path / "printed.ipynb").write_text(_notebook([*cells, "print(sub.shape)\n"]))
    result = run_optlint("check", "unread.ipynb", "printed.ipynb", "--select", "OPT020",
                         "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert [(f["filename"], f["cell"]) for f in json.loads(result.stdout)] == [
        ("printed.ipynb", 3)]


def test_expected_failures_are_not_findings_for_any_rule(tmp_path: Path) -> None:
    """Code inside `with pytest.raises(...)` / `pytest.warns(...)` fails on purpose."""
    body = ("import optax\n"
            "opt = optax.chain(optax.adam(1e-3), optax.clip_by_global_norm(1.0))\n")
    inside = ("import optax\nimport pytest\n"
              "with pytest.raises(ValueError):\n"
              "    opt = optax.chain(optax.adam(1e-3), optax.clip_by_global_norm(1.0))\n"
              "with pytest.warns(UserWarning):\n"
              "    import jax.random as jr\n"
              "    key = jr.PRNGKey(0)\n"
              "    a = jr.normal(key, (2,))\n"
              "    b = jr.normal(key, (2,))\n")
    (tmp_path / "outside.py").write_text(body)
    (tmp_path / "inside.py").write_text(inside)
    result = run_optlint("check", "outside.py", "inside.py", "--select", "OPT008,OPT020",
                         "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert [(f["filename"], f["code"]) for f in json.loads(result.stdout)] == [
        ("outside.py", "OPT008")]


UNREAD_DRAWS = '''\
import jax.random as jr


def split_keys_unread(key, x):
    k1, k2 = jr.split(key, 2)
    keys = jr.split(key, x.shape[0])
    return x + jr.normal(keys[0], x.shape)


def shape_only(key):
    x = jr.normal(key, (10, 3))
    y = jr.normal(key, (x.shape[0], 2))
    n = y.shape[1]
    y = None
    return x * n


def shadowed_in_nested(key, data):
    k1, k2 = jr.split(key, 2)

    def one(x, key):
        k1, k2 = jr.split(key, 2)
        return x + jr.normal(k1, x.shape) * jr.uniform(k2)
    keys = jr.split(key, data.shape[0])
    return one(data, keys[0])


def feeds_overwritten(key, net):
    x = jr.normal(key, (3,))
    z = net(x)
    params = net.params
    x = jr.normal(key, (100, *x.shape[1:]))
    z = net(x, params)
    return z


def split_again_unused(key):
    x = jr.normal(key, (3,))
    key, sub = jr.split(key)
    key, sub2 = jr.split(key)
    return x


def unknown_consumer_unread(key, make):
    x = jr.normal(key, (10, 2))
    draft = make(x.shape[1:], key=key)
    draft_inverse = draft.inverse()
    x = jr.normal(key, (2, 2))
    return x


def tuple_overwrite(key, p):
    x = jr.normal(key, (3,))
    q = p * 2
    x, log_p = p.sample_and_log_prob(key)
    return x + log_p + q


if __name__ == "__main__":
    key = jr.PRNGKey(0)
    x = jr.normal(key, (10, 2))
    shape = x.shape[1:]
    k1, k2, k3 = jr.split(key, 3)
    x = jr.normal(key, (10, 2))
    print(x, shape)


AUGMENT = False
DEBUG = True


def switched_off(images, key):
    flip = jr.bernoulli(key, 0.5, images.shape[:1])
    if not AUGMENT:
        flip = images[:, 0] > 2
    if DEBUG:
        pass
    else:
        flip = None
    return jr.permutation(key, images[flip])
'''

STILL_REUSED = '''\
import jax.random as jr


def both_read(key):
    x = jr.normal(key, (3,))
    y = jr.uniform(key, (3,))
    return x + y


def read_in_branch(key, flag):
    x = jr.normal(key, (3,))
    if flag:
        print(x)
    y = jr.uniform(key, (3,))
    return y


def read_next_iteration(key, n):
    x = 0.0
    for _ in range(n):
        print(x)
        x = jr.normal(key, (3,))
    return 1


def feeds_read(key, net):
    x = jr.normal(key, (3,))
    z = net(x)
    x = jr.normal(key, (3,))
    return z + x


def unknown_consumer_between(key, make):
    x = jr.normal(key, (10, 2))
    layer = make(x.shape[1:], key=key)
    x = jr.normal(key, (2, 2))
    return layer(x)


SHUFFLE = True


def switched_on(images, key):
    flip = jr.bernoulli(key, 0.5, images.shape[:1])
    if not SHUFFLE:
        flip = images[:, 0] > 2
    return jr.permutation(key, images[flip])


def read_by_closure(key):
    def show():
        return x
    x = jr.normal(key, (3,))
    y = jr.uniform(key, (3,))
    return show, y
'''


def test_unread_draw_is_no_reuse(tmp_path: Path) -> None:
    """A draw whose result nothing reads (split keys never used, a value only read for its
    shape, a value overwritten before any read) reaches no result: no reuse with it."""
    assert opt020_lines(tmp_path, "demo.py", UNREAD_DRAWS) == []


def test_read_draws_still_reuse(tmp_path: Path) -> None:
    # (an unread draw stands in for a call given the key that may consume it)
    assert len(opt020_lines(tmp_path, "demo.py", STILL_REUSED)) == 7


HELD_INITIALIZERS = '''\
import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp
from jax import random
from jax.nn import initializers


def gaussian(scale=1e-2):
    def init(rng, shape):
        return scale * random.normal(rng, shape)
    return init


def dense(width, w_init=gaussian(), b_init=gaussian()):
    def init_fun(rng, in_shape):
        w, b = w_init(rng, (in_shape[-1], width)), b_init(rng, (width,))
        return (w, b)
    return init_fun


def complex_layer(shape):
    draw = jax.nn.initializers.normal()

    def init_fun(rng):
        real = draw(rng, shape)
        imag = draw(rng, shape)
        return real + 1j * imag
    return init_fun


default_init = initializers.lecun_normal()


@dataclasses.dataclass
class Blocks:
    n: int
    kernel_init: Callable = default_init
    bias_init: Callable = initializers.zeros

    def make(self, rng, shape):
        return jnp.stack([self.kernel_init(rng, shape) for _ in range(self.n)])

    def pair(self, rng, shape):
        return self.kernel_init(rng, shape), self.bias_init(rng, shape)


class Conv:
    def __init__(self, kernel_init=None, bias_init=initializers.normal()):
        self.bias_init = bias_init
        self.kernel_init = kernel_init
        if kernel_init is None:
            self.kernel_init = initializers.glorot_normal()

    def weights(self, rng, shape):
        w = self.kernel_init(rng, shape)
        b = self.bias_init(rng, shape[-1:])
        return w, b
'''


def test_callables_held_by_defaults_names_and_fields(tmp_path: Path) -> None:
    """An initializer held by a parameter's default, a name or a field draws from its key;
    one that draws nothing (`zeros`) does not."""
    assert opt020_lines(tmp_path, "inits.py", HELD_INITIALIZERS) == [18, 28, 43, 58]


TREE_MAP_ALIAS = '''\
import jax.numpy as jnp
from jax import random, tree_util


def private_grad(grads, rng, std):
    noise = lambda g: g + std * random.normal(rng, g.shape)
    tree_map = tree_util.tree_map
    return tree_map(noise, grads)


def per_leaf(grads, rng, std):
    leaves, tree = tree_util.tree_flatten(grads)
    keys = random.split(rng, len(leaves))
    tree_map = tree_util.tree_map
    return tree_map(lambda g, k: g + std * random.normal(k, g.shape), grads,
                    tree_util.tree_unflatten(tree, list(keys)))
'''


def test_tree_map_through_a_local_alias(tmp_path: Path) -> None:
    """`tree_map = tree_util.tree_map` is still a tree map; reported at the draw each leaf
    repeats."""
    assert opt020_lines(tmp_path, "dp.py", TREE_MAP_ALIAS) == [6]


CHAINED_LOOP = '''\
# dropout masks from one rng
import haiku as hk
import jax


def mlp(x, z, sizes, rate):
    for index, size in enumerate(sizes):
        x = hk.Linear(size)(x)
        x = hk.dropout(z, rate, x)
        if index < len(sizes) - 1:
            x = jax.nn.relu(x)
    return x


def settings(x, key, rates):
    outs = []
    for rate in rates:
        outs.append(hk.dropout(key, rate, x))
    return outs
'''


def test_a_loop_over_layers_chaining_its_draws(tmp_path: Path) -> None:
    """`x = hk.dropout(z, rate, x)` in a loop over layers: each iteration transforms the value
    the last one made (one computation), so one key gives every layer the same mask; a loop
    trying settings on one key (`for rate in rates`) is reported once it keeps every draw in
    one list (JAX's key-reuse checker raises there, and the list holds one mask again and
    again)."""
    assert opt020_lines(tmp_path, "mlp.py", CHAINED_LOOP) == [9, 18]
    printed = CHAINED_LOOP.replace("outs.append(hk.dropout(key, rate, x))",
                                   "print(rate, hk.dropout(key, rate, x))")
    assert opt020_lines(tmp_path, "mlp.py", printed) == [9]


KEPT_KEYS = '''\
from typing import NamedTuple

import jax


class TrainingState(NamedTuple):
    params: dict
    key: jax.Array


class Learner:
    def __init__(self, network, random_key):
        key_policy, key_q = jax.random.split(random_key, 2)
        params = {"policy": network.init(key_policy), "q": network.init(key_q)}
        self._state = TrainingState(
            params=params,
            key=random_key)

    def step(self):
        key, subkey = jax.random.split(self._state.key)
        self._state = self._state._replace(key=key)
        return jax.random.normal(subkey, (3,))


class Unread:
    def __init__(self, rng):
        a, b = jax.random.split(rng)
        self.first = jax.random.normal(a, (2,)) + jax.random.normal(b, (2,))
        self.seed_used = rng
'''


def test_a_consumed_key_kept_in_an_attribute_read_later(tmp_path: Path) -> None:
    """`self._state = TrainingState(key=random_key)` after splitting `random_key`: the step
    that splits the kept key repeats the split made in `__init__`. An attribute nothing reads
    (`self.seed_used`) keeps nothing that draws."""
    assert opt020_lines(tmp_path, "learner.py", KEPT_KEYS) == [17]


STATIC_METHOD = '''\
import jax
import jax.numpy as jnp


class NoisyDense:
    def __init__(self, rng_key):
        self.rng_key = rng_key

    @staticmethod
    def sample_noise(key, shape):
        return jax.random.normal(key, shape)

    def __call__(self, x, features):
        p = NoisyDense.sample_noise(self.rng_key, [x.shape[0], 1])
        q = NoisyDense.sample_noise(self.rng_key, [1, features])
        return x @ (p * q)
'''


def test_a_static_method_called_on_its_class(tmp_path: Path) -> None:
    """`NoisyDense.sample_noise(self.rng_key, ...)` twice: the static method draws from its key."""
    assert opt020_lines(tmp_path, "static.py", STATIC_METHOD) == [15]


RANDOM_BY_NAME = '''\
import jax


def sampler(name):
    draw = getattr(jax.random, name)

    def sample_fn(state, shape):
        rng_key = state["key"]
        sample = draw(rng_key, shape)
        state["key"] = jax.random.split(rng_key, num=1)[0]
        return state, sample

    return sample_fn
'''


def test_a_jax_random_function_chosen_by_name(tmp_path: Path) -> None:
    """`getattr(jax.random, name)` is a sampler: drawing from `rng_key` and then splitting it
    for the next state repeats bits (correlated draws)."""
    assert opt020_lines(tmp_path, "getattr.py", RANDOM_BY_NAME) == [10]


SAME_SEED = '''\
import jax.numpy as jnp
from jax import random

key = random.PRNGKey(0)
train_noise = random.normal(key, (5,))

key = random.PRNGKey(0)
eval_noise = random.normal(key, (5,))

other = random.PRNGKey(1)
print(train_noise, eval_noise, random.normal(other, (5,)))


def fresh_each(n):
    out = []
    for seed in range(n):
        k = random.PRNGKey(seed)
        out.append(random.normal(k, (2,)))
    return jnp.stack(out)
'''


def test_two_keys_made_from_one_literal_seed(tmp_path: Path) -> None:
    """`key = PRNGKey(0)` made again and drawn from again: the same key, the same numbers. A
    loop making a key per seed (`PRNGKey(seed)`) is not that."""
    assert opt020_lines(tmp_path, "seeds.py", SAME_SEED) == [8]


MADE_KEYS = '''\
import jax

SEED = 0


def make_key(seed=None):
    return jax.random.PRNGKey(SEED if seed is None else seed)


def weights_and_noise(n):
    w = jax.random.normal(make_key(), (n,))
    noise = jax.random.uniform(make_key(), (n,))
    other = jax.random.uniform(make_key(3), (n,))
    return w + noise + other
'''


def test_a_helper_making_a_key_from_constants(tmp_path: Path) -> None:
    """`make_key()` returns `PRNGKey(SEED)`: every call with the same literals makes the same
    key (`make_key(3)` is another)."""
    assert opt020_lines(tmp_path, "made.py", MADE_KEYS) == [12]


CLOSURE_GIVEN = '''\
import jax


def make_noise(key, scale):
    @jax.jit
    def noise(x):
        return x + scale * jax.random.normal(key, x.shape)
    return noise


def two_steps(step, x):
    a = step(x)
    b = step(a)
    return a, b


def once(step, x):
    return step(x)


def run(x, key):
    noisy = make_noise(key, 0.1)
    once(make_noise(key, 0.2), x)
    return two_steps(noisy, x)
'''


def test_a_closure_given_to_a_function_that_calls_it_twice(tmp_path: Path) -> None:
    """`two_steps(make_noise(key, 0.1), x)`: the jitted closure draws from the key it closes
    over at each of the two calls; `once` calls it once."""
    assert opt020_lines(tmp_path, "steps.py", CLOSURE_GIVEN) == [7]


FLAX_KEY_FIELDS = '''\
import flax.linen as nn
import jax


class Noise(nn.Module):
    key: jax.Array

    @nn.compact
    def __call__(self, x):
        return x + jax.random.normal(self.key, x.shape)


class FreshNoise(nn.Module):
    key: jax.Array

    @nn.compact
    def __call__(self, x):
        return x + jax.random.normal(self.key, x.shape)


class Net(nn.Module):
    key: jax.Array

    @nn.compact
    def __call__(self, x):
        x = Noise(self.key)(x)
        return FreshNoise(key=self.make_rng("noise"))(x)
'''


def test_a_flax_module_field_holding_one_key(tmp_path: Path) -> None:
    """A Flax module drawing from a key field it is built with from a fixed key draws the same
    numbers at every `apply`; one built with `self.make_rng(...)` gets a fresh key each time."""
    assert opt020_lines(tmp_path, "noise.py", FLAX_KEY_FIELDS) == [10]


ATTRIBUTE_IN_TUPLE = '''\
import jax


class Sampler:
    def __init__(self, key, n):
        self.key = key
        self.key, self.a = self.draw(self.key, n)
        self.key, self.b = self.draw(self.key, n)

    def draw(self, key, n):
        key, subkey = jax.random.split(key)
        return key, jax.random.normal(subkey, (n,))
'''


def test_a_key_attribute_reassigned_in_a_tuple_target(tmp_path: Path) -> None:
    """`self.key, self.a = self.draw(self.key, n)`: `draw` returns a fresh key, which
    replaces `self.key`; the next draw is given the new key."""
    assert opt020_lines(tmp_path, "sampler.py", ATTRIBUTE_IN_TUPLE) == []


FOLD_PAST_THE_SPLIT = '''\
import jax


def dither(key, population_size):
    keys = jax.random.split(key, population_size)
    dither_key = jax.random.fold_in(key, population_size)
    return keys, jax.random.uniform(dither_key)


def step_noise(key, n, step):
    keys = jax.random.split(key, n)
    noise_key = jax.random.fold_in(key, step)
    return keys, jax.random.normal(noise_key)
'''


def test_fold_in_of_the_split_count_repeats_no_split_key(tmp_path: Path) -> None:
    """`fold_in(key, n)` beside `split(key, n)` is index `n`, outside the split's `0..n-1`;
    `fold_in(key, step)` may be any of them."""
    assert opt020_lines(tmp_path, "fold.py", FOLD_PAST_THE_SPLIT) == [12]


SEEDED_PATHS = '''\
import jax.random as jr


def demo(Layer):
    key = jr.PRNGKey(0)
    x = jr.normal(key, (10, 2))
    layer = Layer(x.shape[1:], key=key)
    x = jr.normal(key, (2, 2))
    return layer(x)


def seeded_loop(flags):
    key = jr.PRNGKey(0)
    x = jr.normal(key, (3,))
    out = []
    for flag in flags:
        out.append(jr.uniform(key, (3,)) if flag else x)
    return out
'''


def test_a_key_from_a_literal_seed_through_branches_and_unknown_calls(tmp_path: Path) -> None:
    """A key made from `PRNGKey(0)` stays followed through a loop, a conditional expression,
    and an unread draw standing in for a call the analysis cannot tell."""
    assert opt020_lines(tmp_path, "seeded.py", SEEDED_PATHS) == [8, 17]
