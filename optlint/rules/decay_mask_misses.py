"""OPT023 decay-mask-misses: a weight-decay mask that excludes leaves by name, where the names
match no parameter path of the model (or the exclusion list is empty): what it means to spare
decays.

Masks copied from Flax or PyTorch code exclude `"LayerNorm"`, `("LayerNorm", "scale")` or
`"norm"` by name. An Equinox model's paths are its field names (`.blocks[0].ln_1.weight`), never
its layers' class names, and `eqx.nn.LayerNorm` holds `weight` and `bias`, not `scale`: such a
name matches nothing and the norm layers' weights decay. Measured (issue #20, optax 0.2.8,
equinox 0.13.8): `adamw(1e-3, weight_decay=0.1, mask=fn)` with `fn` sparing paths containing
"LayerNorm" or "bias", on a block with `norm: eqx.nn.LayerNorm`: with zero gradients the
LayerNorm weight moves by -1e-4 a step, the linear bias stays. An empty exclusion list
(`no_decay = []`) spares nothing.

Reported only where the model given to `init` is seen whole (an Equinox class of the project,
path_names; a Flax linen module or Haiku transform, library_path_names), the mask is code of the
file with a negated name test (`not any(...)`, `not in`, `!=`, `return False`), and some name
matches no path (a tuple path suffix or an `==` name element by element, any other name as a
substring ignoring case): a name naming a norm (`norm`, `ln`, `scale`, `gamma`, `beta`) while the
model holds a norm layer, or an empty list while the model holds norms or biases. A mask by
`ndim > 1` is reported where the model stacks norm layers (`nn.scan`): their scales are 2-D.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from optlint.analysis import library_layers as layers
from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.library_param_paths import library_path_names
from optlint.analysis.optax_table import behaviour
from optlint.analysis.parameter_paths import PathNames, path_names
from optlint.analysis.values import (
    ClassRef,
    FunctionValue,
    LiteralValue,
    ModuleValue,
    OneOf,
    ParamTree,
    SequenceValue,
    TransformValue,
    Value,
)
from optlint.analysis.walk import descendants
from optlint.context import RuleContext
from optlint.records import record
from optlint.rules.base import Finding, Rule, RuntimeCheck

_NORM_WORDS = ("norm", "ln")
_NORM_NAMES = frozenset({"scale", "gamma", "beta"})


class DecayMaskMisses(Rule):
    code = "OPT023"
    runtime_check = RuntimeCheck("transform",
                                 probe="weight_decay_mask:decay_spares_norms_and_biases")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        reported: set[int] = set()
        for site in ctx.calls_where(("init",), layers.FLAX_TRAIN_STATE_CREATE.__contains__):
            given = _params_and_optimizer(ctx, site)
            if given is None:
                continue
            model = _model_paths(ctx.value(given[0], site), ctx.inference)
            if model is None:
                continue
            optimizer = ctx.value(given[1], site)
            for part, mask in _decay_masks(optimizer):
                if id(mask) in reported:
                    continue
                mask_site = ctx.site_of(part)
                if mask_site is None:
                    continue  # built in another file
                bodies = _mask_bodies(ctx, mask, mask_site)
                paths = model[1]()
                if not bodies or paths is None:
                    continue
                finding = self._finding(ctx, mask, mask_site, bodies, model[0], paths)
                if finding is not None:
                    reported.add(id(mask))
                    yield finding

    def _finding(self, ctx: RuleContext, mask: cst.BaseExpression, site: CallSite,
                 bodies: list[cst.CSTNode], model: _Model, paths: PathNames) -> Finding | None:
        roles = {"call": _call_of(ctx, mask)}
        shown = ", ".join(sorted(paths.norms)) or "norm"
        if paths.stacked and any(_tests_ndim(body) for body in bodies):
            stacked = ", ".join(sorted(paths.stacked))
            message = (f"the weight-decay mask decays leaves with more than one dimension, but "
                       f"{model.name} stacks layers (nn.scan / nn.vmap): their {stacked} scales "
                       f"and biases carry a leading layer axis, so the mask decays them")
            advice = "Choose the leaves by path (the norm and bias names), not by `ndim`"
            return Finding(mask, message, fix_title=advice, roles=roles)
        if not any(_negated(body) for body in bodies):
            return None  # `any(n in path for n in names)`: the names are what decays
        names, empty = _excluded_names(ctx, bodies, site)
        if names:
            missed = [name for name, whole in names
                      if not paths.has_part(name, whole) and _names_a_norm(name)]
            if not missed or not paths.norms:
                return None
            unique = list(dict.fromkeys(missed))
            written = _written_at(bodies, unique[0])
            if written is not None:
                roles["excluded"] = written
            quoted = ", ".join(repr(name) for name in unique)
            verb = "is" if len(unique) == 1 else "are"
            message = (f"the weight-decay mask spares leaves by name, but {quoted} {verb} part of no "
                       f"parameter path of {model.name} ({model.naming}): its {shown} weights "
                       f"decay (measured: a LayerNorm weight under a mask sparing \"LayerNorm\" "
                       f"moves by -lr * weight_decay a step)")
        elif empty is not None:
            if not paths.norms and "bias" not in paths.names:
                return None
            spared = f"{shown} weights and biases" if paths.norms else "biases"
            message = (f"the weight-decay mask spares the names in `{empty}`, which is empty: "
                       f"the mask is True for every leaf of {model.name}, so its {spared} "
                       f"decay")
            advice = f"Put the {model.parts} to spare in `{empty}` (the norm {model.holders}, \"bias\")"
            return Finding(mask, message, fix_title=advice, roles=roles)
        else:
            return None
        advice = (f"Match the model's {model.parts} (e.g. `isinstance` of the layer with "
                  f"`jax.tree_util.tree_map_with_path`, or {model.norm_leaves} of its norm "
                  f"{model.holders})")
        return Finding(mask, message, fix_title=advice, roles=roles)


def _params_and_optimizer(ctx: RuleContext, site: CallSite
                          ) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """Where an optimizer meets the params it decays: `tx.init(params)`, or Flax's
    `TrainState.create(params=params, tx=tx)`."""
    call = site.node
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "init" and len(call.args) == 1:
        return call.args[0].value, func.value
    if ctx.qualify(func) in layers.FLAX_TRAIN_STATE_CREATE:
        params, optimizer = argument(call, None, "params"), argument(call, None, "tx")
        if params is not None and optimizer is not None:
            return params.value, optimizer.value
    return None


@record
class _Model:
    name: str  # the class or function the messages name
    naming: str  # how its library names paths
    parts: str = "field names"  # what its paths are made of
    norm_leaves: str = "the `.weight`/`.bias`"
    holders: str = "fields"  # what holds a layer


_EQUINOX_NAMING = ("Equinox paths are field names, and eqx.nn norms hold `weight` and `bias`")


def _model_paths(value: Value, evaluator: Evaluator
                 ) -> tuple[_Model, Callable[[], PathNames | None]] | None:
    """The model `init` is given, and how to read its path names (read only when a mask is
    found): an Equinox module of the project, or a Flax / Haiku parameter tree."""
    if isinstance(value, ModuleValue) and value.cls is not None:
        module = value
        return _Model(module.class_name, _EQUINOX_NAMING), lambda: path_names(module, evaluator)
    if isinstance(value, ParamTree):
        tree = value
        node = tree.model.info.node if isinstance(tree.model, ClassRef) else tree.model.node
        name = node.name.value if isinstance(node, (cst.ClassDef, cst.FunctionDef)) else "model"
        return (_Model(name, layers.PATH_NAMING[tree.library], "module names",
                       "the leaves", "modules"),
                lambda: library_path_names(tree, evaluator))
    return None


def _mask_bodies(ctx: RuleContext, mask: cst.BaseExpression, site: CallSite
                 ) -> list[cst.CSTNode]:
    """The code that decides the mask: the mask function's body (`mask=fn`, `mask=fn(params)`),
    or the expression a mask name is assigned (`mask = unflatten_dict({...})`), with the bodies
    of the functions of the file it calls (`{p: _decays(p) for p in flat}`)."""
    function = ctx.value(mask, site)
    if not isinstance(function, FunctionValue) and isinstance(mask, cst.Call):
        function = ctx.value(mask.func, site)
    if isinstance(function, FunctionValue):
        roots: list[cst.CSTNode] = [function.node]
    elif isinstance(mask, cst.Name):
        binding = ctx.binding(mask.value, site)
        if binding is None or binding.kind != "assign" or binding.value is None:
            return []
        roots = [binding.value]
    else:
        return []
    for node in list(descendants(roots[0])):
        if isinstance(node, cst.Call):
            called = ctx.value(node.func, site)
            if isinstance(called, FunctionValue) and called.node not in roots:
                roots.append(called.node)
    return roots


def _written_at(bodies: list[cst.CSTNode], name: str) -> cst.CSTNode | None:
    """The comparison (or the string) in the mask's code where `name` is written."""
    for body in bodies:
        for node in descendants(body):
            if isinstance(node, cst.Comparison) and any(
                    isinstance(inner, cst.SimpleString) and inner.evaluated_value == name
                    for inner in descendants(node)):
                return node
    for body in bodies:
        for node in descendants(body):
            if isinstance(node, cst.SimpleString) and node.evaluated_value == name:
                return node
    return None


