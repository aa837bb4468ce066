"""Equinox: filtering and partitioning, functions that keep a module's shape, `eqx.nn` layers."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.brains.registry import LibraryCall, handles, handles_matching
from optlint.analysis.brains.equinox_leaves import leaves_of_value, nn_leaves
from optlint.analysis.index import Scope
from optlint.analysis.values import (
    ARRAYS,
    Leaves,
    FunctionValue,
    LibraryRef,
    UNKNOWN,
    UNKNOWN_LEAVES,
    ModuleValue,
    ParamTree,
    SequenceValue,
    Value,
    worst_leaves,
)

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator


@handles("equinox.filter", "equinox.partition")
def filter_or_partition(call: LibraryCall) -> Value:
    """`eqx.filter(model, eqx.is_array)` keeps arrays only; `partition` gives that half and the
    rest, which holds the non-array leaves."""
    tree = call.value(0, "pytree")
    if not isinstance(tree, ModuleValue):
        return UNKNOWN
    spec_arg = call.arg(1, "filter_spec")
    spec = filter_spec_kind(call.inference, spec_arg.value, call.scope,
                            call.order) if spec_arg is not None else None
    inverse = call.arg(None, "inverse")
    if inverse is not None and not (isinstance(inverse.value, cst.Name)
                                    and inverse.value.value == "False"):
        spec = None
    arrays_only = spec == "arrays"
    kept_leaves = ARRAYS if arrays_only else UNKNOWN_LEAVES
    if spec == apis.NOT_PYTHON_FUNCTIONS:
        kept_leaves = _without_python_functions(tree.leaves)
    kept = ModuleValue(tree.class_name, kept_leaves,
                       derived_by=call.name, filtered=arrays_only, is_callable=tree.is_callable,
                       made_by=call.call, cls=tree.cls, kept=spec,
                       source=tree if tree.derived_by is None else None)
    if call.name == "equinox.filter":
        return kept
    rest = ModuleValue(tree.class_name, tree.leaves if arrays_only else UNKNOWN_LEAVES,
                       derived_by=call.name, is_callable=tree.is_callable, made_by=call.call,
                       cls=tree.cls)
    return SequenceValue("tuple", (kept, rest))


def filter_spec_kind(inference: Evaluator, spec: cst.BaseExpression, scope: Scope,
                     order: int) -> str | None:
    """What a filter spec keeps (a value of `apis.FILTER_SPECS`): `eqx.is_array`, a name bound to
    it (in this file or another), or a predicate written by hand (`lambda t: isinstance(t,
    jnp.ndarray)`, a `def` returning `eqx.is_array(x)`); None when it cannot be read."""
    value = inference.value_of(spec, scope, order)
    if isinstance(value, LibraryRef):
        return apis.FILTER_SPECS.get(value.name)
    if isinstance(value, FunctionValue):
        tested = _predicate_body(value.node)
        if tested is not None:
            return _test_kind(inference, *tested)
    return None


def keeps_non_arrays(inference: Evaluator, function: Value) -> bool:
    """Whether `function`, mapped over a tree, gives each non-array leaf back unchanged: `lambda
    a: g(a) if eqx.is_array(a) else a` (so a module mapped with it keeps its non-array fields)."""
    if not isinstance(function, FunctionValue):
        return False
    body = _predicate_body(function.node)
    if body is None or not isinstance(body[1], cst.IfExp):
        return False
    param, choice = body[0], body[1]
    scope = inference.index.functions.get(function.node)
    return (isinstance(choice.orelse, cst.Name) and choice.orelse.value == param
            and scope is not None and _test_kind(inference, param, choice.test) == "arrays")


def _predicate_body(node: cst.FunctionDef | cst.Lambda) -> tuple[str, cst.BaseExpression] | None:
    """The parameter and returned expression of a one-expression predicate."""
    params = node.params.params
    if len(params) != 1:
        return None
    if isinstance(node, cst.Lambda):
        return params[0].name.value, node.body
    body = node.body.body
    if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1:
        statement = body[0].body[0]
        if isinstance(statement, cst.Return) and statement.value is not None:
            return params[0].name.value, statement.value
    return None


def _test_kind(inference: Evaluator, param: str, test: cst.BaseExpression) -> str | None:
    """What `isinstance(param, T)` or `eqx.is_array(param)` keeps; `not isinstance(param,
    types.FunctionType)`: everything but Python functions."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = test.expression
        if (isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name)
                and inner.func.value == "isinstance" and len(inner.args) == 2
                and isinstance(inner.args[0].value, cst.Name)
                and inner.args[0].value.value == param):
            kinds = inner.args[1].value
            types = ([element.value for element in kinds.elements]
                     if isinstance(kinds, cst.Tuple) else [kinds])
            if all(inference.qualify(t) in apis.PYTHON_FUNCTION_TYPES for t in types):
                return apis.NOT_PYTHON_FUNCTIONS
        return None
    if not (isinstance(test, cst.Call) and len(test.args) >= 1
            and isinstance(test.args[0].value, cst.Name) and test.args[0].value.value == param):
        return None
    if isinstance(test.func, cst.Name) and test.func.value == "isinstance" and len(test.args) == 2:
        kinds = test.args[1].value
        types = ([element.value for element in kinds.elements]
                 if isinstance(kinds, cst.Tuple) else [kinds])
        scalars = sum(isinstance(t, cst.Name) and t.value in apis.PYTHON_SCALAR_TYPES
                      for t in types)
        arrays = sum(inference.qualify(t) in apis.ARRAY_TYPES for t in types)
        if not arrays or arrays + scalars != len(types):
            return None  # a type it cannot read: it may keep anything
        return "array_like" if scalars else "arrays"
    if len(test.args) == 1:
        return apis.FILTER_SPECS.get(inference.qualify(test.func) or "")
    return None


