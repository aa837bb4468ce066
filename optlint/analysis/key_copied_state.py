"""A state rebound to a copy of itself keeps the keys of the fields the copy does not replace.

`state = state.replace(mean=m)` (a `flax.struct` dataclass, `chex`, a NamedTuple's `_replace`)
and `state = emitter.update(state, ...)` where `update` returns `state.replace(mean=m)`: the new
`state.key` is the old one, consumed if it was (QDax b9cb394: an emitter whose update never
advanced its stored key drew the same perturbations every generation). Binding `state` anew
would otherwise forget what its fields held.

A function counts as returning a copy of a parameter when every `return` of its body (not of
functions nested in it) returns `param.replace(...)` / `param._replace(...)` of one parameter the
body never assigns; the fields replaced are the union of the keywords of those returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import CallSite
from optlint.analysis.key_state import KeyState
from optlint.analysis.key_syntax import replaced_from, target_names
from optlint.analysis.prng_keys import Consumption, key_name
from optlint.analysis.values import FunctionValue, TransformedFunction
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext

# What a call returns a copy of, for the flow: the name of the argument copied and the fields
# replaced (None: not a copy).
CopyOf = Callable[[cst.Call], "tuple[str, frozenset[str]] | None"]


def carried_fields(value: cst.BaseExpression, targets: Sequence[cst.BaseExpression],
                   state: KeyState, copy_of: CopyOf | None
                   ) -> list[tuple[str, Consumption, bool]]:
    """Before `targets = value` rebinds them: (the target's field, the consumption it keeps,
    consumed on some paths only) for each consumed field of the copied object the copy keeps,
    for a plain name target."""
    if not isinstance(value, cst.Call) or copy_of is None or not state.consumed:
        return []
    names = [target.value for target in targets if isinstance(target, cst.Name)]
    if not names:
        return []
    # A cheap gate first: some name given (or copied in place) has a consumed field.
    given = {arg.value.value for arg in value.args if isinstance(arg.value, cst.Name)}
    if isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Name):
        given.add(value.func.value.value)
    holders = {dotted.split(".", 1)[0] for dotted in state.consumed if "." in dotted}
    if not given & holders:
        return []
    copied = copy_of(value)
    if copied is None:
        return []
    source, replaced = copied
    prefix = source + "."
    kept = []
    for dotted, use in state.consumed.items():
        field = dotted[len(prefix):] if dotted.startswith(prefix) else ""
        if not field or "." in field or field.startswith("[") or field in replaced:
            continue
        for name in names:
            kept.append((f"{name}.{field}", use, dotted in state.maybe))
    return kept


def restore(kept: list[tuple[str, Consumption, bool]], state: KeyState) -> None:
    """After the targets are bound: their fields hold the kept consumptions again."""
    for name, use, maybe in kept:
        state.consumed[name] = use
        state.where.pop(name, None)
        if maybe:
            state.maybe.add(name)
        else:
            state.maybe.discard(name)


class CopiedStates:
    """What the calls of one file return a copy of (`KeyFlow.copies` asks)."""

    def __init__(self, ctx: RuleContext, sites: Mapping[int, CallSite]) -> None:
        self.ctx = ctx
        self.sites = sites

    def copy_of(self, call: cst.Call) -> tuple[str, frozenset[str]] | None:
        return copy_of_call(call, self._function)

    def _function(self, call: cst.Call) -> tuple[cst.FunctionDef, bool] | None:
        """The function of the file `call` runs, and whether it is bound (jitted or not)."""
        site = self.sites.get(id(call))
        if site is None:
            return None
        value = self.ctx.value(call.func, site)
        while isinstance(value, TransformedFunction):
            value = value.func
        if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
                and value.node in self.ctx.index.functions):
            return value.node, value.bound
        return None


def copy_of_call(call: cst.Call, resolve: Callable[[cst.Call], tuple[cst.FunctionDef, bool] | None]
                 ) -> tuple[str, frozenset[str]] | None:
    """`state.replace(mean=m)` (copies `state`), or a call of a function of the file that
    returns a copy of a parameter, given a plain name there (`resolve`: the function a call
    runs and whether it is bound)."""
    inline = replaced_from(call)
    if inline is not None:
        return inline[0], frozenset(inline[1])
    if not any(isinstance(arg.value, cst.Name) for arg in call.args):
        return None
    resolved = resolve(call)
    if resolved is None:
        return None
    function, bound = resolved
    copied = returned_copy(function)
    if copied is None:
        return None
    param, replaced = copied
    given = next((expr for target, expr in bind_arguments(function, call, bound)
                  if target.name.value == param), None)
    name = key_name(given) if isinstance(given, cst.Name) else None
    return (name, replaced) if name is not None else None


_RETURNED_COPIES: dict[int, tuple[cst.FunctionDef, tuple[str, frozenset[str]] | None]] = {}


def returned_copy(function: cst.FunctionDef) -> tuple[str, frozenset[str]] | None:
    """The parameter every return of `function` returns a copy of, and the fields replaced."""
    known = _RETURNED_COPIES.get(id(function))
    if known is not None and known[0] is function:
        return known[1]
    if len(_RETURNED_COPIES) > 10_000:  # a bound for a long-lived process
        _RETURNED_COPIES.clear()
    found = _returned_copy(function)
    _RETURNED_COPIES[id(function)] = (function, found)
    return found


def _returned_copy(function: cst.FunctionDef) -> tuple[str, frozenset[str]] | None:
    params = {param.name.value for param in (*function.params.posonly_params,
                                             *function.params.params,
                                             *function.params.kwonly_params)}
    source: str | None = None
    replaced: set[str] = set()
    assigned: set[str] = set()
    for node in _body_nodes(function):
        if isinstance(node, cst.Return):
            copied = (replaced_from(node.value) if isinstance(node.value, cst.Call) else None)
            if copied is None or copied[0] not in params or source not in (None, copied[0]):
                return None
            source = copied[0]
            replaced |= copied[1]
        elif isinstance(node, _BINDING):
            assigned.update(target_names(node.target))
    if source is None or source in assigned:
        return None
    return source, frozenset(replaced)


# What binds names in a body (by its `target`).
_BINDING = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr)


def _body_nodes(function: cst.FunctionDef) -> Iterator[cst.CSTNode]:
    """The nodes of a function's body, not of functions, lambdas or classes defined in it."""
    pending: list[cst.CSTNode] = list(child_nodes(function.body))
    while pending:
        node = pending.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        yield node
        pending.extend(child_nodes(node))


def hands_back_field(method: cst.FunctionDef, self_name: str, field: str) -> bool:
    """Every `return` of `method` hands back a copy of `self_name` with `field` given anew
    (`return self.replace(rng=new_rng), info`: a `flax.struct` agent's compiled `update`): the
    caller that keeps what the method returns gets the next key, so a call does not consume the
    stored key again. Whether a caller drops the copy is not seen here."""
    returned = False
    for node in _body_nodes(method):
        if not isinstance(node, cst.Return):
            continue
        values = [element.value for element in node.value.elements] \
            if isinstance(node.value, cst.Tuple) else [node.value]
        copies = [replaced_from(value) for value in values if isinstance(value, cst.Call)]
        if not any(copy is not None and copy[0] == self_name and field in copy[1]
                   for copy in copies):
            return False
        returned = True
    return returned
