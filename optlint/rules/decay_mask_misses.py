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

Reported only where the model given to `init` is a class of the project whose every field is
seen (path_names), the mask is a function of the file with a negated name test (`not any(...)`,
`not in`, `!=`), and some name matches no path (compared ignoring case, as a substring): a name
naming a norm (`norm`, `ln`, `scale`, `gamma`, `beta`) while the model holds a norm layer, or an
empty list while the model holds norms or biases.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.optax_table import behaviour
from optlint.analysis.parameter_paths import PathNames, path_names
from optlint.analysis.values import FunctionValue, ModuleValue, OneOf, TransformValue, Value
from optlint.context import RuleContext
from optlint.rules.base import Finding, Rule, RuntimeCheck

_NORM_WORDS = ("norm", "ln")
_NORM_NAMES = frozenset({"scale", "gamma", "beta"})


class DecayMaskMisses(Rule):
    code = "OPT023"
    runtime_check = RuntimeCheck("transform",
                                 probe="weight_decay_mask:decay_spares_norms_and_biases")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        reported: set[int] = set()
        for site in ctx.calls():
            func = site.node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "init"
                    and len(site.node.args) == 1):
                continue
            model = ctx.value(site.node.args[0].value, site)
            if not isinstance(model, ModuleValue) or model.cls is None:
                continue
            optimizer = ctx.value(func.value, site)
            for part, mask in _decay_masks(optimizer):
                if id(mask) in reported:
                    continue
                mask_site = ctx.site_of(part)
                if mask_site is None:
                    continue  # built in another file
                function = ctx.value(mask, mask_site)
                if not isinstance(function, FunctionValue) and isinstance(mask, cst.Call):
                    # `mask=decay_mask(params)`: the tree the mask function builds.
                    function = ctx.value(mask.func, mask_site)
                if not isinstance(function, FunctionValue):
                    continue
                paths = path_names(model)
                if paths is None:
                    continue
                finding = self._finding(ctx, mask, function, model, paths)
                if finding is not None:
                    reported.add(id(mask))
                    yield finding

    def _finding(self, ctx: RuleContext, mask: cst.BaseExpression, function: FunctionValue,
                 model: ModuleValue, paths: PathNames) -> Finding | None:
        body = function.node
        if not _negated(body):
            return None  # `any(n in path for n in names)`: the names are what decays
        names, empty = _excluded_names(ctx, body)
        shown = ", ".join(sorted(paths.norms)) or "norm"
        if names:
            missed = [name for name in names
                      if not any(name.lower() in part.lower() for part in paths.names)
                      and _names_a_norm(name)]
            if not missed or not paths.norms:
                return None
            quoted = ", ".join(repr(name) for name in missed)
            message = (f"the weight-decay mask spares leaves by name, but {quoted} is part of no "
                       f"parameter path of {model.class_name} (Equinox paths are field names, "
                       f"and eqx.nn norms hold `weight` and `bias`): its {shown} weights decay "
                       f"(measured: a LayerNorm weight under a mask sparing \"LayerNorm\" moves "
                       f"by -lr * weight_decay a step)")
        elif empty is not None:
            if not paths.norms and "bias" not in paths.names:
                return None
            spared = f"{shown} weights and biases" if paths.norms else "biases"
            message = (f"the weight-decay mask spares the names in `{empty}`, which is empty: "
                       f"the mask is True for every leaf of {model.class_name}, so its {spared} "
                       f"decay")
            advice = (f"Put the field names to spare in `{empty}` (the norm fields, "
                      f"\"bias\")")
            return Finding(mask, message, fix_title=advice,
                           roles={"call": _call_of(ctx, mask)})
        else:
            return None
        advice = ("Match the model's field names (e.g. `isinstance` of the layer with "
                  "`jax.tree_util.tree_map_with_path`, or the `.weight`/`.bias` of its norm "
                  "fields)")
        return Finding(mask, message, fix_title=advice, roles={"call": _call_of(ctx, mask)})


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


def _negated(function: cst.FunctionDef | cst.Lambda) -> bool:
    """The function tests names negatively: `not ...`, `not in`, `!=`."""
    for node in _nodes(function):
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return True
        if isinstance(node, cst.ComparisonTarget) and isinstance(
                node.operator, (cst.NotIn, cst.NotEqual)):
            return True
    return False


def _excluded_names(ctx: RuleContext, function: cst.FunctionDef | cst.Lambda
                    ) -> tuple[list[str], str | None]:
    """The strings the function compares paths with (in comparisons, in literal collections, in
    module-level collections it reads by name), and the name of an empty collection it reads."""
    names: list[str] = []
    empty: str | None = None
    for node in _nodes(function):
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            names.extend(_strings(node) or [])
        elif isinstance(node, cst.Comparison):
            for operand in (node.left, *(target.comparator for target in node.comparisons)):
                if isinstance(operand, cst.SimpleString) and isinstance(
                        operand.evaluated_value, str):
                    names.append(operand.evaluated_value)
        elif isinstance(node, cst.Name):
            collection = _module_collection(ctx, node.value)
            if collection is None:
                continue
            strings = _strings(collection)
            if strings == [] and not collection.elements:
                empty = node.value
            elif strings:
                names.extend(strings)
    return list(dict.fromkeys(names)), empty


def _strings(node: cst.List | cst.Tuple | cst.Set) -> list[str] | None:
    """The strings of a literal collection of strings (tuples of strings flattened); None when
    it holds anything else."""
    found: list[str] = []
    for element in node.elements:
        value = element.value
        if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
            found.append(value.evaluated_value)
        elif isinstance(value, (cst.Tuple, cst.List)):
            inner = _strings(value)
            if inner is None:
                return None
            found.extend(inner)
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


def _nodes(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _call_of(ctx: RuleContext, mask: cst.BaseExpression) -> cst.CSTNode:
    """The optimizer call the mask is given to: the verifier builds around it."""
    for site in ctx.calls():
        if any(arg.value is mask for arg in site.node.args):
            return site.node
    return mask