def _tests_ndim(body: cst.CSTNode) -> bool:
    """The mask compares a leaf's `ndim` (or `len(shape)`) with more than one: `p.ndim > 1`."""
    for node in descendants(body):
        if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
            continue
        target = node.comparisons[0]
        left = node.left
        by_ndim = isinstance(left, cst.Attribute) and left.attr.value == "ndim"
        by_shape = (isinstance(left, cst.Call) and isinstance(left.func, cst.Name)
                    and left.func.value == "len" and len(left.args) == 1
                    and isinstance(left.args[0].value, cst.Attribute)
                    and left.args[0].value.attr.value == "shape")
        bound = target.comparator
        number = bound.value if isinstance(bound, cst.Integer) else None
        if (by_ndim or by_shape) and (
                (isinstance(target.operator, cst.GreaterThan) and number == "1")
                or (isinstance(target.operator, cst.GreaterThanEqual) and number == "2")):
            return True
    return False


def _decay_masks(optimizer: Value) -> list[tuple[cst.Call, cst.BaseExpression]]:
    """(the call, its mask argument) of every part of `optimizer` whose mask chooses which leaves
    decay: a decaying part's own mask, or `masked(<decay>, mask)`."""
    options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
    found: list[tuple[cst.Call, cst.BaseExpression]] = []
    for option in options:
        if not isinstance(option, TransformValue):
            continue
        for part in option.walk():
            row = behaviour(part.name)
            if row is None or part.call is None or not row.mask_args:
                continue
            decays = row.adds_weight_decay or (row.passes_unmasked_through and any(
                _adds_decay(inner) for inner in part.walk()[1:]))
            if not decays:
                continue
            for where in row.mask_args:
                arg = argument(part.call, *where)
                if arg is not None:
                    found.append((part.call, arg.value))
    return found


