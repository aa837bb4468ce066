"""OPT020 where a function draws from its key parameter only on a branch the call's literal
arguments rule out (issue #25; diffusers' DDIM scheduler: `step(..., key, eta=0.0)` draws
`normal(key)` only `if eta > 0`): a call passing no `eta` (the default `0.0`) or `eta=0.0`
draws nothing, so handing it a key already used is no reuse. A call passing `eta=0.5`, or an
`eta` the code does not prove, still draws: found. Run with JAX, a fresh key changes the
deterministic step's result only where the finding stays."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np
import pytest

from conftest import opt020_lines

SCHEDULER = '''\
import jax
import jax.numpy as jnp


def step(sample, t, key, eta=0.0, clip=True):
    out = sample * (1.0 - 0.1 * t)
    if clip and not eta > 0:
        out = jnp.clip(out, -1.0, 1.0)
    if eta > 0:
        out = out + eta * jax.random.normal(key, sample.shape)
    return out


def generate(key, eta_given):
    sample = jax.random.normal(key, (4,))
    for t in range(3):
        sample = step(sample, t, key{call})
    return sample
'''

# (the arguments the loop's call passes, the lines found)
CALLS = [
    ("", []),  # eta left to its default 0.0
    (", eta=0.0", []),
    (", 0.0", []),
    (", eta=0.0, clip=False", []),
    (", eta=0.5", [17]),
    (", eta=eta_given", [17]),  # not a literal: may be positive
    (", *[0.0]", [17]),  # a starred argument may bind anything
]


@pytest.mark.parametrize(("call", "expected"), CALLS)
def test_a_key_read_only_under_a_false_literal_test(tmp_path: Path, call: str,
                                                    expected: list[int]) -> None:
    assert opt020_lines(tmp_path, "sched.py", SCHEDULER.format(call=call)) == expected


def test_a_parameter_rebound_in_the_function_is_not_known(tmp_path: Path) -> None:
    """`eta = eta or 0.3` makes the test's value depend on more than the call."""
    source = SCHEDULER.format(call="").replace(
        "    out = sample * (1.0 - 0.1 * t)\n",
        "    eta = eta or 0.3\n    out = sample * (1.0 - 0.1 * t)\n")
    assert opt020_lines(tmp_path, "sched.py", source) == [18]


METHOD = '''\
import jax


class Layer:
    def __call__(self, x, key, deterministic=False):
        return x if deterministic else x + jax.random.normal(key, x.shape)


def evaluate(x, key):
    layer = Layer()
    y = jax.random.uniform(key, x.shape)
    return layer(x + y, key, deterministic=True)


def train(x, key):
    layer = Layer()
    y = jax.random.uniform(key, x.shape)
    return layer(x + y, key)
'''


def test_a_conditional_expression_on_a_literal_keyword(tmp_path: Path) -> None:
    """`deterministic=True` at the call: the key is read only in the branch not taken."""
    assert opt020_lines(tmp_path, "layer.py", METHOD) == [18]


@pytest.mark.parametrize(("call", "changes"), [("", False), (", eta=0.5", True)])
def test_the_step_when_run(tmp_path: Path, call: str, changes: bool) -> None:
    """The loop's step given a fresh key instead of the reused one: the result changes only
    when the step draws (`eta=0.5`)."""
    path = tmp_path / "sched.py"
    path.write_text(SCHEDULER.format(call=call))
    namespace = runpy.run_path(str(path))
    step = namespace["step"]
    sample = jax.random.normal(jax.random.key(0), (4,))
    reused = step(sample, 1, jax.random.key(0), **({"eta": 0.5} if changes else {}))
    fresh = step(sample, 1, jax.random.key(9), **({"eta": 0.5} if changes else {}))
    assert (not np.array_equal(np.asarray(reused), np.asarray(fresh))) == changes


HELD = '''\
import jax


class Net:
    def __init__(self, rng):
        self.rng = rng

    def block(self, x, dropout=False):
        if dropout:
            x = x + jax.random.normal(self.rng, x.shape)
        return x

    def forward(self, x):
        x = self.block(x, dropout=True)
        x = self.block(x, dropout=True)
        return self.block(x, dropout=False)
'''


def test_a_key_the_object_holds_read_only_under_a_false_literal_test(tmp_path: Path) -> None:
    """flaxmodels' VGG before its fix: `_fc_block(..., dropout=False)` reads `self.rng` only
    `if dropout:`, so its third call draws nothing; the second `dropout=True` call is found."""
    assert opt020_lines(tmp_path, "net.py", HELD) == [15]
    assert opt020_lines(tmp_path, "net.py", HELD.replace("dropout=False)", "dropout=True)")) \
        == [15, 16]
