"""`jax.vmap(partial(f, key=key))(xs)`: a batching transformation mapping a
`functools.partial`. What the partial binds is not batched: every row is given the same bound
key, and where `f` draws from it every row draws the same numbers (levanter's
`partial(model, inference=False, key=key)` then `jax.vmap(model)(x)`: one dropout mask for
every example of the batch).

`f` a function of the file: its summary says whether it draws from the bound parameter. `f` a
function a caller gives (`model`, a parameter): proven when every caller gives a callable that
draws from it (`key_given.py`), else a consumption for `--preview` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_batched_args import partial_function
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView


class BatchedPartials:
    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx

    def consumptions(self, call: cst.Call, batching: str, partial: cst.Call,
                     wrapped: cst.BaseExpression,
                     row_args: Sequence[cst.Arg] | None = None) -> list[Consumption]:
        """The keys `partial` binds that the function it wraps draws from, in every row of
        the batched `call` (or every step of a loop, whose steps' own arguments `row_args`
        are not written: `()`)."""
        site = self.calls.sites.get(id(partial))
        if site is None or any(arg.star for arg in partial.args):
            return []
        over = f"{batching} (a key bound by functools.partial)"
        # What each row's call passes: the partial's positionals, the row's, its keywords.
        bound = [arg for arg in partial.args[1:] if arg.keyword is None]
        keywords = [arg for arg in partial.args[1:] if arg.keyword is not None]
        given = call.args if row_args is None else row_args
        row = partial.with_changes(args=[*bound, *given, *keywords])
        function = partial_function(self.ctx, wrapped, site)
        bound_ids = {id(arg.value) for arg in (*bound, *keywords)}
        if function is not None:
            flow = self.calls.summary(function)
            if flow is None:
                return []
            uses = []
            for param, expr in bind_arguments(function, row):
                inner = flow.param_uses.get(param.name.value)
                if inner is None or id(expr) not in bound_ids:
                    continue
                uses += self._broadcast(call, expr, self.calls.callee(inner.call), over,
                                        inner.unseen, inner.proof, self._here(inner.call))
            return uses
        if not isinstance(wrapped, cst.Name) or not self.calls.given_function(wrapped, site):
            return []
        keys = [arg.value for arg in (*bound, *keywords)
                if self.calls.reads_as_key(arg.value)
                or (arg.keyword is not None and arg.keyword.value == "key")]
        if not keys:
            return []
        drawn, proof = self.calls.drawn_by_given(wrapped, site, row)
        key = keys[0]
        unseen = "" if id(key) in drawn else (
            f"`{wrapped.value}` is a function given by a caller; the analysis cannot see it "
            f"draw from the key")
        return self._broadcast(call, key, self.calls.callee(call), over, unseen,
                               proof if not unseen else "")

    def _broadcast(self, call: cst.Call, key: cst.BaseExpression, drawn_by: str, over: str,
                   unseen: str, proof: str, drawn_at: cst.Call | None = None
                   ) -> list[Consumption]:
        """The batched call consumes the bound key, and again in every row (drawn by
        `drawn_at` in the function, where it is of this file)."""
        return [Consumption(call, key, self.calls.callee(call), library=False, unseen=unseen,
                            proof=proof),
                Consumption(call, key, drawn_by, library=False, repeated=True, unseen=unseen,
                            proof=proof, over=over, drawn_at=drawn_at)]

    def _here(self, draw: cst.Call) -> cst.Call | None:
        """`draw` where it is a call of this file (a summary of another file's function holds
        that file's nodes)."""
        return draw if self.ctx.site_of(draw) is not None else None
