"""Equinox's leaf model: which leaves a module class holds, read from its fields' values first,
then their annotations; `eqx.field(static=True)` fields are no leaves, `converter=jnp.asarray`
makes an array, `eqx.nn` layers come from their table. A collaborator the evaluator owns, with
its own memos; a class of another file is read by that file's evaluator.
"""

from __future__ import annotations

import weakref
from dataclasses import replace

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.imports import dotted_name
from optlint.analysis.evaluator import Evaluator, owned_by
from optlint.analysis.index import LATER as _LATER
from optlint.analysis.index import ClassInfo, Scope
from optlint.analysis.values import (
    ARRAYS,
    UNKNOWN_LEAVES,
    ArrayValue,
    ClassRef,
    FunctionValue,
    Leaves,
    LibraryRef,
    LiteralValue,
    ModuleValue,
    PartialValue,
    SequenceValue,
    Value,
    worst_leaves,
)

class EquinoxLeaves:
    def __init__(self, evaluator: Evaluator) -> None:
        self._evaluator = weakref.ref(evaluator)  # its owner (see `owned_by`)
        self._leaves_memo: dict[int, Leaves] = {}
        self._module_memo: dict[int, bool] = {}

    @property
    def evaluator(self) -> Evaluator:
        return owned_by(self._evaluator)

    def is_equinox_module(self, info: ClassInfo) -> bool:
        key = id(info)
        if key not in self._module_memo:
            self._module_memo[key] = False  # guards `class A(B)` / `class B(A)` loops
            self._module_memo[key] = any(
                self._base_is_module(base, info.scope) for base in info.bases)
        return self._module_memo[key]

    def class_leaves(self, info: ClassInfo) -> Leaves:
        key = id(info)
        if key not in self._leaves_memo:
            self._leaves_memo[key] = UNKNOWN_LEAVES
            self._leaves_memo[key] = self._compute_class_leaves(info)
        return self._leaves_memo[key]

    def class_is_callable(self, info: ClassInfo) -> bool | None:
        """Whether instances of an Equinox module class are callable; None when a base is unknown."""
        if any(isinstance(item, cst.FunctionDef) and item.name.value == "__call__"
               for item in info.node.body.body):
            return True
        evaluator = self.evaluator
        answers: list[bool | None] = []
        for base in info.bases:
            value = evaluator.as_class(evaluator.value_of(base, info.scope, _LATER))
            if isinstance(value, ClassRef) and evaluator.is_module(value):
                answers.append(evaluator.evaluator_for(value.path).class_is_callable(value.info))
            elif isinstance(value, LibraryRef) and value.name.startswith("equinox.nn."):
                answers.append(True)
            elif evaluator.qualify(base) != "equinox.Module" and not _adds_no_call(
                    evaluator.qualify(base.value if isinstance(base, cst.Subscript) else base)):
                answers.append(None)
        if True in answers:
            return True
        return None if None in answers else False

    def _base_is_module(self, base: cst.BaseExpression, scope: Scope) -> bool:
        evaluator = self.evaluator
        qualified = evaluator.qualify(base)
        if qualified in ("equinox.Module", "equinox.nn.StatefulLayer"):
            return True
        if qualified is not None and qualified.startswith("equinox.nn."):
            return True
        value = evaluator.as_class(evaluator.value_of(base, scope, _LATER))
        return isinstance(value, ClassRef) and evaluator.is_module(value)

    def _compute_class_leaves(self, info: ClassInfo) -> Leaves:
        evaluator = self.evaluator
        found: list[Leaves] = []
        for base in info.bases:
            value = evaluator.as_class(evaluator.value_of(base, info.scope, _LATER))
            if isinstance(value, ClassRef) and evaluator.is_module(value):
                found.append(evaluator.evaluator_for(value.path).class_leaves(value.info))
            elif isinstance(value, LibraryRef) and value.name.startswith("equinox.nn."):
                found.append(nn_leaves(value.name.rsplit(".", 1)[-1]))
        for field in info.fields.values():
            if field.default is not None and self._is_static_field(field.default, info.scope):
                continue
            if field.default is not None and self._converts_to_array(field.default):
                found.append(ARRAYS)
                continue
            leaves = self._field_leaves(info, field.name, field.annotation)
            if leaves.non_array:
                what = leaves.reason or {"callable": "a function", "scalar": "a Python scalar"}[
                    leaves.kind]
                leaves = replace(leaves, reason=f"{info.name}.{field.name}: {what}")
            found.append(leaves)
        return worst_leaves(found)

    def field_holds_arrays(self, info: ClassInfo, name: str) -> bool | None:
        """Whether the declared field `name` of a module class is an array leaf (or a module of
        array leaves): False for a static field or non-array leaves, None when it cannot be told."""
        field = info.fields.get(name)
        if field is None:
            return None
        if field.default is not None and self._is_static_field(field.default, info.scope):
            return False
        if field.default is not None and self._converts_to_array(field.default):
            return True
        leaves = self._field_leaves(info, name, field.annotation)
        if leaves.kind == "unknown":
            return None
        return leaves.kind == "arrays"

    def field_value(self, info: ClassInfo, name: str) -> Value | Leaves:
        """What field `name` of a module class holds: the value last assigned to it, else an
        instance of its annotation (a list of one for `list[Block]`), else its leaves as the
        annotation says (an array, a scalar, a function); UNKNOWN_LEAVES when none tells."""
        bindings = info.attributes.get(name)
        if bindings:
            value = self.evaluator.value_of_binding(bindings[-1])
            if isinstance(value, (ModuleValue, SequenceValue)):
                return value
        field = info.fields.get(name)
        annotation = field.annotation if field is not None else None
        if annotation is not None:
            instance = self._annotated_instance(annotation, info.scope)
            if instance is not None:
                return instance
        return self._field_leaves(info, name, annotation)

    def _annotated_instance(self, annotation: cst.BaseExpression,
                            scope: Scope) -> Value | None:
        if isinstance(annotation, cst.Subscript):
            head = dotted_name(annotation.value) or ""
            if head.rsplit(".", 1)[-1] not in ("list", "List", "tuple", "Tuple", "Sequence"):
                return None
            inner = [element.slice.value for element in annotation.slice
                     if isinstance(element.slice, cst.Index)
                     and not isinstance(element.slice.value, cst.Ellipsis)]
            items = [self._annotated_instance(item, scope) for item in inner]
            if not items or any(item is None for item in items):
                return None
            return SequenceValue("list", tuple(item for item in items if item is not None))
        if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            return None
        evaluator = self.evaluator
        value = evaluator.instance_of(evaluator.value_of(annotation, scope, _LATER))
        return value if isinstance(value, ModuleValue) else None

    def _is_static_field(self, default: cst.BaseExpression, scope: Scope) -> bool:
        """`eqx.field(static=True)` and `eqx.static_field()` are not leaves at all."""
        if not isinstance(default, cst.Call):
            return False
        name = self.evaluator.qualify(default.func)
        if name == "equinox.static_field":
            return True
        static = argument(default, None, "static")
        return (name == "equinox.field" and static is not None
                and isinstance(static.value, cst.Name) and static.value.value == "True")

    def _converts_to_array(self, default: cst.BaseExpression) -> bool:
        """`eqx.field(converter=jnp.asarray)`: whatever is assigned, the field holds an array."""
        evaluator = self.evaluator
        if not isinstance(default, cst.Call) or evaluator.qualify(default.func) != "equinox.field":
            return False
        converter = argument(default, None, "converter")
        name = evaluator.qualify(converter.value) if converter is not None else None
        return name is not None and apis.returns_array(name)

    def _field_leaves(self, info: ClassInfo, name: str,
                      annotation: cst.BaseExpression | None) -> Leaves:
        bindings = info.attributes.get(name)
        if bindings:
            value = self.evaluator.value_of_binding(bindings[-1])
            leaves = leaves_of_value(value)
            if leaves.kind != "unknown":
                return leaves
        if annotation is None:
            return UNKNOWN_LEAVES
        return self._annotation_leaves(annotation, info.scope)

    def _annotation_leaves(self, annotation: cst.BaseExpression, scope: Scope) -> Leaves:
        if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            return UNKNOWN_LEAVES  # a forward reference; not worth parsing
        evaluator = self.evaluator
        qualified = evaluator.qualify(annotation)
        plain = dotted_name(annotation)
        if isinstance(annotation, cst.Subscript):
            return self._generic_leaves(annotation, scope)
        if qualified in apis.CALLABLE_ANNOTATIONS or plain in apis.CALLABLE_ANNOTATIONS:
            return Leaves("callable")
        if qualified in apis.ARRAY_ANNOTATIONS or plain in apis.ARRAY_ANNOTATIONS:
            return ARRAYS
        if plain in apis.SCALAR_ANNOTATIONS and qualified is None:
            return Leaves("scalar", scalar_types=frozenset({plain}))
        return leaves_of_value(evaluator.instance_of(evaluator.value_of(annotation, scope,
                                                                         _LATER)))

    def _generic_leaves(self, annotation: cst.Subscript, scope: Scope) -> Leaves:
        head = self.evaluator.qualify(annotation.value) or dotted_name(annotation.value) or ""
        short = head.rsplit(".", 1)[-1]
        if head in apis.CALLABLE_ANNOTATIONS or short == "Callable":
            return Leaves("callable")
        if head.startswith("jaxtyping.") or short in ("Float", "Int", "Bool", "Shaped", "Array"):
            return ARRAYS
        inner = [element.slice.value for element in annotation.slice
                 if isinstance(element.slice, cst.Index)]
        if short in ("dict", "Dict", "Mapping") and len(inner) == 2:
            inner = inner[1:]  # the keys are the tree's structure, not its leaves
        if short in ("list", "List", "tuple", "Tuple", "Sequence", "Optional", "Union", "dict",
                     "Dict", "Mapping"):
            parts = [self._annotation_leaves(item, scope) for item in inner
                     if not (isinstance(item, cst.Ellipsis) or dotted_name(item) == "None")]
            return worst_leaves(parts) if parts else UNKNOWN_LEAVES
        return UNKNOWN_LEAVES


