"""A callable made by a function a caller gives: `kernel = kernel_generator(step_size)`, then
`kernel(rng_key, state)`. What the factory returns is the caller's choice, which the analysis
cannot see, so whether the callable draws from the key is a guess: a consumption for
`--preview` only, as for a function given by a caller itself (`key_given.py`). A reuse resting
on it (the key split and drawn from in a loop's step and carried on) is then shown there."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.key_factories_elsewhere import FactoriesElsewhere
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView

UNSEEN = ("`{made}` is what `{factory}`, a function given by a caller, returns; the analysis "
          "cannot see it draw from the key")


class MadeCallables:
    """What a call of a callable made by a caller-given factory may consume."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self.elsewhere = FactoriesElsewhere(calls)

    def consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        func = call.func
        if not isinstance(func, cst.Name):
            return []
        binding = self.ctx.binding(func.value, site)
        made = binding.value if binding is not None and not binding.path else None
        if (binding is None or binding.kind != "assign" or not isinstance(made, cst.Call)
                or not isinstance(made.func, cst.Name)):
            return []
        made_at = self.ctx.site_of(made)
        if made_at is None or not self.calls.given_function(made.func, made_at):
            return []
        unseen = UNSEEN.format(made=func.value, factory=made.func.value)
        keys = [arg.value for arg in call.args
                if self.calls.reads_as_key(arg.value)
                or (arg.keyword is not None and arg.keyword.value == "key"
                    and isinstance(arg.value, cst.Name))][:1]
        # Proven where the project's other files give the factory (`key_factories_elsewhere`).
        drawn, proof = self.elsewhere.drawn(call, made.func, made_at) if keys else (set(), "")
        return [Consumption(call, key, self.calls.callee(call), library=False,
                            proof=proof if id(key) in drawn else "",
                            unseen="" if id(key) in drawn else unseen)
                for key in keys]
