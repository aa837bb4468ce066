"""OPT020 on a probe key whose draws reach only arguments read for their shape and dtype
(issue #25; the blind negative `neg_dqn_dummy_probe_key_only_shapes_the_buffer.py`, after
milabench PR 394): one env step drawn from a dummy key only to size a replay buffer, through
`jnp.zeros_like(obs)` and a function of the file making `tree_map(lambda x: jnp.zeros((n,) +
x.shape, x.dtype), example)`. The draws reach no result; where the function keeps the values
(`jnp.broadcast_to(x, ...)`), the reuse is still found. Both run with JAX: drawing the probe
from another key leaves the silent function's result unchanged and changes the found one's.

And the blind positive beside it (`state_dqn_dummy_rng_shadows_seed_argument.py`, purejaxrl
issue 35): a returned `train(rng)` that replaces its key argument with `jax.random.key(0)` before
reading it makes every seed train alike; one that splits the key it is given is silent."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_findings, opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


def buffer_init(example, size):
    return jax.tree_util.tree_map(lambda x: jnp.zeros((size,) + x.shape, x.dtype), example)


def buffer_fill(example, size):
    return jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (size,) + x.shape), example)


def probe(seed):
    probe_key = jax.random.key(0)
    obs = jax.random.normal(probe_key, (3,))
    reward = jax.random.uniform(probe_key, ())
    transition = (obs, reward)
    buffer = buffer_init(transition, 4)
    noise = jax.random.normal(jax.random.key(seed), (3,))
    return buffer, jnp.zeros_like(obs) + noise


def probe_kept(seed):
    probe_key = jax.random.key(0)
    obs = jax.random.normal(probe_key, (3,))
    reward = jax.random.uniform(probe_key, ())
    transition = (obs, reward)
    buffer = buffer_fill(transition, 4)
    noise = jax.random.normal(jax.random.key(seed), (3,))
    return buffer, jnp.zeros_like(obs) + noise
'''

TRAIN = '''\
import jax


def make_train(steps):
    def train(rng):
        rng = jax.random.key(0)
        rng, init_key = jax.random.split(rng)
        return jax.random.normal(init_key, (steps,))
    return train


def make_train_kept(steps):
    def train(rng):
        rng, init_key = jax.random.split(rng)
        return jax.random.normal(init_key, (steps,))
    return train
'''


def test_a_probe_read_only_for_shapes_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "probe.py", SOURCE) == [26]


def test_the_probes_when_run(tmp_path: Path) -> None:
    (tmp_path / "written.py").write_text(SOURCE)
    (tmp_path / "moved.py").write_text(SOURCE.replace("jax.random.key(0)", "jax.random.key(7)"))
    written = runpy.run_path(str(tmp_path / "written.py"))
    moved = runpy.run_path(str(tmp_path / "moved.py"))
    for name, changes in (("probe", False), ("probe_kept", True)):
        before = jax.tree_util.tree_leaves(written[name](1))
        after = jax.tree_util.tree_leaves(moved[name](1))
        same = all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(before, after, strict=True))
        assert same != changes


def test_a_returned_function_replacing_its_key_argument(tmp_path: Path) -> None:
    findings = opt020_findings(tmp_path, "train.py", TRAIN)
    assert [f["line"] for f in findings] == [6]
    assert "replaces the key argument `rng` of `train`" in findings[0]["message"]


def test_the_trainers_when_run(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    namespace = runpy.run_path(str(tmp_path / "train.py"))
    seeds = jax.random.split(jax.random.key(1), 2)
    for name, alike in (("make_train", True), ("make_train_kept", False)):
        rows = np.asarray(jax.vmap(namespace[name](3))(seeds))
        assert np.array_equal(rows[0], rows[1]) == alike
