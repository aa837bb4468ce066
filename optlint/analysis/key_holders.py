"""Values that hold a key as it was given: a function of the file returning its key parameter
(as is, in a tuple, or as a field of what it builds: its summary's `forwarded`), and objects of
the file's classes built holding it: `loader =
Loader(data, key)` where `Loader.__init__` does `self.key = key`, and nothing but building the
object sets `self.key`. `loader.key` then is the caller's `key` (`key_aliases.py` links the
two names), so a draw from either after a draw from the other draws again."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_fields import set_when_built

if TYPE_CHECKING:
    from optlint.analysis.key_record import KeyRecorder
    from optlint.analysis.prng_keys import Consumption
    from optlint.context import RuleContext


def values_held(ctx: RuleContext, call: cst.Call,
                resolved: tuple[cst.FunctionDef, bool, bool] | list[Consumption] | None,
                summary: Callable[[cst.FunctionDef], KeyRecorder | None]
                ) -> dict[str, cst.BaseExpression]:
    """What the value `call` returns holds of its arguments as given, by where (`.key`: the
    field of the object it builds; `""`, `.[1]`, `.key`: what a function of the file returns
    of its parameters, its summary's `forwarded`)."""
    held = {f".{field}": expr for field, expr in fields_held(ctx, call, resolved).items()}
    flow = summary(resolved[0]) if isinstance(resolved, tuple) else None
    forwarded: Mapping[str, str] = getattr(flow, "forwarded", {})
    if forwarded and isinstance(resolved, tuple):
        function, bound, _ = resolved
        given = {param.name.value: expr for param, expr in bind_arguments(function, call, bound)}
        for where, param in forwarded.items():
            if param in given:
                held.setdefault(where, given[param])
    return held


def fields_held(ctx: RuleContext, call: cst.Call,
                resolved: tuple[cst.FunctionDef, bool, bool] | list[Consumption] | None
                ) -> dict[str, cst.BaseExpression]:
    """The fields the object `call` builds holds its arguments in, unchanged (field -> the
    argument): `__init__`'s plain `self.<field> = <param>` statements before anything rebinds
    the parameter (empty when `call` builds no object of the file's classes)."""
    if not isinstance(resolved, tuple) or resolved[0].name.value != "__init__":
        return {}
    init = resolved[0]
    info = ctx.index.functions.get(init)
    owner = info.scope.owner if info is not None else None
    self_name = info.scope.self_name if info is not None else None
    if owner is None or self_name is None or not isinstance(init.body, cst.IndentedBlock):
        return {}
    stored: dict[str, str] = {}  # parameter -> field
    rebound: set[str] = set()
    for statement in init.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            break  # past a branch or a loop, which may rebind the parameter
        for small in statement.body:
            if not isinstance(small, cst.Assign):
                continue
            for target in small.targets:
                attribute = target.target
                if (isinstance(attribute, cst.Attribute) and isinstance(attribute.value, cst.Name)
                        and attribute.value.value == self_name
                        and isinstance(small.value, cst.Name) and small.value.value not in rebound
                        and set_when_built(owner, attribute.attr.value)):
                    stored.setdefault(small.value.value, attribute.attr.value)
                elif isinstance(attribute, cst.Name):
                    rebound.add(attribute.value)
    if not stored:
        return {}
    return {stored[param.name.value]: expr for param, expr in bind_arguments(init, call, True)
            if param.name.value in stored}
