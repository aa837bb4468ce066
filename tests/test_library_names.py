"""What a rule or the verifier knows about a library is a row in that library's model
(optlint/analysis/...), never a name spelled in the rule: no string in optlint/rules/ or
optlint/verify/ is a library qualified name ("optax.adamw", "equinox.Module") or namespace
("jax.random.")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "optlint"
LIBRARIES = ("optax", "equinox", "jax", "jaxlib", "jaxtyping", "flax", "haiku", "distrax",
             "numpyro", "jaxopt", "chex")
QUALIFIED = re.compile(rf"^({'|'.join(LIBRARIES)})(\.\w+)*\.\w*$")


def spelled(text: str) -> list[tuple[int, str]]:
    """The library names among the module's string constants (docstrings and f-string text
    left out: they describe, they do not look anything up)."""
    tree = ast.parse(text)
    prose = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            prose.add(id(body[0].value))
        if isinstance(node, ast.JoinedStr):
            prose.update(id(part) for part in ast.walk(node))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in prose and QUALIFIED.match(node.value)]


@pytest.mark.parametrize("path", sorted([*(PACKAGE / "rules").rglob("*.py"),
                                         *(PACKAGE / "verify").rglob("*.py")]),
                         ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_library_name_is_spelled_in_rules_or_verify(path: Path) -> None:
    assert spelled(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_names_and_namespaces_not_prose() -> None:
    code = ('"""Flags optax.masked."""\n'
            'A = {"optax.masked", "equinox.Module"}\n'
            'def f(name):\n    """jax.random.split"""\n'
            '    return name.startswith("jax.random.") or f"{name}.optax.x" or "optax"\n')
    assert spelled(code) == [(2, "optax.masked"), (2, "equinox.Module"), (5, "jax.random.")]
