"""Whether a consumption's call consumes its key on every path through the callee
(`surely_consumes`): a library's consumer, or a function of the file no path of which returns
without consuming the parameter given it (not `if shots is None: return probs` before the
draw). A reuse resting on a callee that may not draw is worded as one that may
(`key_reported_reuses.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_call_targets import Target
    from optlint.analysis.key_flow import KeyFlow


def surely_consumes(use: Consumption, resolve: Callable[[cst.Call], Target | None],
                    summary: Callable[[cst.FunctionDef], KeyFlow | None],
                    partial_surely: Callable[[Consumption], bool]) -> bool:
    """The call of `use` consumes its key on every path through the callee (`resolve`: the
    function a call runs; `partial_surely`: the same question of a call of a partial)."""
    if use.library:
        return True
    resolved = resolve(use.call)
    if not isinstance(resolved, tuple):
        # A method every class of the file defining it draws from (`dist.sample(key)`),
        # or a function every caller gives: as proven as the draw itself.
        return bool(use.proof) or partial_surely(use)
    function, bound, _ = resolved
    flow = summary(function)
    return flow is not None and any(
        expr is use.key and param.name.value not in flow.not_surely
        for param, expr in bind_arguments(function, use.call, bound))
