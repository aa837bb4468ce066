"""OPT020 on a nested function that draws from a key of the enclosing scope and stores the
next key back in its place (issue #25; whole-repository set 3: mujoco_playground
`leap_hand/reorient.py:317`, labelled FP: `_get_cube_pose` does `info["rng"], pos_rng,
ori_rng = jax.random.split(info["rng"], 3)`, so the split after its call splits that fresh
key). As for a method storing `self.key`, the call leaves the enclosing scope a new key. A
nested function that draws from the enclosing key without storing one is reported."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines

SOURCE = '''\
import jax


def renewing(info, x):
    def noisy(x):
        info["rng"], noise_rng = jax.random.split(info["rng"])
        return x + jax.random.normal(noise_rng, x.shape)

    y = noisy(x)
    info["rng"], key = jax.random.split(info["rng"])
    return y + jax.random.uniform(key, x.shape)


def not_renewing(info, x):
    def noisy(x):
        noise_rng = jax.random.split(info["rng"])[1]
        return x + jax.random.normal(noise_rng, x.shape)

    y = noisy(x)
    info["rng"], key = jax.random.split(info["rng"])
    return y + jax.random.uniform(key, x.shape)
'''


def test_a_closure_storing_the_next_key_leaves_a_fresh_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "obs.py", SOURCE) == [20]
