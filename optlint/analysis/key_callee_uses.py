"""Where a function of the file consumes the key a call gives it: for a reuse whose consumer is
such a call (`self._corrupt_q_values(state, params)`, which splits `state.rng_key` inside), the
consumption in the callee is the line to change, so the finding names it as a role
(eyeplan-hybrid 48ff84e: reported at the call, the split inside at line 305); and what a helper
does with the key decides whether one key on every step is meant (`key_reported_reuses.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from optlint.analysis.binding import bind_arguments
from optlint.analysis.prng_keys import Consumption, key_name

if TYPE_CHECKING:
    from optlint.analysis.key_calls import FileKeyCalls


def callee_use(analysis: FileKeyCalls, use: Consumption) -> Consumption | None:
    """The first consumption, inside the function of the file `use` calls, of the key `use`
    gives it (a parameter given the key, or the same attribute of an object given: `state`
    given, `state.rng_key` split inside). None: a library's call, or not known."""
    if use.library:
        return None
    resolved = analysis.targets.resolve(use.call)
    if not isinstance(resolved, tuple):
        return None
    function, bound, _ = resolved
    flow = analysis.summary(function)
    if flow is None:
        return None
    name = use.followed or key_name(use.key)
    for param, expr in bind_arguments(function, use.call, bound):
        given = key_name(expr)
        if given is None or name is None:
            continue
        if expr is use.key and name == given:
            found = flow.param_uses.get(param.name.value)
            if found is not None:
                return found
        if name.startswith(given + "."):
            # `state` given, `state.rng_key` consumed inside as `<param>.rng_key`.
            return flow.attribute_uses.get(param.name.value + name[len(given):])
    return None
