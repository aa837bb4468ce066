"""OPT020 through a function that hands its own `None`-defaulting key parameter on to a
function falling back to a key of its own for `None` (issue #25, held-out set 1: vllm
tpu-inference ed1e129, `RejectionSampler.__call__(..., key=None)` hands `key` to `forward`,
which hands it to `rejection_sample(..., key=None)`; the runner gives the stored sampling key
to `sample(...)` and then to the rejection sampler in one step). Inside the function whose
parameter it is, a reuse of that parameter is `--preview` (given none, each call makes its own
key: long-range-arena's `dropout_rng=None`, `test_prng_keys_none_fallbacks.py`). Its callers
give a key of their own: that says nothing about them, and a caller giving one key twice
reuses it. A `raise` for `None` is no fallback at all: given `None`, nothing is drawn.
Run with JAX: the checker raises at the second call."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

HANDED_ON = '''\
import jax


def sample(scale, key=None):
    if key is None:
        key = jax.random.PRNGKey(0)
    return scale * jax.random.uniform(key, (3,))


def forward(scale, key=None):
    return sample(scale, key=key)


def pair(key):
    first = forward(1.0, key=key)
    second = forward(2.0, key=key)
    return first, second
'''

# The rejection sampler's form: `None` raises, so nothing is drawn for it.
RAISES = HANDED_ON.replace("        key = jax.random.PRNGKey(0)\n",
                           "        raise ValueError('a key is needed')\n")

# Long-range-arena's form: the reuse is inside the function whose parameter defaults to `None`.
INSIDE = HANDED_ON.replace("    return sample(scale, key=key)\n",
                           "    return sample(scale, key=key) + sample(scale, key=key)\n")


def test_a_caller_giving_one_key_twice_through_the_hand_on(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", HANDED_ON) == [16]


def test_a_raise_for_none_is_no_fallback(tmp_path: Path) -> None:
    assert "raise ValueError" in RAISES  # (the replacement took)
    assert opt020_lines(tmp_path, "sample.py", RAISES) == [16]
    # Given `None`, the inside pair raises before drawing; given a key, it draws twice.
    inside = INSIDE.replace("        key = jax.random.PRNGKey(0)\n",
                            "        raise ValueError('a key is needed')\n")
    assert opt020_lines(tmp_path, "sample2.py", inside) == [11, 16]


def test_the_reuse_inside_the_function_stays_preview(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sample.py", INSIDE) == [16]
    assert opt020_lines(tmp_path, "sample2.py", INSIDE, "--preview") == [11, 16]


def test_jax_raises_at_the_second_call() -> None:
    assert raises_key_reuse(HANDED_ON, "pair(jax.random.key(1))")
    assert raises_key_reuse(RAISES, "pair(jax.random.key(1))")
