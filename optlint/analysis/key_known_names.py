"""Names whose value the key walk knows for a whole body, and the `if` tests they decide:
module switches bound once (`USE_DROPOUT = False`), and in one function's walk the parameters
no call gives, which hold their default `None` (`key_unset_params.py`). `if not USE_DROPOUT`,
`if max_samples is not None and n > max_samples` and `if DEBUG or verbose` then take one
branch only."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from optlint.analysis.project_values import names_in
from optlint.analysis.walk import child_nodes


class KnownNames(dict[str, bool]):
    """Truth values by name; `nones`: those of them known to hold `None` itself, parameters
    of `function` that no call gives."""

    nones: frozenset[str] = frozenset()
    function: cst.FunctionDef | None = None


def known_test(test: cst.BaseExpression, constants: Mapping[str, bool]) -> bool | None:
    """The truth of an `if` test made of known names, or None when it is not known."""
    if isinstance(test, cst.Name):
        return constants.get(test.value)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = known_test(test.expression, constants)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        # Each side is evaluated as a whole test: `a and b` is false when either side is.
        left, right = known_test(test.left, constants), known_test(test.right, constants)
        stops = isinstance(test.operator, cst.Or)  # the value that decides the whole
        if left is stops or right is stops:
            return stops
        return None if left is None or right is None else not stops
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        nones = constants.nones if isinstance(constants, KnownNames) else frozenset()
        return _none_comparison(test, nones)
    return None


def _none_comparison(test: cst.Comparison, nones: frozenset[str]) -> bool | None:
    """`x is None` / `x is not None` where `x` is known to hold `None`."""
    target = test.comparisons[0]
    left, right = test.left, target.comparator
    if isinstance(left, cst.Name) and left.value == "None":
        left, right = right, left
    if not (isinstance(left, cst.Name) and left.value in nones
            and isinstance(right, cst.Name) and right.value == "None"):
        return None
    if isinstance(target.operator, cst.Is):
        return True
    if isinstance(target.operator, cst.IsNot):
        return False
    return None


def names_tested(body: cst.CSTNode,
                 worth: Callable[[cst.CSTNode], bool] = lambda branch: True) -> set[str]:
    """The plain names the tests of the `if`s in `body` read (not in functions nested in
    it), of those `if`s one of whose branches is `worth` it (read with `child_nodes`:
    libcst's `visit` rebuilds every node it passes)."""
    found: set[str] = set()
    pending: list[cst.CSTNode] = [body]
    while pending:
        current = pending.pop()
        if type(current) is cst.FunctionDef and current is not body:
            continue  # a nested function's tests are its own
        if type(current) is cst.If and (worth(current.body) or (  # type: ignore[attr-defined]
                current.orelse is not None and worth(current.orelse))):  # type: ignore[attr-defined]
            found.update(name.value for name in names_in(current.test))  # type: ignore[attr-defined]
        pending.extend(child_nodes(current))
    return found
