"""OPT020 on keys that come back the same without being named twice (issue #25): one key folded
with the same data in two places (two methods of an object folding its key with one `tick`),
`map` over an iterable that repeats one key or seed, and a method drawing from the key its
object holds on every step of a loop. Each program is checked by the real command line, and
run with real JAX to show the draws it is about are equal (the reuse) or differ (the
look-alike)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines


def _run(source: str) -> dict[str, Any]:
    """The program's names after running it (its `__main__` block left out)."""
    pytest.importorskip("jax")
    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace


SENSOR = '''\
import jax


class Sensor:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def drift(self, tick):
        key = jax.random.fold_in(self.key, tick)
        return jax.random.normal(key, (3,))

    def noise(self, tick):
        key = jax.random.fold_in(self.key, tick)
        return jax.random.normal(key, (3,))


def read(sensor, tick):
    return sensor.drift(tick) - sensor.noise(tick)


if __name__ == "__main__":
    sensor = Sensor(0)
    print(sensor.drift(tick=7) + sensor.noise(tick=7))
'''

# The look-alike: each method folds its own data, so the keys differ.
SENSOR_APART = SENSOR.replace(
    "def drift(self, tick):\n        key = jax.random.fold_in(self.key, tick)",
    "def drift(self, tick):\n        key = jax.random.fold_in(self.key, 2 * tick)").replace(
    "def noise(self, tick):\n        key = jax.random.fold_in(self.key, tick)",
    "def noise(self, tick):\n        key = jax.random.fold_in(self.key, 2 * tick + 1)")


def test_two_methods_folding_their_objects_key_with_one_tick(tmp_path: Path) -> None:
    """`drift` and `noise` both fold `self.key` with the tick they are given: called with one
    tick on one object they draw from one key (reported at the second method's `fold_in`);
    folding different data (`2 * tick`, `2 * tick + 1`) draws from two keys."""
    import numpy as np

    program = _run(SENSOR)
    sensor = program["Sensor"](0)
    assert np.array_equal(sensor.drift(7), sensor.noise(7))
    apart = _run(SENSOR_APART)["Sensor"](0)
    assert not np.array_equal(apart.drift(7), apart.noise(7))
    assert opt020_lines(tmp_path, "sensor.py", SENSOR) == [13]
    assert opt020_lines(tmp_path, "apart.py", SENSOR_APART) == []


FOLDS = '''\
import jax


def same_step(key, step):
    k1 = jax.random.fold_in(key, step)
    k2 = jax.random.fold_in(key, step)
    return jax.random.normal(k1) + jax.random.uniform(k2)


def step_moves_on(key, step):
    k1 = jax.random.fold_in(key, step)
    step = step + 1
    k2 = jax.random.fold_in(key, step)
    return jax.random.normal(k1) + jax.random.normal(k2)


def per_step(key, n):
    return [jax.random.normal(jax.random.fold_in(key, i)) for i in range(n)]


def fixed_in_loop(key, n):
    out = []
    for _ in range(n):
        out.append(jax.random.normal(jax.random.fold_in(key, 0)))
    return out


def refolded(key, n):
    out = []
    for i in range(n):
        key = jax.random.fold_in(key, i)
        k1, k2 = jax.random.split(key, 2)
        out.append(jax.random.normal(k1) + jax.random.normal(k2))
    return out
'''


def test_one_key_folded_with_the_same_data_in_one_function(tmp_path: Path) -> None:
    """Two `fold_in(key, step)` with `step` unchanged make one key; after `step` changes, or
    with the loop's counter, they make new keys; `fold_in(key, 0)` in every iteration of a loop
    is one key drawn from on every step. `key = fold_in(key, i)` folds the key the previous
    iteration split: the fold repeats one of its split keys."""
    program = _run(FOLDS)
    key = program["jax"].random.key(0)
    first, second = program["fixed_in_loop"](key, 2)
    assert first == second
    assert len({float(x) for x in program["per_step"](key, 3)}) == 3
    assert opt020_lines(tmp_path, "folds.py", FOLDS) == [7, 24, 31]


