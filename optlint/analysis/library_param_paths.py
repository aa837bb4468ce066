"""The path names of a Flax linen or Haiku parameter tree (a `ParamTree`), read from the code
that builds the model: Flax submodules created in a `setup` or an `@nn.compact` method, Haiku
modules created in the transformed function. What each library layer holds and how unnamed
modules are named is data (`library_layers`).

Gives None where some part cannot be seen (a layer not in the tables, a helper function that may
create modules, a name that is neither a literal nor an f-string): a mask rule must then stay
silent, since the name it looks for may be there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis import library_layers as layers
from optlint.analysis.binding import argument
from optlint.analysis.dtype_names import dtype_name
from optlint.analysis.index import LATER, CallSite, ClassInfo, Scope
from optlint.analysis.parameter_paths import PathNames
from optlint.analysis.values import (
    ClassRef,
    FunctionValue,
    InstanceValue,
    LibraryRef,
    ParamTree,
    TransformedFunction,
    Value,
)
from optlint.analysis.walk import descendants

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator

_MAX_DEPTH = 8


def param_tree(base: Value, inference: Evaluator) -> ParamTree | None:
    """What `base.init(...)` returns (`base` evaluated by `inference`) when `base` is a Flax
    linen module instance or a Haiku-transformed function."""
    if isinstance(base, InstanceValue) and is_flax_module(inference.evaluator_for(base.path),
                                                          base.info):
        return ParamTree("flax", ClassRef(base.info, base.path), base.path)
    if (isinstance(base, TransformedFunction) and base.transform in layers.HAIKU_TRANSFORMS
            and isinstance(base.func, FunctionValue)):
        return ParamTree("haiku", base.func, inference.path)
    return None


def pretrained_params(owner: Evaluator, instance: InstanceValue, attr: str) -> ParamTree | None:
    """`model.params` of a transformers Flax model (a FlaxPreTrainedModel subclass of the
    project, read by `owner`, the evaluator of its file): the parameters of the linen module
    class its `module_class` names."""
    if attr != layers.FLAX_PRETRAINED_PARAMS_ATTRIBUTE or not _derives(
            owner, instance.info, layers.FLAX_PRETRAINED_BASES):
        return None
    named = _class_assignment(instance.info, layers.FLAX_PRETRAINED_MODULE_ATTRIBUTE)
    if named is None:
        return None
    module = owner.as_class(owner.value_of(named, instance.info.scope, LATER))
    if isinstance(module, ClassRef) and is_flax_module(owner.evaluator_for(module.path),
                                                       module.info):
        return ParamTree("flax", module, module.path)
    return None


def _derives(owner: Evaluator, info: ClassInfo, bases: frozenset[str], depth: int = 0) -> bool:
    """Whether the class subclasses one of `bases` (directly or through project classes)."""
    if depth > _MAX_DEPTH:
        return False
    for base in info.bases:
        if owner.qualify(base) in bases:
            return True
        value = owner.as_class(owner.value_of(base, info.scope, LATER))
        if isinstance(value, ClassRef) and _derives(owner.evaluator_for(value.path), value.info,
                                                    bases, depth + 1):
            return True
    return False


def _class_assignment(info: ClassInfo, name: str) -> cst.BaseExpression | None:
    """The value of `name = ...` in the class body (the last one)."""
    found = None
    body = info.node.body.body if isinstance(info.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name)
                    and small.targets[0].target.value == name):
                found = small.value
    return found


def is_flax_module(owner: Evaluator, info: ClassInfo, depth: int = 0) -> bool:
    """Whether the class subclasses `flax.linen.Module` (directly or through project classes)."""
    if depth > _MAX_DEPTH:
        return False
    for base in info.bases:
        if owner.qualify(base) in layers.FLAX_MODULE_BASES:
            return True
        value = owner.as_class(owner.value_of(base, info.scope, LATER))
        if isinstance(value, ClassRef) and is_flax_module(owner.evaluator_for(value.path),
                                                          value.info, depth + 1):
            return True
    return False


class _Collector:
    def __init__(self) -> None:
        self.names: set[str] = {*layers.FLAX_COLLECTIONS}
        self.patterns: set[tuple[str, str]] = set()
        self.norms: set[str] = set()
        self.stacked: set[str] = set()
        self.classes: list[str] = []
        # Each layer made, with the dtype its parameters are created in (None: float32, the
        # default, or not read) and the call that says so.
        self.param_dtypes: list[tuple[str | None, cst.Call]] = []

    def result(self) -> PathNames:
        return PathNames(frozenset(self.names), frozenset(self.norms), tuple(self.classes),
                         frozenset(self.patterns), frozenset(self.stacked))


def library_path_names(tree: ParamTree, evaluator: Evaluator) -> PathNames | None:
    """The tree's path names (`evaluator`: the file's that holds the tree)."""
    found = _collect(tree, evaluator)
    return found.result() if found is not None else None


def param_dtype(tree: ParamTree, evaluator: Evaluator) -> tuple[str, cst.CSTNode] | None:
    """The low-precision dtype every parameter of a Flax tree is created in (each layer given
    `param_dtype=jnp.bfloat16`), with a call that says so; None otherwise."""
    found = _collect(tree, evaluator)
    if tree.library != "flax" or found is None or not found.param_dtypes:
        return None
    dtypes = {dtype for dtype, _ in found.param_dtypes}
    if len(dtypes) != 1 or None in dtypes:
        return None
    dtype, call = found.param_dtypes[0]
    assert dtype is not None
    return dtype, call


def _collect(tree: ParamTree, evaluator: Evaluator) -> _Collector | None:
    found = _Collector()
    owner = evaluator.evaluator_for(tree.path)
    if tree.library == "flax":
        assert isinstance(tree.model, ClassRef)
        ok = _flax_class(owner, tree.model, found, stacked=False, depth=0)
    else:
        assert isinstance(tree.model, FunctionValue)
        found.names.clear()
        ok = _haiku_function(owner, tree.model.node, found)
    return found if ok else None


# Flax ---------------------------------------------------------------------------------------
def _flax_class(evaluator: Evaluator, cls: ClassRef, found: _Collector, stacked: bool,
                depth: int) -> bool:
    """`evaluator`: one that reached the class (its own file's reads it)."""
    info, owner = cls.info, evaluator.evaluator_for(cls.path)
    if depth > _MAX_DEPTH or not is_flax_module(owner, info):
        return False
    if info.name in found.classes:
        return True
    found.classes.append(info.name)
    for base in info.bases:
        value = owner.as_class(owner.value_of(base, info.scope, LATER))
        if isinstance(value, ClassRef) and not _flax_class(owner, value, found, stacked,
                                                           depth + 1):
            return False
    for item in info.node.body.body:
        if not isinstance(item, cst.FunctionDef):
            continue
        compact = any(owner.qualify(d.decorator) in layers.FLAX_COMPACT for d in item.decorators)
        if item.name.value == "setup":
            if not _flax_setup(owner, info, found, stacked, depth):
                return False
        elif compact:
            for site in _sites_in(owner, item):
                if not _flax_call(owner, site, found, stacked, depth, None):
                    return False
    return True


def _flax_setup(owner: Evaluator, info: ClassInfo, found: _Collector, stacked: bool,
                depth: int) -> bool:
    """`self.x = nn.Dense(...)` in `setup` names a submodule `x`; a list of them `x_0`, ..."""
    for name, bindings in info.attributes.items():
        for binding in bindings:
            if binding.scope is None or not isinstance(binding.scope.node, cst.FunctionDef) or (
                    binding.scope.node.name.value != "setup"):
                continue
            value = binding.value
            listed = isinstance(value, (cst.List, cst.ListComp, cst.Tuple))
            calls = [node for node in descendants(value) if isinstance(node, cst.Call)] if value else []
            for site in _sites_in(owner, binding.scope.node):
                if site.node in calls and not _flax_call(
                        owner, site, found, stacked, depth, (name, listed)):
                    return False
    for site in _sites_in(owner, _setup(info)):
        if _is_param_call(site.node) and not _leaf_name(site.node, found):
            return False
    return True


def _setup(info: ClassInfo) -> cst.FunctionDef | None:
    return next((item for item in info.node.body.body if isinstance(item, cst.FunctionDef)
                 and item.name.value == "setup"), None)


def _flax_call(owner: Evaluator, site: CallSite, found: _Collector, stacked: bool, depth: int,
               attribute: tuple[str, bool] | None) -> bool:
    """Read one call of a compact method or of `setup`: a layer or project module made there
    adds its name and leaves; `self.param("name", ...)` a leaf. False: cannot be seen."""
    call = site.node
    if _is_param_call(call):
        return _leaf_name(call, found)
    callee = owner.as_class(owner.value_of(call.func, site.scope, site.order))
    lifted = False
    if isinstance(callee, TransformedFunction) and callee.transform in layers.FLAX_LIFTED:
        lifted = layers.FLAX_LIFTED[callee.transform]
        callee = owner.as_class(callee.func)
    if isinstance(callee, LibraryRef) and callee.name.startswith("flax.linen."):
        layer = callee.name.rsplit(".", 1)[-1]
        if not layer[:1].isupper():
            return True  # a function (`nn.gelu`) or a method of a module
        if layer not in layers.FLAX_LAYER_LEAVES:
            return False
        if not _module_name(call, layer, found, attribute, "numbered", site.scope.node):
            return False
        found.names.update(layers.FLAX_LAYER_LEAVES[layer])
        if layers.FLAX_LAYER_LEAVES[layer]:
            given = argument(call, None, "param_dtype")
            dtype = dtype_name(owner, given.value, site.scope, site.order) if given else None
            found.param_dtypes.append((dtype, call))
        if layer in layers.FLAX_NORMS:
            found.norms.add(layer)
            if stacked or lifted:
                found.stacked.add(layer)
        return True
    if isinstance(callee, ClassRef):
        if not is_flax_module(owner.evaluator_for(callee.path), callee.info):
            return True  # a plain class: makes no submodule
        return (_module_name(call, callee.info.name, found, attribute, "numbered",
                             site.scope.node)
                and _flax_class(owner, callee, found, stacked or lifted, depth + 1))
    # A helper function of the project may create modules under this one.
    return not (isinstance(callee, FunctionValue) and not callee.bound)


def _is_param_call(call: cst.Call) -> bool:
    func = call.func
    return (isinstance(func, cst.Attribute) and func.attr.value == "param"
            and isinstance(func.value, cst.Name) and func.value.value == "self")


def _leaf_name(call: cst.Call, found: _Collector) -> bool:
    found.param_dtypes.append((None, call))  # `self.param(...)`: its dtype is not read
    name = argument(call, 0, "name")
    if name is None:
        return False
    return _add_name(name.value, found)


def _module_name(call: cst.Call, default: str, found: _Collector,
                 attribute: tuple[str, bool] | None, numbering: str,
                 within: cst.CSTNode | None = None) -> bool:
    given = argument(call, None, "name")
    if given is not None:
        if within is not None and _counted_name(given.value, within):
            found.patterns.add(("", "digits"))
            return True
        return _add_name(given.value, found)
    if attribute is not None:
        name, listed = attribute
        if listed:
            found.patterns.add((name, "numbered"))
        else:
            found.names.add(name)
        return True
    found.patterns.add((default, numbering))
    return True


def _counted_name(expr: cst.BaseExpression, within: cst.CSTNode) -> bool:
    """`name=str(i)` where `i` counts over `range(...)` in `within` (a loop or comprehension):
    a name made of digits."""
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name)
            and expr.func.value == "str" and len(expr.args) == 1
            and isinstance(expr.args[0].value, cst.Name)):
        return False
    counter = expr.args[0].value.value
    for node in descendants(within):
        if isinstance(node, (cst.For, cst.CompFor)) and isinstance(node.target, cst.Name) \
                and node.target.value == counter and isinstance(node.iter, cst.Call) \
                and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range":
            return True
    return False


