"""OPT020 on a Flax module applied twice with one dropout key, its `training` switch given by
position (issue #25; the blind negative `neg_target_critics_eval_with_one_dropout_key.py`,
after cleanrl 9704f1d: `qf.apply(target, obs, act, False, rngs={"dropout": key})` for
`__call__(self, obs, act, training)`). Switched off, the module draws nothing from the key, as
with `training=False`; switched on (`True`), the two calls draw the same dropout mask and the
reuse is found. The run needs Flax: the two outputs are equal with the switch off for any two
keys, and with it on they are equal for one key and differ for two (run with flax 0.12.8 in
the benchmark environment: targets equal for keys 1 and 2, noisy_targets not)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from conftest import opt020_lines

SOURCE = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Critic(nn.Module):
    @nn.compact
    def __call__(self, obs, act, training: bool):
        x = nn.Dense(16)(jnp.concatenate([obs, act], -1))
        x = nn.Dropout(0.5, deterministic=not training)(x)
        return nn.Dense(1)(x)


critic = Critic()


def targets(params, obs, act, key):
    first = critic.apply(params, obs, act, False, rngs={"dropout": key})
    second = critic.apply(params, obs, act, False, rngs={"dropout": key})
    return first, second


def noisy_targets(params, obs, act, key):
    first = critic.apply(params, obs, act, True, rngs={"dropout": key})
    second = critic.apply(params, obs, act, True, rngs={"dropout": key})
    return first, second
'''


def test_a_switch_given_by_position_turns_the_draws_off(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "critics.py", SOURCE) == [25]


def test_the_critics_when_run(tmp_path: Path) -> None:
    pytest.importorskip("flax")
    import jax
    import jax.numpy as jnp
    import numpy as np

    (tmp_path / "critics.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "critics.py"))
    obs, act = jnp.ones((4, 3)), jnp.ones((4, 2))
    params = namespace["critic"].init(jax.random.key(0), obs, act, False)
    one, two = jax.random.key(1), jax.random.key(2)
    for name, switched_on in (("targets", False), ("noisy_targets", True)):
        same_key = namespace[name](params, obs, act, one)
        first, _ = namespace[name](params, obs, act, one)
        second, _ = namespace[name](params, obs, act, two)
        assert np.array_equal(same_key[0], same_key[1])
        assert np.array_equal(first, second) != switched_on
