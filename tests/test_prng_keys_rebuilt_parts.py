"""OPT020 on a step that draws from a key its state's part holds and rebuilds the state with
that part's key unchanged (issue #25, class 6; JAXAtari d429f6e: `Pacman(ghosts=Ghosts(...,
keys=state.ghosts.keys))`): the next step given the returned state draws the same numbers. The
part may be rebuilt by its constructor or handed on whole; a part rebuilt with a key split off
is no reuse. Checked by the real command line; the reuse is run under JAX's key-reuse checker."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

PROGRAM = '''\
from typing import NamedTuple

import jax


class Ghosts(NamedTuple):
    pos: jax.Array
    key: jax.Array


class Game(NamedTuple):
    ghosts: Ghosts
    count: int


def step(state):
    move = jax.random.randint(state.ghosts.key, (), 0, 4)
    return Game(ghosts=Ghosts(pos=state.ghosts.pos + move, key=state.ghosts.key),
                count=state.count + 1)


def main():
    state = Game(Ghosts(jax.numpy.zeros(()), jax.random.key(0)), 0)
    return step(step(state))
'''


def test_a_part_rebuilt_with_its_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "game.py", PROGRAM) == [17]


def test_a_part_handed_on_whole(tmp_path: Path) -> None:
    whole = PROGRAM.replace('''Game(ghosts=Ghosts(pos=state.ghosts.pos + move, key=state.ghosts.key),
                count=state.count + 1)''', "Game(ghosts=state.ghosts, count=state.count + move)")
    assert opt020_lines(tmp_path, "game.py", whole) == [17]


def test_a_part_rebuilt_with_a_new_key(tmp_path: Path) -> None:
    split = PROGRAM.replace('''    move = jax.random.randint(state.ghosts.key, (), 0, 4)
    return Game(ghosts=Ghosts(pos=state.ghosts.pos + move, key=state.ghosts.key),''', '''\
    key, sub = jax.random.split(state.ghosts.key)
    move = jax.random.randint(sub, (), 0, 4)
    return Game(ghosts=Ghosts(pos=state.ghosts.pos + move, key=key),''')
    assert opt020_lines(tmp_path, "game.py", split) == []


def test_jax_checker_raises_on_the_program() -> None:
    assert raises_key_reuse(PROGRAM, "main()")