"""What the parts of `Inference` kept in their own modules (helper calls, callers' arguments,
Equinox's leaf model) may ask of the evaluator: declared once, implemented by `Inference`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import Binding, FileIndex, Scope
from optlint.analysis.values import Value

if TYPE_CHECKING:
    from optlint.analysis.project import ProjectIndex


class Evaluator:
    # Set up by Inference.__init__.
    index: FileIndex
    project: ProjectIndex | None
    path: str | None
    # While a helper's return is inferred for one call: its parameters (by the id of their Param
    # node) -> what the call passes them.
    _frame: dict[int, Value]

    def value_of(self, expr: cst.BaseExpression, scope: Scope, order: int) -> Value:
        raise NotImplementedError

    def qualify(self, node: cst.BaseExpression) -> str | None:
        raise NotImplementedError

    def _as_class(self, value: Value) -> Value:
        raise NotImplementedError

    def _binding_value(self, binding: Binding) -> Value:
        raise NotImplementedError

    def _instance_of(self, cls: Value) -> Value:
        raise NotImplementedError

    def _lookup(self, name: str, scope: Scope, order: int) -> Binding | None:
        raise NotImplementedError

    def _imported(self, qualified: str) -> Value:
        raise NotImplementedError
