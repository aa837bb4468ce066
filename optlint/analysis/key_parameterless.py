"""Flax module classes of the project that show no parameter: `init` draws from its key only for
what the module makes with `self.param`, `self.variable` and `self.make_rng`, and through its
submodules, built in its body or held in its fields. A class whose code shows none of them
(jaqmc's `SolidFeatures`, periodic distances computed in `setup` and `__call__`: `init` gives
`{}`) may still draw through what the functions it calls return, which the analysis does not
follow: a reuse resting on its `init` is `--preview` (issue #25, whole repositories, label27:
jaqmc `solid_test.py:99` and `:159`, no random number drawn)."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_consumers import (
    FLAX_IDLE_RATES,
    FLAX_MODULE,
    FLAX_PARAMETER_MAKERS,
    MODULE_FREE_LIBRARIES,
    MODULE_HOLDING_NAMES,
)
from optlint.analysis.project_files import LIBRARIES
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext

UNSEEN = ("the module's class makes no parameter, variable or rng of its own and builds or holds "
          "no submodule the analysis sees: whether it draws is not seen")
# What `module_draws` answers.
DRAWS, NOTHING = "draws", "nothing"
_BUILTINS = frozenset(dir(builtins))


def module_draws(ctx: RuleContext, making: cst.Call) -> str:
    """What the Flax module `making` builds draws in `init` and `apply`, when it is of a project
    class (of this file or an imported one) whose bases are `flax.linen.Module` alone, whose
    fields hold no module and whose code makes no parameter, variable or rng, hands `self` to
    nothing and builds no module but Dropouts idle at their rate: `NOTHING` when its other calls
    are the libraries' and the builtins', `UNSEEN` when it calls code the analysis does not
    follow here (a helper may return a module `setup` registers), else `DRAWS`."""
    found = _project_class(ctx, making.func)
    if found is None:
        return DRAWS
    info, owner = found
    if not info.bases or any(owner.qualify(base) not in FLAX_MODULE for base in info.bases):
        return DRAWS  # a project base may make parameters of its own
    if any(_may_hold_module(field.annotation) for field in info.fields.values()):
        return DRAWS
    return _quiet(info, ctx, owner, making)


def _project_class(ctx: RuleContext, func: cst.BaseExpression) -> tuple[Any, Any] | None:
    """The class `func` names, with the inference of its file (None: no project class)."""
    if isinstance(func, cst.Name) and func.value in ctx.index.classes:
        return ctx.index.classes[func.value], ctx.inference
    qualified = ctx.qualify(func) or ""
    project = ctx.inference.project
    if project is None or "." not in qualified or qualified.split(".", 1)[0] in LIBRARIES:
        return None
    resolved = project.resolve_class(qualified, ctx.inference.path)
    return resolved if resolved is not None else None


def _may_hold_module(annotation: cst.BaseExpression | None) -> bool:
    """A field annotated so it may hold a module (`nn.Module`, `Any`, `Callable`, none)."""
    if annotation is None:
        return True
    pending: list[cst.CSTNode] = [annotation]
    while pending:
        node = pending.pop()
        name = node.value if isinstance(node, cst.Name) else (
            node.attr.value if isinstance(node, cst.Attribute) else None)
        if name is not None and (name in MODULE_HOLDING_NAMES or name.endswith("Module")):
            return True
        pending.extend(child_nodes(node))
    return False


def _quiet(info: Any, ctx: RuleContext, owner: Any, making: cst.Call) -> str:
    """What the class's code draws (`module_draws`)."""
    unseen = False
    pending: list[cst.CSTNode] = [info.node.body]
    while pending:
        node = pending.pop()
        pending.extend(child_nodes(node))
        if not isinstance(node, cst.Call):
            continue
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in FLAX_PARAMETER_MAKERS:
            return DRAWS
        if any(isinstance(arg.value, cst.Name) and arg.value.value == "self"
               for arg in node.args):
            return DRAWS  # a function given the module may make its parameters
        if isinstance(func, cst.Call) and _idle_rates(func, owner) is not None:
            continue  # `nn.Dropout(rate=self.rate)(x)`: the Dropout, checked by itself
        rates = _idle_rates(node, owner)
        if rates is not None:
            if not _idle(node, rates, info, making):
                return DRAWS
        elif _may_build_module(func, ctx, owner):
            return DRAWS
        elif not _called_name(func)[:1].isupper() and not _library_or_builtin(func, owner):
            unseen = True  # a helper of the project, a method of a value
    return UNSEEN if unseen else NOTHING


def _idle_rates(call: cst.Call, owner: Any) -> frozenset[float] | None:
    """The rates at which the layer `call` builds draws nothing (None: no such layer)."""
    return FLAX_IDLE_RATES.get(owner.qualify(call.func) or "")


def _idle(layer: cst.Call, rates: frozenset[float], info: Any, making: cst.Call) -> bool:
    """`layer` (`nn.Dropout(rate=self.rate)`) is given a rate it is idle at: a number, or a
    field of the class the module was built with that number (or its default)."""
    rate = argument(layer, 0, "rate")
    value = rate.value if rate is not None else None
    if (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)
            and value.value.value == "self"):
        field = value.attr.value
        given = argument(making, None, field)
        known = info.fields.get(field)
        value = given.value if given is not None else (
            known.default if known is not None and not any(
                arg.keyword is None for arg in making.args) else None)
    number = _number(value)
    return number is not None and number in rates


def _number(value: cst.BaseExpression | None) -> float | None:
    if isinstance(value, (cst.Integer, cst.Float)):
        return float(value.evaluated_value)
    return None


def _library_or_builtin(func: cst.BaseExpression, owner: Any) -> bool:
    """`func` is a library's (`jnp.eye`, `nn.relu`) or a builtin (`range`)."""
    qualified = owner.qualify(func)
    if qualified is None:
        return isinstance(func, cst.Name) and func.value in _BUILTINS
    return qualified.split(".", 1)[0] in LIBRARIES


def _may_build_module(func: cst.BaseExpression, ctx: RuleContext, owner: Any) -> bool:
    """A call of `func` may build a module: a class (CapWords) that is not a library's holding
    no modules, nor a project class with no Flax base; or what a call returns (`nn.remat(B)`)."""
    if isinstance(func, cst.Call):
        return True
    name = _called_name(func)
    if not name:
        return True
    if not name[:1].isupper():
        return False
    qualified = owner.qualify(func) or ""
    if qualified.split(".", 1)[0] in MODULE_FREE_LIBRARIES:
        return False  # `jnp.ndarray(...)`, `NamedTuple` records
    local = owner.index.classes.get(name) if isinstance(func, cst.Name) else None
    if local is not None:
        return any(_module_base(base, owner) for base in local.bases)
    project = ctx.inference.project
    if project is None or not qualified or qualified.split(".", 1)[0] in LIBRARIES:
        return True
    resolved = project.resolve_class(qualified, owner.path)
    if resolved is None:
        return True
    info, other = resolved
    return any(_module_base(base, other) for base in info.bases)


def _called_name(func: cst.BaseExpression) -> str:
    """`f` of `f(...)` and of `obj.f(...)` ("" for anything else)."""
    if isinstance(func, cst.Name):
        return func.value
    return func.attr.value if isinstance(func, cst.Attribute) else ""


def _module_base(base: cst.BaseExpression, owner: Any) -> bool:
    """A base that makes its class a module, or may (a base of the project is not followed);
    not one of a library holding no modules (`typing.NamedTuple`)."""
    qualified = owner.qualify(base) or ""
    return qualified.split(".", 1)[0] not in MODULE_FREE_LIBRARIES
