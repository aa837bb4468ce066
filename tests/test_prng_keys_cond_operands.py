"""OPT020 through the operands of `jax.lax.cond` / `jax.lax.switch` (issue #25, held-out set 2,
jax-aht 13dd40d: a rollout's `lax.scan` body runs `lax.cond(done, lambda c: c, take_step, carry)`,
`take_step` splits the carry's key, and the same key then starts a second rollout's scan): the
call hands its operands to the branch it runs, so a branch drawing from its parameter (or from
a key item of a tuple it unpacks) draws from the key given there, on that branch's path. Beside
look-alikes that stay silent. Checked by the real command line, and run with real JAX under its
key-reuse checker and by value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines, raises_key_reuse

ROLLOUTS = '''\
import jax


def rollouts(rng, xs):
    def step(carry, x):
        def take_step(c):
            t, rng = c
            rng, noise_rng = jax.random.split(rng)
            return (t + x * jax.random.normal(noise_rng), rng)

        t, rng = carry
        new = jax.lax.cond(t > 100.0, lambda c: c, take_step, carry)
        return new, new[0]

    worst, worst_ts = jax.lax.scan(step, (0.0, rng), xs)
    best, best_ts = jax.lax.scan(step, (1.0, rng), xs)
    return worst_ts, best_ts
'''

# The look-alike: the second rollout gets a key of its own.
ROLLOUTS_SPLIT = ROLLOUTS.replace(
    "    worst, worst_ts = jax.lax.scan(step, (0.0, rng), xs)\n"
    "    best, best_ts = jax.lax.scan(step, (1.0, rng), xs)",
    "    rng, best_rng = jax.random.split(rng)\n"
    "    worst, worst_ts = jax.lax.scan(step, (0.0, rng), xs)\n"
    "    best, best_ts = jax.lax.scan(step, (1.0, best_rng), xs)")

DRAWS = '''\
import jax


def draw(k):
    return jax.random.normal(k)


def both(p, key):
    a = jax.lax.cond(p, draw, draw, key)
    b = jax.random.uniform(key)
    return a + b
'''

# Only one branch draws: consumed on one path, which OPT020 does not report (JAX's checker
# raises whichever branch runs; the values repeat only where the drawing branch ran).
DRAWS_ONE_BRANCH = DRAWS.replace("jax.lax.cond(p, draw, draw, key)",
                                 "jax.lax.cond(p, lambda k: 0.0, draw, key)")

# A branch given the key that never draws from it.
DRAWS_NEVER = DRAWS.replace("    return jax.random.normal(k)", "    return 0.0")


def test_a_carried_key_split_in_a_cond_branch_then_carried_again(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    import jax.numpy as jnp

    assert raises_key_reuse(ROLLOUTS, "rollouts(jax.random.key(0), jax.numpy.ones(4))")
    namespace: dict[str, Any] = {}
    exec(compile(ROLLOUTS, "program.py", "exec"), namespace)
    import jax

    worst, best = namespace["rollouts"](jax.random.key(0), jnp.ones(4))
    assert bool(jnp.allclose(worst + 1.0, best))  # the same noise at every step
    assert opt020_lines(tmp_path, "rollouts.py", ROLLOUTS) == [16]


def test_a_key_of_its_own_for_the_second_rollout_is_quiet(tmp_path: Path) -> None:
    assert not raises_key_reuse(
        ROLLOUTS_SPLIT, "rollouts(jax.random.key(0), jax.numpy.ones(4))")
    assert opt020_lines(tmp_path, "rollouts.py", ROLLOUTS_SPLIT) == []


def test_an_operand_every_branch_draws_from(tmp_path: Path) -> None:
    assert raises_key_reuse(DRAWS, "both(True, jax.random.key(0))")
    assert opt020_lines(tmp_path, "draws.py", DRAWS) == [10]


def test_an_operand_one_branch_draws_from_is_not_proven(tmp_path: Path) -> None:
    assert raises_key_reuse(DRAWS_ONE_BRANCH, "both(True, jax.random.key(0))")
    assert opt020_lines(tmp_path, "draws.py", DRAWS_ONE_BRANCH) == []


def test_an_operand_no_branch_draws_from_is_quiet(tmp_path: Path) -> None:
    assert not raises_key_reuse(DRAWS_NEVER, "both(True, jax.random.key(0))")
    assert opt020_lines(tmp_path, "draws.py", DRAWS_NEVER) == []
