"""Names a function reads only for their shape, and only in checks (`assert x.shape == s`,
`chex.assert_shape(x, s)`): wherever such a name is bound (in a loop body, a branch), its values
reach no result, since a draw's shape is the same for every key. A shape kept (returned, printed,
assigned, tested by an `if`) still counts as a result, as it does for `UnreadResults`."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from optlint.analysis.key_name_reads import FileReads, checks_only, reads_in


def only_checked_shapes(name: str, root: Sequence[cst.BaseStatement],
                        shared: FileReads) -> bool:
    """`name`'s values are read nowhere in `root` (a function's body), and every statement
    reading its `.shape`/`.dtype`/`.ndim` is a line of checks."""
    if any(name in reads_in(statement, shared) for statement in root):
        return False
    return all(_checked_only(statement, name, shared) for statement in root)


def _checked_only(statement: cst.CSTNode, name: str, shared: FileReads) -> bool:
    if name not in reads_in(statement, shared, shapes=True):
        return True
    if isinstance(statement, cst.SimpleStatementLine):
        return checks_only(statement)
    if not isinstance(statement, (cst.If, cst.For, cst.While, cst.Try, cst.With)):
        return False  # a nested function or class, a `match`: read as a whole
    if any(name in reads_in(part, shared, shapes=True) for part in _headers(statement)):
        return False  # a shape tested or looped over decides what runs
    return all(_checked_only(inner, name, shared) for inner in _blocks(statement))


def _headers(statement: cst.If | cst.For | cst.While | cst.Try | cst.With) -> list[cst.CSTNode]:
    """What `statement` evaluates besides its blocks."""
    if isinstance(statement, (cst.If, cst.While)):
        return [statement.test]
    if isinstance(statement, cst.For):
        return [statement.iter]
    if isinstance(statement, cst.With):
        return list(statement.items)
    return [handler.type for handler in statement.handlers if handler.type is not None]


def _blocks(statement: cst.If | cst.For | cst.While | cst.Try | cst.With
            ) -> list[cst.BaseStatement]:
    """The statements of the blocks `statement` holds (an `elif` as a statement of its own)."""
    found: list[cst.BaseStatement] = []
    parts: list[cst.CSTNode | None] = [statement.body, getattr(statement, "orelse", None),
                                       getattr(statement, "finalbody", None),
                                       *getattr(statement, "handlers", ())]
    for part in parts:
        if isinstance(part, cst.If):
            found.append(part)
        elif isinstance(part, (cst.Else, cst.Finally, cst.ExceptHandler)):
            parts.append(part.body)
        elif isinstance(part, cst.IndentedBlock):
            found.extend(part.body)
    return found
