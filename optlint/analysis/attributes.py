"""Attributes: what `obj.attr` holds. An imported name's attribute (`optax.adamw`), a field of a
configuration object (its construction's argument, else the class default), an attribute a class
sets on `self` (preferring `__init__`'s assignment, but not a `None` placeholder set for real in
another method, nor a rebuild from itself such as `self.params = apply_updates(self.params,
...)`), and a method. A collaborator the evaluator owns; a class of another file is read by that
file's evaluator.
"""

from __future__ import annotations

import weakref

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.brains.optax_calls import state_attribute
from optlint.analysis.evaluator import Evaluator, owned_by
from optlint.analysis.imports import dotted_name
from optlint.analysis.library_param_paths import pretrained_params
from optlint.analysis.index import LATER as _LATER
from optlint.analysis.index import Binding, ClassInfo, Scope
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.values import (
    UNKNOWN,
    ClassRef,
    FunctionValue,
    InstanceValue,
    LibraryRef,
    ModuleValue,
    StateValue,
    Value,
)

class AttributeValues:
    def __init__(self, evaluator: Evaluator) -> None:
        self._evaluator = weakref.ref(evaluator)  # its owner (see `owned_by`)

    @property
    def evaluator(self) -> Evaluator:
        return owned_by(self._evaluator)

    def of_expression(self, expr: cst.Attribute, scope: Scope, order: int) -> Value:
        evaluator = self.evaluator
        attr = expr.attr.value
        if isinstance(expr.value, cst.Name):
            method_scope = _method_scope(scope)
            if method_scope is not None and expr.value.value == method_scope.self_name:
                owner = method_scope.owner
                assert owner is not None
                instance = evaluator.frame.get(_self_param(method_scope))
                if isinstance(instance, InstanceValue):
                    # A method followed for a call on a configuration object: its fields.
                    field = self._config_field(instance, attr)
                    if field is not UNKNOWN:
                        return field
                return self.of_class(owner, attr)
        qualified = evaluator.index.imports.qualify(expr)
        if qualified is not None and evaluator.lookup(dotted_root(expr), scope, order) is None:
            return LibraryRef(qualified, evaluator.path)
        base = evaluator.value_of(expr.value, scope, order)
        if isinstance(base, InstanceValue):
            params = pretrained_params(evaluator.evaluator_for(base.path), base, attr)
            if params is not None:
                return params
            field = self._config_field(base, attr)
            if field is not UNKNOWN:
                return field
            return evaluator.evaluator_for(base.path).attribute_of_class(base.info, attr)
        if isinstance(base, ModuleValue) and base.derived_by is None and base.cls is not None:
            return evaluator.evaluator_for(base.cls.path).attribute_of_class(base.cls.info, attr)
        if isinstance(base, LibraryRef):
            return LibraryRef(apis.canonical_name(f"{base.name}.{attr}"), base.origin)
        if isinstance(base, StateValue):
            return state_attribute(base, attr)
        return UNKNOWN

    def of_class(self, info: ClassInfo, attr: str, seen: set[int] | None = None) -> Value:
        """What `attr` of class `info` (of this evaluator's file) holds."""
        owner = self.evaluator
        bindings = info.attributes.get(attr)
        if bindings:
            binding = bindings[-1]
            # `__init__` is where attributes are set up; prefer its assignment when there is one.
            for candidate in bindings:
                # `self.params = None` in `__init__`, set for real in `setup`: a placeholder.
                if _is_init(candidate.scope) and not (
                        _is_none(candidate.value) and len(bindings) > 1):
                    binding = candidate
            value = owner.value_of_binding(binding)
            if value is UNKNOWN and _reads_attribute(binding, attr):
                # `self.params = apply_updates(self.params, ...)`: rebuilt from itself, so what
                # it was first assigned elsewhere.
                others = (owner.value_of_binding(other) for other in bindings
                          if other is not binding and not _reads_attribute(other, attr)
                          and not _is_none(other.value))
                value = next((other for other in others if other is not UNKNOWN), UNKNOWN)
            return value
        field = info.fields.get(attr)
        if field is not None and field.annotation is not None:
            return owner.instance_of(owner.value_of(field.annotation, info.scope, _LATER))
        method = _method(info, attr)
        if method is not None:
            return FunctionValue(method, bound=True)
        static = _method(info, attr, "staticmethod")
        if static is not None:
            return FunctionValue(static)
        return self._inherited(info, attr, seen or set())

    def _inherited(self, info: ClassInfo, attr: str, seen: set[int]) -> Value:
        """`attr` of a base class of the same file (`class Ice(Noise): pass`), in order."""
        seen.add(id(info))
        for base in info.bases:
            base_info = (self.evaluator.index.classes.get(base.value)
                         if isinstance(base, cst.Name) else None)
            if base_info is None or id(base_info) in seen or base_info.scope is not info.scope:
                continue
            value = self.of_class(base_info, attr, seen)
            if value is not UNKNOWN:
                return value
        return UNKNOWN

    def _config_field(self, instance: InstanceValue, attr: str) -> Value:
        """A field of a dataclass or NamedTuple instance (a configuration object): what its
        construction passes for it, else the class default (`TrainConfig(lr=1e-2).momentum` is
        the `momentum: float = 0.9` of the class). UNKNOWN where the construction is not seen,
        passes `*args`/`**kwargs`, or the class is neither (a custom `__init__` may set anything)."""
        info = instance.info
        field = info.fields.get(attr)
        if field is None or instance.made is None:
            return UNKNOWN
        owner = self.evaluator.evaluator_for(instance.path)  # the class's file
        if not _is_config_class(owner, info):
            return UNKNOWN
        call, scope, order, caller = instance.made
        if any(arg.star for arg in call.args):
            return UNKNOWN
        position = list(info.fields).index(attr)
        passed = argument(call, position, attr)
        if passed is not None:
            return owner.evaluator_for(caller).value_of(passed.value, scope, order)
        default = field.default
        if isinstance(default, cst.Call) and (owner.qualify(default.func) or "").endswith(
                "field"):
            given = argument(default, None, "default")
            factory = argument(default, None, "default_factory")
            if given is None and factory is not None:
                return _made_by_default(owner, factory.value, info)
            default = given.value if given is not None else None
        if default is None:
            return UNKNOWN
        return owner.value_of(default, info.scope, _LATER)


