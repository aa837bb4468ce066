"""The rule registry: every rule class. Their metadata, and the two codes the engine itself
reports, are in optlint.catalog, importable without libcst."""

from __future__ import annotations

from optlint.catalog import (  # noqa: F401 - the registry is named from here too
    SYNTAX_ERROR,
    UNUSED_NOQA,
    RuleInfo,
    all_codes,
    catalog,
)
from optlint.rules.base import Rule, RuntimeCheck
from optlint.rules.callable_pytree_mask import CallablePytreeMask
from optlint.rules.clip_after_optimizer import ClipAfterOptimizer
from optlint.rules.decay_after_scaling import DecayAfterScaling
from optlint.rules.inject_hyperparams_callable import InjectHyperparamsCallable
from optlint.rules.jax_transform_on_equinox_model import JaxTransformOnEquinoxModel
from optlint.rules.linesearch_equinox_module import LinesearchEquinoxModule
from optlint.rules.plateau_before_scale_invariant import PlateauBeforeScaleInvariant
from optlint.rules.lookahead_raw_params import LookaheadRawParams
from optlint.rules.filter_transform_keyword_first import FilterTransformKeywordFirst
from optlint.rules.shared_layer_alias import SharedLayerAlias
from optlint.rules.static_array_field import StaticArrayField
from optlint.rules.decay_on_frozen import DecayOnFrozen
from optlint.rules.masked_does_not_freeze import MaskedDoesNotFreeze
from optlint.rules.prng_key_reuse import PrngKeyReuse
from optlint.rules.unfiltered_equinox_model import UnfilteredEquinoxModel
from optlint.rules.update_missing_arguments import UpdateMissingArguments
from optlint.rules.zero_nans_in_multisteps import ZeroNansInMultiSteps
from optlint.rules.hyperparams_path import HyperparamsPath
from optlint.rules.schedule_free_eval import ScheduleFreeEval
from optlint.rules.low_precision_hyperparams import LowPrecisionHyperparams
from optlint.rules.is_array_like_filter import IsArrayLikeFilter
from optlint.rules.filtered_model_as_model import FilteredModelAsModel
from optlint.rules.accumulation_misplaced import AccumulationMisplaced
from optlint.rules.decay_mask_misses import DecayMaskMisses

RULES: list[type[Rule]] = [
    CallablePytreeMask,
    InjectHyperparamsCallable,
    ZeroNansInMultiSteps,
    UnfilteredEquinoxModel,
    LinesearchEquinoxModule,
    JaxTransformOnEquinoxModel,
    ClipAfterOptimizer,
    DecayAfterScaling,
    PlateauBeforeScaleInvariant,
    HyperparamsPath,
    ScheduleFreeEval,
    LowPrecisionHyperparams,
    IsArrayLikeFilter,
    FilteredModelAsModel,
    UpdateMissingArguments,
    LookaheadRawParams,
    FilterTransformKeywordFirst,
    StaticArrayField,
    SharedLayerAlias,
    MaskedDoesNotFreeze,
    DecayOnFrozen,
    PrngKeyReuse,
    DecayMaskMisses,
    AccumulationMisplaced,
]


def runtime_check(code: str) -> RuntimeCheck | None:
    """How `optlint verify` runs the findings of `code`, if it can."""
    return next((rule.runtime_check for rule in RULES if rule.code == code), None)
