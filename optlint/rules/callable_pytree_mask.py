"""OPT001 callable-pytree-mask: a module-shaped pytree given to Optax as a mask or as labels.

A mask built with `jax.tree_util.tree_map(lambda _: True, model)` or `eqx.tree_at` is an instance of
the model's class, so `callable(mask)` is true and Optax calls it with the params instead of reading
it. `optax.masked` (and every optimizer built on it) did so until 0.2.4; `multi_transform` still
does. Wrapping the tree in `lambda _: tree` gives Optax the function it expects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.binding import argument
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL, OPTAX_MASKED, OPTAX_PREFIX
from optlint.analysis.optax_model import calls_callable_tree
from optlint.analysis.optax_table import ALWAYS, all_transforms, behaviour
from optlint.analysis.values import InjectFactory, LibraryRef, ModuleValue
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

Family = Literal["mask", "labels"]

# Every mask and labels argument of the Optax table that some version calls when it is a callable
# pytree: (position, keyword). (`freeze`'s mask, read as a tree on every version, is not one.)
_ARGUMENTS = [argument for row in all_transforms()
              for arguments, read in ((row.mask_args, row.mask_callable_pytree_ok),
                                      (row.label_args, row.labels_callable_pytree_ok))
              if read != ALWAYS for argument in arguments]
# What a call needs, syntactically, to pass a mask or labels at all; most calls in a file fail
# this, and are skipped before their callee is inferred.
_KEYWORDS = frozenset(keyword for _, keyword in _ARGUMENTS)
_FIRST_POSITION = min(position for position, _ in _ARGUMENTS if position is not None)


def module_tree_phrase(name: str, value: ModuleValue) -> str:
    """"`mask` has the structure of Equinox module MLP (built by jax.tree_util.tree_map)"."""
    built = f", built by {value.derived_by}" if value.derived_by else ""
    callable_ = "so it is callable" if value.is_callable else "so it may be callable"
    return f"`{name}` has the structure of Equinox module {value.class_name}{built}, {callable_}"


def short_code(code: str, limit: int = 40) -> str:
    return code if len(code) <= limit and "\n" not in code else "..."


class CallablePytreeMask(Rule):
    code = "OPT001"
    # The mask is given to the call around it (masked, multi_transform, adamw(mask=...)).
    runtime_check = RuntimeCheck("transform", standin_params="mask")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        version = ctx.versions.get("optax").version
        for site in ctx.calls():
            for factory, arg, family in _mask_arguments(ctx, site):
                if calls_callable_tree(_canonical(ctx, site, factory), family, version) is False:
                    continue
                value = ctx.value(arg.value, site)
                if isinstance(value, ModuleValue) and value.is_callable is not False:
                    yield self._finding(ctx, site.node, factory, arg, family, value, version)

    def _finding(self, ctx: RuleContext, call: cst.Call, factory: str, arg: cst.Arg,
                 family: Family, value: ModuleValue, version: str | None) -> Finding:
        code = ctx.code(arg.value)
        keyword = arg.keyword.value if arg.keyword is not None else family
        what = module_tree_phrase(keyword, value)
        fixed = f"lambda _: {code}"
        shown = f"lambda _: {short_code(code)}"
        describe = ctx.versions.describe("optax")
        if family == "mask":
            message = (f"{what}: {factory} calls it instead of reading it and raises TypeError "
                       f"at init on optax < 0.2.4; {describe}")
        else:
            message = (f"{what}: {factory} calls it instead of reading it and raises TypeError "
                       f"at init (every optax version up to 0.2.8)")
            if calls_callable_tree(OPTAX_MASKED, "mask", version) is not False:
                message += (f"; on optax < 0.2.4 {factory} also raises on Equinox params whatever "
                            f"the labels; {describe}")
        fix = FixPlan("safe", f"Wrap in `{shown}`", [(arg.value, fixed)])
        unseen = None if value.is_callable else f"whether {value.class_name} defines `__call__`"
        return Finding(arg.value, message, fix, unproven=unseen,
                       roles={"call": call, "mask": arg.value})


def _mask_arguments(ctx: RuleContext, site: CallSite) -> Iterator[tuple[str, cst.Arg, Family]]:
    """(factory name, argument, family) for each mask or labels argument of this call."""
    call = site.node
    if not _may_pass_mask(call):
        return
    callee = ctx.value(call.func, site)
    if isinstance(callee, LibraryRef):
        name = callee.name
        if name == FUNCTOOLS_PARTIAL:  # functools.partial(optax.adamw, mask=...)
            inner = argument(call, 0, None)
            inner_value = ctx.value(inner.value, site) if inner is not None else None
            if isinstance(inner_value, LibraryRef):
                yield from _keyword_masks(call, inner_value.name)
            return
        row = behaviour(name)
        if row is None:
            return
        for family, arguments in (("mask", row.mask_args), ("labels", row.label_args)):
            for position, keyword in arguments:
                arg = argument(call, position, keyword)
                if arg is not None:
                    yield _as_written(ctx, call, name), arg, family  # type: ignore[misc]
    elif (isinstance(callee, InjectFactory) and isinstance(callee.inner, LibraryRef)
          and callee.static_args):
        # A static mask reaches the optimizer as a mask; one that is not static is OPT002's.
        yield from _keyword_masks(call, callee.inner.name, set(callee.static_args))


def _canonical(ctx: RuleContext, site: CallSite, factory: str) -> str:
    """The table's name for a factory a message names as the file spells it (`ox.adamw`)."""
    if behaviour(factory) is not None:
        return factory
    callee = ctx.value(site.node.func, site)
    return callee.name if isinstance(callee, LibraryRef) else factory


def _may_pass_mask(call: cst.Call) -> bool:
    positional = 0
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value in _KEYWORDS:
                return True
        elif arg.star:
            return True  # `*args` may put anything at any position
        else:
            positional += 1
    return positional > _FIRST_POSITION


def _as_written(ctx: RuleContext, call: cst.Call, name: str) -> str:
    """How the message names the factory: as the file spells an optax call, else its name."""
    return short_code(ctx.code(call.func), 30) if name.startswith(OPTAX_PREFIX) else name


def _keyword_masks(call: cst.Call, factory: str,
                   only: set[str] | None = None) -> Iterator[tuple[str, cst.Arg, Family]]:
    row = behaviour(factory)
    keywords = {keyword for _, keyword in row.mask_args} if row is not None else set()
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in keywords and (
                only is None or arg.keyword.value in only):
            yield factory, arg, "mask"