def _made_by_default(owner: Evaluator, factory: cst.BaseExpression, info: ClassInfo) -> Value:
    """`field(default_factory=TrainerConfig)` in a class of `owner`'s file: an instance with its
    class defaults."""
    made = owner.as_class(owner.value_of(factory, info.scope, _LATER))
    if not isinstance(made, ClassRef) or owner.is_module(made):
        return UNKNOWN
    return InstanceValue(made.info, made.path,
                         (cst.Call(cst.Name(made.info.name)), info.scope, _LATER, owner.path))


def _self_param(method_scope: Scope) -> int:
    """The id of a method's first parameter (how a followed call's frame holds `self`)."""
    method = method_scope.node
    params = method.params.params if isinstance(method, cst.FunctionDef) else ()
    return id(params[0]) if params else 0


def plain_method(info: ClassInfo, name: str) -> cst.FunctionDef | None:
    """The plain method `name` the class defines itself (not a static, class method or
    property)."""
    return _method(info, name)


def _method(info: ClassInfo, name: str, decorator: str | None = None) -> cst.FunctionDef | None:
    """The `def name` in the class body (not inherited: a base may be anywhere): a plain
    method, or with `decorator` one decorated with it alone (`staticmethod`)."""
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == name:
            kinds = method_kinds(item)
            if decorator is not None:
                return item if kinds == {decorator} and len(item.decorators) == 1 else None
            plain = not kinds and not any(
                isinstance(d.decorator, cst.Name) and d.decorator.value == "property"
                for d in item.decorators)
            return item if plain else None
    return None


def _is_config_class(inference: Evaluator, info: ClassInfo) -> bool:
    """A dataclass (any decorator spelled `...dataclass`) or a typing.NamedTuple: its fields are
    the constructor's parameters, in order, with the class defaults."""
    for decorator in info.node.decorators:
        target = decorator.decorator
        target = target.func if isinstance(target, cst.Call) else target
        name = inference.qualify(target) or dotted_name(target) or ""
        if name.endswith("dataclass"):
            return True
    return any((inference.qualify(base) or dotted_name(base) or "").endswith("NamedTuple")
               for base in info.bases)


def _method_scope(scope: Scope) -> Scope | None:
    current: Scope | None = scope
    while current is not None:
        if current.self_name is not None:
            return current
        current = current.parent
    return None


def _is_none(value: cst.BaseExpression | None) -> bool:
    return isinstance(value, cst.Name) and value.value == "None"


def _reads_attribute(binding: Binding, attr: str) -> bool:
    """Whether the assigned value reads `<self>.attr` (the attribute it is assigned to)."""
    scope = binding.scope
    self_name = scope.self_name if scope is not None else None
    stack: list[cst.CSTNode] = [binding.value] if binding.value is not None else []
    while stack:
        node = stack.pop()
        if (isinstance(node, cst.Attribute) and node.attr.value == attr
                and isinstance(node.value, cst.Name) and node.value.value == self_name):
            return True
        stack.extend(node.children)
    return False


def _is_init(scope: Scope | None) -> bool:
    return (scope is not None and isinstance(scope.node, cst.FunctionDef)
            and scope.node.name.value == "__init__")


def dotted_root(expr: cst.Attribute) -> str:
    node: cst.BaseExpression = expr
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""
