"""OPT020 through the branches of `jax.lax.cond` and `jax.lax.switch` (issue #25, held-out set 2:
an environment vmapped over its agents respawned every agent that found the treasure with
`lax.cond(found, lambda: jax.random.choice(key, cells), lambda: pos)`, the key closed over, so
all of them landed on one cell). A branch consumes what it draws from on the path that takes it,
as a branch of an `if` does; under `vmap` every row runs it. The programs also run with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np
import pytest

from conftest import run_optlint_in_process as run_optlint

PROGRAM = '''\
import jax
import jax.numpy as jnp


def respawn(positions, found, key):
    def one(pos, hit):
        return jax.lax.cond(hit, lambda: jax.random.normal(key), lambda: pos)

    return jax.vmap(one)(positions, found)


def respawn_switch(positions, which, key):
    def one(pos, i):
        return jax.lax.switch(i, [lambda: jax.random.normal(key), lambda: pos])

    return jax.vmap(one)(positions, which)


def respawn_apart(positions, found, key):
    keys = jax.random.split(key, positions.shape[0])

    def one(pos, hit, k):
        return jax.lax.cond(hit, lambda: jax.random.normal(k), lambda: pos)

    return jax.vmap(one)(positions, found, keys)


def one_branch_then_draw(x, key):
    y = jax.lax.cond(x > 0, lambda: jax.random.normal(key), lambda: x)
    return y + jax.random.uniform(key)


def both_branches_then_draw(x, key):
    y = jax.lax.cond(x > 0, lambda: jax.random.normal(key), lambda: jax.random.uniform(key))
    return y + jax.random.uniform(key)


def no_branch_draws(x, key):
    y = jax.lax.cond(x > 0, lambda: x + 1.0, lambda: x - 1.0)
    return y + jax.random.uniform(key)
'''


def _rows(tmp_path: Path) -> list[int]:
    (tmp_path / "envs.py").write_text(PROGRAM)
    result = run_optlint("check", "envs.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_a_branch_drawing_from_a_closed_over_key_draws_in_every_row(tmp_path: Path) -> None:
    # 9: `cond` vmapped; 16: `switch` vmapped; 35: both branches drew before the last draw.
    # Not: each row's own key (`respawn_apart`), one branch only before a draw (the path
    # that takes it is not proven to run), branches that draw nothing.
    assert _rows(tmp_path) == [9, 16, 35]


@pytest.mark.parametrize("name", ["respawn", "respawn_switch"])
def test_every_row_runs_the_branch_when_run(tmp_path: Path, name: str) -> None:
    import jax
    import jax.numpy as jnp

    (tmp_path / "envs.py").write_text(PROGRAM)
    function = runpy.run_path(str(tmp_path / "envs.py"))[name]
    positions = jnp.array([5.0, 6.0, 7.0, 8.0])
    chosen = jnp.array([True, False, True, True]) if name == "respawn" \
        else jnp.array([0, 1, 0, 0])
    out = np.asarray(function(positions, chosen, jax.random.key(0)))
    # The rows that take the drawing branch all drew one number; given keys of their own,
    # they draw apart. (JAX's key-reuse checker is no witness here: it raises on a vmapped
    # `cond` with one drawing branch even when every row has a key of its own.)
    assert out[0] == out[2] == out[3] and out[1] == 6.0
    apart = runpy.run_path(str(tmp_path / "envs.py"))["respawn_apart"]
    out = np.asarray(apart(positions, jnp.array([True, False, True, True]), jax.random.key(0)))
    assert len({out[0], out[2], out[3]}) == 3 and out[1] == 6.0
