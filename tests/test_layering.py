"""The engine lints a program and knows no file formats; the notebook format knows no engine.

Imports are read from the modules' syntax trees (every import, in functions and under
`TYPE_CHECKING` too), so a late import that would bring the old cycle back fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "optlint"

# module -> modules it must not import (directly, by any form of import)
FORBIDDEN = {
    "optlint.engine": {"optlint.notebook"},
    "optlint.notebook": {"optlint.engine", "optlint.sources", "optlint.runner", "optlint.cli"},
    "optlint.sources": {"optlint.engine"},
}


def imported(module: str) -> set[str]:
    path = PACKAGE.parent / (module.replace(".", "/") + ".py")
    return imports_in(path.read_text(), module.rsplit(".", 1)[0])


def imports_in(text: str, package: str) -> set[str]:
    """Every module the code names in an import statement (`from a import b` gives `a` and
    `a.b`, since `b` may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, one level up per extra dot
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("module", list(FORBIDDEN))
def test_layers_do_not_import_each_other(module: str) -> None:
    assert imported(module) & FORBIDDEN[module] == set()


def test_the_check_sees_late_aliased_and_relative_imports() -> None:
    code = ("from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from .engine import Linter\n"
            "def late():\n    import optlint.notebook as nb\n"
            "from . import runner\n")
    assert {"optlint.engine", "optlint.notebook", "optlint.runner"} <= imports_in(code, "optlint")
