"""Parameters a call leaves unread because every read lies on a branch its literal arguments
rule out: `step(state, out, t, sample, key)` where `def step(..., key, eta=0.0)` draws from
`key` only `if eta > 0:`. The call passes no `eta`, so `eta` is the literal default `0.0`, the
test is false on every run of that call, and the key reaches nothing through it.

Only what the code proves counts: a parameter's value is a literal the call passes, or the
literal default of a parameter the call does not pass (a call with `*args`/`**kwargs` passes
anything); a parameter the function binds anew anywhere is unknown; a test is evaluated only
from literals, those parameters, comparisons, `not`, `and`/`or`. Anything else may take either
branch, so its reads count.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator
from typing import Any

import libcst as cst

from optlint.analysis.binding import bind_arguments, positional_params
from optlint.analysis.walk import child_nodes

_UNKNOWN = object()  # a value the code does not prove
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    cst.Equal: operator.eq, cst.NotEqual: operator.ne, cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le, cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge, cst.Is: operator.is_, cst.IsNot: operator.is_not,
}
_CONSTANTS = {"True": True, "False": False, "None": None}
# By function: the parameters its `if` tests (and conditional expressions) name, and those it
# binds anew; both read once per function.
_Facts = tuple[frozenset[str], frozenset[str]]


class LiteralBranches:
    """Which parameters a call leaves unread (`unread_params`), with each function's facts kept
    while the file is checked (by node: the functions stay alive with their trees)."""

    def __init__(self) -> None:
        self._facts: dict[int, tuple[cst.FunctionDef, _Facts]] = {}

    def unread_params(self, function: cst.FunctionDef, call: cst.Call, bound: bool,
                      params: set[str]) -> frozenset[str]:
        """Those of `params` that every read of lies on a branch the call's literal arguments
        rule out (a parameter never read is not among them: that is another question)."""
        tested, rebound = self._function_facts(function)
        if not tested:
            return frozenset()
        values = _literal_values(function, call, bound, tested - rebound)
        if not values:
            return frozenset()
        unread = set()
        for param in params - rebound:
            reads = list(_live_reads(function.body, param, values))
            if not reads and any(True for _ in _all_reads(function.body, param)):
                unread.add(param)
        return frozenset(unread)

    def unread_fields(self, function: cst.FunctionDef, call: cst.Call,
                      fields: set[str]) -> frozenset[str]:
        """Those of `fields` of the method's object (`self.rng`) that every read of lies on a
        branch `call`'s literal arguments rule out (`_fc_block(x, dropout=False)` where the
        method reads `self.rng` only `if dropout:`)."""
        params = positional_params(function)
        tested, rebound = self._function_facts(function)
        if not tested or not params or params[0].name.value in rebound:
            return frozenset()
        values = _literal_values(function, call, True, tested - rebound)
        if not values:
            return frozenset()
        receiver = params[0].name.value
        return frozenset(
            field for field in fields
            if not any(True for _ in _live_reads(function.body, receiver, values, field))
            and any(True for _ in _live_reads(function.body, receiver, {}, field)))

    def _function_facts(self, function: cst.FunctionDef) -> _Facts:
        known = self._facts.get(id(function))
        if known is None:
            names = {param.name.value for param in (
                *positional_params(function), *function.params.kwonly_params)}
            tested: set[str] = set()
            rebound: set[str] = set()
            _note_facts(function.body, names, tested, rebound)
            known = self._facts[id(function)] = (function, (frozenset(tested),
                                                            frozenset(rebound)))
        return known[1]


# By exact type (libcst's are final; `isinstance` on its ABCs costs a call per node).
_TESTS = frozenset({cst.If, cst.IfExp})
_BINDERS = frozenset({cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor,
                      cst.NamedExpr, cst.AsName, cst.Del})
_DECLARATIONS = frozenset({cst.Global, cst.Nonlocal})


def _note_facts(node: cst.CSTNode, names: set[str], tested: set[str], rebound: set[str]) -> None:
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        kind = type(current)
        if kind in _TESTS:
            tested.update(name.value for name in _names(current.test)  # type: ignore[attr-defined]
                          if name.value in names)
        elif kind in _BINDERS:
            targets = (
                [target.target for target in current.targets] if isinstance(current, cst.Assign)
                else [current.name] if isinstance(current, cst.AsName)
                else [current.target])  # type: ignore[attr-defined]
            for target in targets:
                rebound.update(name.value for name in _names(target) if name.value in names)
        elif kind in _DECLARATIONS:
            rebound.update(item.name.value for item in current.names  # type: ignore[attr-defined]
                           if item.name.value in names)
        pending.extend(child_nodes(current))


def _names(node: cst.CSTNode) -> Iterator[cst.Name]:
    pending = [node]
    while pending:
        current = pending.pop()
        kind = type(current)
        if kind is cst.Name:
            yield current  # type: ignore[misc]
        elif kind is cst.Attribute:
            pending.append(current.value)  # type: ignore[attr-defined]
        else:
            pending.extend(child_nodes(current))


def _literal_values(function: cst.FunctionDef, call: cst.Call, bound: bool,
                    wanted: frozenset[str]) -> dict[str, object]:
    """The literal value of each of `wanted` at `call`: passed as a literal, or left to its
    literal default. A call with `*args` or `**kwargs` may pass any of them: none is known."""
    if not wanted or any(arg.star for arg in call.args):
        return {}
    passed = {param.name.value: expr for param, expr in bind_arguments(function, call, bound)}
    values: dict[str, object] = {}
    for param in (*positional_params(function), *function.params.kwonly_params):
        name = param.name.value
        if name not in wanted:
            continue
        expr = passed.get(name, param.default)
        value = _literal(expr) if expr is not None else _UNKNOWN
        if value is not _UNKNOWN:
            values[name] = value
    return values


def _literal(node: cst.BaseExpression) -> object:
    if isinstance(node, cst.Name):
        return _CONSTANTS.get(node.value, _UNKNOWN)
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)) or (
            isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
            and isinstance(node.expression, (cst.Integer, cst.Float))):
        try:
            return ast.literal_eval(cst.Module([]).code_for_node(node))
        except (ValueError, SyntaxError):
            return _UNKNOWN
    return _UNKNOWN


def _value(node: cst.BaseExpression, values: dict[str, object]) -> object:
    """What `node` evaluates to from literals and the known parameters (`_UNKNOWN`: not
    proven)."""
    if isinstance(node, cst.Name) and node.value in values:
        return values[node.value]
    literal = _literal(node)
    if literal is not _UNKNOWN:
        return literal
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = _value(node.expression, values)
        return _UNKNOWN if inner is _UNKNOWN else not inner
    if isinstance(node, cst.BooleanOperation):
        left = _value(node.left, values)
        is_and = isinstance(node.operator, cst.And)
        if left is not _UNKNOWN and bool(left) != is_and:
            return left  # `False and ...`, `True or ...`: decided by the left side
        right = _value(node.right, values)
        if left is _UNKNOWN:
            # `... and False` is false, `... or True` true, whatever the left side.
            return right if right is not _UNKNOWN and bool(right) != is_and else _UNKNOWN
        return right
    if isinstance(node, cst.Comparison):
        left = _value(node.left, values)
        for target in node.comparisons:
            compare = _COMPARE.get(type(target.operator))
            right = _value(target.comparator, values)
            if compare is None or left is _UNKNOWN or right is _UNKNOWN:
                return _UNKNOWN
            try:
                if not compare(left, right):
                    return False
            except TypeError:  # `None > 0`: raises when run, not a branch either way
                return _UNKNOWN
            left = right
        return True
    return _UNKNOWN


def _live_reads(node: cst.CSTNode, name: str, values: dict[str, object],
                field: str | None = None) -> Iterator[cst.CSTNode]:
    """The reads of `name` (with `field`: of `name.field`) under `node` outside the branches
    the known values rule out."""
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, (cst.If, cst.IfExp)):
            test = _value(current.test, values)
            pending.append(current.test)
            otherwise = current.orelse
            if test is _UNKNOWN or test:
                pending.append(current.body)
            if (test is _UNKNOWN or not test) and otherwise is not None:
                pending.append(otherwise)
            continue
        if isinstance(current, cst.Name):
            if current.value == name and field is None:
                yield current
        elif (isinstance(current, cst.Attribute) and field is not None
              and current.attr.value == field and isinstance(current.value, cst.Name)
              and current.value.value == name):
            yield current
        elif isinstance(current, (cst.Attribute, cst.Arg)):
            pending.append(current.value)  # not an attribute's name nor a keyword
        else:
            pending.extend(child_nodes(current))


def _all_reads(node: cst.CSTNode, name: str) -> Iterator[cst.CSTNode]:
    return _live_reads(node, name, {})
