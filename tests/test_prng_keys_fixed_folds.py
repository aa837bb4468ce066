"""OPT020 on a function that draws from its key parameter only through `fold_in(key, data)` with
data it fixes itself, called twice with one key (issue #25, class 7; MuZeroGoJax 386da2e: `pit`
ran one rollout for each player with one key, the rollout folding it with each step's index).
JAX's checker is silent (`fold_in` consumes nothing), but both calls fold the key with the same
data and draw the same numbers, which the tests run. Data the caller gives, or a plain draw
from the key beside the folded one, is no reuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

PROGRAM = '''\
import jax
from jax import lax


def rollout(key, logits):
    def body(step, moves):
        step_key = jax.random.fold_in(key, step)
        return moves.at[step].set(jax.random.categorical(step_key, logits))

    return lax.fori_loop(0, 4, body, jax.numpy.zeros(4, dtype=int))


def replay(key, logits):
    moves = []
    for step in range(4):
        moves.append(jax.random.categorical(jax.random.fold_in(key, step), logits))
    return moves


def noise(key, shape):
    key = jax.random.fold_in(key, 7)
    return jax.random.normal(key, shape)


def pit(logits):
    key = jax.random.key(42)
    first = rollout(key, logits)
    second = rollout(key, logits)
    again = replay(key, logits)
    once_more = replay(key, logits)
    a = noise(key, (3,))
    b = noise(key, (3,))
    return first, second, again, once_more, a, b
'''


def test_two_calls_folding_one_key_alike(tmp_path: Path) -> None:
    """The second call of each: the `fori_loop` body's index, a `range` loop's, a literal."""
    assert opt020_lines(tmp_path, "pit.py", PROGRAM) == [28, 30, 32]


def test_data_the_caller_gives(tmp_path: Path) -> None:
    given = PROGRAM.replace("def noise(key, shape):\n    key = jax.random.fold_in(key, 7)",
                            "def noise(key, shape, i=7):\n    key = jax.random.fold_in(key, i)")
    assert opt020_lines(tmp_path, "pit.py", given) == [28, 30]


def test_a_plain_draw_beside_a_folded_one(tmp_path: Path) -> None:
    """`noise` folds the key with 7; a draw from the key itself shares no numbers with it."""
    plain = PROGRAM.replace("    b = noise(key, (3,))", "    b = jax.random.normal(key, (3,))")
    assert opt020_lines(tmp_path, "pit.py", plain) == [28, 30]


def test_split_keys_for_each_call(tmp_path: Path) -> None:
    split = PROGRAM.replace('''    first = rollout(key, logits)
    second = rollout(key, logits)''', '''    k1, k2 = jax.random.split(key)
    first = rollout(k1, logits)
    second = rollout(k2, logits)''')
    assert opt020_lines(tmp_path, "pit.py", split) == [31, 33]


def test_the_calls_draw_the_same() -> None:
    jax = pytest.importorskip("jax")
    namespace: dict = {"__name__": "program"}
    exec(compile(PROGRAM, "program.py", "exec"), namespace)
    first, second, again, once_more, a, b = namespace["pit"](jax.numpy.zeros(9))
    assert (first == second).all() and all(
        int(x) == int(y) for x, y in zip(again, once_more, strict=True)) and (a == b).all()
    with jax.debug_key_reuse(True):
        namespace["pit"](jax.numpy.zeros(9))  # the checker is silent
