"""Names whose value the key walk knows for a whole body, and the `if` tests they decide:
module switches bound once (`USE_DROPOUT = False`), and in one function's walk the parameters
no call gives, which hold their default `None` (`key_unset_params.py`). `if not USE_DROPOUT`,
`if max_samples is not None and n > max_samples` and `if DEBUG or verbose` then take one
branch only."""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst


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


def names_tested(function: cst.FunctionDef) -> set[str]:
    """The plain names the tests of the `if`s and `while`s in `function`'s body read."""
    found: set[str] = set()

    class _Tests(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            node.test.visit(names)

        def visit_While(self, node: cst.While) -> None:
            node.test.visit(names)

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    names = _Names()
    function.body.visit(_Tests())
    return found
