"""What the harness builds for each kind of runtime check (`RuntimeCheck.builds`): one builder
per kind, each in its own module. A new kind is a builder module and a row here."""

from __future__ import annotations

from optlint.linted import Reported
from optlint.rules.base import RuntimeCheck
from optlint.verify import anchored_plan, expression_plan
from optlint.verify.call_plan import call_variants
from optlint.verify.key_plan import key_variants
from optlint.verify.planning import Builder, Planning, Variants
from optlint.verify.transform_plan import transform_variants


def _function(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    return transform_variants(planner.original, planner.fixed, report.diagnostic, report.finding,
                              planner.in_fixed)


def _call(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    return call_variants(planner.original, planner.fixed, report.diagnostic, report.finding,
                         check, planner.in_fixed)


def _keys(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    return key_variants(planner, planner.original, planner.fixed, report.diagnostic,
                        report.finding)


BUILDERS: dict[str, Builder] = {
    "params": anchored_plan.params_variants,  # an init/update/apply_updates call
    "transform": anchored_plan.transform_variants,  # the optimizer around the anchor
    "value": anchored_plan.value_variants,  # the anchor's whole statement expression
    "expression": expression_plan.expression_variants,  # the flagged expression
    "function": _function,  # a JAX transformation applied to a function
    "call": _call,  # the call around the flagged node
    "instance": _call,  # a call constructing the flagged node's class
    "keys": _keys,  # a PRNG key and the consumers it reaches
}
