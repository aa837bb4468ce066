"""OPT020 through a helper that splits its key parameter into its own name (issue #25, held-out
set 2, levanter's ul2r `_create_lm_example`): `this_key, key = split(key)` consumes the key the
caller gave, though `key` then names another. A loop handing the helper one key in every
iteration and keeping every iteration's result draws the same numbers each time. Checked by the
real command line, and run with real JAX under its key-reuse checker and by value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

EXAMPLES = '''\
import jax


def make_example(tokens, key):
    this_key, key = jax.random.split(key)
    noise = jax.random.normal(this_key, (3,))
    return tokens + noise


def examples(documents, key):
    out = []
    for tokens in documents:
        out.append(make_example(tokens, key))
    return out
'''

# The look-alike: the loop hands each iteration a key of its own.
EXAMPLES_SPLIT = EXAMPLES.replace(
    "    for tokens in documents:\n        out.append(make_example(tokens, key))",
    "    for tokens in documents:\n        key, sub = jax.random.split(key)\n"
    "        out.append(make_example(tokens, sub))")

# A helper that may return before it splits: the key is not consumed on every path, so the loop
# (a fixed evaluation key, as often as not) is left alone, as before.
EXAMPLES_EARLY_RETURN = EXAMPLES.replace(
    "def make_example(tokens, key):\n",
    "def make_example(tokens, key):\n    if tokens is None:\n        return tokens\n")

# The name bound anew before the draw: the caller's key is never consumed.
EXAMPLES_REPLACED = EXAMPLES.replace(
    "    this_key, key = jax.random.split(key)\n",
    "    key = jax.random.key(7)\n    this_key, key = jax.random.split(key)\n")


def _run(source: str) -> tuple[bool, list[Any]]:
    """Whether JAX's checker raises on two documents, and the examples drawn with it off."""
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    documents = [jnp.zeros(3), jnp.zeros(3)]
    with jax.debug_key_reuse(True):
        try:
            namespace["examples"](documents, jax.random.key(0))
            raised = False
        except jax.errors.KeyReuseError:
            raised = True
    return raised, namespace["examples"](documents, jax.random.key(0))


def test_a_helper_splitting_its_key_into_its_own_name_in_a_collecting_loop(tmp_path: Path) -> None:
    raised, drawn = _run(EXAMPLES)
    assert raised and bool((drawn[0] == drawn[1]).all())
    assert opt020_lines(tmp_path, "examples.py", EXAMPLES) == [13]


def test_a_key_of_its_own_per_iteration_is_quiet(tmp_path: Path) -> None:
    raised, drawn = _run(EXAMPLES_SPLIT)
    assert not raised and not bool((drawn[0] == drawn[1]).all())
    assert opt020_lines(tmp_path, "examples.py", EXAMPLES_SPLIT) == []


def test_a_helper_that_may_return_first_is_not_proven(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "examples.py", EXAMPLES_EARLY_RETURN) == []


def test_a_key_replaced_before_the_split_is_not_the_callers(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "examples.py", EXAMPLES_REPLACED) == []
