"""The import a fix needs (`import equinox as eqx`), placed where it is bound at run time.

A fix writes `eqx.filter(...)`; the name must be bound when that line runs. An import of equinox
under `if TYPE_CHECKING:` or inside another function binds nothing there, and a top-level import
below the use binds it too late. So the fix's name counts as bound only through a top-level
import above the use (anywhere at top level when the use is inside a function body, which runs
later), and an added import goes after the last top-level import above the use: in a notebook,
in the cell that uses it or an earlier one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst
from libcst.metadata import CodeRange

from optlint.diagnostics import Edit, Location


def import_edits(module: cst.Module, positions: Mapping[cst.CSTNode, CodeRange],
                 imports: Sequence[tuple[str, str]], use_line: int) -> list[Edit]:
    """Edits adding each (module, alias) of `imports` not bound at `use_line`."""
    body = list(module.body)
    use_index = next((number for number, statement in enumerate(body)
                      if positions[statement].end.line >= use_line), len(body))
    later = use_index < len(body) and _inside_function(body[use_index], positions, use_line)
    bound = {binding for number, statement in enumerate(body)
             if number < use_index or later for binding in _top_level_bindings(statement)}
    edits = []
    for import_module, alias in imports:
        if (alias, import_module) in bound:
            continue
        line = _insertion_line(body[:use_index], positions) or (
            positions[body[0]].start.line if body else 1)
        text = f"import {import_module}" + ("" if alias == import_module else f" as {alias}")
        at = Location(line, 1)
        edits.append(Edit(at, at, text + module.default_newline))
    return edits


def _insertion_line(before: Sequence[cst.BaseStatement],
                    positions: Mapping[cst.CSTNode, CodeRange]) -> int | None:
    """The line after the last top-level import (or the docstring) among `before`."""
    line = None
    for number, statement in enumerate(before):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        is_import = any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
        is_docstring = (number == 0 and isinstance(statement.body[0], cst.Expr)
                        and isinstance(statement.body[0].value, cst.SimpleString))
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


def _inside_function(statement: cst.BaseStatement | cst.BaseSmallStatement, positions: Mapping[cst.CSTNode, CodeRange],
                     line: int) -> bool:
    """Whether `line` of top-level `statement` is in a function body (which runs later)."""
    if isinstance(statement, cst.FunctionDef):
        return positions[statement.body].start.line <= line
    if isinstance(statement, cst.ClassDef):
        return any(_inside_function(inner, positions, line) for inner in statement.body.body
                   if positions[inner].start.line <= line <= positions[inner].end.line)
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""
