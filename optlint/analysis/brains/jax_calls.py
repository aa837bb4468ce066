"""JAX: function transformations, `tree_map`, and the functions that return arrays."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.brains.equinox_calls import keeps_non_arrays
from optlint.analysis.brains.registry import LibraryCall, handles, handles_matching
from optlint.analysis.values import (
    UNKNOWN,
    UNKNOWN_LEAVES,
    ArrayValue,
    LiteralValue,
    LibraryRef,
    ModuleValue,
    OneOf,
    PartialValue,
    TransformedFunction,
    TransformValue,
    Value,
)


@handles(*apis.JAX_FUNCTION_TRANSFORMS, *apis.FILTERING_FUNCTION_TRANSFORMS)
def function_transform(call: LibraryCall) -> Value:
    """`jax.jit(f)` (and Equinox's filtered versions) wrap a function; `jax.jit(static_argnums=1)`
    without one is a decorator waiting for it."""
    if call.arg(0, "fun") is None:
        return PartialValue(LibraryRef(call.name), call.call)
    return TransformedFunction(call.name, call.value(0, "fun"), call.call)


@handles(*apis.VECTORIZING_TRANSFORMS)
def vectorized(call: LibraryCall) -> Value:
    """`jax.vmap(model)`: calling it calls the module; `jax.vmap(opt.update)`: calling it runs
    the optimizer's method, batched (other functions are left to the generic paths)."""
    module = call.value(0, "fun")
    if isinstance(module, ModuleValue):
        return TransformedFunction(call.name, module, call.call)
    fun = call.arg(0, "fun")
    if fun is not None and isinstance(fun.value, cst.Attribute) and isinstance(
            call.evaluate(fun.value.value), (TransformValue, OneOf)):
        return TransformedFunction(call.name, module, call.call)
    return UNKNOWN


# The mappers that call their function on each leaf alone (not `tree_at`, not `_with_path`).
_LEAF_MAPPERS = frozenset(name for name in apis.TREE_MAPPERS
                          if "tree_at" not in name and "with_path" not in name)


@handles(*apis.TREE_MAPPERS)
def tree_mapper(call: LibraryCall) -> Value:
    """`tree_map(f, model)` / `eqx.tree_at(where, model, ...)`: a pytree shaped like the module,
    so an instance of its class (callable when the class is), with leaves no longer known.
    Mapped over a filtered module it is still filtered: None leaves stay None, and the module
    that was filtered stays known (where the filter is in another file)."""
    keyword = "pytree" if "tree_at" in call.name else "tree"
    tree = call.value(apis.TREE_MAPPERS[call.name], keyword)
    if (isinstance(tree, ModuleValue) and not tree.filtered and call.name in _LEAF_MAPPERS
            and keeps_non_arrays(call.inference, call.value(0, "f"))):
        # `tree_map(lambda a: a * s if eqx.is_array(a) else a, model)`: a model like the one
        # given, its non-array fields the same objects (its arrays, and their dtypes, new).
        return replace(tree, made_by=call.call)
    if isinstance(tree, ModuleValue):
        return ModuleValue(tree.class_name, UNKNOWN_LEAVES, derived_by=call.name,
                           filtered=tree.filtered, is_callable=tree.is_callable,
                           made_by=call.call, source=tree.source if tree.filtered else None)
    return UNKNOWN


@handles("jax.numpy.dtype", "numpy.dtype")
def dtype_object(call: LibraryCall) -> Value:
    """`jnp.dtype("bfloat16")` / `jnp.dtype(jnp.bfloat16)`: the dtype it is given, as far as a
    dtype's name goes."""
    given = call.value(0, "dtype")
    return given if isinstance(given, (LiteralValue, LibraryRef)) else UNKNOWN


@handles_matching(apis.returns_array)
def array(call: LibraryCall) -> Value:
    return ArrayValue(call.name)
