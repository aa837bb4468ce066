"""A file's text stays in its result only when a diff will need it (fixes changed the text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from optlint.catalog import all_codes
from optlint.engine import LintOptions
from optlint.pool import check_paths
from optlint.selection import Selection
from optlint.versions import LibraryVersions

BAD = """import equinox as eqx
import jax
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
"""
CLEAN = "import optax\n\noptimizer = optax.adam(1e-3)\n"


def options(root: Path, fix: bool) -> LintOptions:
    return LintOptions(Selection(frozenset(all_codes())), LibraryVersions(), root, fix=fix,
                       write=False)


@pytest.mark.parametrize("jobs", [1, 2])
def test_check_keeps_no_text(tmp_path: Path, jobs: int) -> None:
    paths = []
    for number in range(4):
        paths.append(tmp_path / f"f{number}.py")
        paths[-1].write_text(BAD if number % 2 else CLEAN)
    results = check_paths(paths, options(tmp_path, fix=False), jobs)
    assert [r.original for r in results] == [None] * 4
    assert sum(len(r.diagnostics) for r in results) == 2


def test_diff_keeps_the_text_of_fixed_files_only(tmp_path: Path) -> None:
    bad, clean = tmp_path / "bad.py", tmp_path / "clean.py"
    bad.write_text(BAD)
    clean.write_text(CLEAN)
    fixed, untouched = check_paths([bad, clean], options(tmp_path, fix=True), 1)
    assert fixed.original == BAD and fixed.fixed is not None and fixed.fixed != BAD
    assert untouched.original is None and untouched.fixed is None
