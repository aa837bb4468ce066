"""The import a fix needs (`import equinox as eqx`), placed where it is bound at run time.

A fix writes `eqx.filter(...)`; the name must be bound when that line runs. An import of equinox
under `if TYPE_CHECKING:` or inside another function binds nothing there, and a top-level import
below the use binds it too late. So the fix's name counts as bound only through a top-level
import above the use (anywhere at top level when the use is inside a function body, which runs
later), and an added import goes after the last top-level import above the use: in a notebook,
in the cell that uses it or an earlier one.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import overload

import libcst as cst
from libcst.metadata import CodeRange

from optlint.diagnostics import Edit, Location


def import_edits(module: cst.Module, positions: Mapping[cst.CSTNode, CodeRange],
                 imports: Sequence[tuple[str, str]], use_line: int,
                 first_party: Callable[[str], bool] = lambda name: False,
                 top: TopLevel | None = None,
                 use_path: Sequence[cst.CSTNode] | None = None) -> list[Edit]:
    """Edits adding each (module, alias) of `imports` not bound at `use_line`, placed as isort
    (ruff's I001) would: among the plain third-party imports, in order of module name, so the
    fix does not fail the project's import-sorting check. `first_party` tells the project's own
    top-level modules. `top`: the module's TopLevel, when the caller asks for several fixes.
    `use_path`: a node at `use_line` and the nodes holding it up to the module, which place the
    use among the statements without their ranges (each costs its statement's code)."""
    top = top if top is not None else TopLevel(module, positions)
    body = top.body
    holding = None
    if use_path is not None and len(use_path) > 1:
        holding = {id(node) for node in use_path[1:]}
        use_index = top.numbers[id(use_path[-2])]
    else:
        use_index = bisect.bisect_left(top.end_lines, use_line)
    later = use_index < len(body) and _inside_function(body[use_index], positions, use_line,
                                                       holding)
    edits = []
    for import_module, alias in imports:
        first = top.first_binding.get((alias, import_module))
        if first is not None and (first < use_index or later):
            continue
        before = bisect.bisect_left(top.import_indices, use_index)
        candidates = [body[number] for number in top.import_indices[:before]]
        line = (_sorted_line(candidates, positions, import_module, first_party)
                or _insertion_line(candidates, positions, body)
                or (positions[body[0]].start.line if body else 1))
        text = f"import {import_module}" + ("" if alias == import_module else f" as {alias}")
        at = Location(line, 1)
        edits.append(Edit(at, at, text + module.default_newline))
    return edits


class TopLevel:
    """What `import_edits` reads of a module's top-level statements, gathered once: a file with
    many fixes would otherwise walk every statement for each of them."""

    def __init__(self, module: cst.Module, positions: Mapping[cst.CSTNode, CodeRange]) -> None:
        self.body = list(module.body)
        self.numbers = {id(statement): number for number, statement in enumerate(self.body)}
        # Non-decreasing: statements follow each other. Each read when the bisection for a
        # use's statement reaches it: positions worked out on demand cost one statement each.
        self.end_lines = _EndLines(self.body, positions)
        self.first_binding: dict[tuple[str, str], int] = {}
        for number, statement in enumerate(self.body):
            for binding in _top_level_bindings(statement):
                self.first_binding.setdefault(binding, number)
        # The statements an added import is placed by: imports, and a docstring first.
        self.import_indices = [
            number for number, statement in enumerate(self.body)
            if isinstance(statement, cst.SimpleStatementLine) and (
                any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
                or (number == 0 and _is_docstring(statement)))]


class _EndLines(Sequence[int]):
    """The last line of each statement of `body`, read when asked for."""

    def __init__(self, body: Sequence[cst.BaseStatement],
                 positions: Mapping[cst.CSTNode, CodeRange]) -> None:
        self._body, self._positions = body, positions

    def __len__(self) -> int:
        return len(self._body)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self._positions[statement].end.line for statement in self._body[index]]
        return self._positions[self._body[index]].end.line


def _is_docstring(statement: cst.SimpleStatementLine) -> bool:
    return (isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.SimpleString))


