"""OPT020 where a split's keys go only to functions or models that delete their key parameter
unread (`del key`, the Equinox idiom for a key kept for the interface: representax's models and
losses, issue #25): nothing drawn from the split reaches a result, so the split after an earlier
draw is no reuse that matters. `del key` unbinds the name, it reads nothing. The look-alikes
whose function or model draws from the key before deleting it are still found. Both run with
JAX: fresh keys for the split leave the deleting callees' results unchanged and change the
drawing ones'."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import finding_line, opt020_findings

SOURCE = '''\
import equinox as eqx
import jax


def interface_only(x, key):
    del key
    return x * 2.0


def draws_then_deletes(x, key):
    noise = jax.random.normal(key, x.shape)
    del key
    return x + noise


class Frozen(eqx.Module):
    def __call__(self, x, *, key=None):
        del key
        return x * 2.0


class Noisy(eqx.Module):
    def __call__(self, x, *, key=None):
        noise = jax.random.normal(key, x.shape)
        del key
        return x + noise


def through_function(key):
    x = jax.random.normal(key, (3,))
    first, second = jax.random.split(key)
    return interface_only(x, first) + interface_only(x, second)


def through_drawing_function(key):
    x = jax.random.normal(key, (3,))
    first, second = jax.random.split(key)
    return draws_then_deletes(x, first) + draws_then_deletes(x, second)


def through_model(key):
    model = Frozen()
    x = jax.random.normal(key, (3,))
    first, second = jax.random.split(key)
    return model(x, key=first) + model(x, key=second)


def through_drawing_model(key):
    model = Noisy()
    x = jax.random.normal(key, (3,))
    first, second = jax.random.split(key)
    return model(x, key=first) + model(x, key=second)
'''


def _line(text: str) -> int:
    return SOURCE.splitlines().index(text) + 1


def test_a_split_handed_only_to_deleting_callees_is_no_reuse(tmp_path: Path) -> None:
    found = sorted(finding_line(f) for f in opt020_findings(tmp_path, "deleted.py", SOURCE))
    # The split two lines into each drawing look-alike, after its `x = normal(key, ...)`.
    assert found == [_line("def through_drawing_function(key):") + 2,
                     _line("def through_drawing_model(key):") + 3]


def test_fresh_split_keys_change_only_the_drawing_callees(tmp_path: Path) -> None:
    (tmp_path / "deleted.py").write_text(SOURCE)
    module = runpy.run_path(str(tmp_path / "deleted.py"))
    key, other = jax.random.key(0), jax.random.key(1)
    for name, changes in (("through_function", False), ("through_model", False),
                          ("through_drawing_function", True), ("through_drawing_model", True)):
        # The same first draw `x`, another key for the split: what the split keys reach.
        x = jax.random.normal(key, (3,))
        function = module[name]
        with_key = np.asarray(function(key))
        split_elsewhere = np.asarray(_with_split_key(module, name, x, other))
        assert (not np.array_equal(with_key, split_elsewhere)) == changes, name


def _with_split_key(module: dict, name: str, x: jax.Array, key: jax.Array) -> jax.Array:
    first, second = jax.random.split(key)
    if name == "through_function":
        return module["interface_only"](x, first) + module["interface_only"](x, second)
    if name == "through_drawing_function":
        return module["draws_then_deletes"](x, first) + module["draws_then_deletes"](x, second)
    model = module["Frozen" if name == "through_model" else "Noisy"]()
    return model(x, key=first) + model(x, key=second)
