"""Loops of steps: a loop whose body carries a value from one iteration to the next (`params =
update(params, grads)`, `x = noise(x)`, `step += 1`): a name the body reads before it binds it
again. Such a loop runs one computation step by step (training, a rollout, an evaluation
threading its state), where the same random numbers drawn again on every step are a bug; a loop
over test cases or settings carries nothing and may draw the same numbers for each on purpose."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.key_syntax import target_names
from optlint.analysis.walk import child_nodes


def carries_state(loop: cst.For | cst.While) -> bool:
    """A name the loop's body binds is read in the body before that binding, on some path
    through one iteration (the value read is the previous iteration's)."""
    statements = _in_order(loop.body)
    bound: set[str] = set()
    for statement in statements:
        bound |= _binds(statement)
    if not bound:
        return False
    if isinstance(loop, cst.While) and _names(loop.test) & bound:
        return True  # `while not done: ...; done = ...`: the test reads the last step's value
    seen: set[str] = set()
    for statement in statements:
        if isinstance(statement, cst.AugAssign) and _names(statement.target) & bound:
            return True  # `step += 1`
        if (_reads(statement) & bound) - seen:
            return True
        seen |= _binds(statement)
    return False


def names_bound_within(loop: cst.CSTNode) -> set[str]:
    """Every plain name `loop` binds anywhere in it (assignments, loop and `with` targets), not
    in nested functions or classes."""
    found: set[str] = set()
    pending = [loop]
    while pending:
        current = pending.pop()
        if isinstance(current, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            found |= _binds(current)
        elif isinstance(current, (cst.For, cst.CompFor)):
            found |= set(target_names(current.target))
        elif isinstance(current, cst.AsName):
            found |= set(target_names(current.name))
        elif isinstance(current, cst.NamedExpr):
            found |= set(target_names(current.target))
        if not isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) or current is loop:
            pending.extend(child_nodes(current))
    return found


def _in_order(suite: cst.BaseSuite) -> list[cst.CSTNode]:
    """The small statements and headers of `suite`, in the order they are written, through
    compound statements (not into nested functions or classes)."""
    if isinstance(suite, cst.SimpleStatementSuite):
        return list(suite.body)
    assert isinstance(suite, cst.IndentedBlock)
    found: list[cst.CSTNode] = []
    for statement in suite.body:
        if isinstance(statement, cst.SimpleStatementLine):
            found.extend(statement.body)
        elif isinstance(statement, (cst.If, cst.While)):
            found.append(statement.test)
            found.extend(_in_order(statement.body))
            orelse = statement.orelse
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    found.append(orelse.test)
                    found.extend(_in_order(orelse.body))
                    orelse = orelse.orelse
                else:
                    found.extend(_in_order(orelse.body))
                    orelse = None
        elif isinstance(statement, cst.For):
            found.append(statement.iter)
            found.extend(_in_order(statement.body))
        elif isinstance(statement, (cst.With, cst.Try)):
            found.extend(_in_order(statement.body))
    return found


def _binds(node: cst.CSTNode) -> set[str]:
    if isinstance(node, cst.Assign):
        return {name for target in node.targets for name in target_names(target.target)}
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        return set(target_names(node.target))
    return set()


def _reads(node: cst.CSTNode) -> set[str]:
    """The plain names `node` reads (an assignment's value; any other node as a whole)."""
    if isinstance(node, (cst.Assign, cst.AnnAssign)):
        return _names(node.value) if node.value is not None else set()
    return _names(node)


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Name):
            found.add(current.value)
        elif isinstance(current, cst.Attribute):
            pending.append(current.value)  # `x.attr`: `attr` is no name read
        elif isinstance(current, cst.Arg):
            pending.append(current.value)  # `f(x=y)`: `x` is no name read
        elif not isinstance(current, (cst.Lambda, cst.FunctionDef)):
            pending.extend(child_nodes(current))
    return found
