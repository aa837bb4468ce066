"""The brains' registry: which handler answers a call of which library function."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import Scope
from optlint.analysis.passed import passed_value
from optlint.analysis.values import UNKNOWN, Value
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator


@record
class LibraryCall:
    """A call of library function `name`, and the means to read its arguments."""

    name: str
    call: cst.Call
    scope: Scope
    order: int
    inference: Evaluator

    def arg(self, position: int | None, keyword: str | None) -> cst.Arg | None:
        return argument(self.call, position, keyword)

    def value(self, position: int | None, keyword: str | None) -> Value:
        return passed_value(self.call, position, keyword, self.evaluate)

    def evaluate(self, expr: cst.BaseExpression) -> Value:
        return self.inference.value_of(expr, self.scope, self.order)


Handler = Callable[[LibraryCall], Value]
_BY_NAME: dict[str, Handler] = {}
_BY_PREDICATE: list[tuple[Callable[[str], bool], Handler]] = []


def handles(*names: str) -> Callable[[Handler], Handler]:
    """Register a handler for these qualified names."""
    def register(handler: Handler) -> Handler:
        for name in names:
            _BY_NAME[name] = handler
        return handler
    return register


def handles_matching(predicate: Callable[[str], bool]) -> Callable[[Handler], Handler]:
    """Register a handler for every name `predicate` accepts (asked after the exact names, in
    the order the brains register them)."""
    def register(handler: Handler) -> Handler:
        _BY_PREDICATE.append((predicate, handler))
        return handler
    return register


def library_call(inference: Evaluator, name: str, call: cst.Call, scope: Scope,
                 order: int) -> Value:
    """What calling library function `name` returns; UNKNOWN when no brain knows it."""
    handler = _BY_NAME.get(name)
    if handler is None:
        handler = next((handler for matches, handler in _BY_PREDICATE if matches(name)), None)
    if handler is None:
        return UNKNOWN
    return handler(LibraryCall(name, call, scope, order, inference))
