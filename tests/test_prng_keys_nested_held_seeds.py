"""OPT020 on a seed an object holds deeper than one attribute (issue #25, state; Mava 30b3862):
`builder.executor(i)` builds a loop whose key is `PRNGKey(self.config.loop.rng_seed)`, a path
under a field only `__init__` sets, so every executor built from one builder explores with the
same key. Silent when the file assigns to the path's inner attribute between builds (the seed
may change), and when each build is given a seed of its own. Checked by the real command line
and run with JAX: identical draws, then different ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

PROGRAM = '''\
import jax


class LoopConfig:
    def __init__(self, rng_seed=0):
        self.rng_seed = rng_seed


class SystemConfig:
    def __init__(self, num_executors=3):
        self.num_executors = num_executors
        self.loop = LoopConfig()


class ExecutorLoop:
    def __init__(self, name, rng_seed=0):
        self.name = name
        self.rng_key = jax.random.PRNGKey(rng_seed)

    def run_episode(self):
        self.rng_key, action_key = jax.random.split(self.rng_key)
        return jax.random.categorical(action_key, jax.numpy.zeros(4), shape=(6,))


class Builder:
    def __init__(self, config):
        self.config = config

    def executor(self, name):
        return ExecutorLoop(name, rng_seed=self.config.loop.rng_seed)


def launch(config):
    builder = Builder(config)
    loops = {f"executor_{i}": builder.executor(f"executor_{i}") for i in range(config.num_executors)}
    return {name: loop.run_episode() for name, loop in loops.items()}
'''

# The seed's inner attribute is assigned in the file: what each build reads is not told.
RESEEDED = PROGRAM.replace(
    '    loops = {f"executor_{i}": builder.executor(f"executor_{i}") for i in range(config.num_executors)}\n',
    '    loops = {}\n'
    '    for i in range(config.num_executors):\n'
    '        builder.config.loop.rng_seed = i\n'
    '        loops[f"executor_{i}"] = builder.executor(f"executor_{i}")\n')

# Each build is given its own seed.
OWN_SEEDS = PROGRAM.replace(
    "    def executor(self, name):\n"
    "        return ExecutorLoop(name, rng_seed=self.config.loop.rng_seed)\n",
    "    def executor(self, name, index):\n"
    "        return ExecutorLoop(name, rng_seed=self.config.loop.rng_seed + index)\n").replace(
    'builder.executor(f"executor_{i}")', 'builder.executor(f"executor_{i}", i)')


def _episodes(source: str) -> list[Any]:
    pytest.importorskip("jax")
    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return list(namespace["launch"](namespace["SystemConfig"]()).values())


def _distinct(episodes: list[Any]) -> int:
    return len({tuple(int(a) for a in episode) for episode in episodes})


def test_executors_built_from_one_nested_config_seed(tmp_path: Path) -> None:
    assert _distinct(_episodes(PROGRAM)) == 1
    assert opt020_lines(tmp_path, "system.py", PROGRAM) == [35]


def test_a_seed_the_file_reassigns_between_builds_is_silent(tmp_path: Path) -> None:
    assert _distinct(_episodes(RESEEDED)) > 1
    assert opt020_lines(tmp_path, "system.py", RESEEDED) == []


def test_a_seed_of_its_own_per_build_is_silent(tmp_path: Path) -> None:
    assert _distinct(_episodes(OWN_SEEDS)) > 1
    assert opt020_lines(tmp_path, "system.py", OWN_SEEDS) == []
