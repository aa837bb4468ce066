"""OPT020 on a draw whose shape alone is checked (`chex.assert_equal_shape([a, b])`,
`self.assertEqual(b.shape, s)`, in a test's `with self.subTest(...)` block): its values reach
no result, so it is no draw for a reuse, though JAX's checker raises; so does a draw's own shape
kept (returned): issue #25's rule counts values. Values read after a `with` block are still read. Each case also runs with
JAX: a different draw in the second place (`jax.random.uniform` drawing from another key)
changes the result only where the finding stays."""

from __future__ import annotations

import json
import runpy
import unittest
from pathlib import Path

import jax
import numpy as np
import pytest

from conftest import run_optlint_in_process as run_optlint

CHECKED = '''\
import unittest

import jax
import jax.numpy as jnp
import numpy as np


def shape_checked(key):
    x = jax.random.normal(key, (3, 2))
    y = jax.random.uniform(key, (3, 2))
    assert jnp.shape(y) == x.shape
    assert y.ndim == 2
    return x


def shape_returned(key):
    x = jax.random.normal(key, (3, 2))
    y = jax.random.uniform(key, (3, 2))
    return x, y.shape


class SampleTest(unittest.TestCase):
    key = jax.random.key(0)

    def test_shapes_then_values(self):
        with self.subTest("shape"):
            sample = jax.random.uniform(self.key, (4,))
            self.assertEqual(sample.shape, (4,))
        with self.subTest("value"):
            sample = jax.random.normal(self.key, (4,))
            np.testing.assert_array_less(-10.0, sample)
            self.result = sample
'''

CHEX_CHECKED = '''\
import chex
import jax


def chex_checked(key):
    x = jax.random.normal(key, (3, 2))
    y = jax.random.uniform(key, (3, 2))
    chex.assert_equal_shape([x, y])
    chex.assert_rank(y, 2)
    return x
'''

STILL_REUSED = '''\
import unittest

import jax
import jax.numpy as jnp


def values_checked(key):
    x = jax.random.normal(key, (3, 2))
    y = jax.random.uniform(key, (3, 2))
    assert jnp.shape(y) == x.shape
    return x + y


class SampleTest(unittest.TestCase):
    key = jax.random.key(0)

    def test_values_after_blocks(self):
        with self.subTest("first"):
            a = jax.random.normal(self.key, (4,))
        with self.subTest("second"):
            b = jax.random.uniform(self.key, (4,))
        self.result = a + b
'''


def _rows(tmp_path: Path, name: str, source: str) -> list[int]:
    (tmp_path / name).write_text(source)
    result = run_optlint("check", name, "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout))


def test_checked_shapes_are_no_reuse(tmp_path: Path) -> None:
    assert _rows(tmp_path, "checked.py", CHECKED) == []
    assert _rows(tmp_path, "chex_checked.py", CHEX_CHECKED) == []


def test_values_still_reuse(tmp_path: Path) -> None:
    assert _rows(tmp_path, "reused.py", STILL_REUSED) == [9, 21]


def _results(tmp_path: Path, name: str, source: str) -> list[np.ndarray]:
    """What each case gives: its functions' results for one key, and what its test stores."""
    (tmp_path / name).write_text(source)
    namespace = runpy.run_path(str(tmp_path / name))
    key = jax.random.key(1)
    found = [_flat(value(key))
             for value in namespace.values()
             if callable(value) and getattr(value, "__module__", None) == "<run_path>"
             and not isinstance(value, type)]
    case = namespace["SampleTest"]
    test_name = next(attr for attr in vars(case) if attr.startswith("test_"))
    test = case(test_name)
    outcome = unittest.TestResult()
    test.run(outcome)
    assert outcome.wasSuccessful(), outcome.errors + outcome.failures
    return [*found, np.asarray(test.result)]


def _flat(result: object) -> np.ndarray:
    """A function's result as one array: a tuple's items (a shape among them) in order."""
    if isinstance(result, tuple):
        return np.concatenate([np.ravel(np.asarray(item, dtype=float)) for item in result])
    return np.asarray(result)


def _with_other_second_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """`jax.random.uniform` (every case's second draw) draws from another key."""
    uniform = jax.random.uniform
    monkeypatch.setattr(jax.random, "uniform", lambda key, *args, **kwargs: uniform(
        jax.random.fold_in(key, 7), *args, **kwargs))


def test_checked_shapes_reach_no_result_when_run(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    same = _results(tmp_path, "checked.py", CHECKED)
    _with_other_second_draw(monkeypatch)
    other = _results(tmp_path, "checked.py", CHECKED)
    assert all(np.array_equal(a, b) for a, b in zip(same, other, strict=True))


def test_reused_values_reach_results_when_run(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    same = _results(tmp_path, "reused.py", STILL_REUSED)
    _with_other_second_draw(monkeypatch)
    other = _results(tmp_path, "reused.py", STILL_REUSED)
    # values_checked's sum and the test's sum change.
    assert [np.array_equal(a, b) for a, b in zip(same, other, strict=True)] == [False, False]
