"""Calls that keep, of the arrays they are given, one per element as a test chooses: a
`jax.lax.select(pred, on_true, on_false)` written where `on_true if pred else on_false` cannot
be traced (Kinetix ued/util.py:94 draws a point on a triangle or a rectangle from one key and
keeps one). Both arguments are computed, so JAX's checker sees one key drawn twice, but every
element of the result comes from one of them, at its own place: with a scalar test the result
is one draw whole, and with an array test no two elements of the result come from the same
place of the two draws (the same place holds the same random bits). The key walk takes the
arguments as the branches of an `if`: a key drawn in each is drawn once, and drawn still after.
`tests/test_prng_keys_selections.py` runs the calls below (jax 0.10.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.context import RuleContext

# By the call's qualified name: the place of its first alternative; it and every positional
# argument after it are the alternatives (`select_n(which, *cases)`).
SELECTIONS: dict[str, int] = {
    "jax.lax.select": 1,
    "jax.lax.select_n": 1,
    "jax.numpy.where": 1,  # `where(condition, x, y)`; `where(condition)` alone chooses nothing
}
_LAST_NAMES = frozenset(name.rsplit(".", 1)[1] for name in SELECTIONS)


def alternatives(ctx: RuleContext, call: cst.Call) -> tuple[cst.BaseExpression, ...]:
    """The arguments `call` chooses between, element by element (none: not such a call, or
    one whose arguments cannot be told apart: a `*args`, a keyword)."""
    func = call.func
    last = func.attr.value if isinstance(func, cst.Attribute) else (
        func.value if isinstance(func, cst.Name) else None)
    if last not in _LAST_NAMES or len(call.args) < 3 or any(
            arg.star or arg.keyword is not None for arg in call.args):
        return ()
    first = SELECTIONS.get(ctx.qualify(func) or "")
    if first is None:
        return ()
    return tuple(arg.value for arg in call.args[first:])