def nn_leaves(layer: str) -> Leaves:
    kind = apis.EQUINOX_NN_LEAVES.get(layer)
    if kind == "callable":
        return Leaves("callable", f"eqx.nn.{layer} holds functions")
    if kind == "scalar":
        return Leaves("scalar", f"eqx.nn.{layer} holds Python scalars",
                      apis.EQUINOX_NN_SCALARS.get(layer, frozenset()))
    if kind == "arrays":
        return ARRAYS
    return UNKNOWN_LEAVES


def leaves_of_value(value: Value) -> Leaves:
    """The leaves a value contributes when stored in a module field."""
    if isinstance(value, ModuleValue):
        return value.leaves
    if isinstance(value, FunctionValue):
        # A `def` or lambda is a types.FunctionType; reached through an object, a bound method.
        return Leaves("callable", "a function",
                      callable_types=frozenset({"method" if value.bound else "function"}))
    if isinstance(value, PartialValue):
        return Leaves("callable", "a function", callable_types=frozenset({"partial"}))
    if isinstance(value, LibraryRef):
        leaf = value.name.rsplit(".", 1)[-1]
        if value.name.startswith(("jax.nn.", "jax.numpy.", "equinox.nn.functional")) and leaf[:1].islower():
            known = apis.JAX_CALLABLE_TYPES.get(value.name)
            return Leaves("callable", f"function {value.name}",
                          callable_types=frozenset({known}) if known else frozenset())
        return UNKNOWN_LEAVES
    if isinstance(value, LiteralValue) and value.kind in ("number", "bool", "string"):
        text = value.text if value.kind != "string" else ""
        return Leaves("scalar", f"Python {value.kind} {text}".rstrip(),
                      frozenset({_literal_type(value)}))
    if isinstance(value, SequenceValue):
        return worst_leaves([leaves_of_value(item) for item in value.items])
    if isinstance(value, ArrayValue):
        return ARRAYS
    return UNKNOWN_LEAVES


def _literal_type(value: LiteralValue) -> str:
    """"int", "float", "complex", "bool" or "str" for a literal (`3`, `0.5`, `1e-3`, `2j`)."""
    if value.kind == "bool":
        return "bool"
    if value.kind == "string":
        return "str"
    text = value.text.lower()
    if text.endswith("j"):
        return "complex"
    is_hex = text.lstrip("-+").startswith(("0x", "0o", "0b"))
    return "float" if not is_hex and any(c in text for c in ".e") or "inf" in text or (
        "nan" in text) else "int"


# Bases that give a class no `__call__` (`class Params(eqx.Module, Generic[T])`).
_NO_CALL_BASES = {"typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "abc.ABC",
                  "object"}


def _adds_no_call(qualified: str | None) -> bool:
    return qualified in _NO_CALL_BASES
