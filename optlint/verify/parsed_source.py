"""A source text as the verifier's plans read it: parsed, with positions, parents, numbered
statements and its imports; and what they ask of a call (its last name, an argument)."""

from __future__ import annotations

from typing import TypeVar

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from optlint.analysis.binding import argument as bound_argument
from optlint.analysis.imports import ImportTable
from optlint.edits import line_starts

_Node = TypeVar("_Node", bound=cst.CSTNode)


def last_name(call: cst.Call) -> str:
    func = call.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Call):
        return last_name(func) + "()"
    return ""


class Source:
    """A parsed file with positions, parents, numbered statements and its optax aliases. Built
    on the tree given as is (not a copy), so that the lint's nodes are this source's nodes."""

    def __init__(self, module: cst.Module) -> None:
        self.wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.module = self.wrapper.module
        self.positions = self.wrapper.resolve(PositionProvider)
        self.parents = self.wrapper.resolve(ParentNodeProvider)
        self.statements: list[cst.CSTNode] = []
        self.imports = ImportTable()
        for node in self.positions:
            if isinstance(node, cst.Import):
                self.imports.add_import(node)
            elif isinstance(node, cst.ImportFrom):
                self.imports.add_import_from(node)
            elif isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and not (
                    isinstance(node, cst.SimpleStatementLine)
                    and isinstance(node.body[0], (cst.Import, cst.ImportFrom))):
                self.statements.append(node)
        self.statements.sort(key=lambda n: (self.positions[n].start.line,
                                            self.positions[n].start.column))
        self.number = {id(node): index for index, node in enumerate(self.statements)}
        self._line_starts: list[int] | None = None

    def span(self, node: cst.CSTNode) -> tuple[int, int]:
        """Where the node is in the text: its start and end offsets (end exclusive)."""
        if self._line_starts is None:
            self._line_starts = line_starts(self.module.code)
        where = self.positions[node]
        return (self._line_starts[where.start.line - 1] + where.start.column,
                self._line_starts[where.end.line - 1] + where.end.column)

    def node_at(self, start: int, end: int, kind: type[_Node]) -> _Node | None:
        """A node of type `kind` that spans exactly these offsets."""
        return next((node for node in self.positions if isinstance(node, kind)
                     and self.span(node) == (start, end)), None)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        chain = []
        parent = self.parents.get(node)
        while parent is not None:
            chain.append(parent)
            parent = self.parents.get(parent)
        return chain

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        for candidate in [node, *self.ancestors(node)]:
            if id(candidate) in self.number:
                return candidate
        raise LookupError("no statement")

    def is_optax_call(self, call: cst.Call) -> bool:
        func = call.func
        while isinstance(func, cst.Call):  # `inject_hyperparams(adamw)(...)`
            func = func.func
        return (self.imports.qualify(func) or "").split(".")[0] == "optax"



def argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The expression passed at `position` or as `keyword` (the analysis's binder)."""
    found = bound_argument(call, position, keyword)
    return found.value if found is not None else None
