"""Keys made by a call of a function of the file from constants alone: `prng_key()` where `def
prng_key(seed=0): return jax.random.key(DEFAULT_SEED)`. Every such call given only literals
makes the same key, which the walks follow under one name (`MadeKeys`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.values import FunctionValue

if TYPE_CHECKING:
    from optlint.context import RuleContext


class MadeKeys:
    """What each call of one file makes, asked once per call (walks repeat)."""

    def __init__(self, ctx: RuleContext, sites: dict[int, CallSite]) -> None:
        self.ctx = ctx
        self.sites = sites
        self._made: dict[int, str] = {}  # by call: the name it is followed under ("": none)

    def __call__(self, expr: cst.BaseExpression) -> str | None:
        """The name a call given only literals is followed under, when the function of the
        file it calls returns nothing but a key made from constants (`jax.random.key(0)`)."""
        if not isinstance(expr, cst.Call) or not all(
                isinstance(arg.value, (cst.Integer, cst.SimpleString))
                or (isinstance(arg.value, cst.Name) and arg.value.value in ("None", "True",
                                                                            "False"))
                for arg in expr.args):
            return None
        known = self._made.get(id(expr))
        if known is None:
            site = self.sites.get(id(expr))
            value = self.ctx.value(expr.func, site) if site is not None else None
            info = (self.ctx.index.functions.get(value.node)
                    if isinstance(value, FunctionValue) else None)
            makes = info is not None and bool(info.returns) and all(
                isinstance(returned, cst.Call)
                and self.ctx.qualify(returned.func) in ("jax.random.key", "jax.random.PRNGKey")
                for returned in info.returns)
            known = self._made[id(expr)] = (
                "made:" + " ".join(self.ctx.code(expr).split()) if makes else "")
        return known or None
