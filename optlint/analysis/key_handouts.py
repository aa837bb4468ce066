"""A method that hands out keys and keeps the very same keys (dreamerv3 84ecf19, issue #11
"RNG splitting"): `RNG.next(amount)` returned `keys = self.buffer[:amount]` and then kept
`self.buffer = self.buffer[:amount]`, where `self.buffer` holds keys split from the object's
key. The attribute then holds what was handed out, so the next call (the buffer long enough,
nothing refills it) hands out the same keys again, and every caller drawing from them draws the
same numbers (dreamerv3's train step got the same dropout keys on every call).

What is proven, by the method's own statements: it binds a name to an expression over
`self.<attr>`, sets `self.<attr>` to the same expression with nothing rebound in between, and
returns the name; and some method of the class fills `self.<attr>` from `jax.random.split`.
A getter (`return self.key`, nothing set) is not this: it advances nothing and says nothing
about how its callers use the key."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.project_values import names_in
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

_SPLIT = "jax.random.split"
# Calls that keep the items they are given (`list(keys[1:])`).
_COPYING = frozenset({"list", "tuple"})


@record
class KeptHandout:
    owner: str  # the class
    method: str
    handed: cst.BaseExpression  # the expression bound to the name returned
    kept: cst.Assign  # `self.<attr> = <the same expression>`
    attribute: str


def kept_handouts(ctx: RuleContext) -> Iterator[KeptHandout]:
    for info in ctx.index.classes.values():
        methods = [item for item in info.node.body.body if isinstance(item, cst.FunctionDef)]
        split_into = {attr for method in methods for attr in _split_attributes(ctx, method)}
        if not split_into:
            continue  # no attribute holding split keys: nothing handed out is a key
        for method in methods:
            for handed, kept, attr in _handouts(method):
                if attr in split_into:
                    yield KeptHandout(info.name, method.name.value, handed, kept, attr)


def _self_name(method: cst.FunctionDef) -> str | None:
    params = method.params.params
    return params[0].name.value if params and not method.decorators else None


def _attribute(expr: cst.BaseExpression, owner: str) -> str | None:
    """`self.<attr>` -> `attr`."""
    if (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)
            and expr.value.value == owner):
        return expr.attr.value
    return None


def _split_attributes(ctx: RuleContext, method: cst.FunctionDef) -> set[str]:
    """The attributes the method fills with keys split from a key: `self.buffer =
    list(keys[1:])` after `keys = jax.random.split(...)`, or the split itself."""
    owner = _self_name(method)
    if owner is None or not isinstance(method.body, cst.IndentedBlock):
        return set()
    split_names: set[str] = set()
    found: set[str] = set()
    for small in _small_statements(method.body.body):
        if not isinstance(small, cst.Assign):
            continue
        value = _items_of(ctx, small.value)
        made = ((isinstance(value, cst.Call) and ctx.qualify(value.func) == _SPLIT)
                or (isinstance(value, cst.Name) and value.value in split_names))
        for target in small.targets:
            attr = _attribute(target.target, owner)
            if attr is not None and made:
                found.add(attr)
            elif isinstance(target.target, cst.Name):
                if made:
                    split_names.add(target.target.value)
                else:
                    split_names.discard(target.target.value)
    return found


def _items_of(ctx: RuleContext, value: cst.BaseExpression) -> cst.BaseExpression:
    """What a value holds items of: `list(keys[1:])` -> `keys`."""
    while True:
        if (isinstance(value, cst.Call) and len(value.args) == 1
                and isinstance(value.func, cst.Name) and value.func.value in _COPYING):
            value = value.args[0].value
        elif isinstance(value, cst.Subscript):
            value = value.value
        else:
            return value


def _small_statements(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseSmallStatement]:
    """The simple statements of a body, in nested blocks too (not nested functions)."""
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        elif isinstance(statement, (cst.If, cst.For, cst.While, cst.With, cst.Try)):
            for block in _blocks(statement):
                yield from _small_statements(block)


def _blocks(statement: cst.BaseCompoundStatement) -> list[Sequence[cst.BaseStatement]]:
    blocks = [statement.body.body] if isinstance(statement.body, cst.IndentedBlock) else []
    orelse = getattr(statement, "orelse", None)
    while orelse is not None:
        if isinstance(orelse.body, cst.IndentedBlock):
            blocks.append(orelse.body.body)
        orelse = getattr(orelse, "orelse", None) if isinstance(orelse, cst.If) else None
    return blocks


def _handouts(method: cst.FunctionDef
              ) -> Iterator[tuple[cst.BaseExpression, cst.Assign, str]]:
    """In one block of the method: `name = E` (E reads `self.<attr>`), then `self.<attr> = E`
    again, then `return name`, with nothing between them binding `name`, `self.<attr>` or a
    name E reads."""
    owner = _self_name(method)
    if owner is None or not isinstance(method.body, cst.IndentedBlock):
        return
    for block in _all_blocks(method.body.body):
        smalls = [small for statement in block if isinstance(statement, cst.SimpleStatementLine)
                  for small in statement.body]
        if len(smalls) != sum(isinstance(s, cst.SimpleStatementLine) for s in block):
            continue  # statements sharing a line: not read here
        for i, first in enumerate(smalls):
            name = _bound_name(first)
            if name is None or not isinstance(first, cst.Assign):
                continue
            for j in range(i + 1, len(smalls) - 1):
                kept = smalls[j]
                attr = (_attribute(kept.targets[0].target, owner)
                        if isinstance(kept, cst.Assign) and len(kept.targets) == 1 else None)
                if attr is None or not isinstance(kept, cst.Assign):
                    if _binds(smalls[j], {name, owner, *(found.value for found in names_in(first.value))}):
                        break
                    continue
                returned = smalls[j + 1]
                if (kept.value.deep_equals(first.value)
                        and _reads_attribute(first.value, owner, attr)
                        and isinstance(returned, cst.Return)
                        and isinstance(returned.value, cst.Name)
                        and returned.value.value == name):
                    yield first.value, kept, attr
                break


def _all_blocks(body: Sequence[cst.BaseStatement]) -> Iterator[Sequence[cst.BaseStatement]]:
    yield body
    for statement in body:
        if isinstance(statement, (cst.If, cst.For, cst.While, cst.With, cst.Try)):
            for block in _blocks(statement):
                yield from _all_blocks(block)


def _bound_name(small: cst.BaseSmallStatement) -> str | None:
    if (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)):
        return small.targets[0].target.value
    return None


def _binds(small: cst.BaseSmallStatement, names: set[str]) -> bool:
    """The statement may change what the handed-out expression reads: anything but an
    assignment to a name other than `names` (the name handed out, the object, the names the
    expression reads)."""
    if not isinstance(small, cst.Assign):
        return True
    return any(not isinstance(target.target, cst.Name) or target.target.value in names
               for target in small.targets)


def _reads_attribute(expr: cst.BaseExpression, owner: str, attr: str) -> bool:
    """`expr` reads `self.<attr>`."""
    found = False

    class _Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            nonlocal found
            found = found or _attribute(node, owner) == attr

    expr.visit(_Reads())
    return found
