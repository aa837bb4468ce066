"""OPT020 where a key's `nnx.Rngs` goes only to a project class whose `__init__` never reads it
(issue #25, maxdiffusion's `wan_vae_test.py`: `WanRMS_norm(dim, rngs=rngs)` keeps a ones
`gamma`): two `Rngs` of keys made from one seed draw nothing, silent. Still reported: the
class drawing from it (`nnx.Linear(..., rngs=rngs)`), and classes whose construction the
analysis cannot see whole (a class decorator, a metaclass, a base it does not know).
The facts `key_model_objects.PLAIN_CONSTRUCTION` rests on are measured here where flax is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import finding_line
from conftest import run_optlint_in_process as run_optlint

MODELS = '''\
from flax import nnx
import jax.numpy as jnp

{header}
class Norm({base}):
    def __init__(self, dim, rngs: nnx.Rngs, eps=1e-6):
        {body}
        self.eps = eps
'''

TEST = '''\
import jax
import jax.numpy as jnp
from flax import nnx

from models import Norm


def test_norm():
    key = jax.random.key(0)
    rngs = nnx.Rngs(key)
    first = Norm(4, rngs=rngs)(jnp.ones(4))

    key = jax.random.key(0)
    rngs = nnx.Rngs(key)
    second = Norm(4, rngs=rngs)(jnp.ones(4))
    assert (first == second).all()
'''

SECOND_RNGS = 14
IGNORED = "self.gamma = nnx.Param(jnp.ones((dim,)))"
DRAWN = "self.gamma = nnx.Linear(dim, dim, rngs=rngs)"


def _lines(tmp_path: Path, header: str, base: str, body: str) -> list[int]:
    (tmp_path / "models.py").write_text(MODELS.format(header=header, base=base, body=body))
    (tmp_path / "test_norm.py").write_text(TEST)
    result = run_optlint("check", "test_norm.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(finding_line(f) for f in json.loads(result.stdout))


@pytest.mark.parametrize(("header", "base", "body", "expected"), [
    ("", "nnx.Module", IGNORED, []),
    ("", "nnx.Module", DRAWN, [SECOND_RNGS]),  # the class draws from its Rngs
    ("@some_registry.register", "nnx.Module", IGNORED, [SECOND_RNGS]),  # a decorator
    ("", "nnx.Module, metaclass=Meta", IGNORED, [SECOND_RNGS]),  # a metaclass
    ("", "SomeLibraryModule", IGNORED, [SECOND_RNGS]),  # a base it does not know
])
def test_rngs_to_a_constructor_that_ignores_them(tmp_path: Path, header: str, base: str,
                                                  body: str, expected: list[int]) -> None:
    assert _lines(tmp_path, header, base, body) == expected


def test_the_constructors_when_run() -> None:
    """An nnx module ignoring its `Rngs` leaves it undrawn and one typed key in two `Rngs`
    raises nothing; an Equinox module built twice with one key it ignores raises nothing."""
    pytest.importorskip("flax")
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    from flax import nnx

    class Norm(nnx.Module):
        def __init__(self, dim: int, rngs: nnx.Rngs) -> None:
            self.gamma = nnx.Param(jnp.ones((dim,)))

    class EqxNorm(eqx.Module):
        gamma: jax.Array

        def __init__(self, dim: int, key: jax.Array) -> None:
            self.gamma = jnp.ones((dim,))

    with jax.debug_key_reuse(True):
        key = jax.random.key(0)
        rngs = nnx.Rngs(key)
        Norm(4, rngs=rngs)
        assert int(rngs.default.count.value) == 0
        Norm(4, rngs=nnx.Rngs(key))
        other = jax.random.key(1)
        EqxNorm(4, other)
        EqxNorm(4, other)
