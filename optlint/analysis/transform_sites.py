"""Where the checked code applies `jax.jit` / `jax.grad` / `jax.value_and_grad` to one of its functions.

Both ways of writing it: as a decorator (`@jax.jit`, `@partial(jax.jit, static_argnums=1)`,
`@jax.jit(static_argnames="n")`) and as a call (`jax.jit(step)`, `partial(jax.jit, ...)(step)`). For
each: the transformation, the expression naming it (what a fix replaces), its keyword arguments, and
the calls that run the transformed function.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.callsites import CallSites, FunctionNode, Invocation
from optlint.analysis.index import FileIndex
from optlint.analysis.binding import argument
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.values import FunctionValue, LibraryRef, PartialValue, TransformedFunction
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.records import record


@record
class TransformSite:
    transform: str  # "jax.jit", "jax.grad" or "jax.value_and_grad"
    reference: cst.BaseExpression | None  # the `jax.jit` expression, what a fix replaces
    function: FunctionNode
    keywords: tuple[cst.Arg, ...]
    invocations: tuple[Invocation, ...]
    # Arguments after the function given by position (`jax.grad(loss, 1)`: argnums; then
    # has_aux); their meaning is the transformation's own parameter order.
    positional: tuple[cst.Arg, ...] = ()

    def keyword(self, name: str) -> cst.Arg | None:
        return next((arg for arg in self.keywords if arg.keyword and arg.keyword.value == name),
                    None)


def transform_sites(index: FileIndex, inference: Evaluator,
                    callsites: CallSites) -> Iterator[TransformSite]:
    for info in index.functions.values():
        if isinstance(info.node, cst.FunctionDef):
            for decorator in info.node.decorators:
                site = _decorator_site(decorator.decorator, info.node, inference, callsites)
                if site is not None:
                    yield site
    for call_site in index.calls:
        # Only a transformation or a partial of one can return a transformed function: asking
        # for the value of any other call would follow every helper it calls, in other files too.
        callee = inference.value_of(call_site.node.func, call_site.scope, call_site.order)
        if not (isinstance(callee, PartialValue) or (
                isinstance(callee, LibraryRef) and callee.name in apis.JAX_FUNCTION_TRANSFORMS)):
            continue
        value = inference.value_of(call_site.node, call_site.scope, call_site.order)
        if not (isinstance(value, TransformedFunction) and value.call is call_site.node
                and value.transform in apis.JAX_FUNCTION_TRANSFORMS
                and isinstance(value.func, FunctionValue)) or value.func.bound:
            # `jax.grad(self.potential)`: a bound method's arguments start after `self`.
            continue
        function = value.func.node
        keywords = _keywords(call_site.node)
        positional = _positional_after_first(call_site.node)
        reference: cst.BaseExpression | None = call_site.node.func
        if value.partial is not None:
            keywords += _keywords(value.partial)
            positional += _positional_after_first(value.partial)
            reference = _partial_target(value.partial, inference) or value.partial.func
        through = tuple(inv for inv in callsites.invocations(function)
                        if inv.wrapper is not None and inv.wrapper.call is call_site.node)
        yield TransformSite(value.transform, reference, function, keywords, through, positional)


def _decorator_site(decorator: cst.BaseExpression, function: cst.FunctionDef,
                    inference: Evaluator, callsites: CallSites) -> TransformSite | None:
    direct = tuple(inv for inv in callsites.invocations(function) if inv.wrapper is None)
    name = inference.qualify(decorator)
    if name in apis.JAX_FUNCTION_TRANSFORMS:
        return TransformSite(name, decorator, function, (), direct)
    if not isinstance(decorator, cst.Call):
        return None
    head = inference.qualify(decorator.func)
    if head in apis.JAX_FUNCTION_TRANSFORMS:  # `@jax.jit(static_argnames="n")`
        return TransformSite(head, decorator.func, function, _keywords(decorator), direct)
    if head == FUNCTOOLS_PARTIAL:
        target = _partial_target(decorator, inference)
        transform = inference.qualify(target) if target is not None else None
        if transform in apis.JAX_FUNCTION_TRANSFORMS:
            return TransformSite(transform, target, function, _keywords(decorator), direct)
    return None


def _partial_target(partial: cst.Call, inference: Evaluator) -> cst.BaseExpression | None:
    """`jax.jit` in `functools.partial(jax.jit, ...)`; None for other calls."""
    if inference.qualify(partial.func) != FUNCTOOLS_PARTIAL:
        return None
    first = argument(partial, 0, None)
    return first.value if first is not None else None


def _positional_after_first(call: cst.Call) -> tuple[cst.Arg, ...]:
    return tuple(arg for arg in call.args[1:] if arg.keyword is None and arg.star != "**")


def _keywords(call: cst.Call) -> tuple[cst.Arg, ...]:
    return tuple(arg for arg in call.args if arg.keyword is not None or arg.star == "**")
