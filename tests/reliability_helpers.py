"""Shared pieces of the reliability tests: an in-process linter and an in-process CLI."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from optlint.cli import main
from optlint.config import Settings
from optlint.engine import Linter, LintOptions
from optlint.selection import Selection
from optlint.versions import LibraryVersions

# One finding with a safe fix (OPT003), on line 7.
FIXABLE = (
    "import equinox as eqx\n"
    "import jax\n"
    "import optax\n"
    "\n"
    "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
    "optimizer = optax.adam(1e-3)\n"
    "opt_state = optimizer.init(model)\n"
)
FIXED_LINE = "opt_state = optimizer.init(eqx.filter(model, eqx.is_array))"


def linter(root: Path, fix: bool = False) -> Linter:
    return Linter(LintOptions(Selection.from_settings(Settings(project_root=root)),
                              LibraryVersions(), root, fix=fix, write=fix))


@dataclass
class CliRun:
    exit_code: int
    stdout: str
    stderr: str
    stdout_bytes: bytes


def run_cli(monkeypatch: pytest.MonkeyPatch, cwd: Path, *args: str,
            stdin: bytes | None = None) -> CliRun:
    """`optlint ARGS` in this process, from `cwd`; an uncaught exception fails the test."""
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return CliRun(result.exit_code, result.stdout, result.stderr, result.stdout_bytes)


def error_lines(run: CliRun) -> list[str]:
    return [line for line in run.stderr.splitlines() if line.startswith("error:")]