MAPPED = '''\
import itertools
from functools import partial

import jax


def fit(data, seed):
    key = jax.random.PRNGKey(seed)
    return data + jax.random.normal(key, data.shape)


def ignores_seed(data, seed):
    return data * 2


def fit_all(datasets, seed):
    seeds = [seed] * len(datasets)
    return list(map(partial(fit), datasets, seeds))


def fit_repeat(datasets, key):
    return list(map(lambda d, k: d, datasets, itertools.repeat(key)))


def fit_apart(datasets, seed):
    return list(map(fit, datasets, [seed + i for i in range(len(datasets))]))


def fit_ignored(datasets, seed):
    return list(map(ignores_seed, datasets, [seed] * len(datasets)))
'''


def test_map_over_an_iterable_repeating_one_seed(tmp_path: Path) -> None:
    """`map(fit, datasets, [seed] * n)`: every item makes its key from one seed and draws the
    same noise; one seed per item, or a function that makes no key from it, is no reuse."""
    import jax.numpy as jnp
    import numpy as np

    program = _run(MAPPED)
    datasets = [jnp.zeros(2), jnp.zeros(2)]
    first, second = program["fit_all"](datasets, 7)
    assert np.array_equal(first, second)
    first, second = program["fit_apart"](datasets, 7)
    assert not np.array_equal(first, second)
    assert opt020_lines(tmp_path, "mapped.py", MAPPED) == [18]


LOADER = '''\
import jax
import numpy as np


class Loader:
    def __init__(self, n, *, key):
        self.n = n
        self.key = key

    def order(self):
        seed = np.asarray(jax.random.key_data(self.key))
        return np.random.default_rng(seed).permutation(self.n)


def orders(loader, epochs):
    found = []
    for _ in range(epochs):
        found.append(loader.order())
    return found


if __name__ == "__main__":
    orders(Loader(10, key=jax.random.key(0)), 2)
'''

# The look-alike: the loader advances its key before each epoch.
LOADER_ADVANCING = LOADER.replace(
    "        seed = np.asarray(jax.random.key_data(self.key))",
    "        self.key, epoch_key = jax.random.split(self.key)\n"
    "        seed = np.asarray(jax.random.key_data(epoch_key))")


def test_a_method_drawing_from_its_objects_key_on_every_step(tmp_path: Path) -> None:
    """`loader.order()` on every epoch, where `order` seeds NumPy from the key only
    `__init__` sets: every epoch shuffles alike; a loader that splits its key first does not."""
    import numpy as np

    program = _run(LOADER)
    first, second = program["orders"](program["Loader"](10, key=program["jax"].random.key(0)), 2)
    assert np.array_equal(first, second)
    advancing = _run(LOADER_ADVANCING)
    first, second = advancing["orders"](
        advancing["Loader"](10, key=advancing["jax"].random.key(0)), 2)
    assert not np.array_equal(first, second)
    assert opt020_lines(tmp_path, "loader.py", LOADER) == [18]
    assert opt020_lines(tmp_path, "advancing.py", LOADER_ADVANCING) == []


SEEDED_INSIDE = '''\
import jax


def noise(shape, seed=0):
    key = jax.random.PRNGKey(seed)
    return jax.random.normal(key, shape)


def make_dropout(rate, seed=0):
    def apply(x):
        key = jax.random.PRNGKey(seed)
        return jax.random.bernoulli(key, rate, x.shape) * x
    return apply


def defaults(x):
    a = noise((3,))
    b = noise((3,))
    return a + b


def two_passes(x):
    drop = make_dropout(0.5)
    return drop(x), drop(x)


def seeds_given(x):
    a = noise((3,), seed=1)
    b = noise((3,), seed=2)
    return a + b


def one_pass_each(x):
    first = make_dropout(0.5, seed=1)
    second = make_dropout(0.5, seed=2)
    return first(x), second(x)
'''


