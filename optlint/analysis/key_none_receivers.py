"""A closure's draw through an object its function is given (`execution.evaluate(..., key=key)`
with `execution` a parameter), at a call giving that parameter `None`: the method of `None`
cannot run there (the closure takes another branch, or raises), so the draw the summary kept
for the closure is not this call's. Another branch of the closure may still draw from the key,
which the summary (one consumption per key) does not hold: the call's consumption is `--preview`.

representax 0.0.2 (`tests/models/jina_v5/test_grad_cache.py:137`, FP by run): `run(None)` runs
`task.loss(...) if execution is None else execution.evaluate(...)`, and the finding rested on
`execution.evaluate` for both `run(None)` and `run(GradCache(...))`.
"""

from __future__ import annotations

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.prng_keys import Consumption

UNSEEN = ("`{call}` gives `{name}` `None`, so the draw through `{name}` cannot run there; "
          "whether another branch draws is not seen")


def none_receiver(call: cst.Call, function: cst.FunctionDef, bound: bool,
                  innermost: Consumption, how: str) -> str:
    """Why the closure's consumption `innermost`, reached by `call` of `function`, is unseen:
    it calls (a method of) a parameter of `function` that `call` gives `None` ("" otherwise)."""
    receiver = innermost.call.func
    if isinstance(receiver, cst.Attribute):
        receiver = receiver.value
    if not isinstance(receiver, cst.Name):
        return ""
    for param, given in bind_arguments(function, call, bound):
        if param.name.value == receiver.value:
            if isinstance(given, cst.Name) and given.value == "None":
                return UNSEEN.format(call=how, name=receiver.value)
            return ""
    return ""
