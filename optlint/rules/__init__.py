"""The rule registry: every rule class, and the two codes the engine itself reports."""

from __future__ import annotations

from dataclasses import dataclass

from optlint.rules.base import Rule
from optlint.rules.callable_pytree_mask import CallablePytreeMask
from optlint.rules.inject_hyperparams_callable import InjectHyperparamsCallable
from optlint.rules.jax_transform_on_equinox_model import JaxTransformOnEquinoxModel
from optlint.rules.linesearch_equinox_module import LinesearchEquinoxModule
from optlint.rules.prng_key_reuse import PrngKeyReuse
from optlint.rules.unfiltered_equinox_model import UnfilteredEquinoxModel
from optlint.rules.zero_nans_in_multisteps import ZeroNansInMultiSteps

RULES: list[type[Rule]] = [
    CallablePytreeMask,
    InjectHyperparamsCallable,
    ZeroNansInMultiSteps,
    UnfilteredEquinoxModel,
    LinesearchEquinoxModule,
    JaxTransformOnEquinoxModel,
    PrngKeyReuse,
]


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str
    summary: str
    fix_availability: str


# Reported by the engine rather than by a rule class.
SYNTAX_ERROR = RuleInfo("OPT000", "invalid-syntax", "The file does not parse", "none")
UNUSED_NOQA = RuleInfo("OPT100", "unused-noqa", "A `# noqa: OPTnnn` directive that suppresses "
                       "nothing", "always")


def catalog() -> list[RuleInfo]:
    """Every code optlint can report, sorted by code."""
    infos = [RuleInfo(rule.code, rule.name, rule.summary, rule.fix_availability) for rule in RULES]
    return sorted([SYNTAX_ERROR, UNUSED_NOQA, *infos], key=lambda info: info.code)


def all_codes() -> list[str]:
    return [info.code for info in catalog()]
