"""OPT019 static-array-field: `eqx.field(static=True)` on a field of an Equinox module that holds a
JAX array.

A static field is no pytree leaf: it is kept in the tree's structure. Measured on equinox 0.13.8 /
jax 0.10.2: the array gets no gradient and is never trained; it is compiled into every jitted
program as a constant (a 2000x2000 float32 table made the lowered program 32 MB of text instead of
708 characters, and the first call twice as slow); and `eqx.filter_jit` compares static parts by
`==`, so a model holding an equal but different array object (a reloaded checkpoint, a rebuilt
model) raises `ValueError: static arguments should be comparable using __eq__`, while
`jax.jit(..., static_argnums=...)` over the static half raises `Non-hashable static arguments`.
Equinox only warns ("A JAX array is being set as static!", equinox >= 0.11.6) when an instance is
built. NumPy arrays are left alone: a static NumPy array is also warned about, but is a deliberate
pattern for compile-time constants (equinox #863).

The array-ness is read from the field's annotation (`jax.Array`, `jnp.ndarray`, jaxtyping's
`Float[Array, "..."]`), its `converter=` (`jnp.asarray`), or what `__init__` assigns to it (a
`jnp`/`jax.random` call, or a parameter annotated as a JAX array). (A JAX array as `default=`
is rejected by `dataclasses` itself: "mutable default ... is not allowed".)
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.imports import dotted_name
from optlint.analysis.index import Binding, ClassInfo, FieldInfo
from optlint.analysis.library_names import (
    EQUINOX_FIELD,
    EQUINOX_NN_PREFIX,
    EQUINOX_STATIC_FIELD,
    JAXTYPING_PREFIX,
    JAX_ARRAY_ANNOTATIONS,
    JAX_ARRAY_NAMESPACES,
    JAX_CONVERTERS,
)
from optlint.analysis.values import ArrayValue, ModuleValue, SequenceOf, SequenceValue, Unknown
from optlint.context import RuleContext
from optlint.rules.base import Finding, Rule, RuntimeCheck

JAXTYPING_DTYPES = {"Float", "Int", "Bool", "Shaped", "Inexact", "Num", "Real", "Complex", "Key",
                    "UInt", "Integer", "Float32", "Float64", "Float16", "BFloat16", "Int32",
                    "Int64", "Int8", "UInt8", "UInt32"}


class StaticArrayField(Rule):
    code = "OPT019"
    runtime_check = RuntimeCheck(builds="instance", probe="model_fields:static_array_stays_put")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for info in ctx.index.classes.values():
            static = [(field, marker) for field in info.fields.values()
                      if (marker := _static_marker(ctx, field)) is not None]
            # Whether the class is a module is asked last: its bases may be in other files.
            if not static or not ctx.inference.is_equinox_module(info):
                continue
            for field, marker in static:
                found = _jax_array_evidence(ctx, info, field)
                if found is not None:
                    evidence, unproven = found
                    yield Finding(marker, _message(info, field, evidence), unproven=unproven,
                                  fix_title=_ADVICE, values={"field": field.name})


def _static_marker(ctx: RuleContext, field: FieldInfo) -> cst.CSTNode | None:
    """The `static=True` argument (or the `eqx.static_field()` call) that makes the field static."""
    default = field.default
    if not isinstance(default, cst.Call):
        return None
    name = ctx.qualify(default.func)
    if name == EQUINOX_STATIC_FIELD:
        return default
    static = argument(default, None, "static")
    if (name == EQUINOX_FIELD and static is not None and isinstance(static.value, cst.Name)
            and static.value.value == "True"):
        return static
    return None


def _jax_array_evidence(ctx: RuleContext, info: ClassInfo,
                        field: FieldInfo) -> tuple[str, str | None] | None:
    """Why the field holds a JAX array, and what could not be seen when only its annotation says
    so while `__init__` assigns something unresolved (real code annotates NumPy tables `Array`);
    None when it is not an array or nothing says it is."""
    call = field.default
    assert isinstance(call, cst.Call)
    converter = argument(call, None, "converter")
    if converter is not None and ctx.qualify(converter.value) in JAX_CONVERTERS:
        return f"converter={ctx.code(converter.value)}", None
    assigned = _assigned(info, field.name)
    unproven = None
    if assigned is not None:
        evidence = _assigned_evidence(ctx, assigned)
        if evidence is None:
            return None  # known to be something else
        if evidence:
            return evidence, None
        unproven = "what `__init__` assigns could not be seen; it may be a NumPy array"
    elif argument(call, None, "default") is not None:
        return None  # a default (`None`) that is no JAX array: dataclasses rejects those
    if field.annotation is not None and _names_jax_array(ctx, field.annotation):
        return f"annotated `{ctx.code(field.annotation)}`", unproven
    if field.annotation is not None and _names_layers(ctx, field.annotation):
        # Layers are JAX arrays and Equinox modules, never NumPy tables.
        return (f"annotated `{ctx.code(field.annotation)}`: layers whose weights are JAX "
                "arrays", None)
    return None


_CONTAINERS = {"list", "List", "tuple", "Tuple", "Sequence", "Optional"}


def _names_layers(ctx: RuleContext, annotation: cst.BaseExpression) -> bool:
    """`list[eqx.nn.Linear]`, `tuple[eqx.nn.Conv2d, ...]`, `eqx.nn.Linear | None`: `eqx.nn`
    layers that hold arrays (from the Equinox table), or a container of them."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator,
                                                                  cst.BitOr):
        return _names_layers(ctx, annotation.left) or _names_layers(ctx, annotation.right)
    if isinstance(annotation, cst.Subscript):
        head = (dotted_name(annotation.value) or "").rsplit(".", 1)[-1]
        return head in _CONTAINERS and any(
            isinstance(item.slice, cst.Index) and _names_layers(ctx, item.slice.value)
            for item in annotation.slice)
    name = ctx.qualify(annotation) or ""
    layer = name.removeprefix(EQUINOX_NN_PREFIX)
    return (name.startswith(EQUINOX_NN_PREFIX) and layer in apis.EQUINOX_NN_LEAVES
            and layer not in apis.EQUINOX_NN_WITHOUT_ARRAYS)


