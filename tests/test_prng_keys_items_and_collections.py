"""OPT020 on two ways real code hands one key to several draws without naming it twice (issue
#25): an item of a list of keys taken at the same literal index twice (`keys[6]` for two
priors), and a comprehension that builds each of its items from one key (`[draw(key, x) for x
in xs]`, a dict of per-view samples). Checked by the real command line, and run with real JAX
under its key-reuse checker (the reuse raises, the look-alike does not)."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

PRIORS = '''\
import jax


def initial_position(key):
    keys = jax.random.split(key, 4)
    loc = jax.random.normal(keys[0])
    scale = jax.random.exponential(keys[1])
    u_scale = jax.random.exponential(keys[2])
    v_scale = jax.random.exponential(keys[2])
    return loc, scale, u_scale, v_scale
'''

# The look-alike: the last prior takes a key of its own; the list is made again after.
PRIORS_APART = PRIORS.replace("split(key, 4)", "split(key, 5)").replace(
    "    v_scale = jax.random.exponential(keys[2])\n",
    "    v_scale = jax.random.exponential(keys[3])\n"
    "    keys = jax.random.split(keys[4], 2)\n"
    "    loc = loc + jax.random.normal(keys[0])\n")

PER_ITEM = '''\
import jax


class Encoder:
    def __init__(self, views):
        self.views = views

    def encode(self, x, key):
        return x + jax.random.normal(key, x.shape)

    def encode_all(self, xs, key):
        return {view: self.encode(xs[view], key) for view in self.views}


def draw_round(key, logits_per_variable):
    return [jax.random.categorical(key, logits) for logits in logits_per_variable]
'''

# The look-alike: each item is given a key of its own.
PER_ITEM_SPLIT = PER_ITEM.replace(
    "        return {view: self.encode(xs[view], key) for view in self.views}",
    "        keys = jax.random.split(key, len(self.views))\n"
    "        return {view: self.encode(xs[view], k) for view, k in zip(self.views, keys)}").replace(
    "    return [jax.random.categorical(key, logits) for logits in logits_per_variable]",
    "    keys = jax.random.split(key, len(logits_per_variable))\n"
    "    return [jax.random.categorical(k, logits) for k, logits in zip(keys, logits_per_variable)]")


def test_one_item_of_a_list_of_keys_taken_twice(tmp_path: Path) -> None:
    run = "initial_position(jax.random.key(0))"
    assert raises_key_reuse(PRIORS, run)
    assert opt020_lines(tmp_path, "priors.py", PRIORS) == [9]


def test_items_at_distinct_indexes_are_silent(tmp_path: Path) -> None:
    run = "initial_position(jax.random.key(0))"
    assert not raises_key_reuse(PRIORS_APART, run)
    assert opt020_lines(tmp_path, "priors.py", PRIORS_APART) == []


def test_a_comprehension_drawing_every_item_from_one_key(tmp_path: Path) -> None:
    assert raises_key_reuse(PER_ITEM, "draw_round(jax.random.key(0), jax.numpy.zeros((2, 3)))")
    assert raises_key_reuse(
        PER_ITEM, "Encoder(['a', 'b']).encode_all({'a': jax.numpy.ones(2), 'b': jax.numpy.ones(2)}, jax.random.key(0))")
    assert opt020_lines(tmp_path, "views.py", PER_ITEM) == [12, 16]


def test_a_comprehension_over_split_keys_is_silent(tmp_path: Path) -> None:
    assert not raises_key_reuse(
        PER_ITEM_SPLIT, "draw_round(jax.random.key(0), jax.numpy.zeros((2, 3)))")
    assert not raises_key_reuse(
        PER_ITEM_SPLIT, "Encoder(['a', 'b']).encode_all({'a': jax.numpy.ones(2), 'b': jax.numpy.ones(2)}, jax.random.key(0))")
    assert opt020_lines(tmp_path, "views.py", PER_ITEM_SPLIT) == []


ALIGNED = '''\
import jax.random as jr


def shuffle_together(key, arrays):
    return [jr.permutation(key, a) for a in arrays]
'''


def test_arrays_permuted_alike_on_purpose_are_silent(tmp_path: Path) -> None:
    """One key to `permutation` for every array keeps rows aligned (features with labels)."""
    assert opt020_lines(tmp_path, "loader.py", ALIGNED) == []
