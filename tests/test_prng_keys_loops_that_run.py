"""OPT020 after a loop that surely runs (issue #25, notebooks): `for k, x in enumerate(feature_sets)`
over a non-empty list consumes the last key it makes, so a later cell consuming that key again
reuses it; a loop that may run zero times (`for x in xs`, a parameter) leaves it unproven.
Checked by the real command line, and run with real JAX under its key-reuse checker."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

CANDIDATES = '''\
import jax

key = jax.random.key(0)
feature_sets = [1.0, 2.0, 3.0]


def fit(key, scale):
    return scale * jax.random.normal(key, (4,))


fits = []
for k, scale in enumerate(feature_sets):
    key = jax.random.fold_in(key, k)
    fits.append(fit(key, scale))
key, _ = jax.random.split(key)
stacked = fit(key, 1.0)
'''

# The look-alike: the stacking fit is given a key split off before the loop.
CANDIDATES_APART = CANDIDATES.replace(
    "fits = []\n", "fits = []\nkey, stack_key = jax.random.split(key)\n").replace(
    "key, _ = jax.random.split(key)\nstacked = fit(key, 1.0)", "stacked = fit(stack_key, 1.0)")

# Over a name the analysis cannot see filled, the loop may not run: nothing proven.
MAYBE_EMPTY = CANDIDATES.replace("feature_sets = [1.0, 2.0, 3.0]\n", "").replace(
    "def fit(key, scale):", "feature_sets = list(range(3))\n\n\ndef fit(key, scale):")


def test_a_key_consumed_in_the_last_iteration_of_a_loop_that_runs(tmp_path: Path) -> None:
    assert raises_key_reuse(CANDIDATES)
    assert opt020_lines(tmp_path, "stacking.py", CANDIDATES) == [15]


def test_a_key_split_off_before_the_loop_is_silent(tmp_path: Path) -> None:
    assert not raises_key_reuse(CANDIDATES_APART)
    assert opt020_lines(tmp_path, "stacking.py", CANDIDATES_APART) == []


def test_a_loop_that_may_not_run_is_not_proven(tmp_path: Path) -> None:
    assert raises_key_reuse(MAYBE_EMPTY)  # it runs here, but the analysis cannot see that
    assert opt020_lines(tmp_path, "stacking.py", MAYBE_EMPTY) == []
