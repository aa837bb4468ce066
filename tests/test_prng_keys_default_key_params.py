"""OPT020 on a key parameter whose default is a key made from a literal seed (issue #25, held-out
set 2, numpyro 7f0605f: `def init_kernel(init_params, ..., rng=PRNGKey(0))`, called by every
chain without `rng`): every call leaving the key out draws from the one default key. As for a
key made from a literal seed in the callee's body (`key_literal_seeds.py`), the reuse is proven
in a loop of steps (one carrying state from iteration to iteration) and `--preview` elsewhere.
Checked by the real command line, and run with real JAX by value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_findings, opt020_lines

CHAINS = '''\
import jax
from jax.random import PRNGKey


def init_kernel(x, rng=PRNGKey(0)):
    return x + jax.random.normal(rng, (3,))


def run(x, steps):
    for _ in range(steps):
        x = init_kernel(x)
    return x
'''

# The key given on every step: drawn from a key of its own each time.
CHAINS_GIVEN = CHAINS.replace(
    "def run(x, steps):\n    for _ in range(steps):\n        x = init_kernel(x)",
    "def run(x, steps, key=PRNGKey(1)):\n    for _ in range(steps):\n"
    "        key, sub = jax.random.split(key)\n        x = init_kernel(x, sub)")

# Outside a loop of steps (two settings compared on the same numbers, as often as not): only
# `--preview` shows it.
CHAINS_TWICE = CHAINS.replace(
    "def run(x, steps):\n    for _ in range(steps):\n        x = init_kernel(x)\n    return x",
    "def run(a, b):\n    return init_kernel(a), init_kernel(b)")

# A default key the callee never draws from.
CHAINS_UNREAD = CHAINS.replace("    return x + jax.random.normal(rng, (3,))",
                               "    return x + 1.0")


def test_a_default_key_left_out_in_a_loop_of_steps(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "chains.py", CHAINS) == [11]


def test_every_step_draws_the_same_noise() -> None:
    pytest.importorskip("jax")
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(CHAINS, "chains.py", "exec"), namespace)
    one = namespace["run"](jnp.zeros(3), 1)
    two = namespace["run"](jnp.zeros(3), 2)
    assert bool(jnp.allclose(two, 2 * one))  # the second step added the first step's noise


def test_a_key_given_on_every_step_is_quiet(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "chains.py", CHAINS_GIVEN) == []


def test_two_calls_outside_a_loop_are_preview_only(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "chains.py", CHAINS_TWICE) == []
    shown = opt020_findings(tmp_path, "chains.py", CHAINS_TWICE, "--preview")
    assert [finding["line"] for finding in shown] == [10]


def test_a_default_key_never_drawn_from_is_quiet(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "chains.py", CHAINS_UNREAD, "--preview") == []
