"""OPT020 and a project function whose draw reaches only some of what it returns (issue #25,
Stoix's `evaluator_setup`): it splits its key into keys it returns as one item of its result;
the caller binds that item to a name it binds anew before any read, then splits the same key
again. The draws repeat (the checker raises), but the first reaches no result: silent. Read
before it is bound anew, or reaching an item the caller reads (a callable made with the keys,
a key stored on the object), it is still reported. Run with JAX: the loop's first keys are the
setup's, and the setup's reach nothing the caller computes."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import opt020_lines

SOURCE = '''\
import functools

import jax
import jax.numpy as jnp


def rollout(params, keys):
    return params * jax.random.uniform(keys[0], (2,))


def evaluator_setup(params, key_e):
    evaluator = jax.jit(rollout)
    key_e, *eval_keys = jax.random.split(key_e, 3)
    eval_keys = jnp.stack(eval_keys)
    {hands_out}
    return evaluator, (params, eval_keys)


def main(params, steps):
    key, key_e = jax.random.split(jax.random.key(0))
    evaluator, (params, eval_keys) = evaluator_setup(params, key_e)
    {reads}
    results = []
    for _ in range(steps):
        key_e, *eval_keys = jax.random.split(key_e, 3)
        eval_keys = jnp.stack(eval_keys)
        results.append(evaluator(params, eval_keys))
    return results
'''

SECOND_SPLIT = 25  # the loop's split of `key_e`, after the setup's


@pytest.mark.parametrize(("hands_out", "reads", "expected"), [
    ("pass", "pass", []),  # the setup's keys are bound anew unread
    ("pass", "print(evaluator(params, eval_keys))", [SECOND_SPLIT]),  # read first
    # the keys reach the evaluator the caller runs
    ("evaluator = functools.partial(evaluator, keys=eval_keys)", "pass", [SECOND_SPLIT]),
    ("print(eval_keys)", "pass", [SECOND_SPLIT]),  # shown: a result of its own
])
def test_a_returned_draw_bound_anew_unread(tmp_path: Path, hands_out: str, reads: str,
                                           expected: list[int]) -> None:
    source = SOURCE.format(hands_out=hands_out, reads=reads)
    assert opt020_lines(tmp_path, "setup.py", source) == expected


def test_the_draw_reaches_other_items(tmp_path: Path) -> None:
    """The keys are the whole result, bound to one name read later: reported."""
    source = SOURCE.format(hands_out="pass", reads="pass").replace(
        "return evaluator, (params, eval_keys)", "return eval_keys").replace(
        "evaluator, (params, eval_keys) = evaluator_setup(params, key_e)",
        "evaluator = jax.jit(rollout)\n    first = evaluator_setup(params, key_e)").replace(
        "    return results", "    return results, first")
    assert opt020_lines(tmp_path, "whole.py", source) == [SECOND_SPLIT + 1]


def test_the_setup_when_run(tmp_path: Path) -> None:
    """The reuse is real (the loop's first keys are the setup's), and the setup's keys reach
    nothing: the results are the same with the setup given another key."""
    path = tmp_path / "setup.py"
    path.write_text(SOURCE.format(hands_out="pass", reads="pass"))
    module = runpy.run_path(str(path))
    params = jnp.ones(2)
    _, (_, setup_keys) = module["evaluator_setup"](params, jax.random.key(1))
    _, *loop_keys = jax.random.split(jax.random.key(1), 3)
    assert np.array_equal(jax.random.key_data(setup_keys),
                          jax.random.key_data(jnp.stack(loop_keys)))
    results = module["main"](params, 2)
    setup = module["evaluator_setup"]
    # the setup's keys replaced by others: the same results
    module["evaluator_setup"] = lambda p, k: (setup(p, k)[0], (p, jax.random.split(
        jax.random.key(99), 2)))
    others = module["main"](params, 2)
    assert all(np.array_equal(a, b) for a, b in zip(results, others, strict=True))


WALRUS = '''\
import jax


def setup(key):
    total = (draws := jax.random.split(key, 3)).sum()
    return total * 0, draws


def main(n):
    key = jax.random.key(0)
    zero, keys = setup(key)
    print(keys)
    return jax.random.split(key, n)
'''


def test_a_draw_bound_by_an_assignment_expression(tmp_path: Path) -> None:
    """`draws` is bound inside the statement that draws (`:=`): it carries the draw too, and
    the caller prints it: reported."""
    assert opt020_lines(tmp_path, "walrus.py", WALRUS) == [13]