def _assigned(info: ClassInfo, name: str) -> Binding | None:
    """The last `self.name = ...` in `__init__` (what every instance is built with)."""
    found = [binding for binding in info.attributes.get(name, [])
             if binding.scope is not None and isinstance(binding.scope.node, cst.FunctionDef)
             and binding.scope.node.name.value == "__init__" and not binding.path]
    return found[-1] if found else None


def _assigned_evidence(ctx: RuleContext, binding: Binding) -> str | None:
    """Why what `__init__` assigns is a JAX array; None when it is known to be something else;
    "" when it cannot be told (the field's annotation then decides)."""
    expr = binding.value
    if expr is None or binding.scope is None:
        return ""
    if isinstance(expr, cst.Name):
        earlier = [b for b in binding.scope.bindings.get(expr.value, [])
                   if b.order < binding.order]
        if len(earlier) == 1 and earlier[0].kind == "param":
            # `self.table = table`: the parameter's annotation says, not its callers (asking
            # them means parsing every file that may construct the class).
            param = earlier[0].node
            annotation = param.annotation.annotation if isinstance(
                param, cst.Param) and param.annotation is not None else None
            if annotation is not None and _names_jax_array(ctx, annotation):
                return f"`__init__` assigns its parameter `{expr.value}: {ctx.code(annotation)}`"
            return ""
    value = ctx.inference.value_of(expr, binding.scope, binding.order)
    if _is_jax_array(value):
        return f"`__init__` assigns `{ctx.code(expr)}`"
    # A comprehension's list may be empty: its annotation decides, as for a value not seen.
    return "" if isinstance(value, (Unknown, SequenceOf)) else None


def _is_jax_array(value: object) -> bool:
    """A JAX array, an `eqx.nn` layer holding them, or a list or tuple with one of those."""
    if isinstance(value, SequenceValue):
        return any(_is_jax_array(item) for item in value.items)
    if isinstance(value, ModuleValue) and value.cls is None and value.derived_by is None:
        return (value.class_name in apis.EQUINOX_NN_LEAVES
                and value.class_name not in apis.EQUINOX_NN_WITHOUT_ARRAYS)
    return isinstance(value, ArrayValue) and value.made_by.startswith(JAX_ARRAY_NAMESPACES)


def _names_jax_array(ctx: RuleContext, annotation: cst.BaseExpression) -> bool:
    """`jax.Array`, `jnp.ndarray`, `Float[Array, "n"]`; not NumPy arrays, not `ArrayLike` (which
    admits Python scalars), not `Optional[...]`."""
    if isinstance(annotation, cst.Subscript):
        head = ctx.qualify(annotation.value) or dotted_name(annotation.value) or ""
        if not (head.startswith(JAXTYPING_PREFIX) and head.rsplit(".", 1)[-1] in JAXTYPING_DTYPES):
            return False
        first = annotation.slice[0].slice if annotation.slice else None
        return isinstance(first, cst.Index) and _names_jax_array(ctx, first.value)
    return ctx.qualify(annotation) in JAX_ARRAY_ANNOTATIONS


def _message(info: ClassInfo, field: FieldInfo, evidence: str) -> str:
    return (f"`{info.name}.{field.name}` holds a JAX array ({evidence}) but is a static field: "
            "it is never trained (no gradient), it is compiled into every jitted program as a "
            "constant, and `eqx.filter_jit` raises ValueError when given a model holding an "
            "equal copy of a non-scalar one (a reloaded checkpoint); Equinox only warns")


_ADVICE = "Keep it a leaf (freeze it with `jax.lax.stop_gradient`)"
