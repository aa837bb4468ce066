"""What a compound statement (`if`, `for`, `while`) does first to a name on each of its paths:
reads it, binds it anew, or leaves it alone. A draw's name that a loop binds anew before any read
on every path into it (`eval_keys = split(k, n)` before a `for` whose body starts with
`k, *eval_keys = split(k, n + 1)`) reaches nothing through that loop, however often the loop
reads the name after binding it: the value read is the loop's own (reaching definitions)."""

from __future__ import annotations

import enum
from collections.abc import Sequence

import libcst as cst

from optlint.analysis.key_name_reads import FileReads, reads_in
from optlint.analysis.key_syntax import names_rebound, target_names


class Touch(enum.Enum):
    READ = "read"  # some path reads it (its shape included) before binding it
    BOUND = "bound"  # every path binds it first, or ends (`return`, `raise`, `continue`)
    PASSED = "passed"  # no path reads it first, and some go on with it untouched


_ENDS = (cst.Return, cst.Raise, cst.Break, cst.Continue)


def first_touch(statements: Sequence[cst.BaseStatement], name: str,
                shared: FileReads) -> Touch:
    """How the paths through `statements`, run in order from the first, meet `name`.

    A `break` or `continue` ends a path inside a loop body; the loop itself is at best PASSED
    (it may run no time, or break out), so the def it leaves live is followed after it."""
    for statement in statements:
        touch = _touch(statement, name, shared)
        if touch is not Touch.PASSED:
            return touch
    return Touch.PASSED


def _touch(statement: cst.BaseStatement, name: str, shared: FileReads) -> Touch:
    if isinstance(statement, cst.SimpleStatementLine):
        if name in reads_in(statement, shared, shapes=True):
            return Touch.READ
        if name in names_rebound(statement) or isinstance(statement.body[-1], _ENDS):
            return Touch.BOUND
        return Touch.PASSED
    if isinstance(statement, cst.If):
        return _branches(statement, name, shared)
    if isinstance(statement, (cst.For, cst.While)) and isinstance(statement.body,
                                                                   cst.IndentedBlock):
        header = statement.iter if isinstance(statement, cst.For) else statement.test
        if name in reads_in(header, shared, shapes=True):
            return Touch.READ
        bound = isinstance(statement, cst.For) and name in target_names(statement.target)
        if not bound and first_touch(statement.body.body, name, shared) is Touch.READ:
            return Touch.READ
        orelse = statement.orelse
        if orelse is not None and isinstance(orelse.body, cst.IndentedBlock) and first_touch(
                orelse.body.body, name, shared) is Touch.READ:
            return Touch.READ
        return Touch.PASSED
    if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
        if any(name in reads_in(item, shared, shapes=True) for item in statement.items):
            return Touch.READ
        return first_touch(statement.body.body, name, shared)
    # `try`, `match`, a `def` or `class`: read as a whole.
    return Touch.READ if name in reads_in(statement, shared, shapes=True) else Touch.PASSED


def _branches(statement: cst.If, name: str, shared: FileReads) -> Touch:
    if name in reads_in(statement.test, shared, shapes=True):
        return Touch.READ
    touches = [_block(statement.body, name, shared)]
    orelse = statement.orelse
    if isinstance(orelse, cst.If):
        touches.append(_branches(orelse, name, shared))
    elif isinstance(orelse, cst.Else):
        touches.append(_block(orelse.body, name, shared))
    else:
        touches.append(Touch.PASSED)  # no `else`: the test's false path goes on untouched
    if Touch.READ in touches:
        return Touch.READ
    return Touch.BOUND if all(touch is Touch.BOUND for touch in touches) else Touch.PASSED


def _block(block: cst.BaseSuite, name: str, shared: FileReads) -> Touch:
    if isinstance(block, cst.IndentedBlock):
        return first_touch(block.body, name, shared)
    return Touch.READ  # `if x: y = 1` on one line: not followed
