"""OPT020's wording for one key folded with the same data twice (`fold_in(key, step)` in two
places, or in every iteration of a loop that changes neither): folding is deterministic, so
both make the same key and draw the same numbers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_texts import shown
from optlint.analysis.prng_keys import FOLDED_WITH, Reuse

if TYPE_CHECKING:
    from optlint.context import RuleContext

_FIX_TITLE = ("Fold in different data for each use (`jax.random.fold_in(key, 2 * step + 1)`), "
              "or split the folded key")


def folded_reuse_text(ctx: RuleContext, reuse: Reuse, key: str,
                      at_line: Callable[[RuleContext, cst.CSTNode], str]) -> tuple[str, str]:
    """The message and fix title of a reuse whose two keys are one key folded with the same
    data; `key` is the second key as the code names it, `at_line` says ` (line 12)`."""
    second = reuse.second
    folded = f"`{reuse.folded}`"
    if reuse.in_loop and reuse.first.call is second.call:
        return (f"`{key}` is {folded} in every iteration of the loop, which changes neither: "
                f"folding one key with the same data makes the same key, so every iteration "
                f"draws the same random numbers from it (`{second.how}`)",
                "Fold in the step (`jax.random.fold_in(key, i)`)")
    again = " in the previous iteration of the loop" if reuse.in_loop else ""
    first = f"`{shown(ctx, reuse.first.call)}`{at_line(ctx, reuse.first.call)}"
    if second.followed and second.closed is not None:
        # Reported at the method's `fold_in`: say which calls fold the same data.
        held = second.followed.partition(FOLDED_WITH)[0]
        return (f"`{shown(ctx, second.closed.call)}` makes the key {first} consumed{again}, "
                f"when `{shown(ctx, second.call)}`{at_line(ctx, second.call)} calls it: both "
                f"fold `{held}` with the same data ({folded}), and folding one key with the "
                f"same data makes the same key, so both draw the same random numbers",
                _FIX_TITLE)
    shown_key = (folded if isinstance(second.key, cst.Call) or second.followed
                 else f"`{key}` ({folded})")
    return (f"{shown_key} is the key {first} consumed{again}: folding one key with the same "
            f"data makes the same key, so `{second.how}` draws the same random numbers "
            f"(identical or correlated samples)", _FIX_TITLE)