def _adds_decay(part: TransformValue) -> bool:
    row = behaviour(part.name)
    return row is not None and row.adds_weight_decay


def _negated(function: cst.CSTNode) -> bool:
    """The code tests names negatively: `not ...`, `not in`, `!=`, or returns False for a
    match."""
    for node in descendants(function):
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Name) and (
                node.value.value == "False"):
            return True
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return True
        if isinstance(node, cst.ComparisonTarget) and isinstance(
                node.operator, (cst.NotIn, cst.NotEqual)):
            return True
    return False


def _excluded_names(ctx: RuleContext, bodies: list[cst.CSTNode], site: CallSite
                    ) -> tuple[list[tuple[str, bool]], str | None]:
    """The strings the code compares paths with (in comparisons, in literal collections, in
    collections it reads by name or from a configuration object), each with whether it is
    compared whole (a tuple path's elements, `path[-1] != "bias"`) rather than contained in a
    path string; and the name of an empty collection it reads."""
    names: list[tuple[str, bool]] = []
    empty: str | None = None
    for node in (node for body in bodies for node in descendants(body)):
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            names.extend(_strings(node) or [])
        elif isinstance(node, cst.Comparison):
            whole = all(isinstance(target.operator, (cst.Equal, cst.NotEqual))
                        for target in node.comparisons)
            for operand in (node.left, *(target.comparator for target in node.comparisons)):
                if isinstance(operand, cst.SimpleString) and isinstance(
                        operand.evaluated_value, str):
                    names.append((operand.evaluated_value, whole))
                elif whole and isinstance(operand, cst.Tuple):
                    # `path[-2:] != ("LayerNorm", "scale")`: a path suffix, element by element
                    names.extend((name, True) for name, _ in _strings(operand) or [])
        elif isinstance(node, cst.Name):
            collection = _module_collection(ctx, node.value)
            if collection is None:
                continue
            strings = _strings(collection)
            if strings == [] and not collection.elements:
                empty = node.value
            elif strings:
                names.extend(strings)
        elif isinstance(node, cst.Attribute):
            value = ctx.value(node, site)  # `cfg.no_decay`: a configuration field
            if isinstance(value, SequenceValue) and not value.items:
                empty = ctx.code(node)
            elif isinstance(value, SequenceValue):
                names.extend((item.text, False) for item in value.items
                             if isinstance(item, LiteralValue) and item.kind == "string")
    return list(dict.fromkeys(names)), empty