@handles(*apis.MODULE_PRESERVING)
def preserved_module(call: LibraryCall) -> Value:
    """`eqx.apply_updates(model, updates)` and the like give back a module like the one given."""
    modules = [call.evaluate(arg.value) for arg in call.call.args if not arg.keyword]
    found = [value for value in modules if isinstance(value, ModuleValue)]
    if not found:
        # `optax.apply_updates(params, updates)` over a Flax / Haiku tree: the same paths.
        trees = [value for value in modules[:1] if isinstance(value, ParamTree)]
        return trees[0] if trees else UNKNOWN
    if call.name == "equinox.combine":
        # Recombining partitioned halves gives back the original module and its leaves.
        leaves = worst_leaves([value.leaves for value in found])
        return ModuleValue(found[0].class_name, leaves, is_callable=found[0].is_callable,
                           cls=found[0].cls)
    if found[0].filtered and call.name in apis.TREE_REBUILDERS:
        # `optax.apply_updates(eqx.filter(model, eqx.is_array), updates)`: a new tree, still
        # holding None where the model's non-array fields were.
        return ModuleValue(found[0].class_name, found[0].leaves, derived_by=call.name,
                           filtered=True, is_callable=found[0].is_callable,
                           made_by=call.call, cls=found[0].cls, source=found[0].source)
    switch = apis.INFERENCE_SWITCHES.get(call.name)
    if switch is not None:  # a literal `value` sets the mode; any other leaves it unknown
        given = call.arg(switch[0], switch[1])
        value = switch[2] if given is None else (
            isinstance(given.value, cst.Name) and given.value.value == "True")
        return replace(found[0], inference=bool(value))
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
        return ModuleValue(name, _with_function_types(call, name, nn_leaves(name)),
                           is_callable=True)
    return UNKNOWN


def _with_function_types(call: LibraryCall, layer: str, leaves: Leaves) -> Leaves:
    """A layer's leaves with the Python types of the functions it keeps (its activation):
    those given, else the defaults (apis.EQUINOX_NN_CALLABLE_ARGS); a function not known
    adds no type."""
    types: set[str] = set()
    for position, keyword, default in apis.EQUINOX_NN_CALLABLE_ARGS.get(layer, ()):
        given = call.arg(position, keyword)
        if given is not None:
            types |= leaves_of_value(call.evaluate(given.value)).callable_types
        elif default is not None:
            types |= leaves_of_value(LibraryRef(default)).callable_types
        else:
            types.add("function")
    return replace(leaves, callable_types=frozenset(types)) if types else leaves


def _without_python_functions(leaves: Leaves) -> Leaves:
    """What `not isinstance(leaf, types.FunctionType)` keeps of a module's leaves: its scalars,
    and its functions of other types (jax.nn.relu is a custom_jvp, jax.nn.silu a PjitFunction):
    proven when the analysis knows one; unknown when it knows of none."""
    if leaves.kind in ("arrays", "scalar"):
        return leaves
    kept = leaves.callable_types - {"function"}
    if leaves.kind == "callable" and kept:
        return Leaves("callable", f"{' and '.join(sorted(kept))} function leaves, which are not "
                      f"types.FunctionType, so the filter keeps them",
                      leaves.scalar_types, frozenset(kept))
    return UNKNOWN_LEAVES

