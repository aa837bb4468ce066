"""Flax module classes of the project that show no parameter: `init` draws from its key only for
what the module makes with `self.param`, `self.variable` and `self.make_rng`, and through its
submodules, built in its body or held in its fields. A class whose code shows none of them
(jaqmc's `SolidFeatures`, periodic distances computed in `setup` and `__call__`: `init` gives
`{}`) may still draw through what the functions it calls return, which the analysis does not
follow: a reuse resting on its `init` is `--preview` (issue #25, whole repositories, label27:
jaqmc `solid_test.py:99` and `:159`, no random number drawn)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.analysis.key_consumers import (
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
          "no submodule the analysis sees: whether its `init` draws is not seen")


def shows_no_parameters(ctx: RuleContext, making: cst.Call) -> bool:
    """`making` builds a Flax module of a project class (of this file or an imported one) whose
    bases are `flax.linen.Module` alone and whose code makes no parameter, variable or rng,
    builds no module and hands `self` to nothing, and whose fields hold no module."""
    found = _project_class(ctx, making.func)
    if found is None:
        return False
    info, owner = found
    if not info.bases or any(owner.qualify(base) not in FLAX_MODULE for base in info.bases):
        return False  # a project base may make parameters of its own
    if any(_may_hold_module(field.annotation) for field in info.fields.values()):
        return False
    return _quiet(info.node.body, ctx, owner)


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


def _quiet(body: cst.CSTNode, ctx: RuleContext, owner: Any) -> bool:
    """Nothing under `body` makes a parameter, variable or rng, builds a module or hands
    `self` on."""
    pending: list[cst.CSTNode] = [body]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in FLAX_PARAMETER_MAKERS:
                return False
            if any(isinstance(arg.value, cst.Name) and arg.value.value == "self"
                   for arg in node.args):
                return False  # a function given the module may make its parameters
            if _may_build_module(func, ctx, owner):
                return False
        pending.extend(child_nodes(node))
    return True


def _may_build_module(func: cst.BaseExpression, ctx: RuleContext, owner: Any) -> bool:
    """A call of `func` may build a module: a class (CapWords) that is not a library's holding
    no modules, nor a project class with no Flax base; or what a call returns (`nn.remat(B)`)."""
    if isinstance(func, cst.Call):
        return True
    name = func.value if isinstance(func, cst.Name) else (
        func.attr.value if isinstance(func, cst.Attribute) else None)
    if name is None:
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


def _module_base(base: cst.BaseExpression, owner: Any) -> bool:
    """A base that makes its class a module, or may (a base of the project is not followed);
    not one of a library holding no modules (`typing.NamedTuple`)."""
    qualified = owner.qualify(base) or ""
    return qualified.split(".", 1)[0] not in MODULE_FREE_LIBRARIES
