"""Library names reached through a star import of a project module that imports them (nbdev
and fastai-style projects: `from ..import_essentials import *`, where that module does
`import jax.random as jrand`; jax-relax 9458dd2, held-out set 3). OPT020 sees `jrand.split`
as the `jax.random` call it is. Checked by the real command line on a two-file project."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

ESSENTIALS = '''\
import jax.numpy as jnp, jax.random as jrand
from functools import partial
'''

PERTURB = '''\
from essentials import *


def perturb(rng_key, x, sizes):
    noise = jrand.normal(rng_key, x.shape)
    cats = [jrand.randint(rng_key, (3,), 0, size) for size in sizes]
    return x + noise, cats
'''


@pytest.mark.parametrize(("essentials", "expected"), [
    (ESSENTIALS, [6]),
    # A module listing what it exports: its imports may not be among them.
    (ESSENTIALS + "__all__ = ['partial']\n", []),
    # No star import to follow: the names are not imported.
    ("", []),
])
def test_a_library_imported_by_a_star_imported_module(tmp_path: Path, essentials: str,
                                                      expected: list[int]) -> None:
    (tmp_path / "essentials.py").write_text(essentials)
    assert opt020_lines(tmp_path, "perturb.py", PERTURB) == expected


def test_a_name_the_file_binds_itself_is_its_own(tmp_path: Path) -> None:
    (tmp_path / "essentials.py").write_text(ESSENTIALS)
    source = PERTURB.replace("\n\ndef perturb", "\njrand = None\n\n\ndef perturb")
    assert opt020_lines(tmp_path, "perturb.py", source) == []
