"""Every Python package under optlint/ ships: a folder left out of pyproject's explicit package
list works in an editable install (the tests, the README's venv) and fails with
ModuleNotFoundError where optlint is installed for real (pre-commit's environment, pip from git)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    folders = {".".join(init.parent.relative_to(REPO).parts)
               for init in (REPO / "optlint").rglob("__init__.py")}
    assert folders - listed == set()
