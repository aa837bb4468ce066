"""What the evaluator answers, and what it asks of the project: the two protocols every other
part of the analysis is written against (the brains, the evaluator's collaborators, the rules),
so none of them imports the evaluator itself (`inference.py`) and no import circle forms.

Values are plain data (`values.py`): a class or instance of the checked code names the file it
is defined in, and `evaluator_for` finds that file's evaluator through the project."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, Protocol
from weakref import ReferenceType

import libcst as cst

from optlint.analysis.binding import FunctionNode
from optlint.analysis.index import Binding, CallSite, ClassInfo, FileIndex, Scope
from optlint.analysis.values import ClassRef, FunctionValue, Leaves, Value

__all__ = ["Evaluator", "FunctionNode", "Invocation", "Project", "owned_by"]


class Invocation(NamedTuple):
    """A call that runs a function: the file that holds it (its evaluator found through the
    project), the call, and whether it goes through a bound method (`self.step(x)`), whose first
    parameter the object fills."""

    path: str | None
    site: CallSite
    bound: bool


class Project(Protocol):
    """The checked project, as the evaluator sees it (`project.py` implements it)."""

    following: int  # calls being followed into other files right now (a depth guard)

    def resolve_class(self, qualified: str, from_file: str | None, hops: int = 0,
                      gated: bool = True) -> tuple[ClassInfo, Evaluator] | None: ...

    def resolve_function(self, qualified: str, from_file: str | None,
                         arguments_reach: Callable[[], bool]
                         ) -> tuple[FunctionValue, Evaluator] | None: ...

    def invocations_elsewhere(self, function: cst.FunctionDef, path: str,
                              constructed: str | None = None,
                              called: str | None = None) -> list[Invocation] | None: ...

    def evaluator_for(self, path: str) -> Evaluator | None: ...

    def project_files(self, module: str, from_file: str) -> list[Path]: ...

    def module_text(self, path: Path) -> str | None: ...

    def project_texts(self) -> dict[Path, str] | None: ...

    def real_path(self, path: str | Path) -> Path: ...

    def depends_on(self, word: str) -> None: ...


class Evaluator(Protocol):
    """What an expression of one file is known to be (`inference.Inference` implements it)."""

    index: FileIndex
    project: Project | None
    path: str | None

    # Python --------------------------------------------------------------------------------
    def value_of(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Value: ...

    def value_of_binding(self, binding: Binding) -> Value: ...

    def qualify(self, node: cst.BaseExpression) -> str | None: ...

    def lookup(self, name: str, scope: Scope, order: int) -> Binding | None: ...

    def as_class(self, value: Value) -> Value: ...

    def instance_of(self, cls: Value) -> Value: ...

    def evaluator_for(self, path: str | None) -> Evaluator:
        """The evaluator of the file `path` (a value's defining file): this one for its own."""
        ...

    # helper returns and callers' arguments ------------------------------------------------
    # While a helper's return is inferred for one call: its parameters (by the id of their Param
    # node) -> what the call passes them; empty outside helpers.
    frame: dict[int, Value]

    def in_frame(self, frame: dict[int, Value], compute: Callable[[], Value]) -> Value:
        """`compute()` with the parameters bound as `frame` says (answers under it are memoised
        apart: they hold for that call alone)."""
        ...

    def returned(self, function: FunctionValue, passed: dict[int, Value] | None = None
                 ) -> Value: ...

    def invocations_of(self, function: FunctionNode) -> list[Invocation] | None: ...

    def call_names(self) -> tuple[dict[str, list[CallSite]], dict[str, list[str]]]: ...

    def uses_more_than(self, word: str, limit: int, skip_imports: bool = False) -> bool:
        """Whether `word` stands as a word in the file more than `limit` times, comments left
        out (and import lines with `skip_imports`); the text is cleaned only where it must be
        (word_counts.py)."""
        ...

    def file_text(self) -> str: ...

    # classes and Equinox leaves -------------------------------------------------------------
    def attribute_of_class(self, info: ClassInfo, attr: str) -> Value: ...

    def is_equinox_module(self, info: ClassInfo) -> bool: ...

    def is_module(self, cls: ClassRef) -> bool:
        """Whether a class of the project (in this file or another) is an Equinox module."""
        ...

    def class_leaves(self, info: ClassInfo) -> Leaves: ...

    def class_is_callable(self, info: ClassInfo) -> bool | None: ...

    def field_holds_arrays(self, info: ClassInfo, name: str) -> bool | None: ...

    def field_value(self, info: ClassInfo, name: str) -> Value | Leaves: ...


def owned_by(reference: ReferenceType[Evaluator]) -> Evaluator:
    """The evaluator a collaborator belongs to. Collaborators hold it by a weak reference, so a
    file's evaluator is freed by reference counting as soon as its file is done (no cycle left
    for the collector, which the lint run pauses)."""
    evaluator = reference()
    assert evaluator is not None, "a collaborator outlived its evaluator"
    return evaluator
