"""Version-gated rules through the real CLI, for the optax versions of the measured matrix.

OPT001's mask family raises only on optax < 0.2.4, its labels family on every version; OPT002 is
wrong on every version; OPT004 is fine on 0.1.7, raises on 0.1.8-0.1.9, is silently wrong later.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint
from optlint.engine import LintOptions, Linter
from optlint.selection import Selection
from optlint.versions import LibraryVersions

SOURCE = '''\
import equinox as eqx
import jax
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
mask = jax.tree_util.tree_map(lambda _: True, model)
decayed = optax.adamw(1e-3, mask=mask)
grouped = optax.multi_transform({"a": optax.adam(1e-3)}, mask)
injected = optax.inject_hyperparams(optax.adamw)(1e-3, mask=lambda p: p)
accumulated = optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(1e-3)), 4)
'''
MASK, LABELS, INJECT, MULTISTEPS = 7, 8, 9, 10
EXPECTED = {
    "0.1.7": {(MASK, "OPT001"), (LABELS, "OPT001"), (INJECT, "OPT002")},
    "0.1.9": {(MASK, "OPT001"), (LABELS, "OPT001"), (INJECT, "OPT002"), (MULTISTEPS, "OPT004")},
    "0.2.3": {(MASK, "OPT001"), (LABELS, "OPT001"), (INJECT, "OPT002"), (MULTISTEPS, "OPT004")},
    "0.2.4": {(LABELS, "OPT001"), (INJECT, "OPT002"), (MULTISTEPS, "OPT004")},
    "0.2.8": {(LABELS, "OPT001"), (INJECT, "OPT002"), (MULTISTEPS, "OPT004")},
}


def _findings(stdout: str) -> dict[tuple[int, str], str]:
    found = {}
    for line in stdout.splitlines():
        if line.startswith("train.py:"):
            _, row, _, rest = line.split(":", 3)
            code = rest.split()[0]
            found[(int(row), code)] = rest
    return found


@pytest.mark.parametrize("version", sorted(EXPECTED))
def test_versions_matrix(version: str, tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(SOURCE)
    result = run_optlint("check", "train.py", "--no-cache", "--select", "OPT001,OPT002,OPT004",
                         "--optax-version", version, cwd=tmp_path)
    found = _findings(result.stdout)
    assert set(found) == EXPECTED[version], result.stdout + result.stderr
    assert result.returncode == 1
    if (MASK, "OPT001") in found:
        assert f"optax < 0.2.4; your optax: {version} (from command line)" in found[(MASK, "OPT001")]
    if (MULTISTEPS, "OPT004") in found:
        text = found[(MULTISTEPS, "OPT004")]
        assert ("first update raises" in text) == (version == "0.1.9"), text
        assert ("silently stops training" in text) == (version >= "0.2.0"), text


def test_versions_from_project_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\noptax-version = "0.2.2"\n')
    (tmp_path / "train.py").write_text(SOURCE)
    result = run_optlint("check", "train.py", "--no-cache", "--select", "OPT001", cwd=tmp_path)
    found = _findings(result.stdout)
    assert "your optax: 0.2.2 (from " in found[(MASK, "OPT001")], result.stdout


def test_unknown_version_reports_the_affected_ranges(tmp_path: Path) -> None:
    # The CLI always finds the optax installed beside optlint; an unknown version arises where
    # optlint runs in its own environment (pre-commit). Use the engine itself for that case.
    options = LintOptions(Selection(frozenset({"OPT001", "OPT004"})), LibraryVersions(), tmp_path)
    result = Linter(options).lint_text(SOURCE, str(tmp_path / "train.py"))
    messages = {(d.start.line, d.code): d.message for d in result.diagnostics}
    assert "optax < 0.2.4; optax version unknown" in messages[(MASK, "OPT001")]
    assert "on 0.1.8-0.1.9 the first update raises" in messages[(MULTISTEPS, "OPT004")]

