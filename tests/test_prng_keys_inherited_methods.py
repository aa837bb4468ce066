"""OPT020 through a method a class inherits from a base of another project file (issue #25,
PuXle f65fb90: `RubiksCube(Puzzle).get_initial_state` drew `randint(key)` and handed the same
key to `self._get_suffled_state`, a method of `Puzzle` in `core/puzzle_base.py` whose loop
splits it). The base is reached by a relative import, a package's re-export, a module attribute
(`base.Puzzle`) and a generic (`Generic2[int]`); a method the subclass overrides wins, as in
Python's method resolution order. The programs also run with JAX's key-reuse checker."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint

PACKAGE_INIT = "from .base import Generic2, Puzzle\n"

BASE = '''\
from typing import Generic, TypeVar

import jax

T = TypeVar("T")


class Puzzle:
    def shuffle(self, key, x):
        def body(carry):
            i, y, key = carry
            key, subkey = jax.random.split(key)
            return i + 1, y + jax.random.normal(subkey), key

        return jax.lax.while_loop(lambda c: c[0] < 3, body, (0, x, key))[1]

    def quiet(self, key, x):
        return x


class Generic2(Generic[T]):
    def shuffle(self, key, x):
        return x + jax.random.normal(key)
'''

RELATIVE = '''\
import jax

from ..core.base import Puzzle


class Cube(Puzzle):
    def scrambled(self, key, x):
        extra = jax.random.randint(key, (), 0, 3)
        return self.shuffle(key, x + extra)

    def calm(self, key, x):
        y = self.quiet(key, x)
        return y + jax.random.uniform(key)

    def split_first(self, key, x):
        key, subkey = jax.random.split(key)
        return self.shuffle(key, x) + jax.random.uniform(subkey)
'''

OVERRIDDEN = '''\
import jax

from pkg.core import Puzzle


class Still(Puzzle):
    def shuffle(self, key, x):
        return x

    def scrambled(self, key, x):
        y = self.shuffle(key, x)
        return y + jax.random.uniform(key)
'''

MODULE_ATTRIBUTE = '''\
import jax

from pkg.core import base


class Tile(base.Puzzle):
    def scrambled(self, key, x):
        y = self.shuffle(key, x)
        return y + jax.random.uniform(key)


class Typed(base.Generic2[int]):
    def scrambled(self, key, x):
        y = self.shuffle(key, x)
        return y + jax.random.uniform(key)
'''


def _package(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    (root / "core").mkdir(parents=True)
    (root / "puzzles").mkdir()
    (root / "__init__.py").write_text("")
    (root / "core" / "__init__.py").write_text(PACKAGE_INIT)
    (root / "core" / "base.py").write_text(BASE)
    (root / "puzzles" / "__init__.py").write_text("")
    (root / "puzzles" / "cube.py").write_text(RELATIVE)
    (root / "puzzles" / "still.py").write_text(OVERRIDDEN)
    (root / "puzzles" / "tile.py").write_text(MODULE_ATTRIBUTE)
    return root


def _rows(tmp_path: Path) -> dict[str, list[int]]:
    _package(tmp_path)
    result = run_optlint("check", "pkg", "--select", "OPT020", "--no-cache", "--isolated",
                         "--output-format", "json", cwd=tmp_path)
    rows: dict[str, list[int]] = {}
    for finding in json.loads(result.stdout):
        rows.setdefault(Path(finding["filename"]).name, []).append(finding["line"])
    return {name: sorted(found) for name, found in rows.items()}


def test_a_method_inherited_from_another_files_base_consumes_the_key(tmp_path: Path) -> None:
    rows = _rows(tmp_path)
    # cube.py 9: `shuffle` (of `Puzzle`, core/base.py) splits the key `randint` drew from; the
    # base's `quiet` ignores its key (12-13) and the split key is fresh (16-17): silent.
    assert rows.get("cube.py") == [9]
    # still.py: `Still.shuffle` overrides the base's and draws nothing.
    assert "still.py" not in rows
    # tile.py: the base named through its module (`base.Puzzle`), and a generic base.
    assert rows.get("tile.py") == [9, 15]


def test_the_inherited_methods_when_run(tmp_path: Path) -> None:
    jax = pytest.importorskip("jax")
    _package(tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        from pkg.puzzles.cube import Cube  # type: ignore[import-not-found]
        from pkg.puzzles.still import Still  # type: ignore[import-not-found]
        from pkg.puzzles.tile import Tile, Typed  # type: ignore[import-not-found]

        with jax.debug_key_reuse(True):
            for flagged in (Cube().scrambled, Tile().scrambled, Typed().scrambled):
                with pytest.raises(jax.errors.KeyReuseError):
                    flagged(jax.random.key(0), 1.0)
            Cube().calm(jax.random.key(0), 1.0)
            Cube().split_first(jax.random.key(0), 1.0)
            Still().scrambled(jax.random.key(0), 1.0)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name == "pkg" or name.startswith("pkg.")]:
            del sys.modules[name]