def test_a_callee_making_its_key_from_a_seed_it_is_not_given(tmp_path: Path) -> None:
    """`noise(shape)` twice, where `noise` makes its key from the default seed, draws the same
    noise; so does a dropout closure making its key from the factory's seed on every call.
    Different seeds given, or each closure called once, draw apart."""
    import jax.numpy as jnp
    import numpy as np

    program = _run(SEEDED_INSIDE)
    x = jnp.ones(64)
    assert np.array_equal(program["noise"]((3,)), program["noise"]((3,)))
    first, second = program["two_passes"](x)
    assert np.array_equal(first, second)
    first, second = program["one_pass_each"](x)
    assert not np.array_equal(first, second)
    assert opt020_lines(tmp_path, "seeded.py", SEEDED_INSIDE) == [11, 18]


BUILT_IN_A_LOOP = '''\
import equinox as eqx
import jax


class Block(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, size, *, key):
        self.linear = eqx.nn.Linear(size, size, key=key)

    def __call__(self, x):
        return self.linear(x)


def same_key(size, depth, key):
    return [Block(size, key=key) for _ in range(depth)]


def own_keys(size, depth, key):
    return [Block(size, key=k) for k in jax.random.split(key, depth)]
'''


def test_a_class_of_the_file_built_with_one_key_on_every_step(tmp_path: Path) -> None:
    """`[Block(size, key=key) for _ in range(depth)]` builds identical blocks; one key per
    block (`for k in split(key, depth)`) builds different ones."""
    import numpy as np

    program = _run(BUILT_IN_A_LOOP)
    key = program["jax"].random.key(0)
    first, second = program["same_key"](3, 2, key)
    assert np.array_equal(first.linear.weight, second.linear.weight)
    first, second = program["own_keys"](3, 2, key)
    assert not np.array_equal(first.linear.weight, second.linear.weight)
    assert opt020_lines(tmp_path, "blocks.py", BUILT_IN_A_LOOP) == [16]


KEPT_BY_THE_SAMPLER = '''\
import jax
from numpyro.infer import MCMC, NUTS


def model():
    pass


def two_runs(rng_key):
    first = MCMC(NUTS(model), num_warmup=10, num_samples=10)
    first.run(rng_key)
    second = MCMC(NUTS(model), num_warmup=10, num_samples=10)
    second.run(rng_key)
    return first.get_samples(), second.get_samples()


def warm_up(step, key):
    step(key)
    return step(key)
'''


def test_a_sampler_run_as_a_statement_keeps_what_it_draws(tmp_path: Path) -> None:
    """`mcmc.run(rng_key)` as a bare statement keeps its samples in the object: a second run
    with the same key repeats them (numpyro's row says the call keeps its result); a bare call
    of anything else is a warm-up, whose result nothing sees."""
    assert opt020_lines(tmp_path, "runs.py", KEPT_BY_THE_SAMPLER) == [13]


PARTS_OF_ONE = '''\
import jax


class Dense:
    def __init__(self, n):
        self.n = n

    def init(self, key):
        return jax.random.normal(key, (self.n,))


class Net:
    def __init__(self, n):
        self.hidden = Dense(n)
        self.output = Dense(n)

    def init(self, seed):
        key = jax.random.key(seed)
        return self.hidden.init(key), self.output.init(key)


def compare(n, key):
    first, second = Dense(n), Dense(n)
    return first.init(key) - second.init(key)
'''


def test_the_parts_of_one_object_initialised_from_one_key(tmp_path: Path) -> None:
    """`self.hidden.init(key)` and `self.output.init(key)`: one model's two layers start
    identical; two objects compared on one draw (`first.init(key) - second.init(key)`) are
    left alone, as before."""
    import numpy as np

    program = _run(PARTS_OF_ONE)
    hidden, output = program["Net"](3).init(0)
    assert np.array_equal(hidden, output)
    assert opt020_lines(tmp_path, "parts.py", PARTS_OF_ONE) == [19]
