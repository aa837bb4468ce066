"""Attribute reads that must fail, proven from the project's own files: `hist.steps` where every
value `hist` can hold is `None` or an instance of a project class that has no `steps` (a script
written against another version of its package: `model, hist = fit(...)` whose `History` has
no `steps`). `AttributeError` there: nothing after it runs.

What a name holds is followed through the project's files (`ProjectValues`): a tuple a project
function returns on every `return` (`return model, logger.history` / `return model, None`), an
instance its constructor call made (`MetricLogger(...)`), what that instance's methods store
on it (`self.history = History() if history is None else history`, a parameter the call left to
its default). The class has no such attribute when no class of its method resolution order
binds it, stores it on an instance or declares it, none defines `__getattr__`/
`__getattribute__`/`__slots__`, every base is the project's, and no project file sets an
attribute of that name from outside (`x.steps = ...`, `setattr`).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import libcst as cst

from optlint.analysis.project_values import (
    OrderEntry,
    ProjectClass,
    ProjectFile,
    ProjectFunction,
    ProjectInstance,
    ProjectValues,
    binds,
    nearest_bindings,
    plain_decorators,
)
from optlint.analysis.walk import child_nodes
from optlint.patterns import compiled
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.index import ClassInfo, Scope

# Library bases that neither store attributes on an instance nor answer for missing ones.
ATTRIBUTE_FREE_BASES = frozenset({"abc.ABC", "typing.Generic", "typing.Protocol"})
# Names through which a class may answer for attributes it does not bind.
_DYNAMIC = ("__getattr__", "__getattribute__", "__slots__", "__dict__", "setattr")
_DEPTH = 12  # how many steps a name's values are followed
_SETATTR = r"\bsetattr\b"  # (compiled when first used: `optlint.patterns`)
# By project (kept as long as it): whether `_SETATTR` matches one of its files.
_SET_ANYWHERE: weakref.WeakKeyDictionary[object, bool] = weakref.WeakKeyDictionary()


@record(eq=False)  # held in sets by identity (a class's info is unhashable)
class _Made:
    """An instance of a project class and the call that made it (None: made elsewhere)."""

    instance: ProjectInstance
    call: cst.Call | None


_NONE = "None"
_Held = _Made | str  # what a name may hold: an instance, or `None`


class MissingAttributes:
    """Which small statements of one file read an attribute their object cannot have."""

    def __init__(self, values: ProjectValues, scopes: Callable[[cst.CSTNode], Scope]) -> None:
        self._values = values
        self._scopes = scopes  # the scope a statement of the file runs in
        self._outside: dict[str, bool] = {}  # attribute -> a project file sets it from outside
        self._known: dict[int, bool] = {}  # by statement
        # By (scope, name, none_only), the scope kept alive with it: what the name may hold.
        self._held: dict[tuple[int, str, bool], tuple[Scope, set[_Held] | None]] = {}
        # By class node (kept alive with it): whether it names a `_DYNAMIC` name.
        self._dynamic_classes: dict[int, tuple[cst.ClassDef, bool]] = {}

    def __call__(self, node: cst.BaseSmallStatement, scope: Scope | None = None) -> bool:
        """`scope`: the scope `node` runs in, where the caller knows it (looked up else)."""
        known = self._known.get(id(node))
        if known is None:
            known = self._known[id(node)] = self._fails(node, scope)
        return known

    def _fails(self, node: cst.BaseSmallStatement, scope: Scope | None) -> bool:
        for attribute in _always_read(node):
            if not isinstance(attribute.value, cst.Name) or attribute.attr.value.startswith("__"):
                continue
            scope = scope or self._scopes(node)
            held = self._name(attribute.value.value, scope, self._values.here, _DEPTH,
                              none_only=self._set_anywhere())
            if held and all(self._lacks(value, attribute.attr.value) for value in held):
                return True
        return False

    # what a name holds -------------------------------------------------------------------

    def _name(self, name: str, scope: Scope, file: ProjectFile, depth: int,
              given: cst.Call | None = None, method: cst.FunctionDef | None = None,
              none_only: bool = False) -> set[_Held] | None:
        """What `name` may hold. `none_only`: only `None` can lack the attribute asked (an
        instance may be given any, `_set_anywhere`): an instance a call makes is left unknown
        (None) without resolving the call, which gives the same answer."""
        if given is None:
            asked = (id(scope), name, none_only)
            known = self._held.get(asked)
            if known is not None:
                return known[1]
            self._held[asked] = (scope, None)  # asked again meanwhile: unknown
            found = self._name_uncached(name, scope, file, depth, none_only=none_only)
            self._held[asked] = (scope, found)
            return found
        return self._name_uncached(name, scope, file, depth, given, method, none_only)

    def _name_uncached(self, name: str, scope: Scope, file: ProjectFile, depth: int,
                       given: cst.Call | None = None, method: cst.FunctionDef | None = None,
                       none_only: bool = False) -> set[_Held] | None:
        bindings = nearest_bindings(name, scope)
        if not bindings or depth <= 0:
            return None
        found: set[_Held] = set()
        for binding in bindings:
            if binding.kind == "param" and method is not None and given is not None:
                value = _given(method, given, name)
                if value is None:
                    return None
                held = self._expr(value, scope, file, depth - 1, none_only=none_only)
            elif binding.kind == "assign" and binding.value is not None and binding.node is None:
                held = self._expr(binding.value, binding.scope or scope, file, depth - 1,
                                  binding.path, none_only)
            else:
                return None
            if held is None:
                return None
            found |= held
        return found

    def _expr(self, expr: cst.BaseExpression, scope: Scope, file: ProjectFile, depth: int,
              path: tuple[int, ...] = (), none_only: bool = False) -> set[_Held] | None:
        if depth <= 0:
            return None
        if path:
            if not isinstance(expr, cst.Call):
                return None
            return self._returned_item(expr, scope, file, depth, path, none_only)
        if isinstance(expr, cst.Name) and expr.value == "None":
            return {_NONE}
        if isinstance(expr, cst.IfExp):
            body = self._expr(expr.body, scope, file, depth - 1, none_only=none_only)
            orelse = self._expr(expr.orelse, scope, file, depth - 1, none_only=none_only)
            return None if body is None or orelse is None else body | orelse
        if isinstance(expr, cst.Call):
            if none_only:
                return None  # an instance at best, which lacks nothing then
            value = self._values.value(expr, scope, 1 << 30, file)
            if not isinstance(value, ProjectInstance):
                return None
            # Built by the class itself: its arguments go to `__init__`.
            built = isinstance(self._values.value(expr.func, scope, 1 << 30, file), ProjectClass)
            return {_Made(value, expr if built else None)}
        if isinstance(expr, cst.Name):
            return self._name(expr.value, scope, file, depth - 1, none_only=none_only)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
            owners = self._name(expr.value.value, scope, file, depth - 1)  # every owner
            if not owners:
                return None
            found: set[_Held] = set()
            for owner in owners:
                if not isinstance(owner, _Made):
                    return None
                held = self._stored(owner, expr.attr.value, depth - 1, none_only)
                if held is None:
                    return None
                found |= held
            return found
        return None

    def _returned_item(self, call: cst.Call, scope: Scope, file: ProjectFile, depth: int,
                       path: tuple[int, ...], none_only: bool = False) -> set[_Held] | None:
        """What item `path` of the tuple a project function returns can be, on every
        `return` (`model, hist = fit(...)`)."""
        function = self._values.value(call.func, scope, 1 << 30, file)
        if not isinstance(function, ProjectFunction) or not plain_decorators(function) or (
                len(path) != 1):
            return None
        info = function.file.index.functions.get(function.node)
        if info is None or not info.returns:
            return None
        found: set[_Held] = set()
        for returned in info.returns:
            if not isinstance(returned, cst.Tuple) or path[0] >= len(returned.elements) or any(
                    isinstance(element, cst.StarredElement) for element in returned.elements):
                return None
            held = self._expr(returned.elements[path[0]].value, info.scope, function.file,
                              depth - 1, none_only=none_only)
            if held is None:
                return None
            found |= held
        return found

    def _stored(self, made: _Made, attr: str, depth: int, none_only: bool = False
                ) -> set[_Held] | None:
        """What `instance.attr` can hold: what its class's methods store there
        (`self.history = ...`), reading the constructor call's arguments in `__init__`."""
        order = _known_order(self._values.order(made.instance.info, made.instance.file))
        if order is None:
            return None
        found: set[_Held] = set()
        for info, owner in order:
            if not isinstance(owner, ProjectFile) or any(
                    binds(item, attr) for item in info.node.body.body):
                return None
            field = info.fields.get(attr)
            if field is not None and field.default is not None:
                return None
            for binding in info.attributes.get(attr, []):
                if binding.value is None or binding.path or binding.scope is None:
                    return None
                method = binding.scope.node
                # The constructor call's arguments reach the made class's own `__init__`.
                init = (isinstance(method, cst.FunctionDef) and method.name.value == "__init__"
                        and info is made.instance.info and made.call is not None)
                held = self._expr_in(binding.value, binding.scope, owner, depth,
                                     made.call if init else None,
                                     method if init and isinstance(method, cst.FunctionDef)
                                     else None, none_only)
                if held is None:
                    return None
                found |= held
        return found or None

    def _expr_in(self, expr: cst.BaseExpression, scope: Scope, file: ProjectFile, depth: int,
                 given: cst.Call | None, method: cst.FunctionDef | None,
                 none_only: bool = False) -> set[_Held] | None:
        """`_expr` where the method's parameters hold what `given` passes them."""
        if isinstance(expr, cst.IfExp):
            body = self._expr_in(expr.body, scope, file, depth - 1, given, method, none_only)
            orelse = self._expr_in(expr.orelse, scope, file, depth - 1, given, method,
                                   none_only)
            return None if body is None or orelse is None else body | orelse
        if isinstance(expr, cst.Name) and expr.value != "None":
            return self._name(expr.value, scope, file, depth - 1, given, method, none_only)
        return self._expr(expr, scope, file, depth, none_only=none_only)

    # what a value lacks ----------------------------------------------------------------------

    def _lacks(self, held: _Held, attr: str) -> bool:
        if held == _NONE:
            return True  # `None` has no attribute but its type's dunders
        assert isinstance(held, _Made)
        order = _known_order(self._values.order(held.instance.info, held.instance.file))
        if order is None:
            return False
        for info, _ in order:
            if info.node.decorators or any(base.keyword is not None
                                           for base in info.node.bases):
                return False  # a class decorator, a metaclass may give it
            if (attr in info.attributes or attr in info.fields
                    or any(binds(item, attr) or any(binds(item, name) for name in _DYNAMIC)
                           for item in info.node.body.body)):
                return False
            if self._dynamic(info):
                return False
        return not self._set_outside(attr)

    def _dynamic(self, info: ClassInfo) -> bool:
        """The class's code names something through which it may answer for attributes it
        does not bind (worked out once per class: a walk of its whole body)."""
        known = self._dynamic_classes.get(id(info.node))
        if known is None:
            known = self._dynamic_classes[id(info.node)] = (info.node, _mentions(
                info.node, _DYNAMIC))
        return known[1]

    def _set_anywhere(self) -> bool:
        """A project file may set any attribute on any object (`setattr`), or the project
        is too large to read: no instance lacks an attribute (`_set_outside`), only `None`
        does. Read once per project."""
        project = self._values.here.evaluator.project
        known = _SET_ANYWHERE.get(project) if project is not None else None
        if known is None:
            texts = getattr(project, "project_texts", lambda: None)()
            known = texts is None or any(
                "setattr" in text and compiled(_SETATTR).search(text) is not None
                for text in texts.values())
            if project is not None:
                _SET_ANYWHERE[project] = known
        return known

    def _set_outside(self, attr: str) -> bool:
        """A project file sets an attribute of that name on some object (`x.steps = ...`) or
        may set any (`setattr`): an instance may hold it after all."""
        if self._set_anywhere():
            return True
        known = self._outside.get(attr)
        if known is None:
            project = self._values.here.evaluator.project
            texts = getattr(project, "project_texts", lambda: None)()
            # `self.steps = ...` in a method sets it on that method's own class's instances,
            # which the class's order already tells.
            pattern = re.compile(rf"(\w*)\)?\.{re.escape(attr)}\s*(?::[^=\n]*)?=(?!=)"
                                 rf"|\bsetattr\b")
            known = texts is None or any(match.group(1) != "self"
                                         for text in texts.values()
                                         for match in pattern.finditer(text))
            self._outside[attr] = known
        return known


