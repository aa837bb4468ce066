"""A method called on an object another object holds may set that object's keys anew:
`self.policy.reset_noise()` splits `self.policy.key` into a new `self.policy.noise_key`. The
flow follows such keys as `self.policy.noise_key`; after a call of a method on `self.policy` it
forgets them, unless every class of the file defining that method sets no attribute of its
object (`predict_all` only reads them). A method no class of the file defines may set anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_reset_fields import set_by_method
from optlint.analysis.key_state import KeyState
from optlint.analysis.prng_keys import key_name
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext


class HolderCalls:
    """Which calls of one file may set the keys of the object they are called on."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self._sets: dict[str, bool] | None = None  # by method name: some definition sets
        self._fields: dict[str, set[str]] | None = None  # by method name: what it sets

    def forget(self, call: cst.Call, state: KeyState) -> None:
        """After `call`: the keys of `holder.*` forgotten where `call` is `holder.method(...)`
        for `holder` an attribute of a name (`self.policy`) and the method may set them."""
        func = call.func
        # An object handed to a call may have its setters run there (`refresh(agent)`): what
        # was drawn from it before the call is forgotten, not what the call draws itself.
        for arg in call.args:
            if isinstance(arg.value, cst.Name):
                self._forget_set_fields(arg.value.value, None, state, call)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            self._forget_set_fields(func.value.value, func.attr.value, state)
            return
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Attribute):
            return
        holder = key_name(func.value)
        if holder is None:
            return
        prefix = holder + "."
        held = [name for name in state.consumed if name.startswith(prefix)]
        if held and self._may_set(func.attr.value):
            for name in held:
                del state.consumed[name]
                state.maybe.discard(name)
                state.where.pop(name, None)

    def _forget_set_fields(self, holder: str, method: str | None, state: KeyState,
                           call: cst.Call | None = None) -> None:
        """`sampler.warmup(key)`: the keys of `sampler.<field>` forgotten for each field a
        method of the file by that name sets (`key_reset_fields.py`); `method` None: each field
        a method other than a constructor sets."""
        if not any(name.startswith(holder + ".") for name in state.consumed):
            return
        if self._fields is None:
            self._fields = {}
        fields = self._fields.get(method or "")
        if fields is None:
            fields = self._fields[method or ""] = set_by_method(
                list(self.ctx.index.classes.values()), method)
        for name in [name for name, use in state.consumed.items()
                     if name.startswith(holder + ".") and use.call is not call
                     and name[len(holder) + 1:].split(".", 1)[0] in fields]:
            del state.consumed[name]
            state.maybe.discard(name)
            state.where.pop(name, None)

    def _may_set(self, method: str) -> bool:
        if self._sets is None:
            self._sets = {}
            for info in self.ctx.index.functions.values():
                node = info.node
                if isinstance(node, cst.FunctionDef) and info.scope.owner is not None:
                    name = node.name.value
                    self._sets[name] = self._sets.get(name, False) or _sets_attribute(
                        node, info.scope.self_name)
        return self._sets.get(method, True)


def _sets_attribute(method: cst.FunctionDef, self_name: str | None) -> bool:
    """`method` assigns an attribute of its object (`self.key = ...`), or has no object name
    to tell (a static method: taken as setting)."""
    if self_name is None:
        return True
    pending: list[cst.CSTNode] = [method.body]
    while pending:
        node = pending.pop()
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and _of_object(
                node.target, self_name):
            return True
        pending.extend(child_nodes(node))
    return False


def _of_object(target: cst.BaseExpression, self_name: str) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_of_object(element.value, self_name) for element in target.elements)
    while isinstance(target, (cst.Attribute, cst.Subscript)):
        target = target.value
        if isinstance(target, cst.Name):
            return target.value == self_name
    return False
