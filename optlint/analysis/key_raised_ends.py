"""A draw whose values a function only passes on to names of its own before a statement of its
top block that must raise (`ProvenRaises`: a test written against an older version of its
package calls a function the package no longer has): the function ends there with the error,
so its draws reach no result (annotated-s4's `test_ssm` draws `B` and `C` from one key, feeds
them to `discretize` and `K_conv`, then dies on `s4.convFromGen` before its first assertion).

Followed from the draw's statement to the first raising line of the function's own block (no
`try` or `with` around it): every line between that reads what the draw gave must be plain
assignments to names, which then count as drawn too, as `UnreadResults` counts names that
only feed names nothing reads; any other read (a call made for its effect, a `return`, an
attribute or item stored, a compound statement) is a read. The raising line may give drawn
names only as whole arguments of its calls: they reach a function that never runs, or that
raises before its body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import libcst as cst

from optlint.analysis.key_name_reads import FileReads, reads_in
from optlint.analysis.key_syntax import plain_target, target_names
from optlint.analysis.walk import child_nodes


def raised_unread(name: str, statement: cst.BaseStatement, root: Sequence[cst.BaseStatement],
                  shared: FileReads) -> bool:
    """`statement` of the function body `root` binds `name`, and what `name` holds reaches
    nothing before a line of `root` that must raise."""
    raising = _first_raising(root, shared)
    if raising is None:
        return False
    position = next((i for i, known in enumerate(root[:raising]) if known is statement), None)
    if position is None:
        return False
    drawn = {name}
    for later in root[position + 1:raising]:
        read = drawn & reads_in(later, shared, shapes=True)
        if not read:
            continue
        if not isinstance(later, cst.SimpleStatementLine):
            return False
        for small in later.body:
            if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                return False
            targets = ([target.target for target in small.targets]
                       if isinstance(small, cst.Assign) else [small.target])
            if not all(plain_target(target) for target in targets):
                return False
            drawn.update(bound for target in targets for bound in target_names(target))
    read = drawn & reads_in(root[raising], shared, shapes=True)
    return not read or _only_whole_arguments(cast(cst.SimpleStatementLine, root[raising]), read)


def _first_raising(root: Sequence[cst.BaseStatement], shared: FileReads) -> int | None:
    """The place of the first line of `root` that must raise, asked once per body."""
    if id(root) not in shared.raising_lines:
        raises = shared.raises
        shared.raising_lines[id(root)] = None if raises is None else next(
            (i for i, line in enumerate(root) if isinstance(line, cst.SimpleStatementLine)
             and any(raises(small) for small in line.body)), None)
    return shared.raising_lines[id(root)]


def _only_whole_arguments(line: cst.SimpleStatementLine, names: set[str]) -> bool:
    """Every mention of `names` in `line` is a whole argument of a call (`f(x, n)`)."""
    pending: list[tuple[cst.CSTNode, bool]] = [
        (small.value if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value
         is not None else small, False) for small in line.body]
    while pending:
        node, given = pending.pop()
        if isinstance(node, cst.Name):
            if node.value in names and not given:
                return False
            continue
        if isinstance(node, cst.Call):
            pending.append((node.func, False))
            pending.extend((arg.value, isinstance(arg.value, cst.Name) and not arg.star)
                           for arg in node.args)
            continue
        pending.extend((child, False) for child in child_nodes(node))
    return True
