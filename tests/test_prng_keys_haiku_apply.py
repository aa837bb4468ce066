"""OPT020 on Haiku's `apply` given the key `init` used (issue #25, what is not reuse): `apply`
draws only what the transformed function draws from the rng stream. When that function is the
file's and nothing in the file draws from the stream (no `hk.next_rng_key()`, no
`hk.dropout`, nothing applied with `rng=` or `dropout_rate=`), `apply` draws nothing and the
key is not reused; with dropout in the network it is. Checked by the real command line (the
row is `stream_only` in `key_consumers.py`)."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

GAN = '''\
import haiku as hk
import jax
import jax.numpy as jnp


class Generator(hk.Module):
    def __call__(self, z):
        return jnp.tanh(hk.nets.MLP([32, 16])(z))


class Trainer:
    def __init__(self):
        self.generator = hk.transform(lambda z: Generator()(z))

    def init(self, rng, z):
        params = self.generator.init(rng, z)
        fake = self.generator.apply(params, rng, z)
        return params, fake
'''

# The same network with dropout in `apply`: it draws from the key `init` used.
GAN_DROPOUT = GAN.replace(
    "        return jnp.tanh(hk.nets.MLP([32, 16])(z))",
    "        return jnp.tanh(hk.dropout(hk.next_rng_key(), 0.5, hk.nets.MLP([32, 16])(z)))")


def test_apply_of_a_network_that_draws_nothing_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "gan.py", GAN) == []


def test_apply_of_a_network_with_dropout_reuses_the_init_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "gan.py", GAN_DROPOUT) == [17]


def _raises_key_reuse(source: str) -> bool:
    """Runs the trainer's `init` under JAX's key-reuse checker, where Haiku is installed."""
    import pytest

    pytest.importorskip("haiku")
    return raises_key_reuse(
        source, "Trainer().init(jax.random.key(0), jax.numpy.ones((2, 4)))")


def test_the_checker_agrees() -> None:
    assert not _raises_key_reuse(GAN)
    assert _raises_key_reuse(GAN_DROPOUT)
