"""OPT020 through an abstract method batched by `jax.vmap` through its object (issue #25,
held-out set 8: jugheadjones10/xland-minigrid 9f8314e resets every environment with
`jax.vmap(env.reset, in_axes=(None, 0, None))(params, reset_rng, adr_params)`, `env:
Environment` with `reset` abstract, then resets from the same `reset_rng` at every step of the
scanned update). Called directly, such a method consumes what every override of the project
draws from; batched, the same: a mapped batch of keys is consumed once by the call, a key
broadcast to every row is drawn from in every row. Silent where an override draws nothing
(what runs decides: not proven), and where the batch is split afresh. Run with JAX: the
scanned update's reset raises."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import raises_key_reuse, run_optlint_in_process

ENVS = """\
import abc

import jax
import jax.numpy as jnp


class Env(abc.ABC):
    @abc.abstractmethod
    def reset(self, params, key): ...


class Grid(Env):
    def reset(self, params, key):
        return jax.random.randint(key, (2,), 0, params)


class Maze(Env):
    def reset(self, params, key):
        return jax.random.randint(key, (2,), 1, params)
"""

TRAIN = """\
def make_train(env: Env, params, n):
    def train(rng):
        rng, _rng = jax.random.split(rng)
        reset_rng = jax.random.split(_rng, n)
        first = jax.vmap(env.reset, in_axes=(None, 0))(params, reset_rng)

        def _update_step(carry, idx):
            states = jax.vmap(env.reset, in_axes=(None, 0))(params, reset_rng)
            return carry + states.sum(), states

        return jax.lax.scan(_update_step, first.sum(), jnp.arange(3))

    return train
"""

# Every update draws its reset keys afresh from the carried key.
FRESH = TRAIN.replace(
    "            states = jax.vmap(env.reset, in_axes=(None, 0))(params, reset_rng)\n",
    "            keys = jax.random.split(jax.random.fold_in(rng, idx), n)\n"
    "            states = jax.vmap(env.reset, in_axes=(None, 0))(params, keys)\n")

# One override draws nothing: what runs decides.
SILENT_OVERRIDE = ENVS.replace(
    "        return jax.random.randint(key, (2,), 1, params)\n",
    "        return jnp.zeros((2,), jnp.int32) + params\n")

# A key broadcast to every row: every row draws the same numbers.
BROADCAST = """\
def reset_all(env: Env, params, key):
    return jax.vmap(env.reset, in_axes=(0, None))(params, key)
"""


def _findings(tmp_path: Path, source: str, preview: bool = False) -> list[int]:
    (tmp_path / "envs.py").write_text(source)
    extra = ["--preview"] if preview else []
    result = run_optlint_in_process("check", "envs.py", "--select", "OPT020", "--no-cache",
                                    "--isolated", "--output-format", "json", *extra,
                                    cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_a_batched_abstract_method_consumes_the_mapped_keys(tmp_path: Path) -> None:
    assert _findings(tmp_path, ENVS + "\n\n" + TRAIN) == [29]


def test_fresh_keys_every_update_are_silent(tmp_path: Path) -> None:
    assert "fold_in(rng, idx)" in FRESH
    assert _findings(tmp_path, ENVS + "\n\n" + FRESH) == []


def test_an_override_drawing_nothing_is_not_proven(tmp_path: Path) -> None:
    assert "jnp.zeros" in SILENT_OVERRIDE
    assert _findings(tmp_path, SILENT_OVERRIDE + "\n\n" + TRAIN) == []


def test_a_broadcast_key_draws_the_same_in_every_row(tmp_path: Path) -> None:
    assert _findings(tmp_path, ENVS + "\n\n" + BROADCAST) == [23]


def test_jax_raises_in_the_scanned_update() -> None:
    program = ENVS + "\n\n" + TRAIN + "\n\nmake_train(Grid(), 5, 3)(jax.random.key(0))\n"
    assert raises_key_reuse(program)
