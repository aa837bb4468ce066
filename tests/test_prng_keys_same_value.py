"""OPT020 on one key value held under several names (issue #25, `key_aliases.py`): `k = key`,
a carry built as a tuple and returned by name, a tuple unpacked, and a `jax.lax` loop written
inside a lambda. Each program is checked by the real command line; the reuses are shown by
running them under JAX's own key-reuse checker."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import opt020_lines

ALIASES = '''\
import jax


def renamed(key):
    k2 = key
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(k2, (3,))
    return a + b


def through_a_tuple(key):
    pair = (1.0, key)
    a = jax.random.normal(key, (3,))
    _, k = pair
    b = jax.random.normal(k, (3,))
    return a + b


def renamed_then_split(key):
    k2 = key
    key, sub = jax.random.split(key)
    return jax.random.normal(k2, (3,)) + jax.random.normal(sub, (3,))


def rebound_before_the_draw(key):
    k2 = key
    k2 = jax.random.fold_in(k2, 1)
    return jax.random.normal(key, (3,)) + jax.random.normal(k2, (3,))


def swapped(key, other):
    key, other = other, key
    return jax.random.normal(key, (3,)) + jax.random.normal(other, (3,))


def one_branch_aliases(key, flag):
    if flag:
        k2 = key
    else:
        k2 = jax.random.fold_in(key, 1)
    return jax.random.normal(key, (3,)) + jax.random.normal(k2, (3,))
'''


def test_one_key_under_two_names(tmp_path: Path) -> None:
    """A name assigned a key (directly or through a tuple) holds the same key: drawing from
    both draws twice (`renamed`, `through_a_tuple`, `renamed_then_split`). A name bound again
    holds a new value (`rebound_before_the_draw`, `swapped`), and a link made on one branch
    only proves nothing after the join (`one_branch_aliases`)."""
    assert opt020_lines(tmp_path, "aliases.py", ALIASES) == [7, 15, 22]


CARRIES = '''\
import jax


def train(key, xs):
    def epoch(update_state, x):
        params, rng = update_state
        rng, shuffle_rng = jax.random.split(rng)
        perm = jax.random.permutation(rng, 8)
        update_state = (params + perm.sum() + x, rng)
        return update_state, perm

    def epoch_fixed(update_state, x):
        params, rng = update_state
        rng, shuffle_rng = jax.random.split(rng)
        perm = jax.random.permutation(shuffle_rng, 8)
        update_state = (params + perm.sum() + x, rng)
        return update_state, perm

    def accumulate(i, val):
        acc, k = val
        acc = acc + jax.random.normal(k, (3,))
        out = acc, k
        return out

    k1, k2, k3 = jax.random.split(key, 3)
    a = jax.lax.scan(epoch, (0.0, k1), xs)
    b = jax.lax.scan(epoch_fixed, (0.0, k2), xs)
    c = jax.lax.fori_loop(0, 3, accumulate, (0.0, k3))
    return a, b, c
'''


def test_a_carry_built_as_a_tuple_and_returned_by_name(tmp_path: Path) -> None:
    """`update_state = (params, rng)` then `return update_state, y`: the carry holds the key
    the step drew from (the permutation from the `rng` carried on and split again, the
    normal draw from the `k` carried back unchanged); the step that permutes with the split
    key is silent."""
    assert opt020_lines(tmp_path, "carries.py", CARRIES) == [8, 21]


LAMBDA_SCANS = '''\
import jax


def make(length):
    def act(carry, _):
        params, key = carry
        action = jax.random.normal(key, (3,))
        return (params, key), action

    def act_fixed(carry, _):
        params, key = carry
        key, act_key = jax.random.split(key)
        action = jax.random.normal(act_key, (3,))
        return (params, key), action

    scanned = lambda state: jax.lax.scan(act, state, None, length=length)
    scanned_fixed = lambda state: jax.lax.scan(act_fixed, state, None, length=length)
    return scanned, scanned_fixed
'''


def test_a_loop_written_inside_a_lambda(tmp_path: Path) -> None:
    """`scanned = lambda state: lax.scan(act, state, ...)`: whenever the lambda runs, every
    step draws from the key carried back unchanged; the step that splits is silent."""
    assert opt020_lines(tmp_path, "lambdas.py", LAMBDA_SCANS) == [7]


RUN_CHECKER = '''\
import sys
import jax
jax.config.update("jax_debug_key_reuse", True)
sys.path.insert(0, sys.argv[1])
import carries
import lambdas
xs = jax.numpy.zeros(2)


def reuse(run):
    try:
        with jax.disable_jit():
            run()
    except jax.errors.KeyReuseError:
        return True
    return False


scanned, scanned_fixed = lambdas.make(3)
print(reuse(lambda: carries.train(jax.random.key(0), xs)),
      reuse(lambda: scanned((0.0, jax.random.key(1)))),
      reuse(lambda: scanned_fixed((0.0, jax.random.key(2)))))
'''


def test_the_reuses_are_real(tmp_path: Path) -> None:
    """JAX's key-reuse checker raises on the flagged loops and not on the fixed one."""
    pytest.importorskip("jax")
    (tmp_path / "carries.py").write_text(CARRIES)
    (tmp_path / "lambdas.py").write_text(LAMBDA_SCANS)
    (tmp_path / "check.py").write_text(RUN_CHECKER)
    done = subprocess.run([sys.executable, str(tmp_path / "check.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False"]


HELD_BY_KEYWORD = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    params: jax.Array
    key: jax.Array


def built_then_drawn_directly(key):
    state = State(params=0.0, key=key)
    a = jax.random.normal(state.key, (3,))
    b = jax.random.uniform(key, (3,))
    return a, b


def built_with_the_kept_half(key):
    key, sub = jax.random.split(key)
    state = State(params=0.0, key=key)
    a = jax.random.normal(state.key, (3,))
    b = jax.random.uniform(sub, (3,))
    return a, b


def replaced_then_drawn_directly(state, key):
    new = state._replace(key=key)
    a = jax.random.normal(new.key, (3,))
    b = jax.random.uniform(key, (3,))
    return a, b
'''


def test_a_key_held_as_the_field_it_was_given_for(tmp_path: Path) -> None:
    """`State(key=key)` and `state._replace(key=key)` hold `key` as `.key`: drawing from
    both draws twice; the state built with one half of a split is silent."""
    assert opt020_lines(tmp_path, "held.py", HELD_BY_KEYWORD) == [14, 29]


TRAINER = '''\
import jax


class Trainer:
    def __init__(self, seed):
        self.key = jax.random.PRNGKey(seed)
        self.params = None

    def init(self):
        self.params = jax.random.normal(self.key, (3,))

    def noise(self):
        return jax.random.normal(self.key, (3,))

    def run(self):
        self.init()
        return self.params + self.noise()


def warm_up(key):
    jax.random.normal(key, (3,))
    return jax.random.normal(key, (3,))
'''


def test_a_method_called_for_what_it_stores(tmp_path: Path) -> None:
    """`self.init()` as a bare statement keeps its draw in `self.params`: not a warm-up, so
    `self.noise()` drawing from the same `self.key` is reported; a bare `jax.random` draw
    thrown away still is a warm-up."""
    assert opt020_lines(tmp_path, "trainer.py", TRAINER) == [17]


NETWORKS = '''\
import distrax
import flax.linen as nn


class Actor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return distrax.Categorical(logits=nn.Dense(4)(x))
'''

ROLLOUT = '''\
import jax

from networks import Actor


def make_rollout(params, length):
    actor = Actor()

    def act(carry, _):
        obs, key = carry
        pi = actor.apply(params, obs)
        action = pi.sample(seed=key)
        return (obs, key), action

    def act_fixed(carry, _):
        obs, key = carry
        key, act_key = jax.random.split(key)
        action = actor.apply(params, obs).sample(seed=act_key)
        return (obs, key), action

    return (lambda c: jax.lax.scan(act, c, None, length=length),
            lambda c: jax.lax.scan(act_fixed, c, None, length=length))
'''


def test_a_distribution_from_a_project_module_that_uses_distrax(tmp_path: Path) -> None:
    """`pi.sample(seed=key)` where `pi` comes from the project's `networks.py`, which imports
    distrax: the row for distrax distributions holds, so the step carrying its key back
    unchanged samples the same action every step; without a project module importing a
    distribution library, the same file is silent."""
    (tmp_path / "networks.py").write_text(NETWORKS)
    assert opt020_lines(tmp_path, "rollout.py", ROLLOUT) == [12]
    (tmp_path / "networks.py").write_text(NETWORKS.replace("distrax", "my_distributions"))
    assert opt020_lines(tmp_path, "rollout.py", ROLLOUT) == []


DICT_CARRIES = '''\
import jax
import jax.numpy as jnp


def scan_a_dict(key, xs):
    def body(carry, x):
        noise = jax.random.normal(carry["key"], (3,))
        return {"key": carry["key"], "acc": carry["acc"] + noise}, noise

    return jax.lax.scan(body, {"key": key, "acc": jnp.zeros(3)}, xs)


def scan_a_dict_fixed(key, xs):
    def body(carry, x):
        key, sub = jax.random.split(carry["key"])
        noise = jax.random.normal(sub, (3,))
        return {"key": key, "acc": carry["acc"] + noise}, noise

    return jax.lax.scan(body, {"key": key, "acc": jnp.zeros(3)}, xs)


def entries(key):
    batch = {"rng": key}
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(batch["rng"], (3,))
    return a, b
'''


def test_a_key_held_by_a_dict(tmp_path: Path) -> None:
    """`carry["key"]` is followed like an attribute: a scan step handing back the entry it
    drew from, and a dict built with a key drawn from under both names, are reported; the
    step that splits is silent."""
    assert opt020_lines(tmp_path, "dicts.py", DICT_CARRIES) == [7, 25]


REPLICATED_ROWS = '''\
import jax
import jax.numpy as jnp


def sample(key, x):
    return x + jax.random.normal(key, x.shape)


def broadcast(key, xs):
    keys = jnp.broadcast_to(key, (xs.shape[0],))
    return jax.vmap(sample)(keys, xs)


def repeated(key, xs):
    keys = jnp.repeat(key[None], xs.shape[0], axis=0)
    return jax.vmap(sample)(keys, xs)


def split(key, xs):
    keys = jax.random.split(key, xs.shape[0])
    return jax.vmap(sample)(keys, xs)


if __name__ == "__main__":
    xs = jnp.zeros((3, 2))
    for run in (broadcast, repeated, split):
        rows = run(jax.random.key(0), xs)
        print(bool((rows == rows[0]).all()))
'''


def test_rows_given_copies_of_one_key(tmp_path: Path) -> None:
    """`jnp.broadcast_to(key, (n,))` and `jnp.repeat(key[None], n, axis=0)` give every row
    of the vmap the same key, as running it shows (identical rows); split keys do not."""
    assert opt020_lines(tmp_path, "rows.py", REPLICATED_ROWS) == [11, 16]
    pytest.importorskip("jax")
    done = subprocess.run([sys.executable, str(tmp_path / "rows.py")], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False"]


LOADER = '''\
import jax


class Loader:
    def __init__(self, data, key):
        self.data = data
        self.key = key

    def epoch(self):
        perm = jax.random.permutation(self.key, self.data.shape[0])
        return self.data[perm]


class Reshuffling:
    def __init__(self, data, key):
        self.data = data
        self.key = key

    def epoch(self):
        self.key, sub = jax.random.split(self.key)
        return self.data[jax.random.permutation(sub, self.data.shape[0])]


class Model:
    def __init__(self, key):
        self.w = jax.random.normal(key, (3,))


def train(data, key):
    loader = Loader(data, key)
    model = Model(key)
    batch = loader.epoch()
    return model.w * batch.sum()


def train_split(data, key):
    loader_key, model_key = jax.random.split(key)
    loader = Loader(data, loader_key)
    model = Model(model_key)
    batch = loader.epoch()
    return model.w * batch.sum()


def train_reshuffling(data, key):
    loader = Reshuffling(data, key)
    batch = loader.epoch()
    model = Model(key)
    return model.w * batch.sum()
'''


def test_an_object_built_holding_the_key(tmp_path: Path) -> None:
    """`Loader(data, key)` keeps `key` as `loader.key` (its `__init__` stores the parameter
    as is, and only building the object sets it): the loader's permutation and the model's
    initialisation draw from one key. Split keys are silent. A loader whose method sets
    `self.key` again is not followed (what the field holds then depends on the calls made),
    though here its first split does reuse the model's key: a miss, not a finding."""
    assert opt020_lines(tmp_path, "loader.py", LOADER) == [32]


MODULE_KEY = '''\
import jax

KEY = jax.random.PRNGKey(0)


def init_a():
    return jax.random.normal(KEY, (3,))


def init_b():
    return jax.random.normal(KEY, (3,))


def advance():
    global KEY
    KEY, sub = jax.random.split(KEY)
    return jax.random.normal(sub, (3,))


if __name__ == "__main__":
    a = init_a()
    b = init_b()
    c = advance()
    d = advance()
    print(a, b, c, d)
'''


def test_functions_drawing_from_the_module_key(tmp_path: Path) -> None:
    """Two functions of the module drawing from its `KEY` draw the same numbers; a function
    that splits the module key and stores it back draws anew each call."""
    assert opt020_lines(tmp_path, "script.py", MODULE_KEY) == [11]


FORWARDED = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    params: jax.Array
    key: jax.Array


def make_state(init_key, key):
    return State(params=jax.random.normal(init_key, (3,)), key=key)


def make_runner(init_key, rng):
    params = jax.random.normal(init_key, (3,))
    runner = (params, rng)
    return runner


def use_state(key):
    init_key, key = jax.random.split(key)
    state = make_state(init_key, key)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(state.key, (3,))
    return a, b


def use_runner(key):
    init_key, key = jax.random.split(key)
    params, rng = make_runner(init_key, key)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(rng, (3,))
    return a, b


def use_runner_split(key):
    init_key, key, rng = jax.random.split(key, 3)
    params, rng = make_runner(init_key, rng)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(rng, (3,))
    return a, b
'''


def test_a_function_returning_the_key_it_was_given(tmp_path: Path) -> None:
    """`make_state(init_key, key)` returns `State(key=key)`, `make_runner` a tuple holding
    its `rng`: the caller's names for what they return are its own key, so drawing from both
    draws twice; given a key of its own, the runner is silent."""
    assert opt020_lines(tmp_path, "forwarded.py", FORWARDED) == [25, 33]


CARRIED_IN = '''\
import jax


def step(carry, x):
    params, key = carry
    key, sub = jax.random.split(key)
    return (params + jax.random.normal(sub, (3,)), key), None


def run(key, xs):
    carry, _ = jax.lax.scan(step, (0.0, key), xs)
    return carry, jax.random.normal(key, (3,))


def run_named(key, xs):
    init = (0.0, key)
    carry, _ = jax.lax.scan(step, init, xs)
    return carry, jax.random.normal(key, (3,))


def run_split(key, xs):
    key, sub = jax.random.split(key)
    carry, _ = jax.lax.scan(step, (0.0, sub), xs)
    return carry, jax.random.normal(key, (3,))
'''


def test_a_loop_draws_from_its_initial_carry(tmp_path: Path) -> None:
    """`scan(step, (0.0, key), xs)` where `step` splits its carry's key: the loop's first step
    consumes the caller's `key`, so drawing from it afterwards reuses it (built in place or
    under a name); given a split key, the loop is silent."""
    assert opt020_lines(tmp_path, "carried_in.py", CARRIED_IN) == [12, 18]


RETURNS_ITS_INPUT = '''\
from functools import partial

import jax


class Agent:
    def __init__(self, seed):
        self.key = jax.random.PRNGKey(seed)

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "steps"])
    def _train(cls, steps, params, key):
        carry = {"params": params, "key": key}

        def one_update(i, carry):
            key, sub = jax.random.split(carry["key"])
            return {"params": carry["params"] + jax.random.normal(sub, (3,)), "key": key}

        carry = jax.lax.fori_loop(0, steps, one_update, carry)
        return carry["params"], key

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "steps"])
    def _train_fixed(cls, steps, params, key):
        carry = {"params": params, "key": key}

        def one_update(i, carry):
            key, sub = jax.random.split(carry["key"])
            return {"params": carry["params"] + jax.random.normal(sub, (3,)), "key": key}

        carry = jax.lax.fori_loop(0, steps, one_update, carry)
        return carry["params"], carry["key"]

    def train(self, params):
        params, self.key = self._train(3, params, self.key)
        return params

    def train_fixed(self, params):
        params, self.key = self._train_fixed(3, params, self.key)
        return params

    def act(self):
        self.key, sub = jax.random.split(self.key)
        return jax.random.normal(sub, (2,))
'''


def test_a_step_that_hands_back_the_key_it_was_given(tmp_path: Path) -> None:
    """`params, self.key = self._train(..., self.key)` where the jitted classmethod runs its
    loop from `key` and returns that input key instead of the carry's: `self.key` keeps a
    consumed key, which the next call consumes again; the step returning the carry's key is
    silent."""
    assert opt020_lines(tmp_path, "agent.py", RETURNS_ITS_INPUT) == [35]
