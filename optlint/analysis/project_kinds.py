"""The values `ProjectValues` (`project_values.py`) gives: a project file, a function, a class,
an instance of one; and whether a function's decorators pass its arguments on unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_objects import PASSING_TRANSFORMS
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.analysis.passing_decorators import passing_decorator_name
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.analysis.index import CallSite, ClassInfo, FileIndex

METHOD_KINDS = frozenset({"classmethod", "staticmethod"})


def method_kinds(function: cst.FunctionDef) -> frozenset[str]:
    """The method kinds its decorators make of a `def` in a class body (`@staticmethod`,
    `@classmethod`, by their bare names); empty for a plain method."""
    return frozenset(d.decorator.value for d in function.decorators
                     if isinstance(d.decorator, cst.Name) and d.decorator.value in METHOD_KINDS)


@record
class ProjectFile:
    """One project file: its evaluator (lookups, imports) and its calls by node."""

    evaluator: Evaluator
    sites: dict[int, CallSite]

    @property
    def index(self) -> FileIndex:
        return self.evaluator.index


@record
class ProjectFunction:
    node: cst.FunctionDef
    file: ProjectFile
    skipped: int = 0  # leading parameters the call does not give (`self`, `cls`)
    cls: ClassInfo | None = None  # for a classmethod: the class it is called on
    cls_file: ProjectFile | None = None


@record
class ProjectClass:
    info: ClassInfo
    file: ProjectFile


@record
class ProjectInstance:
    info: ClassInfo
    file: ProjectFile


class Pending:
    """A binding's value asked while it is being resolved (`config = config.replace(...)`)."""


PENDING = Pending()
ProjectValue = ProjectFunction | ProjectClass | ProjectInstance | Pending | None


def plain_decorators(function: ProjectFunction) -> bool:
    """Every decorator of the function passes its arguments on unchanged (`jax.jit`,
    `partial(jax.vmap, in_axes=...)`, `classmethod`)."""
    imports = function.file.index.imports
    for decorator in function.node.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            qualified = imports.qualify(expr.func)
            if qualified == FUNCTOOLS_PARTIAL and expr.args:
                qualified = imports.qualify(expr.args[0].value)
            if qualified not in PASSING_TRANSFORMS:
                return False
        elif not (imports.qualify(expr) in PASSING_TRANSFORMS
                  or decorator_name(expr) in METHOD_KINDS
                  or passing_decorator_name(expr, function.file.index)):
            return False
    return True


def decorator_name(expr: cst.BaseExpression) -> str | None:
    return expr.value if isinstance(expr, cst.Name) else None
