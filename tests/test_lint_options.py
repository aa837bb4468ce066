"""Every front end lints with the options `optlint check` builds from the same settings: the
verify gate (`check --fix --verify`), `optlint verify`, the language server and flake8 once
dropped `max-file-size` (and the gate flake8's `--disable-noqa`)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from optlint.engine import Linter, LintOptions
from optlint.flake8 import OptlintChecker
from optlint.lint_options import every_fix
from optlint.runner import CheckRequest, build_settings, lint_options
from optlint.server.projects import Projects
from optlint.verify import gate
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.session import RunSettings

# Every setting that reaches the lint set away from its default.
CONFIG = """[tool.optlint]
select = ["OPT002", "OPT003"]
preview = true
max-file-size = "1KB"
optax-version = "0.2.3"
"""
FINDING = """import equinox as eqx
import jax
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
optimizer = optax.adam(1e-3)
opt_state = optimizer.init(model)
"""
BIG = FINDING + "# padding\n" * 200  # over 1KB: `check` reports it unchecked
# What the settings decide; fixing and writing are each front end's own business.
FROM_SETTINGS = ("selection", "versions", "project_root", "preview", "max_file_size",
                 "respect_noqa")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(CONFIG)
    (tmp_path / "big.py").write_text(BIG)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _from_settings(options: LintOptions) -> dict[str, object]:
    return {name: getattr(options, name) for name in FROM_SETTINGS}


def _check_options(project: Path) -> LintOptions:
    request = CheckRequest([str(project)])
    return lint_options(request, build_settings(request))


def test_check_options_carry_every_setting(project: Path) -> None:
    options = _check_options(project)
    assert options.preview and options.max_file_size == 1000
    assert {"OPT002", "OPT003"} <= options.selection.enabled and "OPT001" not in options.selection.enabled
    assert options.versions.get("optax").version == "0.2.3"


def test_verify_lints_with_checks_options(project: Path) -> None:
    assert _from_settings(fix_options(VerifyRequest([str(project)]))) == _from_settings(
        _check_options(project))


def test_server_lints_with_checks_options(project: Path) -> None:
    served = Projects().for_file(project / "big.py").linter.options
    assert _from_settings(served) == _from_settings(_check_options(project))


def test_flake8_lints_with_checks_options(project: Path) -> None:
    linter = OptlintChecker._linter_for(argparse.Namespace(), project)
    assert _from_settings(linter.options) == _from_settings(_check_options(project))


def test_verify_gate_lints_with_checks_options(project: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[LintOptions] = []

    class Recording(Linter):
        def __init__(self, options: LintOptions) -> None:
            built.append(options)
            super().__init__(options)

    monkeypatch.setattr(gate, "Linter", Recording)
    options = _check_options(project)
    results = gate.fix_verified([project / "big.py"], options, RunSettings())
    assert "over max-file-size" in results[0].errors[0]  # as `check --fix` says
    assert len(built) == 2
    assert all(_from_settings(each) == _from_settings(options) for each in built)


def test_every_fix_keeps_all_but_fixing_and_writing() -> None:
    options = LintOptions(*_check_options_defaults(), verbose=True, respect_noqa=False,
                          preview=True, max_file_size=10)
    fixing = every_fix(options)
    assert (fixing.fix, fixing.unsafe_fixes, fixing.write) == (True, True, False)
    for each in fields(LintOptions):
        if each.name not in ("fix", "unsafe_fixes", "write"):
            assert getattr(fixing, each.name) == getattr(options, each.name), each.name


def _check_options_defaults() -> tuple[object, object, Path]:
    defaults = lint_options(CheckRequest([]), build_settings(CheckRequest([], isolated=True)))
    return defaults.selection, defaults.versions, defaults.project_root


def test_real_flake8_leaves_a_file_over_max_file_size_unchecked(project: Path) -> None:
    (project / "small.py").write_text(FINDING)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = subprocess.run([sys.executable, "-m", "flake8", "--select", "OPT", "big.py",
                          "small.py"], cwd=project, text=True, capture_output=True,
                         timeout=120, check=False, env=env)
    assert "Traceback" not in run.stderr, run.stderr
    assert [line.split(":")[0] for line in run.stdout.splitlines()] == ["small.py"]
    assert "big.py: not checked" in run.stderr and "over max-file-size" in run.stderr
