"""Whether an expression's floating-point arrays are all of one low-precision dtype (bfloat16 or
float16), read from the code that makes them: `.astype(jnp.bfloat16)`, a `dtype=` given to a
jax.numpy / jax.random constructor or an `eqx.nn` layer, `jax.tree.map(lambda x:
x.astype(jnp.bfloat16), ...)`, `optax.tree.cast(tree, jnp.bfloat16)`, a Flax module's `init`
whose layers all take `param_dtype=jnp.bfloat16`, and names, `eqx.filter`, dicts and lists of
those. A dtype may be a name whose value is one (a helper's parameter, a config default). Anything else (a parameter, a model class, a cast applied to only some
leaves) is unknown: None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.dtype_names import dtype_name
from optlint.analysis.index import LATER, Scope
from optlint.analysis.values import FunctionValue, LibraryRef, ParamTree

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator

_TREE_MAPS = {"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"}
_TREE_CASTS = {"optax.tree.cast", "optax.tree_utils.tree_cast"}
_FILTERS = {"equinox.filter"}
_CONSTRUCTOR_PREFIXES = ("jax.numpy.", "jax.random.", "equinox.nn.")
# Where a constructor takes `dtype` positionally (read from the signatures, jax 0.10.2):
# `jnp.zeros(4, jnp.bfloat16)`.
DTYPE_POSITIONS = {
    **{f"jax.numpy.{name}": 1 for name in (
        "zeros", "ones", "empty", "array", "asarray", "zeros_like", "ones_like", "empty_like",
        "identity")},
    "jax.numpy.full": 2, "jax.numpy.full_like": 2, "jax.numpy.arange": 3, "jax.numpy.eye": 3,
    "jax.numpy.linspace": 5, "jax.random.normal": 2, "jax.random.uniform": 2,
    "jax.random.truncated_normal": 4, "jax.random.orthogonal": 3,
}
_MAX_DEPTH = 12


def low_precision(inference: Evaluator, expr: cst.BaseExpression, scope: Scope,
                  order: int, depth: int = 0) -> tuple[str, cst.CSTNode] | None:
    """The low-precision dtype every float leaf of `expr` has, with the node that makes it so."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, cst.Name):
        return _from_name(inference, expr.value, scope, order, depth)
    if isinstance(expr, (cst.Dict, cst.List, cst.Tuple)):
        items = [element.value for element in expr.elements
                 if isinstance(element, (cst.DictElement, cst.Element))]
        if not items or len(items) != len(expr.elements):
            return None
        found = [low_precision(inference, item, scope, order, depth + 1) for item in items]
        names = {item[0] for item in found if item is not None}
        if None in found or len(names) != 1:
            return None
        return found[0]
    if isinstance(expr, cst.Attribute):
        # `self.params = self.model.init(...)`: a Flax module whose layers make every
        # parameter in one dtype (`param_dtype=jnp.bfloat16`).
        from optlint.analysis.library_param_paths import param_dtype

        tree = inference.value_of(expr, scope, order)
        return param_dtype(tree, inference) if isinstance(tree, ParamTree) else None
    if not isinstance(expr, cst.Call):
        return None
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value == "astype" and expr.args:
        dtype = dtype_name(inference, expr.args[0].value, scope, order)
        return (dtype, expr) if dtype is not None else None
    qualified = inference.qualify(func)
    if qualified is None:
        helper = _helper_cast(inference, func, scope, order, depth)
        if helper is not None:
            return helper
        return _module_class(inference, expr, scope, order, depth)
    if qualified in _TREE_MAPS and len(expr.args) >= 2:
        dtype = _casting_lambda(inference, expr.args[0].value, scope, order)
        return (dtype, expr) if dtype is not None else None
    if qualified in _TREE_CASTS:
        given = argument(expr, 1, "dtype")
        dtype = dtype_name(inference, given.value) if given is not None else None
        return (dtype, expr) if dtype is not None else None
    if qualified in _FILTERS and expr.args:
        return low_precision(inference, expr.args[0].value, scope, order, depth + 1)
    if qualified.startswith(_CONSTRUCTOR_PREFIXES):
        given = argument(expr, DTYPE_POSITIONS.get(qualified), "dtype")
        dtype = dtype_name(inference, given.value) if given is not None else None
        return (dtype, expr) if dtype is not None else None
    return None


def _helper_cast(inference: Evaluator, func: cst.BaseExpression, scope: Scope, order: int,
                 depth: int) -> tuple[str, cst.CSTNode] | None:
    """A helper of the file whose every `return` casts all float leaves to one low-precision
    dtype whatever it is given (`def to_bf16(tree): return jax.tree.map(lambda x:
    x.astype(jnp.bfloat16), tree)`)."""
    callee = inference.value_of(func, scope, order)
    if not isinstance(callee, FunctionValue) or not isinstance(callee.node, cst.FunctionDef):
        return None
    info = inference.index.functions.get(callee.node)
    if info is None or not info.returns:
        return None
    found = [low_precision(inference, returned, info.scope, LATER, depth + 1)
             for returned in info.returns]
    names = {item[0] for item in found if item is not None}
    if None in found or len(names) != 1:
        return None
    return found[0]