def _sorted_line(before: Sequence[cst.BaseStatement], positions: Mapping[cst.CSTNode, CodeRange],
                 new: str, first_party: Callable[[str], bool]) -> int | None:
    """Where `import new` goes in the third-party section: before the first plain import of a
    later module name, else after the last plain third-party import, else before the first
    `from` import of the section; None when the file has no third-party import to sort among."""
    plain: list[tuple[str, cst.BaseStatement]] = []
    from_lines: list[cst.BaseStatement] = []
    for statement in before:
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            continue
        small = statement.body[0]
        if isinstance(small, cst.Import) and len(small.names) == 1:
            name = _dotted(small.names[0].name)
            if _third_party(name, first_party):
                plain.append((name, statement))
        elif (isinstance(small, cst.ImportFrom) and not small.relative
              and small.module is not None
              and _third_party(_dotted(small.module), first_party)):
            from_lines.append(statement)
    for name, statement in plain:
        if name.lower() > new.lower():
            return positions[statement].start.line
    if plain:
        return positions[plain[-1][1]].end.line + 1
    if from_lines:
        return positions[from_lines[0]].start.line
    return None


def _third_party(name: str, first_party: Callable[[str], bool]) -> bool:
    top = name.split(".")[0]
    return top != "__future__" and top not in sys.stdlib_module_names and not first_party(top)


def _insertion_line(before: Sequence[cst.BaseStatement],
                    positions: Mapping[cst.CSTNode, CodeRange],
                    body: Sequence[cst.BaseStatement]) -> int | None:
    """The line after the last top-level import (or the module's docstring) among `before`."""
    line = None
    for statement in before:
        assert isinstance(statement, cst.SimpleStatementLine)
        is_import = any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
        is_docstring = statement is body[0] and _is_docstring(statement)
        if is_import or is_docstring:
            line = positions[statement].end.line + 1
    return line


def _top_level_bindings(statement: cst.BaseStatement) -> set[tuple[str, str]]:
    """(local name, module) for each whole-module import the statement runs at top level
    (directly, or in a top-level `try`, which runs as the module is imported)."""
    statements: Sequence[cst.BaseStatement | cst.BaseSmallStatement] = [statement]
    if isinstance(statement, cst.Try):
        statements = statement.body.body
    found = set()
    for line in statements:
        if not isinstance(line, cst.SimpleStatementLine):
            continue
        for small in line.body:
            if not isinstance(small, cst.Import):
                continue
            for alias in small.names:
                full = _dotted(alias.name)
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    found.add((alias.asname.name.value, full))
                elif "." not in full:
                    found.add((full, full))
    return found


def _inside_function(statement: cst.BaseStatement | cst.BaseSmallStatement,
                     positions: Mapping[cst.CSTNode, CodeRange], line: int,
                     holding: set[int] | None = None) -> bool:
    """Whether `line` of top-level `statement` is in a function body (which runs later).
    `holding`: the ids of the nodes holding the use at `line`, where known: an indented body
    holds the use exactly when the use's line is in it (statements of a block never share a
    line)."""
    if isinstance(statement, cst.FunctionDef):
        if holding is not None and isinstance(statement.body, cst.IndentedBlock):
            return id(statement.body) in holding
        return positions[statement.body].start.line <= line
    if isinstance(statement, cst.ClassDef):
        return any(_inside_function(inner, positions, line, holding)
                   for inner in statement.body.body
                   if (id(inner) in holding if holding is not None else
                       positions[inner].start.line <= line <= positions[inner].end.line))
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


def first_party_test(filename: str) -> Callable[[str], bool]:
    """Whether a top-level module name is the project's own, as isort and ruff decide by
    default: a module or package beside the file, or in a `src/` folder above it."""
    folder = Path(filename).resolve().parent
    roots = [folder]
    for parent in folder.parents:  # up to the project's root (a pyproject.toml or .git)
        if any((roots[-1] / marker).exists() for marker in ("pyproject.toml", ".git")):
            break
        roots.append(parent)
    places = roots + [root / "src" for root in roots if (root / "src").is_dir()]

    def test(name: str) -> bool:
        return any((place / f"{name}.py").is_file() or (place / name).is_dir()
                   for place in places)
    return test
