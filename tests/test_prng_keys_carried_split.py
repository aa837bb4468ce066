"""OPT020's message for a loop body that splits the carried key, draws from a split key and
carries that key on (issue #25, numpyro infer/ensemble.py:804): the next step splits the key the
previous step drew from, but no step draws what another drew, so the message says the draws are
correlated, not that every step draws the same numbers. JAX's checker raises on two such steps
run one after the other, but not on the steps of a `jax.lax` loop, and the message says so. A
body carrying the key back unchanged still says every step draws the same numbers. All run with
JAX."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np
import pytest

from conftest import finding_line, opt020_findings

SOURCE = '''\
import jax


def split_and_carry(state):
    rng_key, total = state
    rng_key, _ = jax.random.split(rng_key)
    draw = jax.random.uniform(rng_key, (3,))
    return rng_key, total + draw


def carry_unchanged(state):
    rng_key, total = state
    draw = jax.random.uniform(rng_key, (3,))
    return rng_key, total + draw
'''


def test_the_messages_say_what_each_step_draws(tmp_path: Path) -> None:
    source = SOURCE + '''

def sample(key):
    first, second = jax.random.split(key)  # (one key for both loops: their first steps reuse it)
    return (jax.lax.while_loop(lambda s: s[1].sum() < 5.0, split_and_carry, (first, 0.0)),
            jax.lax.while_loop(lambda s: s[1].sum() < 5.0, carry_unchanged, (second, 0.0)))
'''
    messages = {finding_line(f): f["message"]
                for f in opt020_findings(tmp_path, "carried.py", source)}
    assert sorted(messages) == [7, 13]
    assert "rejects two such steps run in turn, though not inside `jax.lax.while_loop`" in (
        messages[7])
    assert "split in every step of `jax.lax.while_loop`" in messages[7]
    assert "correlated, not identical" in messages[7]
    assert "same random numbers" not in messages[7]
    assert "every step draws the same random numbers" in messages[13]


def test_two_steps_when_run(tmp_path: Path) -> None:
    (tmp_path / "carried.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "carried.py"))
    for name, same in (("split_and_carry", False), ("carry_unchanged", True)):
        body = namespace[name]
        first = body((jax.random.key(0), 0.0))
        second = body((first[0], 0.0))
        assert np.array_equal(np.asarray(first[1]), np.asarray(second[1])) == same
        with jax.debug_key_reuse(True), pytest.raises(jax.errors.KeyReuseError):
            state = (jax.random.key(0), 0.0)
            for _ in range(2):
                state = body(state)


@pytest.mark.parametrize("loop", ["scan", "fori_loop", "while_loop"])
def test_the_checker_in_lax_loops(tmp_path: Path, loop: str) -> None:
    """In a `jax.lax` loop the checker does not raise on the split body (eager and jitted),
    and no step draws a value another drew; it raises on the unchanged carry."""
    (tmp_path / "carried.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "carried.py"))

    def steps(body):
        def run(key):
            state = (key, jax.numpy.zeros(3))
            if loop == "scan":
                def step(carried, _):
                    carried = body(carried)
                    return carried, carried[1]
                return jax.lax.scan(step, state, None, 4)[1]
            if loop == "fori_loop":
                return jax.lax.fori_loop(0, 4, lambda _, s: body(s), state)[1]
            return jax.lax.while_loop(lambda s: s[1].sum() < 5.0, body, state)[1]
        return run

    for run in (steps(namespace["split_and_carry"]),
                jax.jit(steps(namespace["split_and_carry"]))):
        with jax.debug_key_reuse(True):
            run(jax.random.key(0))  # no KeyReuseError
    with jax.debug_key_reuse(True), pytest.raises(jax.errors.KeyReuseError):
        steps(namespace["carry_unchanged"])(jax.random.key(0))
    draws, key = [], jax.random.key(0)
    for _ in range(4):
        key, total = namespace["split_and_carry"]((key, 0.0))
        draws.extend(np.asarray(total).tolist())
    assert len(set(draws)) == len(draws)