def _strings(node: cst.List | cst.Tuple | cst.Set) -> list[tuple[str, bool]] | None:
    """The strings of a literal collection of strings, each with whether it is compared whole:
    a tuple of strings is a path suffix, compared element by element; None when it holds
    anything else."""
    found: list[tuple[str, bool]] = []
    for element in node.elements:
        value = element.value
        if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
            found.append((value.evaluated_value, False))
        elif isinstance(value, (cst.Tuple, cst.List)):
            inner = _strings(value)
            if inner is None:
                return None
            whole = isinstance(value, cst.Tuple) and len(inner) > 1
            found.extend((name, whole or exact) for name, exact in inner)
        else:
            return None
    return found


def _module_collection(ctx: RuleContext, name: str) -> cst.List | cst.Tuple | cst.Set | None:
    """The literal collection a module-level name is assigned once, if it is one."""
    module = ctx.index.module_scope.node
    if not isinstance(module, cst.Module):
        return None
    found: list[cst.BaseExpression] = []
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                targets = [target.target for target in small.targets]
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                targets = [small.target]
            else:
                continue
            if any(isinstance(target, cst.Name) and target.value == name for target in targets):
                assert small.value is not None
                found.append(small.value)
    if len(found) != 1 or not isinstance(found[0], (cst.List, cst.Tuple, cst.Set)):
        return None
    return found[0]


def _names_a_norm(name: str) -> bool:
    lower = name.lower()
    return any(word in lower for word in _NORM_WORDS) or lower in _NORM_NAMES


def _call_of(ctx: RuleContext, mask: cst.BaseExpression) -> cst.CSTNode:
    """The optimizer call the mask is given to: the verifier builds around it."""
    for site in ctx.calls():
        if any(arg.value is mask for arg in site.node.args):
            return site.node
    return mask
