"""OPT020 on lambdas that read a loop's key when called (issue #25, closures; levanter 5fdf6fc):
`[lambda h: block(h, key=k) for block, k in zip(blocks, keys)]` keeps lambdas that all read the
last `block` and `k` once the comprehension has ended, so every stage draws from the last key.
`block` is an item of a list of the file's layers: its `__call__` draws from the key. Checked
by the real command line, and run with JAX's key-reuse checker: the late-bound stages raise,
the look-alikes binding the key early (a default, `functools.partial`) do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines, raises_key_reuse

PROGRAM = '''\
import functools

import jax


class Block:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x, *, key):
        return x + self.scale * jax.random.normal(key, x.shape)


class Stack:
    def __init__(self, depth):
        self.blocks = [Block(float(i + 1)) for i in range(depth)]

    def stages(self, key):
        keys = jax.random.split(key, len(self.blocks))
        return [lambda h: block(h, key=block_key) for block, block_key in zip(self.blocks, keys)]


def run(stages, x):
    for stage in stages:
        x = stage(x)
    return x
'''

LOOP = PROGRAM.replace(
    "        return [lambda h: block(h, key=block_key) for block, block_key in zip(self.blocks, keys)]\n",
    "        stages = []\n"
    "        for block, block_key in zip(self.blocks, keys):\n"
    "            stages.append(lambda h: block(h, key=block_key))\n"
    "        return stages\n")
DEFAULTS = PROGRAM.replace("lambda h: block(h, key=block_key)",
                           "lambda h, block=block, block_key=block_key: block(h, key=block_key)")
PARTIALS = PROGRAM.replace("lambda h: block(h, key=block_key)",
                           "functools.partial(block, key=block_key)")
CALLED_IN_PLACE = PROGRAM.replace(
    "        return [lambda h: block(h, key=block_key) for block, block_key in zip(self.blocks, keys)]\n",
    "        return [(lambda h: block(h, key=block_key))(jax.numpy.zeros(4)) for block, block_key in zip(self.blocks, keys)]\n")


def _raises_key_reuse(source: str) -> bool:
    return raises_key_reuse(source, (
        "stages = Stack(3).stages(jax.random.key(0))\n"
        "if callable(stages[0]):\n    run(stages, jax.numpy.zeros(4))\n"))


@pytest.mark.parametrize("source", [PROGRAM, LOOP], ids=["comprehension", "appended"])
def test_lambdas_kept_by_a_loop_draw_from_its_last_key(tmp_path: Path, source: str) -> None:
    assert _raises_key_reuse(source)
    line = 1 + source.splitlines().index(next(
        text for text in source.splitlines() if "lambda h: block" in text))
    assert opt020_lines(tmp_path, "stages.py", source) == [line]


@pytest.mark.parametrize("source", [DEFAULTS, PARTIALS, CALLED_IN_PLACE],
                         ids=["defaults", "partial", "called-in-place"])
def test_lambdas_binding_the_key_when_made_are_silent(tmp_path: Path, source: str) -> None:
    assert not _raises_key_reuse(source)
    assert opt020_lines(tmp_path, "stages.py", source) == []
