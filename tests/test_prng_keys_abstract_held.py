"""OPT020 on a key the object holds, drawn through an abstract method (issue #25, class 1;
chiron c6f5a63): the base's `step` calls `self.propose(x)`, which only raises, and every
subclass's override draws from `self.key`; `step` then draws from `self.key` again. What runs
is an override, and every override of the project draws: the call consumes `self.key`.
Where one override draws nothing, what runs decides: silent. Checked by the real command
line; the reuse is run under JAX's key-reuse checker."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

PROGRAM = '''\
import jax


class Move:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    def propose(self, x):
        raise NotImplementedError

    def step(self, x):
        y = self.propose(x)
        accept = jax.random.uniform(self.key) < 0.5
        return jax.numpy.where(accept, y, x)


class Shift(Move):
    def propose(self, x):
        return x + jax.random.normal(self.key, x.shape)


class Scale(Move):
    def propose(self, x):
        return x * jax.random.uniform(self.key, x.shape)


def main():
    return Shift(0).step(jax.numpy.zeros(3))
'''


def test_every_override_draws_from_the_held_key(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "moves.py", PROGRAM) == [13]


def test_one_override_draws_nothing(tmp_path: Path) -> None:
    quiet = PROGRAM.replace("x * jax.random.uniform(self.key, x.shape)", "x * 2.0")
    assert opt020_lines(tmp_path, "moves.py", quiet) == []


def test_an_override_in_another_file(tmp_path: Path) -> None:
    """The overrides of other project files count: one drawing too keeps the finding, one
    drawing nothing makes what runs decide."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'moves'\n")
    (tmp_path / "other.py").write_text(
        "import jax\n\nfrom moves import Move\n\n\nclass Jitter(Move):\n"
        "    def propose(self, x):\n        return x + jax.random.laplace(self.key, x.shape)\n")
    assert opt020_lines(tmp_path, "moves.py", PROGRAM) == [13]
    (tmp_path / "other.py").write_text(
        "from moves import Move\n\n\nclass Twice(Move):\n"
        "    def propose(self, x):\n        return x * 2.0\n")
    assert opt020_lines(tmp_path, "moves.py", PROGRAM) == []


def test_jax_checker_raises_on_the_program() -> None:
    assert raises_key_reuse(PROGRAM, "main()")