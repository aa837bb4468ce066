"""OPT020 on a key held by an object its object holds (issue #25, loops; sbx 9b34266):
`self.policy.noise_key` drawn from on every rollout step draws the same noise; a call of a
method on `self.policy` that sets its keys (`reset_noise`) gives the next step a new one,
while one that only reads them (`predict`) does not. Checked by the real command line and run
with JAX: identical noise without the reset, different noise with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

PROGRAM = '''\
import jax


class Policy:
    def __init__(self, key):
        self.key, self.noise_key = jax.random.split(key)

    def reset_noise(self):
        self.key, self.noise_key = jax.random.split(self.key)

    def predict(self, obs):
        return obs * 2.0


class Trainer:
    def __init__(self, policy):
        self.policy = policy

    def rollout(self, obs, n_steps):
        noises = []
        for step in range(n_steps):
            actions = self.policy.predict(obs)
            noise = jax.random.normal(self.policy.noise_key, obs.shape)
            noises.append(noise)
            obs = actions + noise
        return noises
'''

RESET = PROGRAM.replace("            actions = self.policy.predict(obs)\n",
                        "            self.policy.reset_noise()\n"
                        "            actions = self.policy.predict(obs)\n")


def _noises(source: str) -> list[Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    trainer = namespace["Trainer"](namespace["Policy"](jax.random.key(0)))
    return trainer.rollout(jax.numpy.zeros(3), 2)


def test_a_key_of_an_attribute_object_drawn_every_step(tmp_path: Path) -> None:
    first, second = _noises(PROGRAM)
    assert (first == second).all()
    assert opt020_lines(tmp_path, "rollout.py", PROGRAM) == [23]


def test_a_method_setting_the_attribute_objects_keys_every_step_is_silent(tmp_path: Path) -> None:
    first, second = _noises(RESET)
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "rollout.py", RESET) == []
