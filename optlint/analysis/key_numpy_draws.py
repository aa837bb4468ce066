"""Whether two NumPy generators seeded alike draw the same values (`unlike_numpy_draws`).

JAX's key-reuse checker does not see NumPy, so issue #25's labelling rule asks of a NumPy pair
only whether the two draws give identical or prefix-identical values. Two generators made from
one seed do so where they draw with one method under the same distribution parameters (the
size aside, which only cuts the stream), or permute alike (`shuffle`, `permutation`: the same
permutation for arrays of one length). With other parameters (literals that differ, defaults
filled in), or from another stream, they share no value; parameters that are not literals are
not judged. Measured with numpy 2.4.6 (`tests/test_prng_keys_numpy_draws.py` runs it), for
`RandomState` and `default_rng` seeded with 7: `beta(1, 30)` and `beta(1, 17/3)` share none of
100 values, `normal(0, 1)` and `normal(0, 2)` none of 5, `uniform` and `normal` none of 5;
`normal(0, 1, size=3)` is `normal(0, 1, size=5)[:3]`; two 10-item lists shuffle alike.

Only a draw made on the seeded generator itself is read (`RandomState(seed).beta(a, b)`): a
generator kept under a name may draw anywhere. A method missing from the table is not judged.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.context import RuleContext

# By method: the values' stream (methods of one stream draw the same values under the same
# parameters) and its parameters in positional order, with their defaults (no default: None).
# Measured with numpy 2.4.6 for `RandomState` and `default_rng` seeded alike (the test runs it):
# `normal()` is `normal(0, 1)` is `standard_normal()`; `random()`, `random_sample()` and
# `uniform()` are one stream; `randint(10)` is `randint(0, 10)`; `shuffle` permutes as
# `permutation` does. `RandomState.choice(10, 3, replace=False)` is `permutation(10)[:3]`, so
# `choice` is judged only against itself.
_UNIFORM = (("low", 0.0), ("high", 1.0))
_NORMAL = (("loc", 0.0), ("scale", 1.0))
STREAMS: dict[str, tuple[str, tuple[tuple[str, float | None], ...]]] = {
    "beta": ("beta", (("a", None), ("b", None))), "normal": ("normal", _NORMAL),
    "standard_normal": ("normal", ()), "uniform": ("uniform", _UNIFORM),
    "random": ("uniform", ()), "random_sample": ("uniform", ()),
    "gamma": ("gamma", (("shape", None), ("scale", 1.0))),
    "binomial": ("binomial", (("n", None), ("p", None))),
    "exponential": ("exponential", (("scale", 1.0),)), "poisson": ("poisson", (("lam", 1.0),)),
    "randint": ("randint", (("low", None), ("high", None))),
    "integers": ("integers", (("low", None), ("high", None))),
    "choice": ("choice", (("a", None),)), "shuffle": ("permute", ()),
    "permutation": ("permute", ()),
}
_DEFAULTS = {"normal": _NORMAL, "uniform": _UNIFORM}  # what a method of no parameters draws under


def unlike_numpy_draws(ctx: RuleContext, first: cst.Call, second: cst.Call) -> str:
    """Why two NumPy seedings (`RandomState(seed)` twice) are not shown to draw the same
    values ('' where they are, or where it is not known here): each drawn from straight away,
    from different streams, or under parameters given as different literals."""
    parents = ctx.index.parents()
    drawn_a, drawn_b = _drawn_on(first, parents), _drawn_on(second, parents)
    if drawn_a is None or drawn_b is None:
        return ""
    (name_a, call_a), (name_b, call_b) = drawn_a, drawn_b
    stream_a, stream_b = STREAMS[name_a][0], STREAMS[name_b][0]
    if stream_a != stream_b:
        if "choice" in (stream_a, stream_b):
            return ""  # `choice` may draw as `permutation` or `randint` do
        return f"`{name_a}` and `{name_b}` draw different values from one seed"
    values_a = _parameters(name_a, call_a, _constants_around(ctx, call_a))
    values_b = _parameters(name_b, call_b, _constants_around(ctx, call_b))
    if any(a is not _UNKNOWN and b is not _UNKNOWN and a != b
           for a, b in zip(values_a, values_b, strict=True)):
        return f"`{name_a}` under other parameters draws different values from one seed"
    return ""


def _drawn_on(seeding: cst.Call, parents: Mapping[int, cst.CSTNode]
              ) -> tuple[str, cst.Call] | None:
    """The method a generator is drawn from where it is made (`RandomState(s).beta(...)`),
    when the table knows it."""
    attribute = parents.get(id(seeding))
    call = parents.get(id(attribute)) if attribute is not None else None
    if (not isinstance(attribute, cst.Attribute) or attribute.value is not seeding
            or not isinstance(call, cst.Call) or call.func is not attribute
            or attribute.attr.value not in STREAMS):
        return None
    return attribute.attr.value, call


_UNKNOWN = object()  # a parameter given as code whose value is not a literal


def _parameters(name: str, call: cst.Call, constants: Mapping[str, object]) -> list[object]:
    """The values of the stream's parameters in this call: literals, or names of the function
    bound once to one (`contam_beta = 17.0 / 3.0`), defaults filled in."""
    stream, parameters = STREAMS[name]
    parameters = parameters or _DEFAULTS.get(stream, ())
    if any(arg.star for arg in call.args):
        return [_UNKNOWN] * len(parameters)
    positional = [arg.value for arg in call.args if arg.keyword is None]
    keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    if stream in ("randint", "integers") and len(positional) == 1 and "high" not in keywords:
        positional = [cst.Integer("0"), *positional]  # `randint(10)` draws in [0, 10)
    values: list[object] = []
    for position, (parameter, default) in enumerate(parameters):
        code = positional[position] if position < len(positional) else keywords.get(parameter)
        values.append(default if code is None else constants.get(code.value, _UNKNOWN)
                      if isinstance(code, cst.Name) else _literal(code))
    return values


def _constants_around(ctx: RuleContext, call: cst.Call) -> dict[str, object]:
    """`_constants_in` the function around `call`, read once per function of the file (a file
    seeding many generators alike asks of every pair)."""
    parents = ctx.index.parents()
    function: cst.CSTNode | None = parents.get(id(call))
    while function is not None and not isinstance(function, cst.FunctionDef):
        function = parents.get(id(function))
    if function is None:
        return {}
    # By the function's id: the file's tree, which `ctx` holds, keeps every node alive.
    known: dict[int, dict[str, object]] = ctx.shared("key_numpy_draws.constants", dict)
    if id(function) not in known:
        known[id(function)] = _constants_in(function)
    return known[id(function)]


def _constants_in(function: cst.FunctionDef) -> dict[str, object]:
    """The names of `function` bound exactly once, by a plain `name = number` (a name bound any
    other way too, or declared `global`/`nonlocal` anywhere in it, is left out: its value is not
    known here)."""
    assigned: dict[str, list[object]] = {}
    other: set[str] = {param.name.value for param in (
        *function.params.posonly_params, *function.params.params, *function.params.kwonly_params)}
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0].target, cst.Name):
            assigned.setdefault(node.targets[0].target.value, []).append(_literal(node.value))
            stack.append(node.value)
            continue
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            other.update(item.name.value for item in node.names)
        elif isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For,
                               cst.NamedExpr, cst.AsName, cst.CompFor, cst.Del, cst.Param)):
            target = getattr(node, "target", None) or getattr(node, "name", None)
            other.update(n.value for n in _names_in(target))
        stack.extend(child_nodes(node))
    return {name: values[0] for name, values in assigned.items()
            if len(values) == 1 and name not in other and values[0] is not _UNKNOWN}


def _names_in(target: object) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _names_in(element.value)]
    if isinstance(target, cst.StarredElement):
        return _names_in(target.value)
    return []


def _literal(code: cst.BaseExpression) -> object:
    """The value of a literal, or of arithmetic on number literals (`17.0 / 3.0`)."""
    try:
        return _number(ast.parse(cst.Module([]).code_for_node(code).strip(), mode="eval").body)
    except (ValueError, SyntaxError, TypeError, ArithmeticError, RecursionError):
        return _UNKNOWN


_OPERATORS: dict[type, Callable[..., Any]] = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.Div: operator.truediv, ast.USub: operator.neg, ast.UAdd: operator.pos}


def _number(node: ast.expr) -> object:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_number(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_number(node.left), _number(node.right))
    return ast.literal_eval(node)  # a string, a tuple of literals...; else ValueError
