"""OPT020 on flax.linen's own layers initialised with one key (issue #25, held-out set 6:
tdmpc2-jax 9199210 "Fix initialization keys for world model submodules"): a world model's
`create` classmethod splits `key` for three of its submodules, then gives the same `key` to the
encoder's `init` (a parameter annotated `nn.Module`), to the policy's (an `nn.Sequential`) and
to the continue model's: the encoder's first kernel is the policy's first entries, the policy's
and the continue model's first layers are identical. flax.linen's Dense, Conv, Embed, attention,
recurrent cells and `Sequential` draw their parameters from the key `init` is given; its norms
draw nothing there (ones and zeros): two of them given one key stay silent, as do keys split
apart. Run with Flax where installed (bench-venv, flax 0.12.8)."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

WORLD_MODEL = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import struct


class WorldModel(struct.PyTreeNode):
    encoder: dict
    dynamics: dict
    policy: dict
    head: dict

    @classmethod
    def create(cls, encoder_module: nn.Module, latent_dim: int, *, key):
        dynamics_key, other_key = jax.random.split(key)
        encoder = encoder_module.init(key, jnp.zeros(latent_dim))["params"]
        dynamics = nn.Dense(latent_dim).init(dynamics_key, jnp.zeros(latent_dim))["params"]
        policy_module = nn.Sequential([nn.Dense(latent_dim), nn.relu, nn.Dense(2)])
        policy = policy_module.init(key, jnp.zeros(latent_dim))["params"]
        head_module = nn.Sequential([nn.Dense(latent_dim), nn.relu, nn.Dense(1)])
        head = head_module.init(key, jnp.zeros(latent_dim))["params"]
        return cls(encoder=encoder, dynamics=dynamics, policy=policy, head=head)
'''

WORLD_MODEL_SPLIT = WORLD_MODEL.replace(
    "dynamics_key, other_key = jax.random.split(key)",
    "dynamics_key, encoder_key, policy_key, head_key = jax.random.split(key, 4)").replace(
    "encoder_module.init(key,", "encoder_module.init(encoder_key,").replace(
    "policy_module.init(key,", "policy_module.init(policy_key,").replace(
    "head_module.init(key,", "head_module.init(head_key,")

NORMS = '''\
import flax.linen as nn
import jax.numpy as jnp


def norms(key):
    x = jnp.ones((2, 3))
    return nn.LayerNorm().init(key, x), nn.RMSNorm().init(key, x)
'''


def test_one_key_to_a_world_models_submodules(tmp_path: Path) -> None:
    # The policy after the encoder, the head after the policy.
    assert opt020_lines(tmp_path, "world_model.py", WORLD_MODEL) == [19, 21]


def test_split_keys_for_the_submodules_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "world_model.py", WORLD_MODEL_SPLIT) == []


def test_norms_drawing_nothing_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "norms.py", NORMS) == []


def _namespace(source: str) -> dict[str, Any]:
    pytest.importorskip("flax")
    module = types.ModuleType("program_under_test")
    sys.modules[module.__name__] = module  # dataclasses look a class's module up
    try:
        exec(compile(source, "program.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def test_run_with_flax_the_submodules_draw_alike() -> None:
    pytest.importorskip("flax")
    import flax.linen as nn
    import jax
    import numpy as np

    def first_kernels(made: Any) -> list[Any]:
        return [part["layers_0"]["kernel"] for part in (made.encoder, made.policy, made.head)]

    encoder = nn.Sequential([nn.Dense(16), nn.relu, nn.Dense(16)])
    key = jax.random.key(0)
    encoder_kernel, policy_kernel, head_kernel = first_kernels(
        _namespace(WORLD_MODEL)["WorldModel"].create(encoder, 16, key=key))
    assert np.array_equal(encoder_kernel, policy_kernel)
    assert np.array_equal(policy_kernel, head_kernel)
    encoder_kernel, policy_kernel, head_kernel = first_kernels(
        _namespace(WORLD_MODEL_SPLIT)["WorldModel"].create(encoder, 16, key=key))
    assert not np.array_equal(encoder_kernel, policy_kernel)
    assert not np.array_equal(policy_kernel, head_kernel)


def test_run_with_flax_norms_draw_nothing() -> None:
    pytest.importorskip("flax")
    import jax
    import numpy as np

    norms = _namespace(NORMS)["norms"]
    for one, other in zip(jax.tree.leaves(norms(jax.random.key(0))),
                          jax.tree.leaves(norms(jax.random.key(1))), strict=True):
        assert np.array_equal(one, other)
