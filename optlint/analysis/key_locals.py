"""The names a function binds itself, which are not the names of the scope around it: what a
nested function reads of its own locals is no read of the enclosing function's names."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.key_syntax import parameter_names, target_names
from optlint.analysis.walk import Kinds, child_nodes

# The nodes `function_locals` reads a binding or a declaration from, or does not enter; it
# walks any other through its children.
_LOCALS_KINDS = Kinds(("binding", (
    cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.AsName,
    cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal)))


def function_locals(function: cst.FunctionDef | cst.Lambda) -> set[str]:
    """The names a function binds itself: its parameters and what its body assigns (not
    what it declares `global`/`nonlocal`, nor what its nested functions bind)."""
    bound = parameter_names(function.params)
    declared: set[str] = set()

    def visit(node: cst.CSTNode) -> None:
        if _LOCALS_KINDS(node) == Kinds.OTHER:
            for child in child_nodes(node):
                visit(child)
            return
        if isinstance(node, (cst.Assign,)):
            for target in node.targets:
                bound.update(target_names(target.target))
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor,
                               cst.NamedExpr)):
            bound.update(target_names(node.target))
        elif isinstance(node, cst.AsName):
            bound.update(target_names(node.name))
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            bound.add(node.name.value)
            return
        elif isinstance(node, cst.Lambda):
            return
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            declared.update(item.name.value for item in node.names)
        for child in child_nodes(node):
            visit(child)
    visit(function.body)
    return bound - declared