def _add_name(expr: cst.BaseExpression, found: _Collector) -> bool:
    if isinstance(expr, cst.SimpleString) and isinstance(expr.evaluated_value, str):
        found.names.add(expr.evaluated_value)
        return True
    if isinstance(expr, cst.FormattedString):
        prefix = ""
        for part in expr.parts:
            if not isinstance(part, cst.FormattedStringText):
                break
            prefix += part.value
        found.patterns.add((prefix, "any"))
        return True
    return False


# Haiku --------------------------------------------------------------------------------------
def _haiku_function(owner: Evaluator, function: cst.FunctionDef | cst.Lambda,
                    found: _Collector) -> bool:
    for site in _sites_in(owner, function):
        callee = owner.as_class(owner.value_of(site.node.func, site.scope, site.order))
        if isinstance(callee, LibraryRef) and callee.name.startswith("haiku."):
            layer = callee.name.rsplit(".", 1)[-1]
            if not layer[:1].isupper():
                continue  # `hk.next_rng_key()`, `hk.get_parameter` is read below
            if layer not in layers.HAIKU_LAYERS:
                return False
            default, leaves = layers.HAIKU_LAYERS[layer]
            if not _module_name(site.node, default, found, None, "renumbered"):
                return False
            found.names.update(leaves)
            if layer in layers.HAIKU_NORMS:
                found.norms.add(layer)
        elif isinstance(callee, (ClassRef, FunctionValue)):
            return False  # a module class or helper of the project: names not read here
    return True


# shared -------------------------------------------------------------------------------------
def _sites_in(owner: Evaluator, function: cst.CSTNode | None) -> Iterator[CallSite]:
    """The calls made in `function` (its nested comprehensions and loops included)."""
    if function is None:
        return
    for site in owner.index.calls:
        scope: Scope | None = site.scope
        while scope is not None and scope.node is not function and scope.kind != "function":
            scope = scope.parent
        if scope is not None and scope.node is function:
            yield site
