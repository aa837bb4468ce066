"""The walks that ask `Kinds` first which way to read a node, then test it with `isinstance`:
every class a walk tests must be one of its kinds, or the walk reads that node through its
children without ever reaching the test (a branch added to the walk and not to its kinds)."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap

import libcst as cst
import pytest

from optlint.analysis.walk import Kinds

# (module, function, the Kinds it asks first)
WALKS = [
    ("optlint.analysis.key_name_reads", "_collect_reads", "_READ_KINDS"),
    ("optlint.analysis.key_locals", "function_locals", "_LOCALS_KINDS"),
    ("optlint.analysis.key_expressions", "KeyExpressions._expr", "EXPRESSION_KINDS"),
]


def _compared_kinds(function: object) -> set[str]:
    """The kind names the function compares `kind` with (`kind == "call"`)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    return {side.value for compare in ast.walk(tree) if isinstance(compare, ast.Compare)
            and isinstance(compare.left, ast.Name) and compare.left.id == "kind"
            for side in compare.comparators if isinstance(side, ast.Constant)}


def _tested_classes(function: object, namespace: dict[str, object]) -> set[type]:
    """The classes `isinstance(node, ...)` tests in the function's source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    found: set[type] = set()
    for call in ast.walk(tree):
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "isinstance" and isinstance(call.args[0], ast.Name)
                and call.args[0].id == "node"):
            tested = eval(ast.unparse(call.args[1]), namespace)  # noqa: S307 - our own source
            found.update(tested if isinstance(tested, tuple) else (tested,))
    return found


@pytest.mark.parametrize(("module_name", "function_name", "kinds_name"), WALKS)
def test_every_class_a_walk_tests_is_a_kind(module_name: str, function_name: str,
                                            kinds_name: str) -> None:
    module = importlib.import_module(module_name)
    function: object = module
    for part in function_name.split("."):
        function = getattr(function, part)
    kinds = getattr(module, kinds_name)
    tested = _tested_classes(function, vars(module))
    compared = _compared_kinds(function)
    assert tested or compared, "the walk tests nothing: the check reads the wrong function"
    missing = {cls.__name__ for cls in tested
               if not any(issubclass(cls, kind) for kind in kinds.classes)}
    assert not missing
    assert compared <= set(kinds.names)


def test_kinds_are_tested_in_order_and_through_base_classes() -> None:
    kinds = Kinds(("call", cst.Call), ("expression", cst.BaseExpression))
    assert kinds(cst.Call(cst.Name("f"))) == "call"
    assert kinds(cst.Name("x")) == "expression"
    assert kinds(cst.Pass()) == Kinds.OTHER
    assert kinds(cst.Name("y")) == "expression"  # the type's answer, kept
