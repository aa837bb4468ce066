"""The layers of optlint and what each may import: the engine lints a program and knows no file
formats; the notebook format knows no engine; the analysis knows no rules, engine or verifier;
the rules know no engine, verifier or cache; the verifier knows no `check` runner; and no module
imports itself back through others.

Imports are read from the modules' syntax trees (every import, in functions and under
`TYPE_CHECKING` too), so a late or type-only import that would bring a cycle back fails here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "optlint"

# module -> modules it must not import (directly, by any form of import)
FORBIDDEN = {
    "optlint.engine": {"optlint.notebook"},
    "optlint.notebook": {"optlint.engine", "optlint.sources", "optlint.runner", "optlint.cli"},
    "optlint.sources": {"optlint.engine"},
}


# package -> packages and modules no module of it may import
LAYERS = {
    "optlint.analysis": ("optlint.rules", "optlint.engine", "optlint.verify"),
    "optlint.rules": ("optlint.engine", "optlint.verify", "optlint.cache"),
    "optlint.verify": ("optlint.runner",),
}

def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports."""
    known = modules()
    graph = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        graph[name] = {other for other in imports_in(path.read_text(), package)
                       if other in known and other != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in order:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in order:
                    order[step] = low[step] = len(order)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], order[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


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


@pytest.mark.parametrize("layer", list(LAYERS))
def test_each_layer_keeps_to_its_contract(layer: str) -> None:
    graph = import_graph()
    banned = LAYERS[layer]
    crossing = {module: sorted(other for other in imports if other.startswith(banned))
                for module, imports in graph.items()
                if module == layer or module.startswith(layer + ".")}
    assert {module: names for module, names in crossing.items() if names} == {}


def test_no_import_cycles() -> None:
    assert [sorted(cycle) for cycle in cycles(import_graph())] == []


def test_the_cycle_check_finds_type_only_cycles() -> None:
    code = {"a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from b import B\n",
            "b": "import c\n", "c": "def late():\n    import b\n", "d": "import a\n"}
    graph = {name: {n for n in imports_in(text, "") if n in code} for name, text in code.items()}
    assert [sorted(cycle) for cycle in cycles(graph)] == [["b", "c"]]
    graph["b"].add("a")
    assert [sorted(cycle) for cycle in cycles(graph)] == [["a", "b", "c"]]


def test_no_module_is_over_500_lines() -> None:
    # Short modules with one job each (issue 23): a module that grows past this is split.
    long = {name: lines for name, path in modules().items()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 500}
    assert long == {}
