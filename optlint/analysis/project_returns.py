"""What a call of a project function gives back, for `ProjectValues`: what every `return` gives
when all give the same (`returned_value`), and one item of a returned tuple
(`env, params = make_env("Pendulum-v1")`: `unpacked_value`), the same item of every `return`,
each a tuple written out. A string given literally to the function (or handed down from its
caller's literal) is held in its frame, so a library factory a few calls down
(`library_factories.py`) still sees which object it makes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import libcst as cst

from optlint.analysis.library_factories import FACTORY_BY_NAME
from optlint.analysis.project_kinds import (
    ProjectClass,
    ProjectFile,
    ProjectFunction,
    ProjectInstance,
    ProjectValue,
    plain_decorators,
)
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.analysis.index import Binding, Scope

Frame = dict[str, object]


class ProjectValues(Protocol):
    """What this module asks of `project_values.ProjectValues`."""

    def evaluate(self, expr: cst.BaseExpression, frame: Frame | None, file: ProjectFile,
                 steps: int, scope: Scope | None = None, order: int = 1 << 30
                 ) -> ProjectValue: ...

    def imported(self, qualified: str, file: ProjectFile, steps: int) -> ProjectValue: ...

# The frame entry that says, for `super()`, which class's method runs, for which class.
SUPER = "super()"
SCOPE = "<scope>"  # the frame entry naming the scope whose parameters the frame holds


def returned_value(values: ProjectValues, function: ProjectFunction, steps: int,
                   call: cst.Call | None = None, caller: Frame | None = None) -> ProjectValue:
    """What every `return` of `function` gives, when all give the same thing: `cls(...)`
    of a classmethod, a `def` nested in it."""
    frame = _frame(values, function, call, caller)
    if frame is None:
        return None
    returns = function.file.index.functions[function.node].returns
    return _same([values.evaluate(value, frame, function.file, steps) for value in returns])


def unpacked_value(values: ProjectValues, binding: Binding, file: ProjectFile, steps: int,
                   frame: Frame | None) -> ProjectValue:
    """The item `binding.path` of a tuple written out, or of what its call returns: an instance
    a library factory makes for a literal (a row of `library_factories.py`), or the same item of
    every tuple a project function returns."""
    call = binding.value
    if binding.scope is None:
        return None
    if isinstance(call, (cst.Tuple, cst.List)):  # `env, params = Env(), None`
        item = _item(call, binding.path)
        return None if item is None else values.evaluate(
            item, frame, file, steps - 1, binding.scope, binding.order)
    if not isinstance(call, cst.Call):
        return None
    made = _factory_made(values, call, binding.path, file, steps, frame)
    if made is not None:
        return made
    called = values.evaluate(call.func, frame, file, steps - 1, binding.scope, binding.order)
    if not isinstance(called, ProjectFunction) or not plain_decorators(called):
        return None
    inner = _frame(values, called, call, frame)
    if inner is None:
        return None
    items = []
    for returned in called.file.index.functions[called.node].returns:
        item = _item(returned, binding.path)
        if item is None:
            return None
        items.append(values.evaluate(item, inner, called.file, steps - 1))
    return _same(items)


def _factory_made(values: ProjectValues, call: cst.Call, path: tuple[int, ...],
                  file: ProjectFile, steps: int, frame: Frame | None) -> ProjectValue:
    row = FACTORY_BY_NAME.get(file.index.imports.qualify(call.func) or "")
    if row is None or row.path != path:
        return None
    given = _given(call, row.position, row.keyword)
    literal = None if given is None else _literal(given, frame)
    made = None if literal is None else row.class_of_made.get(literal)
    if made is None:
        return None
    cls = values.imported(made, file, steps - 1)  # a class of the project only
    return ProjectInstance(cls.info, cls.file) if isinstance(cls, ProjectClass) else None


def _frame(values: ProjectValues, function: ProjectFunction, call: cst.Call | None,
           caller: Frame | None) -> Frame | None:
    """The frame a call of `function` runs in: its scope, the class a classmethod is called on,
    and the strings given literally; None for a function that yields or returns nothing."""
    info = function.file.index.functions.get(function.node)
    if info is None or not info.returns or _yields(function.node):
        return None
    frame: Frame = {SCOPE: info.scope}
    params = function.node.params.params
    if function.cls is not None and function.cls_file is not None and params:
        dynamic = ProjectClass(function.cls, function.cls_file)
        frame[params[0].name.value] = dynamic
        if info.scope.owner is not None:
            frame[SUPER] = (info.scope.owner, dynamic)
    if call is not None:
        frame.update(_literals(function, call, caller))
    return frame


def _literals(function: ProjectFunction, call: cst.Call, caller: Frame | None
              ) -> dict[str, str]:
    """The parameters `call` gives a string literal (or a string its caller's frame holds)."""
    params = function.node.params
    positional = [*params.posonly_params, *params.params]
    found: dict[str, str] = {}
    place = function.skipped
    for arg in call.args:
        if arg.star:
            break  # the places after it are not known
        literal = _literal(arg.value, caller)
        if arg.keyword is not None:
            if literal is not None:
                found[arg.keyword.value] = literal
            continue
        if place < len(positional) and literal is not None:
            found[positional[place].name.value] = literal
        place += 1
    return found


def _literal(expr: cst.BaseExpression, frame: Frame | None) -> str | None:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(expr, cst.Name) and frame is not None:
        held = frame.get(expr.value)
        return held if isinstance(held, str) else None
    return None


def _given(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in positional[:position + 1]) or position >= len(positional):
        return None
    return positional[position].value


def _item(expr: cst.BaseExpression, path: tuple[int, ...]) -> cst.BaseExpression | None:
    """The item at `path` of a tuple written out (`return env, params`), nested as the path."""
    for place in path:
        if not isinstance(expr, (cst.Tuple, cst.List)):
            return None
        elements = expr.elements
        if any(isinstance(element, cst.StarredElement) for element in elements[:place + 1]) \
                or place >= len(elements):
            return None
        expr = elements[place].value
    return expr


def _same(found: list[ProjectValue]) -> ProjectValue:
    if not found:
        return None
    first = found[0]
    if first is None or any(value != first for value in found[1:]):
        return None
    return first


def _yields(function: cst.FunctionDef) -> bool:
    pending: list[cst.CSTNode] = [function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, (cst.Yield, cst.Await)):
            return True
        if not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            pending.extend(child_nodes(node))
    return False
