"""OPT020 on a key a base class's constructor stores (issue #25, classes 1 and 6; chiron
c6f5a63): `Base.__init__` sets `self.key`, a subclass's method draws from it through another
method and then again, or a loop runs such a method for what it changes (`self.accepted += 1`,
`state.x = ...`) with its result thrown away. The key is set only when the object is built,
whichever class of the file sets it. Checked by the real command line; the reuse is run under
JAX's key-reuse checker."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

PROGRAM = '''\
import jax


class Base:
    def __init__(self, seed):
        self.key = jax.random.key(seed)


class Move(Base):
    def __init__(self, seed, n):
        self.n = n
        self.accepted = 0
        super().__init__(seed)

    def propose(self, x):
        key, subkey = jax.random.split(self.key)
        return x + jax.random.normal(subkey, x.shape)

    def apply(self, state):
        y = self.propose(state.x)
        key, subkey = jax.random.split(self.key)
        if jax.random.uniform(subkey) < 0.5:
            self.accepted += 1
            state.x = y


class Walk(Move):
    def run(self, state):
        for _ in range(self.n):
            self.apply(state)


class State:
    def __init__(self, x):
        self.x = x


def main():
    Walk(0, 3).run(State(jax.numpy.zeros(3)))
'''


def test_a_key_set_by_the_base_constructor(tmp_path: Path) -> None:
    """`propose` draws from `self.key`, then `apply` splits it again (line 21); `run` calls
    `apply` for what it changes in every iteration (line 30)."""
    assert opt020_lines(tmp_path, "move.py", PROGRAM) == [21, 30]


def test_a_key_the_base_advances_elsewhere(tmp_path: Path) -> None:
    """A method of the base stores a new key: not set only when built, not proven."""
    advancing = PROGRAM.replace('''        self.key = jax.random.key(seed)
''', '''        self.key = jax.random.key(seed)

    def advance(self):
        self.key, _ = jax.random.split(self.key)
''')
    assert opt020_lines(tmp_path, "move.py", advancing) == []


def test_a_method_changing_nothing_is_a_warm_up(tmp_path: Path) -> None:
    """`apply` changes neither its object nor its argument and its result is thrown away:
    the loop's draws reach nothing (the reuse inside `apply` stays)."""
    quiet = PROGRAM.replace('''            self.accepted += 1
            state.x = y
''', '''            print(y)
''')
    assert opt020_lines(tmp_path, "move.py", quiet) == [21]


def test_jax_checker_raises_on_the_program() -> None:
    assert raises_key_reuse(PROGRAM, "main()")