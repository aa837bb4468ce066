"""CI's `ruff check optlint/` reaches every module of the package: an exclude meant for the
top-level rule pages (`rules/`) once matched `optlint/rules/` too and hid its warnings."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


def test_ruff_checks_every_module_of_the_package() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (the test extra installs it)")
    listed = subprocess.run([ruff, "check", "--show-files", "optlint"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout
    checked = {Path(line.strip()).resolve() for line in listed.splitlines() if line.strip()}
    modules = {path.resolve() for path in (REPO / "optlint").rglob("*.py")}
    assert modules - checked == set()
