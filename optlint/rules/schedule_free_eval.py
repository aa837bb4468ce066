"""OPT016 schedule-free-eval: `optax.contrib.schedule_free_eval_params` given a state that is not
the schedule-free state.

`schedule_free_eval_params(state, params)` reads `state.b1` and `state.z`, which only the state of
`schedule_free(...)` (and of `schedule_free_adamw` / `schedule_free_sgd`, built on it) holds.
Given the state of a `chain`, `MultiSteps` or any other wrapper around it, it raises
`AttributeError: 'tuple' object has no attribute 'b1'`. The schedule-free state is reached by its
position in the chain (`state[1]`) or the wrapper's attribute (`state.inner_opt_state`).

Evaluating the training iterate without `schedule_free_eval_params` is not reported: which params
are evaluated, and whether that is meant, cannot be proven from the code.
"""

from __future__ import annotations

from collections.abc import Iterator

from optlint.analysis.binding import argument
from optlint.analysis.library_names import (
    OPTAX_CONTRIB_PREFIX,
    SCHEDULE_FREE_EVAL_PARAMS as _EVAL_PARAMS,
)
from optlint.analysis.optax_model import state_path
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import LibraryRef, OneOf, StateValue, TransformValue
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck


def _is_schedule_free(part: TransformValue) -> bool:
    row = behaviour(part.name)
    return row is not None and "b1" in row.state_attributes


class ScheduleFreeEval(Rule):
    code = "OPT016"
    runtime_check = RuntimeCheck("expression", probe="optimizer_states:schedule_free_evaluates")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for site, callee in ctx.callees():
            if not (isinstance(callee, LibraryRef) and _canonical(callee.name) == _EVAL_PARAMS.name):
                continue
            state_arg = argument(site.node, 0, "state")
            if state_arg is None:
                continue
            state = ctx.value(state_arg.value, site)
            if not isinstance(state, StateValue):
                continue
            options = state.optimizer.options if isinstance(state.optimizer, OneOf) else (
                state.optimizer,)
            if not options or not all(isinstance(option, TransformValue) for option in options):
                continue
            rows = [behaviour(option.name) for option in options
                    if isinstance(option, TransformValue)]
            if any(row is None for row in rows) or any(
                    "b1" in row.state_attributes for row in rows if row is not None):
                continue
            names = list(dict.fromkeys(f"`{option.name}(...)`" for option in options
                                       if isinstance(option, TransformValue)))
            state_code = ctx.code(state_arg.value)
            message = (f"`schedule_free_eval_params` reads `b1` and `z` of the schedule-free state, "
                       f"but `{state_code}` is the state of {' or '.join(names)}: this raises "
                       f"AttributeError (no attribute 'b1')")
            path = state_path(options[0], _is_schedule_free) if len(options) == 1 else None
            fix = None
            advice = None
            if path:
                advice = f"Pass the schedule-free state, `{state_code}{path}`"
                fix = FixPlan("safe", f"Pass {state_code}{path}",
                              [(state_arg.value, f"{state_code}{path}")])
            elif not any(_is_schedule_free(part) for option in options
                         if isinstance(option, TransformValue) for part in option.walk()):
                message += "; the optimizer holds no schedule-free transformation"
            yield Finding(state_arg.value, message, fix, fix_title=advice)


def _canonical(name: str) -> str:
    """optax.contrib._schedule_free.schedule_free_eval_params -> optax.contrib.<leaf>."""
    parts = name.split(".")
    if len(parts) >= 3 and parts[0] == "optax" and parts[1] == "contrib":
        return OPTAX_CONTRIB_PREFIX + parts[-1]
    return name