def _known_order(order: list[OrderEntry] | None) -> list[tuple[ClassInfo, ProjectFile]] | None:
    """The project classes of a method resolution order, when every other base is one that
    holds no attributes of its own (None: some base may)."""
    if order is None:
        return None
    known: list[tuple[ClassInfo, ProjectFile]] = []
    for info, owner in order:
        if info is not None and isinstance(owner, ProjectFile):
            known.append((info, owner))
        elif owner not in ATTRIBUTE_FREE_BASES:
            return None
    return known


def _always_read(node: cst.CSTNode) -> list[cst.Attribute]:
    """The attributes `node` reads whenever it runs: not inside a lambda, comprehension,
    conditional expression, boolean operation or nested definition. (Asked of every statement
    a key walk meets: libcst's node classes are final, so exact types are tested, not the
    costlier `isinstance`.)"""
    found: list[cst.Attribute] = []
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        kind = type(current)
        if kind is cst.Attribute:
            attribute = cast(cst.Attribute, current)
            found.append(attribute)
            pending.append(attribute.value)
        elif kind is cst.Call:
            call = cast(cst.Call, current)
            pending.append(call.func)
            pending.extend(arg.value for arg in call.args)
        elif kind is cst.Expr or kind is cst.Arg or kind is cst.Assign:
            pending.append(cast("cst.Expr | cst.Arg | cst.Assign", current).value)
        elif kind is cst.Tuple or kind is cst.List:
            pending.extend(element.value
                           for element in cast("cst.Tuple | cst.List", current).elements)
        elif kind is cst.Subscript:
            pending.append(cast(cst.Subscript, current).value)
        elif kind is cst.BinaryOperation:
            operation = cast(cst.BinaryOperation, current)
            pending.extend((operation.left, operation.right))
    return found


def _given(method: cst.FunctionDef, call: cst.Call, name: str) -> cst.BaseExpression | None:
    """What `call` (building the class) gives `__init__`'s parameter `name`: its argument, or
    the parameter's default where the call gives none (None: unclear)."""
    if any(arg.star for arg in call.args):
        return None
    params = [*method.params.posonly_params, *method.params.params]
    positional = [arg for arg in call.args if arg.keyword is None]
    names = [param.name.value for param in params[1:]]
    for place, arg in enumerate(positional):
        if place < len(names) and names[place] == name:
            return arg.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    for param in (*params, *method.params.kwonly_params):
        if param.name.value == name:
            return param.default
    return None


def _mentions(node: cst.CSTNode, names: tuple[str, ...]) -> bool:
    """A name or attribute name written anywhere in `node` is one of `names`."""
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if type(current) is cst.Name and cast(cst.Name, current).value in names:
            return True
        pending.extend(child_nodes(current))
    return False
