"""OPT020 on a function of the file whose key parameter falls back to a key of its own when none
is given (`if key is None: key = jax.random.PRNGKey(0)`), called twice with one key (issue #25,
held-out set 5: jaxsim df81dfa's `random_model_data` splits its `key` after such a fallback,
there as `key if key is not None else PRNGKey(seed=0)`). The branch runs only when no key is
given: wherever the caller gives one, the function consumes it. The parameter used to count as
bound anew, so no caller saw it consumed. Both forms, the `if` statement and the conditional
expression (either way round). Beside a caller giving two keys, which stays silent.
Run with JAX: the two calls draw the same numbers. A caller handing on a parameter of its own
that defaults to `None` is `--preview` (given none, each call makes its own key: long-range-arena's
`dropout_rng=None`, which no caller sets); a seed falling back to another seed is not followed
(alphafold3's `if random_seed is None: random_seed = random_state.randint(...)`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

TWICE = '''\
import jax


def sample(scale, key=None):
    if key is None:
        key = jax.random.PRNGKey(0)
    return scale * jax.random.uniform(key, (3,))


def pair(key):
    first = sample(1.0, key)
    second = sample(2.0, key)
    return first, second
'''

# The conditional expression, both ways round (jaxsim's is the second).
IS_NONE = TWICE.replace("    if key is None:\n        key = jax.random.PRNGKey(0)\n",
                        "    key = jax.random.PRNGKey(0) if key is None else key\n")
IS_NOT_NONE = TWICE.replace("    if key is None:\n        key = jax.random.PRNGKey(0)\n",
                            "    key = key if key is not None else jax.random.PRNGKey(seed=0)\n")

TWO_KEYS = TWICE.replace("    first = sample(1.0, key)\n    second = sample(2.0, key)",
                         "    k1, k2 = jax.random.split(key)\n"
                         "    first = sample(1.0, k1)\n    second = sample(2.0, k2)")


def test_a_fallback_key_parameter_given_one_key_twice(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", TWICE) == [12]


@pytest.mark.parametrize("source", [IS_NONE, IS_NOT_NONE], ids=["is-none", "is-not-none"])
def test_the_conditional_expression_given_one_key_twice(tmp_path: Path, source: str) -> None:
    assert "if key is None:" not in source  # (the replacement took)
    assert opt020_lines(tmp_path, "sample.py", source) == [11]


def test_two_keys_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", TWO_KEYS) == []
    two = IS_NOT_NONE.replace("    first = sample(1.0, key)\n    second = sample(2.0, key)",
                              "    k1, k2 = jax.random.split(key)\n"
                              "    first = sample(1.0, k1)\n    second = sample(2.0, k2)")
    assert opt020_lines(tmp_path, "sample2.py", two) == []


MAYBE_NONE = TWICE.replace("def pair(key):", "def pair(key=None):")

SEEDS = '''\
import jax


def sample(scale, seed=None):
    if seed is None:
        seed = 0
    return scale * jax.random.uniform(jax.random.PRNGKey(seed), (3,))


def pair(seed):
    return sample(1.0, seed), sample(2.0, seed)
'''


def test_a_caller_s_own_none_default_is_preview(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", MAYBE_NONE) == []
    assert opt020_lines(tmp_path, "sample2.py", MAYBE_NONE, "--preview") == [12]


def test_a_seed_fallback_is_not_followed(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "seeds.py", SEEDS) == []


def test_both_calls_draw_the_same_numbers() -> None:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {}
    exec(compile(TWICE, "sample.py", "exec"), namespace)
    first, second = namespace["pair"](jax.random.PRNGKey(3))
    assert bool((2 * first == second).all())
    exec(compile(IS_NOT_NONE, "sample.py", "exec"), namespace)
    first, second = namespace["pair"](jax.random.PRNGKey(3))
    assert bool((2 * first == second).all())
