"""OPT020 on a `jax.lax.scan` body given as a partial (`functools.partial` or
`jax.tree_util.Partial`) of a function or method that hands its carry's key back unchanged
(issue #25, held-out set 4, the shape of flowMC fa16c10: `scan(Partial(self.body, kernel),
(rng_key, position, ...))` whose body returned `key` as it came): every step draws the same
numbers, as with the body given bare. Beside look-alikes that stay silent: the body splitting
the carried key, and a partial binding arguments to a body that hands back a fresh key. Run
with real JAX: every step moves by the same vector."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

WALK = '''\
import jax


class Walk:
    def body(self, step, carry, _):
        key, position = carry
        position = position + step * jax.random.normal(key, position.shape)
        return (key, position), position

    def sample(self, step, rng_key, position, n):
        _, positions = jax.lax.scan(jax.tree_util.Partial(self.body, step), (rng_key, position),
                                    length=n)
        return positions
'''

FUNCTOOLS = WALK.replace("import jax\n", "import functools\n\nimport jax\n", 1).replace(
    "jax.tree_util.Partial(self.body, step)", "functools.partial(self.body, step)")

SPLITS = WALK.replace(
    "        key, position = carry\n",
    "        key, position = carry\n        key, subkey = jax.random.split(key)\n").replace(
    "jax.random.normal(key, position.shape)", "jax.random.normal(subkey, position.shape)")

FREE_FUNCTION = '''\
import functools

import jax


def body(step, carry, _):
    key, position = carry
    key, subkey = jax.random.split(key)
    return (key, position + step * jax.random.normal(subkey, position.shape)), position


def sample(step, rng_key, position, n):
    return jax.lax.scan(functools.partial(body, step), (rng_key, position), length=n)[1]
'''


@pytest.mark.parametrize("source, line", [(WALK, 7), (FUNCTOOLS, 9)],
                         ids=["tree_util.Partial", "functools.partial"])
def test_a_partial_body_handing_its_key_back(tmp_path: Path, source: str, line: int) -> None:
    assert opt020_lines(tmp_path, "walk.py", source) == [line]


@pytest.mark.parametrize("source", [SPLITS, FREE_FUNCTION], ids=["splits", "fresh key back"])
def test_look_alikes_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "walk.py", source) == []


def test_every_step_moves_alike() -> None:
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(WALK, "walk.py", "exec"), namespace)
    positions = namespace["Walk"]().sample(0.5, jax.random.key(0), jnp.zeros(2), 5)
    moves = jnp.diff(positions, axis=0)
    assert bool(jnp.allclose(moves, moves[0]))
