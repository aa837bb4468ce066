"""A method called with a key on an object whose class the analysis cannot tell (`kernel`
of `for kernel in self.kernels`, `flow` given by a caller, `self.policy` set from one): `kernel.init_params(key)` consumes
the key when the file defines the method in at least one class and every class of the file
defining it draws from that argument (a composite calling the same method on its parts, a
family of classes sharing one interface). What other files define is not seen, so the
message says what proved it.

An object called itself runs `__call__`: `block(x, key=k)` for `block` an item of a loop or a
comprehension (`for block in self.blocks`) consumes the key when the class its items are built
from draws from it (`self.blocks = [Block(...) for ...]`, `key_loop_items.py`), or, where that
is not told, when every class of the file whose `__call__` accepts the call's arguments does
(an Equinox model's list of layers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.key_imported_methods import ImportedMethods
from optlint.analysis.key_interface_methods import runs_own_code
from optlint.analysis.key_project_methods import injected
from optlint.analysis.key_loop_items import item_classes
from optlint.analysis.key_method_groups import GroupSummaries, MethodGroup, call_shape
from optlint.analysis.key_syntax import own_method
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import UNKNOWN

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView


class NamedMethods:
    """The methods of one file's classes by name, and what a call of one on an object of an
    unknown class consumes."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        # The methods of the file's classes, with their class, by name.
        self._by_name: dict[str, list[tuple[cst.FunctionDef, ClassInfo]]] | None = None
        self._running: dict[str, list[cst.FunctionDef]] = {}  # of those, running their own code
        self.imported = ImportedMethods(calls)  # where the file defines no such method
        # The methods a call may run, by their name or identities and the call's shape, and
        # what each draws from the call's arguments, summarised together.
        self._groups: dict[tuple[object, ...], MethodGroup] = {}
        self.groups = GroupSummaries(calls.summaries, calls.cycles)

    def _methods(self, name: str) -> list[cst.FunctionDef]:
        """The file's undecorated methods named `name` that run code of their own (asked by
        name: whether one does costs a walk of its body)."""
        if self._by_name is None:
            self._by_name = {}
            for info in self.ctx.index.functions.values():
                if (isinstance(info.node, cst.FunctionDef) and info.scope.owner is not None
                        and not info.node.decorators):
                    self._by_name.setdefault(info.node.name.value, []).append(
                        (info.node, info.scope.owner))
        if name not in self._running:
            self._running[name] = [method for method, owner in self._by_name.get(name, ())
                                   if runs_own_code(self.ctx.index, method, owner)]
        return self._running[name]

    def consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        func = call.func
        if isinstance(func, cst.Name):
            if not self._loop_item(func, site):
                return []
            name = "__call__"
            built = item_classes(self.ctx, func, site)
            if built is not None:  # the classes the items are built from: their own
                own = [own_method(info, name) for info in built]
                methods = [method for method in own if method is not None]
                if len(methods) != len(own):
                    return []
                group = self._group((tuple(map(id, methods)), call_shape(call)),
                                    lambda: methods, call)
            else:
                group = self._group((name, call_shape(call)), lambda: [
                    method for method in self._methods(name) if accepts(method, call)], call)
        elif (not isinstance(func, cst.Attribute) or not _other_object(func.value, site)
                or func.attr.value.startswith("__")
                or self.ctx.value(func.value, site) is not UNKNOWN):
            return []
        elif func.attr.value not in self.calls.helpers:
            if self._methods(func.attr.value):
                return []  # the file's own classes define it and do not consume
            return self.imported.consumptions(call, func.attr.value,
                                              injected(self.ctx, func.value, site))
        else:
            name = func.attr.value
            group = self._group((name, None, call_shape(call)), lambda: self._methods(name),
                                call)
        if not group.methods:
            return []
        drawn = self.groups.drawn(group, site, self.calls.summary)
        if not drawn:
            return []
        proof = (f"every class of the file defining `{name}` ({', '.join(group.classes)}) "
                 f"draws from the key" if not isinstance(func, cst.Name) or built is None else
                 f"`{func.value}` is built as {' or '.join(group.classes)}, whose `{name}` "
                 f"draws from the key")
        first = min(drawn)
        return [Consumption(call, call.args[first].value, self.calls.callee(call),
                            library=False, proof=proof)]

    def _group(self, key: tuple[object, ...], methods: Callable[[], list[cst.FunctionDef]],
               call: cst.Call) -> MethodGroup:
        """The group of `methods()`, made once per `key` (the methods' name or identities and
        the call's shape: the same methods, the same argument positions)."""
        group = self._groups.get(key)
        if group is None:
            listed = methods()
            classes = sorted({info.scope.owner.name for info in (
                self.ctx.index.functions.get(method) for method in listed)
                if info is not None and info.scope.owner is not None})
            group = self._groups[key] = MethodGroup(listed, call, classes)
        return group

    def _loop_item(self, func: cst.Name, site: CallSite) -> bool:
        """`func` is an item a loop or comprehension binds, of no value the analysis can tell
        (`block` of `for block in self.blocks`), and some `__call__` of the file consumes."""
        if "__call__" not in self.calls.helpers:
            return False
        binding = self.ctx.binding(func.value, site)
        return (binding is not None and isinstance(binding.node, (cst.For, cst.CompFor))
                and self.ctx.value(func, site) is UNKNOWN)


def _other_object(receiver: cst.BaseExpression, site: CallSite) -> bool:
    """A name other than the method's own object (`kernel`), or an attribute of that object
    (`self.policy`): an object whose class the call does not say."""
    if isinstance(receiver, cst.Name):
        return receiver.value != site.scope.self_name
    return (isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name)
            and site.scope.self_name is not None
            and receiver.value.value == site.scope.self_name)


def accepts(method: cst.FunctionDef, call: cst.Call) -> bool:
    """`call` can run `method` bound to an object: its keywords name parameters and its
    positional arguments fit (or the method takes `*args` / `**kwargs`)."""
    params = method.params
    if any(arg.star for arg in call.args):
        return True
    named = {param.name.value for param in (*params.params, *params.kwonly_params)}
    if not isinstance(params.star_kwarg, cst.Param) and any(
            arg.keyword is not None and arg.keyword.value not in named for arg in call.args):
        return False
    positional = sum(arg.keyword is None for arg in call.args)
    return isinstance(params.star_arg, cst.Param) or positional <= len(
        (*params.posonly_params, *params.params)) - 1

