"""Harness plans for OPT006: `jax.jit` / `jax.grad` / `jax.value_and_grad` applied to a function
that is given an Equinox module.

The hazard is in how the transformation treats its arguments, not in the function's body (jit
raises while turning the arguments into abstract arrays, grad while checking their types, before
the body runs). So the harness applies the transformation exactly as written (decorator or call,
with its keywords), and as fixed, to a probe function with the same signature, and calls it with
the model the file passes to the flagged parameter: the argument at a call of the transformed
function, sliced from the file, else a stand-in `eqx.nn.MLP`. The other arguments get `1.0`,
which jit traces, grad differentiates and a static argument can hash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.analysis.binding import argument, argument_for, positional_params
from optlint.diagnostics import Diagnostic
from optlint.rules.base import Finding
from optlint.verify.slicing import Statement, calls_in, flatten, key_of, reads_of, slice_for

if TYPE_CHECKING:
    from optlint.verify.parsed_source import Source

FunctionNode = cst.FunctionDef | cst.Lambda
APPLY = "__optlint_f"


def transform_variants(original: Source, fixed: Source | None, diagnostic: Diagnostic,
                       finding: Finding,
                       in_fixed: Callable[[cst.CSTNode], cst.CSTNode | None] = lambda node: None,
                       ) -> dict[str, dict[str, Any]]:
    """`in_fixed`: where the fixes' edits moved a node of the original (`Planning.in_fixed`);
    where it cannot tell, the transformation of the same ordinal in the same statement."""
    found = _transformation(original, finding.node)
    if found is None:
        return {"original": {"unbuildable": "the transformation could not be found"}}
    statement = original.statement_of(found[0])
    ordinal = _ordinal(original, statement, found[0])
    traced = finding.roles.get("traced")  # the parameter the rule found the module reach
    param = traced.value if isinstance(traced, cst.Name) else None
    variants = {"original": _variant(original, found, param)}
    if fixed is not None and diagnostic.fix is not None:
        number = original.number[id(statement)]
        moved = in_fixed(found[0])
        again = _transformation_of(fixed, moved) if moved is not None else None
        if again is None and number < len(fixed.statements):
            again = _transformation_at(fixed, fixed.statements[number], ordinal)
        variants["fixed"] = (_variant(fixed, again, param) if again is not None
                             else {"unbuildable": "the fixed source has no matching transformation"})
    return variants


# finding the transformation --------------------------------------------------------------------
def _transformation(source: Source, node: cst.CSTNode
                    ) -> tuple[cst.CSTNode, str, FunctionNode] | None:
    """(the decorator or call, the transformation as a one-argument callable, the function)."""
    chain = [node, *source.ancestors(node)]
    decorator = next((a for a in chain if isinstance(a, cst.Decorator)), None)
    if decorator is not None:  # `@jax.jit(static_argnames="n")`: the whole decorator applies
        owner = source.parents.get(decorator)
        return (decorator, source.code(decorator.decorator), owner) if isinstance(
            owner, cst.FunctionDef) else None
    for ancestor in chain:
        if isinstance(ancestor, cst.Call) and (ancestor.func is node
                                               or _within(source, node, ancestor.func)):
            return _applied(source, ancestor)
    return None


def _within(source: Source, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    return any(a is outer for a in source.ancestors(node))


def _applied(source: Source, call: cst.Call) -> tuple[cst.CSTNode, str, FunctionNode] | None:
    """`jax.jit(step, donate_argnums=0)` -> `lambda f: jax.jit(f, donate_argnums=0)`."""
    first = argument(call, 0, None)
    if first is None:
        return None
    function = _function_named(source, first.value)
    if function is None:
        return None
    args = [APPLY if arg is first else source.code(arg).rstrip(", ") for arg in call.args]
    return call, f"lambda {APPLY}: {source.code(call.func)}({', '.join(args)})", function


def _function_named(source: Source, expression: cst.BaseExpression) -> FunctionNode | None:
    if isinstance(expression, cst.Lambda):
        return expression
    if isinstance(expression, cst.Name):
        return next((s for s in source.statements if isinstance(s, cst.FunctionDef)
                     and s.name.value == expression.value), None)
    return None


def _candidates(source: Source, statement: cst.CSTNode) -> list[cst.CSTNode]:
    """Decorators and calls of one statement, in a fixed order: what an ordinal counts."""
    found: list[cst.CSTNode] = []

    class Collect(cst.CSTVisitor):
        def visit_Decorator(self, node: cst.Decorator) -> None:
            found.append(node)

        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

    statement.visit(Collect())
    return found


def _ordinal(source: Source, statement: cst.CSTNode, node: cst.CSTNode) -> int:
    return next(i for i, n in enumerate(_candidates(source, statement)) if n is node)


def _transformation_at(source: Source, statement: cst.CSTNode, ordinal: int
                       ) -> tuple[cst.CSTNode, str, FunctionNode] | None:
    candidates = _candidates(source, statement)
    if ordinal >= len(candidates):
        return None
    return _transformation_of(source, candidates[ordinal])


def _transformation_of(source: Source, node: cst.CSTNode
                       ) -> tuple[cst.CSTNode, str, FunctionNode] | None:
    """The transformation a decorator or a call (`jax.jit(f)`) applies."""
    if isinstance(node, cst.Decorator):
        owner = source.parents.get(node)
        return (node, source.code(node.decorator), owner) if isinstance(
            owner, cst.FunctionDef) else None
    return _applied(source, node) if isinstance(node, cst.Call) else None


# the model the file passes ---------------------------------------------------------------------
def _invocations(source: Source, site: cst.CSTNode, function: FunctionNode) -> list[cst.Call]:
    """Calls that run the transformed function: `predict(...)` for a decorated `predict`,
    `jax.jit(f)(...)`, or `step(...)` / `self.step(...)` after `step = jax.jit(f)`."""
    wanted: str | None
    if isinstance(site, cst.Decorator):
        assert isinstance(function, cst.FunctionDef)
        wanted = function.name.value
    else:
        parent = source.parents.get(site)
        if isinstance(parent, cst.Call) and parent.func is site:
            return [parent]
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1):
            return []
        wanted = key_of(parent.targets[0].target)
        if wanted is None:
            return []
    return [call for statement in source.statements for call in calls_in(statement)
            if key_of(call.func) == wanted]


def _model_expression(source: Source, site: cst.CSTNode, function: FunctionNode, param: str
                      ) -> tuple[cst.BaseExpression, cst.Call] | None:
    for call in _invocations(source, site, function):
        expression = argument_for(call, function, param)
        if expression is None and any(p.name.value == param
                                      for p in function.params.kwonly_params):
            expression = next((a.value for a in call.args
                               if a.keyword is not None and a.keyword.value == param), None)
        if expression is not None:
            return expression, call
    return None


def scope_layers(source: Source, call: cst.Call) -> list[tuple[list[Statement], list[cst.Param]]]:
    """The scope of the call (statements before it) and the module, innermost first."""
    statement = source.statement_of(call)
    limit = source.number[id(statement)]

    def before(statements: list[Statement]) -> list[Statement]:
        return [s for s in statements if s.node is not statement
                and source.number.get(id(s.node), -1) < limit]

    module = before(flatten(source.module.body, keep=statement))
    function = next((a for a in source.ancestors(statement) if isinstance(a, cst.FunctionDef)),
                    None)
    if function is None or not isinstance(function.body, cst.IndentedBlock):
        return [(module, [])]
    params = [*function.params.posonly_params, *function.params.params,
              *function.params.kwonly_params]
    return [(before(flatten(function.body.body, keep=statement)), params), (module, [])]


def _variant(source: Source, found: tuple[cst.CSTNode, str, FunctionNode],
             param: str | None) -> dict[str, Any]:
    site, transform, function = found
    positional = [p.name.value for p in positional_params(function)]
    keyword_only = [p.name.value for p in function.params.kwonly_params]
    if param not in positional + keyword_only:
        param = positional[0] if positional else None
    name = function.name.value if isinstance(function, cst.FunctionDef) else None
    probe = {"name": name or "lambda_", "label": f"`{name}`" if name else "the lambda",
             "positional": positional, "keyword_only": keyword_only,
             "model": param, "has_aux": "has_aux=True" in transform.replace(" ", "")}
    roles = {"transform": transform}
    layers: list[tuple[list[Statement], list[cst.Param]]] = [
        (flatten(source.module.body, keep=source.statement_of(site)), [])]
    found_model = _model_expression(source, site, function, param) if param else None
    notes = []
    if found_model is not None:
        expression, call = found_model
        layers = scope_layers(source, call)
        sliced = slice_for([cst.parse_expression(transform), expression], layers)
        if not sliced.missing:
            roles["model"] = source.code(expression)
    if "model" not in roles:
        notes.append("stand-in model")
        sliced = slice_for([cst.parse_expression(transform)], layers)
    if sliced.missing:
        return {"unbuildable": "missing " + ", ".join(sliced.missing)}
    if "model" in sliced.bindings.values():
        notes.append("stand-in model")
    model_names = sorted(reads_of(cst.parse_expression(roles["model"]))) if "model" in roles else []
    return {"statements": [{"code": s.code, "writes": sorted(s.writes),
                            "head": s.code.strip().splitlines()[0] if s.code.strip() else "",
                            "finding": False} for s in sliced.statements],
            "bindings": sliced.bindings, "roles": roles, "model_names": model_names,
            "probe": probe, "notes": sorted(set(notes))}
