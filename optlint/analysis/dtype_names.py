"""The name of a low-precision dtype an expression spells or holds (`jnp.bfloat16`, `"float16"`,
a parameter its caller fills with one): read by the dtype analysis (`dtypes.py`) and by the
Flax parameter trees (`library_param_paths.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import LATER, Scope
from optlint.analysis.values import LibraryRef, LiteralValue

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator

LOW_PRECISION = {
    "jax.numpy.bfloat16": "bfloat16", "jax.numpy.float16": "float16",
    "jax.numpy.half": "float16", "numpy.float16": "float16", "numpy.half": "float16",
    "ml_dtypes.bfloat16": "bfloat16", "jax.dtypes.bfloat16": "bfloat16",
}
_STRINGS = {"bfloat16": "bfloat16", "float16": "float16"}


def dtype_name(inference: Evaluator, expr: cst.BaseExpression, scope: Scope | None = None,
               order: int = LATER) -> str | None:
    """"bfloat16" / "float16" for `jnp.bfloat16`, `"bfloat16"`; with a scope, also for a name
    whose value is one (a helper's `dtype` parameter its caller fills with
    `jnp.dtype(cfg.dtype)`, a configuration field's default); None for anything else."""
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return _STRINGS.get(value) if isinstance(value, str) else None
    qualified = inference.qualify(expr)
    if qualified is not None and qualified in LOW_PRECISION:
        return LOW_PRECISION[qualified]
    if scope is None or not isinstance(expr, (cst.Name, cst.Attribute, cst.Call)):
        return None
    held = inference.value_of(expr, scope, order)
    if isinstance(held, LiteralValue) and held.kind == "string":
        return _STRINGS.get(held.text)
    if isinstance(held, LibraryRef):
        return LOW_PRECISION.get(held.name)
    return None
