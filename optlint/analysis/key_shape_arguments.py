"""Arguments a call reads only for their shape and dtype, given whole: the array of
`jnp.zeros_like(x)`, the tree of `tree_map(lambda x: jnp.zeros((n,) + x.shape, x.dtype), tree)`,
of `tree_map(lambda p: p.shape, tree)` and of `tree_map(jnp.shape, tree)`,
the inputs of a model's `init` (`SHAPED_INPUTS`: its parameters hold their shapes alone),
and a name given to a function of the file that reads that parameter only so
(`buffer_init(example, n)` building its buffer from `example`'s shapes). A draw that reaches
only such arguments reaches no result: its shape and dtype are the same for every key."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_consumers import SHAPED_INPUTS
from optlint.analysis.key_model_loops import TREE_MAPS
from optlint.analysis.key_name_reads import SHAPE_ATTRIBUTES
from optlint.analysis.key_size_arguments import shapes_only_as_sizes
from optlint.analysis.project_values import names_in

if TYPE_CHECKING:
    from optlint.context import RuleContext

# Array makers whose result takes its shape and dtype from the array given first, nothing of
# its values (`zeros_like(a, dtype=None, shape=None)`; tests/test_prng_keys_shape_arguments.py
# runs them on two draws of one shape).
LIKE_MAKERS = frozenset({
    f"{module}.{name}" for module in ("jax.numpy", "numpy")
    for name in ("zeros_like", "ones_like", "empty_like")})
_LAST_NAMES = frozenset({name.rsplit(".", 1)[1] for name in (*LIKE_MAKERS, *TREE_MAPS)})
_SHAPED_METHODS = frozenset(row[0] for row in SHAPED_INPUTS)
# How deep functions of the file are followed (a function giving its parameter to another).
_DEPTH = 3


# Functions giving an array's shape, dtype or rank alone: a tree mapped by one holds nothing of
# the values (`tree_map(jnp.shape, params)`).
SHAPE_READERS = frozenset({"jax.numpy.shape", "numpy.shape", "jax.numpy.ndim", "numpy.ndim"})


def _shapes_of(body: cst.BaseExpression, param: str) -> bool:
    """`body` gives only `param`'s shape attributes (`p.shape`, `(p.shape, p.dtype)`): what the
    lambda returns is the same for every draw of one shape."""
    items = [element.value for element in body.elements] if isinstance(
        body, (cst.Tuple, cst.List)) else [body]
    return bool(items) and all(
        isinstance(item, cst.Attribute) and isinstance(item.value, cst.Name)
        and item.value.value == param and item.attr.value in SHAPE_ATTRIBUTES
        for item in items)


class ShapeArguments:
    """`shape_only(call)` for the calls of one file, with what it found for each function's
    parameters kept."""

    def __init__(self, ctx: RuleContext,
                 made_by: Callable[[cst.Call], set[str]] | None = None) -> None:
        self.ctx = ctx
        self._made_by = made_by  # what made the object a method is called on
        self._calls: dict[int, frozenset[int]] = {}
        self._params: dict[tuple[int, str], bool] = {}
        self._functions: dict[str, cst.FunctionDef | None] = {}

    def shape_only(self, call: cst.Call, depth: int = 0) -> frozenset[int]:
        """The ids of the argument expressions `call` reads only for shape and dtype."""
        known = self._calls.get(id(call))
        if known is None:
            known = self._calls[id(call)] = self._shape_only(call, depth)
        return known

    def _shape_only(self, call: cst.Call, depth: int) -> frozenset[int]:
        func = call.func
        last = func.attr.value if isinstance(func, cst.Attribute) else (
            func.value if isinstance(func, cst.Name) else None)
        if last is None:
            return frozenset()
        if last in _LAST_NAMES:
            qualified = self.ctx.qualify(func) or ""
            if qualified in LIKE_MAKERS:
                first = call.args[0] if call.args and not call.args[0].star else None
                return frozenset({id(first.value)}) if first is not None else frozenset()
            if qualified in TREE_MAPS:
                return self._tree_mapped(call, depth)
        if isinstance(func, cst.Attribute) and last in _SHAPED_METHODS:
            return self._shaped_inputs(call, last)
        function = self._function(func) if isinstance(func, cst.Name) else None
        if function is None or depth >= _DEPTH:
            return frozenset()
        return frozenset(
            id(expr) for target, expr in bind_arguments(function, call)
            if isinstance(expr, cst.Name) and self._param_sized(function, target.name.value,
                                                                 depth + 1))

    def _shaped_inputs(self, call: cst.Call, method: str) -> frozenset[int]:
        """The inputs of `model.init(key, x, ...)`, where a row of `SHAPED_INPUTS` says the
        method reads them for their shapes alone."""
        made = self._made_by(call) if self._made_by is not None else set()
        for name, makers, first, kept in SHAPED_INPUTS:
            if name == method and made & set(makers):
                positional = [arg for arg in call.args if arg.keyword is None]
                if any(arg.star for arg in positional[:first]):
                    return frozenset()
                inputs = {id(arg) for arg in positional[first:]}
                return frozenset(id(arg.value) for arg in call.args if id(arg) in inputs or (
                    arg.keyword is not None and arg.keyword.value not in kept))
        return frozenset()

    def _tree_mapped(self, call: cst.Call, depth: int) -> frozenset[int]:
        """The trees of `tree_map(lambda x: ..., tree, ...)` whose lambda reads its one
        parameter only as a size."""
        given = call.args[0].value if call.args and call.args[0].keyword is None else None
        if len(call.args) != 2 or call.args[1].keyword is not None or call.args[1].star:
            return frozenset()
        if given is not None and self.ctx.qualify(given) in SHAPE_READERS:
            return frozenset({id(call.args[1].value)})  # `tree_map(jnp.shape, tree)`
        if not isinstance(given, cst.Lambda) or len(given.params.params) != 1:
            return frozenset()
        param = given.params.params[0].name.value
        if not _shapes_of(given.body, param) and not shapes_only_as_sizes(
                given.body, param, self.ctx, lambda inner: self.shape_only(inner, depth + 1)):
            return frozenset()
        return frozenset({id(call.args[1].value)})

    def _function(self, func: cst.Name) -> cst.FunctionDef | None:
        """The function of the file `func` names: its one binding anywhere, a `def`."""
        name = func.value
        if name not in self._functions:
            bindings = self.ctx.index.bindings_anywhere(name)
            node = bindings[0].node if len(bindings) == 1 and bindings[0].kind == "def" else None
            self._functions[name] = node if isinstance(node, cst.FunctionDef) else None
        return self._functions[name]

    def _param_sized(self, function: cst.FunctionDef, param: str, depth: int) -> bool:
        """`function` reads `param` somewhere, and only as a size or through arguments read
        only so (a statement binding it anew, returning or keeping it reads it)."""
        asked = (id(function), param)
        if asked not in self._params:
            self._params[asked] = False  # a recursive call: not sized
            body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
            reading = [statement for statement in body
                       if any(name.value == param for name in names_in(statement))]
            self._params[asked] = bool(reading) and all(
                shapes_only_as_sizes(statement, param, self.ctx,
                                     lambda inner: self.shape_only(inner, depth))
                for statement in reading)
        return self._params[asked]
