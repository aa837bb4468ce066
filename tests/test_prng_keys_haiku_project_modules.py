"""OPT020 on Haiku's `apply` given the key `init` used, where the transformed function builds a
Haiku module of another project file (wax's tests: `ApplyMask`, `MaskMean`, ... applied with the
key that initialised them, labelled false by running; issue #25: the second consumer draws
nothing). `apply` draws only from the rng stream; when neither the file nor the project modules
defining what the function calls (nor what those import) draw from it, the key is not reused.
The look-alikes are still found: a module whose file imports one applying dropout, and a
function calling a name the file does not define (what it holds is not known). Checked by the
real command line; the first two cases run with Haiku where it is installed."""

from __future__ import annotations

from pathlib import Path

from conftest import finding_line, opt020_findings, raises_key_reuse

MASK = '''\
import haiku as hk
import jax.numpy as jnp


class ApplyMask(hk.Module):
    def __call__(self, mask, x):
        scale = hk.get_parameter("scale", (), init=jnp.ones)
        return jnp.where(mask, x * scale, 0.0)
'''

NOISY = '''\
import haiku as hk

from proj.mask import ApplyMask


class NoisyMask(hk.Module):
    def __call__(self, mask, x):
        return hk.dropout(hk.next_rng_key(), 0.5, ApplyMask()(mask, x))
'''

TEST = '''\
import haiku as hk
import jax
import jax.numpy as jnp

from proj.mask import ApplyMask
from proj.noisy import NoisyMask


def masked(mask, x):
    return ApplyMask()(mask, x)


def noisy(mask, x):
    return NoisyMask()(mask, x)


def run(make, mask, x):
    return make()(mask, x)


def test_masked():
    rng = jax.random.key(0)
    x = jnp.arange(4.0)
    mask = x > 1
    fn = hk.transform(masked)
    params = fn.init(rng, mask, x)
    return fn.apply(params, rng, mask, x)


def test_noisy():
    rng = jax.random.key(0)
    x = jnp.arange(4.0)
    mask = x > 1
    fn = hk.transform(noisy)
    params = fn.init(rng, mask, x)
    return fn.apply(params, rng, mask, x)


def test_given(make):
    rng = jax.random.key(0)
    x = jnp.arange(4.0)
    mask = x > 1
    fn = hk.transform(lambda m, v: run(make, m, v))
    params = fn.init(rng, mask, x)
    return fn.apply(params, rng, mask, x)
'''


def _project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "proj"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mask.py").write_text(MASK)
    (package / "noisy.py").write_text(NOISY)


def test_apply_of_project_modules_that_draw_nothing_is_silent(tmp_path: Path) -> None:
    _project(tmp_path)
    found = sorted(finding_line(f) for f in opt020_findings(tmp_path, "test_masks.py", TEST))
    lines = TEST.splitlines()
    applies = [number for number, line in enumerate(lines, 1)
               if line == "    return fn.apply(params, rng, mask, x)"]
    assert found == applies[1:]  # test_noisy's and test_given's, not test_masked's


def test_the_checker_agrees(tmp_path: Path) -> None:
    import sys

    import pytest

    pytest.importorskip("haiku")
    _project(tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        for module, name, raises in (("mask", "ApplyMask", False), ("noisy", "NoisyMask", True)):
            program = (f"from proj.{module} import {name}\n" + CHECKED.format(name=name))
            assert raises_key_reuse(program, "applied(jax.random.key(0))") == raises, name
    finally:
        sys.path.remove(str(tmp_path))
        for loaded in [m for m in sys.modules if m == "proj" or m.startswith("proj.")]:
            del sys.modules[loaded]


CHECKED = """\
import haiku as hk
import jax
import jax.numpy as jnp

fn = hk.transform(lambda m, v: {name}()(m, v))
x = jnp.arange(4.0)


def applied(rng):
    return fn.apply(fn.init(rng, x > 1, x), rng, x > 1, x)
"""
