"""OPT020 on a static or class method of a class imported from another project file, called on
the class with a key that is then split (issue #25, held-out set 6: cryojax 8a105bde's tutorial
drew `SO3.sample_uniform(key)`, `SO3` imported through `cryojax.rotations`'s `__init__`, then
`jax.random.split(key)`). Alternative constructors taking a key are how Equinox-style code makes
random objects. The method used to be followed only for a class of the same file; the class's
file here imports only jax (no library the project index gates its class lookups on)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import raises_key_reuse, run_optlint_in_process

ROTATIONS = """\
import jax
import jax.numpy as jnp


class Rotation:
    def __init__(self, angles):
        self.angles = angles

    @classmethod
    def sample_uniform(cls, key):
        return cls(jax.random.uniform(key=key, shape=(3,), maxval=2.0 * jnp.pi))

    @staticmethod
    def noise(key, scale):
        return scale * jax.random.normal(key, (3,))

    def jitter(self, key):
        return Rotation(self.angles + jax.random.normal(key, (3,)))
"""

USE = """\
import jax
from geometry.rotations import Rotation


def particle(key):
    rotation = Rotation.sample_uniform(key)
    key, subkey = jax.random.split(key)
    return rotation, jax.random.normal(subkey, (2,))


def noisy(key):
    first = Rotation.noise(key, 1.0)
    second = Rotation.noise(key, 2.0)
    return first, second
"""

FIXED = """\
import jax
from geometry.rotations import Rotation


def particle(key):
    key, subkey = jax.random.split(key)
    rotation = Rotation.sample_uniform(subkey)
    return rotation, jax.random.normal(key, (2,))


def noisy(key):
    k1, k2 = jax.random.split(key)
    return Rotation.noise(k1, 1.0), Rotation.noise(k2, 2.0)
"""


def _lines(tmp_path: Path, use: str) -> list[int]:
    package = tmp_path / "src" / "geometry"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "rotations.py").write_text(ROTATIONS)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "geometry"\n')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "use.py").write_text(use)
    result = run_optlint_in_process("check", "docs/use.py", "--select", "OPT020", "--no-cache",
                                    "--isolated", "--output-format", "json", cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_class_and_static_methods_of_an_imported_class(tmp_path: Path) -> None:
    assert _lines(tmp_path, USE) == [7, 13]


def test_split_first_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, FIXED) == []


def test_jax_checker_raises_on_both() -> None:
    program = ROTATIONS + USE.split("\n", 2)[2]
    assert raises_key_reuse(program, "particle(jax.random.key(0))")
    assert raises_key_reuse(program, "noisy(jax.random.key(0))")
    assert not raises_key_reuse(ROTATIONS + FIXED.split("\n", 2)[2],
                                "particle(jax.random.key(0)); noisy(jax.random.key(0))")
