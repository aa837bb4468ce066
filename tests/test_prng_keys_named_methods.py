"""OPT020 on a method called with a key on an object whose class the analysis cannot tell
(issue #25, class 1): a composite kernel calling `init_params(key)` on each of its parts, where
every class of the file defining `init_params` draws from its key. Checked by the real command
line, and run with real JAX under its key-reuse checker; a file where one class's method
ignores the key proves nothing, and stays silent."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

KERNELS = '''\
import jax


class RBF:
    def init_params(self, key):
        return {"lengthscale": jax.random.uniform(key)}


class Periodic:
    def init_params(self, key):
        return {"period": jax.random.exponential(key)}


class SumKernel:
    def __init__(self, kernels):
        self.kernels = kernels

    def init_params(self, key):
        return [kernel.init_params(key) for kernel in self.kernels]
'''

KERNELS_SPLIT = KERNELS.replace(
    "        return [kernel.init_params(key) for kernel in self.kernels]",
    "        keys = jax.random.split(key, len(self.kernels))\n"
    "        return [kernel.init_params(k) for k, kernel in zip(keys, self.kernels)]")

# One class of the file takes the key and ignores it: the method's name proves nothing.
KERNELS_ONE_FIXED = KERNELS.replace(
    '        return {"period": jax.random.exponential(key)}', '        return {"period": 1.0}')


def _raises_key_reuse(source: str) -> bool:
    return raises_key_reuse(
        source, "SumKernel([RBF(), Periodic()]).init_params(jax.random.key(0))")


def test_a_composite_calling_its_parts_method_with_one_key(tmp_path: Path) -> None:
    assert _raises_key_reuse(KERNELS)
    assert opt020_lines(tmp_path, "kernels.py", KERNELS) == [19]


def test_parts_given_split_keys_are_silent(tmp_path: Path) -> None:
    assert not _raises_key_reuse(KERNELS_SPLIT)
    assert opt020_lines(tmp_path, "kernels.py", KERNELS_SPLIT) == []


def test_a_class_ignoring_the_key_leaves_it_unproven(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "kernels.py", KERNELS_ONE_FIXED) == []

