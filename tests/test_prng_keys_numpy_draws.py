"""OPT020 on two NumPy generators seeded alike (`key_numpy_draws.py`): JAX's checker does not
see NumPy, so only identical or prefix-identical values make the pair a reuse (issue #25's
rule). Drawn from where they are made with one method under the same parameters (vizier's
`RandomState(seed).beta(...)` pattern with equal arguments), or shuffling alike, the values
repeat and the finding stays; under other parameters or another method they share none, and
the finding is `--preview` only. The facts are measured with NumPy below."""

from __future__ import annotations

import runpy
from pathlib import Path

import libcst as cst
import pytest
from conftest import opt020_lines

from optlint.analysis import key_numpy_draws

SOURCE = '''\
import jax  # a JAX project's file (OPT020 reads only those)
import numpy as np


def same_draws(seed=None):
    first = np.random.RandomState(seed).beta(1.0, 30.0, size=100)
    second = np.random.RandomState(seed).beta(1.0, 30.0, size=50)
    return first, second


def other_parameters(seed=None):
    first = np.random.RandomState(seed).beta(1.0, 30.0, size=100)
    second = np.random.RandomState(seed).beta(1.0, 17.0 / 3.0, size=100)
    return first, second


def other_methods(seed=None):
    first = np.random.default_rng(seed).uniform(0.0, 1.0, size=5)
    second = np.random.default_rng(seed).normal(0.0, 1.0, size=5)
    return first, second


def shuffled_alike(xs, ys, seed=None):
    np.random.RandomState(seed).shuffle(xs)
    np.random.RandomState(seed).shuffle(ys)
    return xs, ys


def defaults_written_out(seed=None):
    first = np.random.RandomState(seed).normal(size=5)
    second = np.random.RandomState(seed).normal(0, 1.0, size=5)
    return first, second


def one_stream_two_names(seed=None):
    first = np.random.default_rng(seed).random(size=5)
    second = np.random.default_rng(seed).uniform(0.0, 1.0, size=5)
    return first, second


def low_left_out(seed=None):
    first = np.random.RandomState(seed).randint(10, size=5)
    second = np.random.RandomState(seed).randint(0, 10, size=5)
    return first, second


def parameters_not_literals(mu, seed=None):
    first = np.random.RandomState(seed).normal(mu, 1.0, size=5)
    second = np.random.RandomState(seed).normal(0.0, 1.0, size=5)
    return first, second


def named_parameters(seed=None):
    init_beta = 30.0
    contam_beta = 17.0 / 3.0
    first = np.random.RandomState(seed).beta(1.0, init_beta, size=100)
    second = np.random.RandomState(seed).beta(1.0, contam_beta, size=100)
    return first, second
'''


def test_only_draws_that_repeat_values_are_reported(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "seeds.py", SOURCE) == [7, 25, 31, 37, 43, 49]
    assert opt020_lines(tmp_path, "seeds.py", SOURCE, "--preview") == [7, 13, 19, 25, 31, 37,
                                                                        43, 49, 57]


def test_the_draws_when_run(tmp_path: Path) -> None:
    (tmp_path / "seeds.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "seeds.py"))
    first, second = namespace["same_draws"](7)
    assert (first[:50] == second).all()
    for name in ("other_parameters", "other_methods"):
        first, second = namespace[name](7)
        assert not set(first) & set(second), name
    first, second = namespace["named_parameters"](7)
    assert not set(first) & set(second)
    xs, ys = namespace["shuffled_alike"](list(range(10)), list(range(10, 20)), 7)
    assert [y - 10 for y in ys] == xs
    # Defaults written out or left out, and two names of one stream, draw the same values
    # (the reason the findings on them stay).
    for name in ("defaults_written_out", "one_stream_two_names", "low_left_out"):
        first, second = namespace[name](7)
        assert (first == second).all(), name
    first, second = namespace["parameters_not_literals"](0.0, 7)
    assert (first == second).all()  # a name may hold the same value: not judged


def test_a_function_seeding_many_generators_is_read_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pair of generators asks for the constants of the function around it: they are
    worked out once per function, not once per pair (300 generators in one function: 113 s
    of OPT020 before, 5 s after, on the shared 2-core machine)."""
    read: list[str] = []
    constants_in = key_numpy_draws._constants_in

    def counted(function: cst.FunctionDef) -> dict[str, object]:
        read.append(function.name.value)
        return constants_in(function)

    monkeypatch.setattr(key_numpy_draws, "_constants_in", counted)
    body = "".join(f"    x{i} = np.random.RandomState(seed).beta(1.0, b{i % 2}, size=5)\n"
                   for i in range(8))
    source = ("import jax\nimport numpy as np\n\n\ndef many(seed=None):\n    b0 = 30.0\n"
              f"    b1 = 17.0 / 3.0\n{body}    return x0, x1, x2, x3, x4, x5, x6, x7\n")
    # Each draw repeats the one before it with the other parameter: `--preview` only.
    assert opt020_lines(tmp_path, "many.py", source) == []
    assert read == ["many"]
