"""Shared helpers: run the real `optlint` CLI in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


def optlint_executable() -> list[str]:
    found = shutil.which("optlint", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "optlint"]


def run_optlint(*args: str, cwd: Path | str | None = None, stdin: str | None = None,
                env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([*optlint_executable(), *args], cwd=cwd, input=stdin, text=True,
                          capture_output=True, env=full_env, timeout=timeout)


@pytest.fixture
def optlint():
    return run_optlint


def run_optlint_in_process(*args: str, cwd: Path | str | None = None, stdin: str | None = None,
                           env: dict[str, str] | None = None,
                           timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The same CLI as `run_optlint`, called in this process (no interpreter start-up per call):
    for tests of what optlint reports; tests of optlint as a process keep `run_optlint`."""
    from click.testing import CliRunner

    from optlint.cli import main

    previous = Path.cwd()
    os.chdir(cwd or previous)
    try:
        result = CliRunner(env=env).invoke(main, list(args), input=stdin, catch_exceptions=False)
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(["optlint", *args], result.exit_code, result.stdout,
                                       result.stderr)


def opt020_findings(tmp_path: Path, name: str, source: str, *extra: str) -> list[dict]:
    """OPT020's findings (JSON) on `source` written to `tmp_path / name`, checked in process."""
    import json

    (tmp_path / name).write_text(source)
    result = run_optlint_in_process("check", name, "--select", "OPT020", "--no-cache",
                                    "--output-format", "json", *extra, cwd=tmp_path)
    return json.loads(result.stdout)


def finding_line(finding: dict) -> int:
    return finding["location"]["row"] if "location" in finding else finding["line"]


def opt020_lines(tmp_path: Path, name: str, source: str, *extra: str) -> list[int]:
    """The sorted lines of OPT020's findings on `source` written to `tmp_path / name`."""
    return sorted(finding_line(f) for f in opt020_findings(tmp_path, name, source, *extra))


# The trees an OPT020 shortcut is checked on (switched on and off, the findings must be equal).
KEY_TREES = [Path(__file__).resolve().parent / "fixtures" / "OPT020",
             Path(__file__).resolve().parent.parent / "benchmarks" / "recall" / "keys"]


def key_findings(tree: Path) -> list[tuple[str, int, int, str]]:
    """OPT020's findings (with --preview) on `tree`, in a stable order, run in this process."""
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--no-cache", "--jobs",
                                    "1", "--isolated", "--preview", "--exit-zero",
                                    "--output-format", "json", cwd=tree)
    return sorted((f["filename"], f["line"], f["column"], f["message"])
                  for f in json.loads(result.stdout))


def raises_key_reuse(source: str, run: str | None = None) -> bool:
    """Whether the statement `run`, executed in the namespace of the program `source` (a module
    named `program`), raises JAX's `KeyReuseError` under `jax.debug_key_reuse` (None: whether
    the program itself raises it, run under the checker): what OPT020 reports, shown by JAX's
    own checker. Skipped where jax is not installed."""
    jax = pytest.importorskip("jax")
    namespace: dict[str, object] = {"__name__": "program"}
    if run is not None:
        exec(compile(source, "program.py", "exec"), namespace)
    with jax.debug_key_reuse(True):
        try:
            exec(compile(source if run is None else run, "program.py", "exec"), namespace)
        except jax.errors.KeyReuseError:
            return True
    return False
