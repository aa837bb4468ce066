"""OPT020 on a loop giving every item's field a draw from one key (issue #25, held-out set 4,
Mava d7f9f4f: `agents[i].state.p_pos = jax.random.uniform(world.key, ...)` for every agent, and
the same for every landmark: all started at one place on every reset). The draw is kept in each
item, as a list gathering the draws would keep them. Beside look-alikes that stay silent: a key
per item, a key split on every iteration, a field of an object that is not an item (overwritten
on every iteration). Run with real JAX: every agent gets the same position."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import opt020_lines

SPREAD = '''\
import copy

import jax


def reset_world(world, dim):
    agents = copy.deepcopy(world.agents)
    for i, agent in enumerate(world.agents):
        agents[i].state.p_pos = jax.random.uniform(world.key, (dim,), minval=-1.0, maxval=1.0)
    for landmark in world.landmarks:
        landmark.p_pos = jax.random.uniform(world.key, (dim,))
    return agents, world.landmarks
'''

KEY_PER_ITEM = SPREAD.replace("jax.random.uniform(world.key, (dim,), minval",
                              "jax.random.uniform(agent.key, (dim,), minval").replace(
    "landmark.p_pos = jax.random.uniform(world.key", "landmark.p_pos = jax.random.uniform("
    "landmark.key")

SPLIT_EACH_TIME = SPREAD.replace(
    "    for i, agent in enumerate(world.agents):\n",
    "    key = world.key\n    for i, agent in enumerate(world.agents):\n"
    "        key, subkey = jax.random.split(key)\n").replace(
    "jax.random.uniform(world.key, (dim,), minval", "jax.random.uniform(subkey, (dim,), minval"
).replace("    for landmark in world.landmarks:\n", "    for landmark in world.landmarks:\n"
          "        key, subkey = jax.random.split(key)\n").replace(
    "landmark.p_pos = jax.random.uniform(world.key", "landmark.p_pos = jax.random.uniform(subkey")

# The field of one object, overwritten on every iteration: only the last draw is kept.
NOT_AN_ITEM = '''\
import jax


def last_noise(world, scales):
    for scale in scales:
        world.noise = scale * jax.random.normal(world.key, (3,))
    return world.noise
'''


def test_every_item_gets_a_draw_of_one_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "spread.py", SPREAD) == [9, 11]


@pytest.mark.parametrize("source", [KEY_PER_ITEM, SPLIT_EACH_TIME, NOT_AN_ITEM],
                         ids=["key per item", "split each time", "not an item"])
def test_look_alikes_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "spread.py", source) == []


def test_every_agent_starts_at_one_place() -> None:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {}
    exec(compile(SPREAD, "spread.py", "exec"), namespace)

    def item() -> SimpleNamespace:
        return SimpleNamespace(state=SimpleNamespace(p_pos=None), p_pos=None)

    world = SimpleNamespace(key=jax.random.key(42), agents=[item() for _ in range(3)],
                            landmarks=[item() for _ in range(3)])
    agents, landmarks = namespace["reset_world"](world, 2)
    first = agents[0].state.p_pos
    assert all(bool((agent.state.p_pos == first).all()) for agent in agents)
    assert all(bool((landmark.p_pos == landmarks[0].p_pos).all()) for landmark in landmarks)