def _module_class(inference: Evaluator, call: cst.Call, scope: Scope, order: int,
                  depth: int) -> tuple[str, cst.CSTNode] | None:
    """An Equinox module of the checked code whose `__init__` makes every array field in one
    low-precision dtype (`self.linear = eqx.nn.Linear(..., dtype=jnp.bfloat16)`)."""
    value = inference.value_of(call, scope, order)
    if isinstance(value, ParamTree):  # `Mlp().init(key, x)`
        from optlint.analysis.library_param_paths import param_dtype

        return param_dtype(value, inference)
    cls = getattr(value, "cls", None)
    # A module rebuilt by a map (`made_by`) holds new arrays: their dtypes are not its class's.
    if cls is None or getattr(value, "derived_by", "") is not None or getattr(
            value, "made_by", None) is not None:
        return None
    info, owner = cls.info, inference.evaluator_for(cls.path)
    if not info.attributes:
        return None
    for name, field in info.fields.items():
        if name not in info.attributes and not (
                field.default is not None and _not_array(owner, field.default, info.scope)):
            return None
    found: list[tuple[str, cst.CSTNode] | None] = []
    for bindings in info.attributes.values():
        binding = bindings[-1]
        if binding.value is None or binding.scope is None or binding.path:
            return None
        if _not_array(owner, binding.value, binding.scope, binding.order):
            continue
        found.append(low_precision(owner, binding.value, binding.scope, binding.order,
                                   depth + 1))
    names = {item[0] for item in found if item is not None}
    if not found or None in found or len(names) != 1:
        return None
    return found[0]


def _not_array(inference: Evaluator, expr: cst.BaseExpression, scope: Scope,
               order: int = LATER) -> bool:
    """A literal or a function: a field value that is no array leaf."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString, cst.Lambda)) or (
            isinstance(expr, cst.Name) and expr.value in ("True", "False", "None")):
        return True
    if isinstance(expr, cst.Call):
        return False
    return isinstance(inference.value_of(expr, scope, order), (LibraryRef, FunctionValue))


def _from_name(inference: Evaluator, name: str, scope: Scope, order: int,
               depth: int) -> tuple[str, cst.CSTNode] | None:
    binding = inference.lookup(name, scope, order)
    if binding is None or binding.kind != "assign" or binding.value is None or binding.path:
        return None
    return low_precision(inference, binding.value, binding.scope or scope, binding.order,
                         depth + 1)


def _casting_lambda(inference: Evaluator, func: cst.BaseExpression, scope: Scope,
                    order: int) -> str | None:
    """`lambda x: x.astype(D)`, or `lambda x: x.astype(D) if <test> else x` (floats only)."""
    if not isinstance(func, cst.Lambda) or len(func.params.params) != 1:
        return None
    param = func.params.params[0].name.value
    body = func.body
    if isinstance(body, cst.IfExp):
        if not (isinstance(body.orelse, cst.Name) and body.orelse.value == param
                and _every_float(inference, body.test, param)):
            return None
        body = body.body
    if (isinstance(body, cst.Call) and isinstance(body.func, cst.Attribute)
            and body.func.attr.value == "astype" and isinstance(body.func.value, cst.Name)
            and body.func.value.value == param and body.args):
        return dtype_name(inference, body.args[0].value, scope, order)
    return None


_FLOAT_TESTS = {"equinox.is_inexact_array", "equinox.is_array", "equinox.is_array_like",
                "equinox.is_inexact_array_like"}
_FLOAT_KINDS = {"jax.numpy.floating", "jax.numpy.inexact", "numpy.floating", "numpy.inexact"}
_ARRAY_TYPES = {"jax.Array", "jax.numpy.ndarray"}


def _every_float(inference: Evaluator, test: cst.BaseExpression, param: str) -> bool:
    """Whether `test` holds for every float array leaf: `eqx.is_inexact_array(x)`,
    `jnp.issubdtype(x.dtype, jnp.floating)`, `isinstance(x, jax.Array)`."""
    if not isinstance(test, cst.Call) or not test.args:
        return False
    first = test.args[0].value
    name = inference.qualify(test.func)
    if name in _FLOAT_TESTS:
        return isinstance(first, cst.Name) and first.value == param
    if name in ("jax.numpy.issubdtype", "numpy.issubdtype") and len(test.args) == 2:
        kind = inference.qualify(test.args[1].value)
        return (isinstance(first, cst.Attribute) and first.attr.value == "dtype"
                and isinstance(first.value, cst.Name) and first.value.value == param
                and kind in _FLOAT_KINDS)
    if isinstance(test.func, cst.Name) and test.func.value == "isinstance" and len(test.args) == 2:
        return (isinstance(first, cst.Name) and first.value == param
                and inference.qualify(test.args[1].value) in _ARRAY_TYPES)
    return False
