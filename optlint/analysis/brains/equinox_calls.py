"""Equinox: filtering and partitioning, functions that keep a module's shape, `eqx.nn` layers."""

from __future__ import annotations

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.brains.registry import LibraryCall, handles, handles_matching
from optlint.analysis.brains.equinox_leaves import leaves_of_value, nn_leaves
from optlint.analysis.values import (
    ARRAYS,
    UNKNOWN,
    UNKNOWN_LEAVES,
    ModuleValue,
    SequenceValue,
    Value,
    worst_leaves,
)


@handles("equinox.filter", "equinox.partition")
def filter_or_partition(call: LibraryCall) -> Value:
    """`eqx.filter(model, eqx.is_array)` keeps arrays only; `partition` gives that half and the
    rest, which holds the non-array leaves."""
    tree = call.value(0, "pytree")
    if not isinstance(tree, ModuleValue):
        return UNKNOWN
    spec_arg = call.arg(1, "filter_spec")
    spec = call.inference.qualify(spec_arg.value) if spec_arg is not None else None
    arrays_only = spec in apis.ARRAY_FILTERS or (
        spec_arg is not None and _isinstance_array_test(call, spec_arg.value))
    inverse = call.arg(None, "inverse")
    if inverse is not None and not (isinstance(inverse.value, cst.Name)
                                    and inverse.value.value == "False"):
        arrays_only = False
    kept = ModuleValue(tree.class_name, ARRAYS if arrays_only else UNKNOWN_LEAVES,
                       derived_by=call.name, filtered=arrays_only, is_callable=tree.is_callable,
                       made_by=call.call, cls=tree.cls)
    if call.name == "equinox.filter":
        return kept
    rest = ModuleValue(tree.class_name, tree.leaves if arrays_only else UNKNOWN_LEAVES,
                       derived_by=call.name, is_callable=tree.is_callable, made_by=call.call,
                       cls=tree.cls)
    return SequenceValue("tuple", (kept, rest))


@handles(*apis.MODULE_PRESERVING)
def preserved_module(call: LibraryCall) -> Value:
    """`eqx.apply_updates(model, updates)` and the like give back a module like the one given."""
    modules = [call.evaluate(arg.value) for arg in call.call.args if not arg.keyword]
    found = [value for value in modules if isinstance(value, ModuleValue)]
    if not found:
        return UNKNOWN
    if call.name == "equinox.combine":
        # Recombining partitioned halves gives back the original module and its leaves.
        leaves = worst_leaves([value.leaves for value in found])
        return ModuleValue(found[0].class_name, leaves, is_callable=found[0].is_callable,
                           cls=found[0].cls)
    return found[0]


@handles_matching(lambda name: name.startswith("equinox.nn."))
def layer(call: LibraryCall) -> Value:
    name = call.name.rsplit(".", 1)[-1]
    if name in apis.EQUINOX_NN_CONTAINERS:
        layers = call.value(0, "layers")
        if isinstance(layers, SequenceValue):
            return ModuleValue(name, worst_leaves([leaves_of_value(v) for v in layers.items]),
                               is_callable=True)
        return ModuleValue(name, UNKNOWN_LEAVES, is_callable=True)
    if name[:1].isupper():
        return ModuleValue(name, nn_leaves(name), is_callable=True)
    return UNKNOWN


def _isinstance_array_test(call: LibraryCall, spec: cst.BaseExpression) -> bool:
    """A filter written by hand that keeps arrays only, as `eqx.is_array` does:
    `lambda x: isinstance(x, jnp.ndarray)` (or `jax.Array`, `np.ndarray`, a tuple of those)."""
    if not isinstance(spec, cst.Lambda) or len(spec.params.params) != 1:
        return False
    body = spec.body
    if not (isinstance(body, cst.Call) and isinstance(body.func, cst.Name)
            and body.func.value == "isinstance" and len(body.args) == 2):
        return False
    subject, kinds = body.args[0].value, body.args[1].value
    if not (isinstance(subject, cst.Name) and subject.value == spec.params.params[0].name.value):
        return False
    types = [element.value for element in kinds.elements] if isinstance(
        kinds, cst.Tuple) else [kinds]
    return bool(types) and all(
        call.inference.qualify(kind) in apis.ARRAY_ANNOTATIONS for kind in types)
