"""OPT020's one rule for keys made from a literal seed (`key_literal_seeds.py`), whether made in
place (`normal(PRNGKey(0), ...)`) or in the body of the function called (`def sample(scale):
... key(0) ...`): proven where the second draw runs in a loop of steps, one carrying state from
one iteration to the next, `--preview` anywhere else (issue #25, numpyro
test_distributions.py:4201 and :1970: a helper or a sampler drawing from `key(0)` in each case
of a loop over test cases, `for i in range(len(batch_shape))` included). Each case also runs with JAX: the draws are identical
in every case, so what tells them apart is only whether code meant them to be."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import finding_line, opt020_findings

SOURCE = '''\
import jax


def sample(scale):
    return scale * jax.random.normal(jax.random.key(0), (3,))


def per_case(cases):
    same = []
    for scale in cases:
        same.append(bool((sample(scale) == jax.vmap(sample)(scale[None])[0]).all()))
    return same


def per_step(params, steps):
    noises = []
    for step in range(steps):
        noise = sample(1.0)
        params = params - 0.1 * noise
        noises.append(noise)
    return noises


def in_place_per_step(params, steps):
    noises = []
    for _ in range(steps):
        noise = jax.random.normal(jax.random.key(0), (3,))
        params = params - 0.1 * noise
        noises.append(noise)
    return noises


def per_index(n):
    firsts = []
    for i in range(n):
        firsts.append(float(jax.random.normal(jax.random.key(0), (i + 1,))[0]))
    return firsts


def in_place_twice():
    return jax.random.normal(jax.random.key(0), (3,)), jax.random.normal(jax.random.key(0), (3,))


def finite_difference(scale, eps):
    return (sample(scale + eps) - sample(scale - eps)) / (2 * eps)
'''


def _lines(tmp_path: Path, *extra: str) -> list[tuple[int, bool]]:
    """(line, shown only with --preview) of each finding."""
    return sorted((finding_line(finding), "[preview:" in finding["message"])
                  for finding in opt020_findings(tmp_path, "seeds.py", SOURCE, *extra))


def test_proven_only_in_a_loop_that_counts_steps(tmp_path: Path) -> None:
    # `in_place_twice` (41) draws one sampler twice at two calls: proven anywhere
    # (`key_literal_seeds.same_sampler`).
    assert _lines(tmp_path) == [(18, False), (27, False), (41, False)]


def test_everywhere_else_preview(tmp_path: Path) -> None:
    assert _lines(tmp_path, "--preview") == [
        (11, True), (18, False), (27, False), (36, True), (41, False), (45, True)]


def test_the_draws_are_identical_when_run(tmp_path: Path) -> None:
    (tmp_path / "seeds.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "seeds.py"))
    scale = jax.numpy.float32(1.0)
    assert namespace["per_case"]([scale, scale * 2]) == [True, True]
    for name in ("per_step", "in_place_per_step"):
        noises = namespace[name](jax.numpy.ones(3), 3)
        assert all(np.array_equal(noises[0], noise) for noise in noises[1:])
    firsts = namespace["per_index"](3)
    assert firsts == [firsts[0]] * 3
    first, second = namespace["in_place_twice"]()
    assert np.array_equal(first, second)
