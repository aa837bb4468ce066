"""OPT020 on a method of the object an attribute holds (issue #25, classes 1 and 2): a layer
combinator (`Scan`) hands the rng it holds to its sublayer's `pure_fn` in every step of its
`lax.scan`. What the sublayer is comes from every construction of the combinator
(`self.sublayer, self.axis = sublayer, axis`); when each gives an instance of a class of the
file whose own `pure_fn` draws from the rng, every step draws the same numbers. A sublayer
that ignores its rng stays silent. Checked by the real command line; the reuse is run under
JAX's key-reuse checker."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

COMBINATOR = '''\
import jax
import jax.numpy as jnp


class Layer:
    def __init__(self):
        self.rng = jax.random.key(0)

    def pure_fn(self, x, rng):
        return x


class Noise(Layer):
    def pure_fn(self, x, rng):
        return x + jax.random.normal(rng, x.shape)


class Scale(Layer):
    def pure_fn(self, x, rng):
        return 2.0 * x


class Scan(Layer):
    def __init__(self, sublayer, axis=0):
        super().__init__()
        self.sublayer, self.axis = sublayer, axis

    def pure_fn(self, xs, rng):
        def step(carry, x):
            y = self.sublayer.pure_fn(x + carry, self.rng)
            return y, y

        return jax.lax.scan(step, jnp.zeros(xs.shape[1:]), xs)[1]


def run(xs):
    return Scan(Noise()).pure_fn(xs, jax.random.key(1))
'''


def test_a_held_sublayer_drawing_in_every_step(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "scan.py", COMBINATOR) == [30]


def test_a_held_sublayer_drawing_nothing(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "scan.py", COMBINATOR.replace("Scan(Noise())",
                                                                "Scan(Scale())")) == []


def test_one_construction_with_a_sublayer_drawing_nothing(tmp_path: Path) -> None:
    """Not every value of the attribute draws: not proven, not reported."""
    assert opt020_lines(tmp_path, "scan.py", COMBINATOR + '''

def other(xs):
    return Scan(Scale()).pure_fn(xs, jax.random.key(2))
''') == []


def test_jax_checker_raises_on_the_combinator() -> None:
    assert raises_key_reuse(COMBINATOR, "run(jax.numpy.zeros((4, 2)))")