"""Keys fixed when a function is traced: `jax.jit` runs the Python of its function once, while
tracing, and the compiled result afterwards. A key made there from Python's or NumPy's random
numbers (`PRNGKey(np.random.randint(...))`), or taken from a key stream object that advances in
Python (`stream.next_key()`, splitting `self._key` and storing the rest), is the same constant
in every later call: every call draws the same numbers. Functions count as traced when they are
decorated with or given to a `TRACING` transformation, and so do the file's functions they call.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite, Scope
from optlint.analysis.key_model_streams import PYTHON_RANDOM
from optlint.analysis.key_model_loops import TRACING
from optlint.analysis.key_syntax import small_statements
from optlint.analysis.prng_keys import SAMPLERS
from optlint.analysis.values import FunctionValue
from optlint.analysis.walk import child_nodes
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext


@record
class TracedDraw:
    """A draw from a key fixed at trace time: the draw, the key's source, the traced entry."""

    draw: cst.Call
    source: cst.Call  # `np.random.randint(...)`, `stream.next_key()`
    traced: str  # the function `jax.jit` traces (for the message)
    stream: bool  # the source is a key stream object advanced in Python


def traced_draws(ctx: RuleContext) -> Iterator[TracedDraw]:
    if not any(ctx.qualify(site.node.func) in TRACING for site in ctx.calls()) and not any(
            _tracing_decorator(ctx, d.decorator) for info in ctx.index.functions.values()
            if isinstance(info.node, cst.FunctionDef) for d in info.node.decorators):
        return
    sites: dict[int, list[CallSite]] = {}
    for site in ctx.calls():
        function = _function_of(site.scope)
        if function is not None:
            sites.setdefault(id(function), []).append(site)
    for function, entry in _traced(ctx, sites).items():
        for site in sites.get(id(function), []):
            found = _fixed_draw(ctx, site, sites.get(id(function), []), entry)
            if found is not None:
                yield found


def _traced(ctx: RuleContext, sites: dict[int, list[CallSite]]
            ) -> dict[cst.FunctionDef, str]:
    """Each traced function of the file, with the name of the traced function it is run by."""
    traced: dict[cst.FunctionDef, str] = {}
    for info in ctx.index.functions.values():
        node = info.node
        if isinstance(node, cst.FunctionDef) and any(
                _tracing_decorator(ctx, d.decorator) for d in node.decorators):
            traced[node] = node.name.value
    for site in ctx.calls():
        if ctx.qualify(site.node.func) in TRACING and site.node.args:
            value = ctx.value(site.node.args[0].value, site)
            if isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef):
                traced.setdefault(value.node, value.node.name.value)
    todo = list(traced)
    while todo:  # and what they call, as the file shows it
        function = todo.pop()
        for site in sites.get(id(function), []):
            value = ctx.value(site.node.func, site)
            if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
                    and value.node in ctx.index.functions and value.node not in traced):
                traced[value.node] = traced[function]
                todo.append(value.node)
    return traced


def _tracing_decorator(ctx: RuleContext, decorator: cst.BaseExpression) -> bool:
    """`@jax.jit`, `@jax.jit(...)`, `@partial(jax.jit, ...)`."""
    if isinstance(decorator, cst.Call):
        if ctx.qualify(decorator.func) == FUNCTOOLS_PARTIAL and decorator.args:
            return ctx.qualify(decorator.args[0].value) in TRACING
        decorator = decorator.func
    return ctx.qualify(decorator) in TRACING


def _function_of(scope: Scope | None) -> cst.FunctionDef | None:
    """The function (not a lambda, not a class) a scope is the body of."""
    while scope is not None and not isinstance(scope.node, cst.FunctionDef):
        if scope.kind != "function":
            return None
        scope = scope.parent
    return scope.node if scope is not None else None  # type: ignore[return-value]


def _fixed_draw(ctx: RuleContext, site: CallSite, function_sites: list[CallSite],
                traced: str) -> TracedDraw | None:
    """`site` draws from a key fixed at trace time (None: it does not)."""
    call = site.node
    qualified = ctx.qualify(call.func) or ""
    if not qualified.startswith("jax.random.") or qualified.rsplit(".", 1)[1] not in SAMPLERS:
        return None
    key = call.args[0].value if call.args and call.args[0].keyword is None else None
    if isinstance(key, cst.Call) and _advances_stream(ctx, key, site):
        return TracedDraw(call, key, traced, stream=True)
    if isinstance(key, cst.Name):
        binding = ctx.binding(key.value, site)
        made = binding.value if binding is not None and not binding.path else None
        if (isinstance(made, cst.Call) and ctx.qualify(made.func) in (
                "jax.random.PRNGKey", "jax.random.key") and made.args):
            source = next(_python_random(ctx, made.args[0].value), None)
            first = next((other.node for other in function_sites
                          if _draws_from(ctx, other.node, key.value)), None)
            if source is not None and first is call:
                return TracedDraw(call, source, traced, stream=False)
    return None


def _draws_from(ctx: RuleContext, call: cst.Call, name: str) -> bool:
    qualified = ctx.qualify(call.func) or ""
    return (qualified.startswith("jax.random.") and qualified.rsplit(".", 1)[1] in SAMPLERS
            and bool(call.args) and isinstance(call.args[0].value, cst.Name)
            and call.args[0].value.value == name)


def _python_random(ctx: RuleContext, node: cst.CSTNode) -> Iterator[cst.Call]:
    if isinstance(node, cst.Call) and (ctx.qualify(node.func) or "").startswith(PYTHON_RANDOM):
        yield node
    for child in child_nodes(node):
        yield from _python_random(ctx, child)


def _advances_stream(ctx: RuleContext, key: cst.Call, site: CallSite) -> bool:
    """`stream.next_key()`: a method of a class of the file that splits a key its object holds
    and stores part of it back, called on an object the traced function does not receive."""
    func = key.func
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
        return False
    binding = ctx.binding(func.value.value, site)
    if binding is not None and binding.kind == "param":
        return False
    value = ctx.value(func, site)
    if not isinstance(value, FunctionValue) or not isinstance(value.node, cst.FunctionDef):
        return False
    info = ctx.index.functions.get(value.node)
    self_name = info.scope.self_name if info is not None else None
    return self_name is not None and any(
        _stores_split(ctx, statement, self_name) for statement in small_statements(value.node))


def _stores_split(ctx: RuleContext, statement: cst.BaseSmallStatement, self_name: str) -> bool:
    """`self._key, subkey = jax.random.split(self._key)`."""
    if not isinstance(statement, cst.Assign) or not isinstance(statement.value, cst.Call):
        return False
    if ctx.qualify(statement.value.func) != "jax.random.split":
        return False
    held = statement.value.args[0].value if statement.value.args else None
    return (isinstance(held, cst.Attribute) and isinstance(held.value, cst.Name)
            and held.value.value == self_name and any(
                isinstance(node, cst.Attribute) and node.deep_equals(held)
                for target in statement.targets for node in _nodes(target.target)))


def _nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in child_nodes(node):
        yield from _nodes(child)
