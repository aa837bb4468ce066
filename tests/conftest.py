"""Shared helpers: run the real `optlint` CLI in a subprocess."""

from __future__ import annotations

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
