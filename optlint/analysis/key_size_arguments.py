"""A draw's shape given as a size: `Encoder(input_shape=x.shape[1:])`, `normal(key, x.shape)`,
`jnp.zeros(x.shape)`. The size is the same for every key, and what the call builds or draws from
it holds nothing of the draw's values, so it is no result of the draw (a shape returned, printed
or kept in a name still is: `UnreadResults` counts those)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_name_reads import SHAPE_ATTRIBUTES
from optlint.analysis.library_names import JAX_RANDOM
from optlint.analysis.project_values import names_in
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext

# Library calls that make an array of a size they are given, reading nothing else of it.
ARRAY_MAKERS = frozenset({
    "jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.empty", "jax.numpy.full",
    "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full",
})


def shapes_only_as_sizes(statement: cst.CSTNode, name: str, ctx: RuleContext,
                         whole: Callable[[cst.Call], frozenset[int]] | None = None,
                         held: bool = False) -> bool:
    """Every read of `name` in `statement` is its shape (`name.shape`, `.ndim`, ...) inside an
    argument of a call that takes it as a size: a class of the file built, a `jax.random`
    sampler, an array maker; or `name` itself given as an argument `whole` says its call reads
    only for shape and dtype (the ids of those arguments, `key_shape_arguments.py`). With
    `held`, `name` holds a size itself (`n, = x.shape`): it is read as one, also in the nested
    functions `statement` defines (`def net(x): return Layer(n)(x)`)."""
    found = False
    pending: list[tuple[cst.CSTNode, bool]] = [(statement, False)]
    while pending:
        node, sized = pending.pop()
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and (
                node.value.value == name and node.attr.value in SHAPE_ATTRIBUTES):
            if not sized:
                return False
            found = True
            continue
        if isinstance(node, cst.Name):
            if node.value == name:
                if not (held and sized):
                    return False
                found = True
            continue
        if held and isinstance(node, (cst.FunctionDef, cst.Lambda)):
            pending.extend((child, sized) for child in child_nodes(node))
            continue
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            if any(read.value == name for read in names_in(node)):
                return False  # read when called, maybe otherwise
            continue
        if isinstance(node, cst.Call):
            takes_sizes = sized or _takes_sizes(node, ctx)
            shaped = whole(node) if whole is not None else frozenset()
            pending.append((node.func, sized))
            for arg in node.args:
                if id(arg.value) in shaped and isinstance(arg.value, cst.Name) and (
                        arg.value.value == name):
                    found = True
                else:
                    pending.append((arg.value, takes_sizes))
            continue
        pending.extend((child, sized) for child in child_nodes(node))
    return found


def _takes_sizes(call: cst.Call, ctx: RuleContext) -> bool:
    qualified = ctx.qualify(call.func) or ""
    if qualified.startswith(JAX_RANDOM + ".") or qualified in ARRAY_MAKERS:
        return True
    func = call.func
    if not isinstance(func, cst.Name) or qualified:
        return False
    info = ctx.index.classes.get(func.value)
    return info is not None and all(
        binding.kind == "class" for binding in ctx.index.bindings_anywhere(func.value))
