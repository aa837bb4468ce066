"""What every public Optax transformation does, kept as data: one row per factory.

Rules and the verifier ask `behaviour(name)` instead of keeping their own name lists.

Where the facts come from:
  * Behaviour on the newest release (per-parameter state, reading `params`, required `update`
    arguments, learning-rate scaling, scale invariance) was measured on optax 0.2.8 / jax 0.10.2 by
    building each factory with minimal arguments, calling `init` on a small params dict (and on one
    with an activation-function leaf), calling `update` with and without `params` and extra
    arguments, and comparing three-step updates for `lr=1` vs `lr=2` and for gradients `g` vs `10 g`.
  * Which versions have a name, and signature changes, were read from `dir(optax)` /
    `dir(optax.contrib)` and `inspect.signature` of every release 0.1.7 ... 0.2.8 (installed side by
    side), and from the google-deepmind/optax git history for behaviour boundaries.
  * tests/test_optax_table.py checks the table against whatever optax is installed.

A version the table does not know a boundary for is `None` (unknown), never guessed. Versions after
NEWEST_CHECKED are assumed to behave like it.

Use:
    row = behaviour("optax._src.alias.adamw")            # newest facts; None if not a transformation
    row = behaviour("optax.adamw", "0.2.3")              # facts on optax 0.2.3 (Transform.on)
    row.reads_params, row.mask_args, row.mask_callable_pytree_ok.contains("0.2.3")  # True, ..., False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from optlint.analysis.optax_rows import _ROWS as _MEASURED_ROWS
from optlint.analysis.optax_transform import (  # noqa: F401 - the table's vocabulary, named from here
    ALWAYS,
    NEVER,
    NEWEST_CHECKED,
    OLDEST_CHECKED,
    ArgPos,
    Kind,
    Transform,
    VersionRange,
    parse_version,
)
from optlint.records import replaced

_ROWS = list(_MEASURED_ROWS)

# What the states hold (state_attributes, inner_state) and the float defaults that low precision
# changes (float_defaults), added here to keep the rows above short.
_INJECT_STATE = ("hyperparams", "hyperparams_states", "inner_state", "count")
_SCHEDULE_FREE_STATE = ("b1", "weight_sum", "step_count", "max_lr", "base_optimizer_state", "z")
_STATES: dict[str, dict[str, Any]] = {
    "optax.inject_hyperparams": {"state_attributes": _INJECT_STATE, "inner_state": "inner_state"},
    "optax.inject_stateful_hyperparams": {"state_attributes": _INJECT_STATE,
                                          "inner_state": "inner_state"},
    "optax.MultiSteps": {"inner_state": "inner_opt_state"},
    "optax.apply_if_finite": {"inner_state": "inner_state"},
    "optax.contrib.schedule_free": {"state_attributes": _SCHEDULE_FREE_STATE,
                                    "inner_state": "base_optimizer_state"},
    "optax.contrib.schedule_free_adamw": {"state_attributes": _SCHEDULE_FREE_STATE},
    "optax.contrib.schedule_free_sgd": {"state_attributes": _SCHEDULE_FREE_STATE},
}
_B2 = ("b2", 0.999)
_EPS = ("eps", 1e-8)
_FLOAT_DEFAULTS: dict[str, tuple[tuple[str, float], ...]] = {
    **{name: (_B2, _EPS) for name in (
        "optax.adam", "optax.adamax", "optax.adamaxw", "optax.adamw", "optax.amsgrad",
        "optax.nadam", "optax.nadamw", "optax.optimistic_adam", "optax.optimistic_adam_v2",
        "optax.radam", "optax.scale_by_adam", "optax.scale_by_adamax", "optax.scale_by_amsgrad",
        "optax.scale_by_radam", "optax.contrib.momo_adam",
        "optax.contrib.schedule_free_adamw")},
    **{name: (_B2, ("eps", 1e-16), ("eps_root", 1e-16)) for name in (
        "optax.adabelief", "optax.scale_by_belief", "optax.contrib.acprop",
        "optax.contrib.scale_by_acprop")},
    **{name: (_EPS,) for name in (
        "optax.adan", "optax.rmsprop", "optax.scale_by_rms", "optax.scale_by_stddev",
        "optax.contrib.simplified_ademamix", "optax.contrib.sophia")},
    **{name: (_B2,) for name in ("optax.lamb", "optax.yogi", "optax.scale_by_yogi")},
    "optax.contrib.ademamix": (_B2, ("b3", 0.9999), _EPS),
    "optax.contrib.scale_by_ademamix": (_B2, ("b3", 0.9999), _EPS),
    "optax.contrib.adopt": (("b2", 0.9999),),
    "optax.contrib.scale_by_adopt": (("b2", 0.9999),),
    "optax.contrib.muon": (_EPS, ("adam_b2", 0.999)),
}
_DECAY_IN_PARAMS_DTYPE = frozenset({
    "optax.adam", "optax.adamw", "optax.nadam", "optax.nadamw", "optax.radam",
    "optax.scale_by_adam", "optax.yogi", "optax.amsgrad", "optax.adabelief"})
# Transformations whose init or update raises on Python scalar params leaves with None gradients
# (see Transform.python_scalars_fail); measured on optax 0.2.8 for every row.
_PYTHON_SCALARS_FAIL = frozenset({
    "optax.MultiSteps", "optax.adadelta", "optax.adafactor", "optax.adagrad", "optax.adam",
    "optax.adamw", "optax.adan", "optax.adaptive_grad_clip", "optax.amsgrad", "optax.apply_every",
    "optax.contrib.acprop", "optax.contrib.adopt", "optax.contrib.cocob",
    "optax.contrib.dadapt_adamw", "optax.contrib.galore",
    "optax.contrib.hutchinson_estimator_diag_hessian", "optax.contrib.madgrad",
    "optax.contrib.mechanize", "optax.contrib.momo", "optax.contrib.momo_adam",
    "optax.contrib.muon", "optax.contrib.prodigy", "optax.contrib.reduce_on_plateau",
    "optax.contrib.sam", "optax.contrib.scale_by_acprop", "optax.contrib.scale_by_adopt",
    "optax.contrib.scale_by_cocob", "optax.contrib.scale_by_galore",
    "optax.contrib.scale_by_madgrad", "optax.contrib.scale_by_muon",
    "optax.contrib.scale_by_simplified_ademamix", "optax.contrib.schedule_free",
    "optax.contrib.schedule_free_adamw", "optax.contrib.schedule_free_sgd",
    "optax.contrib.simplified_ademamix", "optax.contrib.sophia", "optax.fromage",
    "optax.keep_params_nonnegative", "optax.lamb", "optax.lars", "optax.lbfgs", "optax.lion",
    "optax.nadam", "optax.nadamw", "optax.novograd", "optax.optimistic_adam",
    "optax.optimistic_adam_v2", "optax.optimistic_gradient_descent", "optax.rprop",
    "optax.scale_by_adadelta", "optax.scale_by_adam", "optax.scale_by_adan",
    "optax.scale_by_amsgrad", "optax.scale_by_distance_over_gradients",
    "optax.scale_by_factored_rms", "optax.scale_by_lbfgs", "optax.scale_by_lion",
    "optax.scale_by_novograd", "optax.scale_by_optimistic_gradient",
    "optax.scale_by_param_block_norm", "optax.scale_by_param_block_rms", "optax.scale_by_rprop",
    "optax.scale_by_rss", "optax.scale_by_sm3", "optax.scale_by_trust_ratio",
    "optax.scale_by_yogi", "optax.sm3", "optax.stateless_with_tree_map", "optax.yogi",
})


def _with_facts_above(row: Transform) -> Transform:
    """`row` with what the tables above say of it (a row they say nothing of is kept as it is:
    one copy of the fields of each row that changes, at import (`records.replaced`))."""
    changes = dict(_STATES.get(row.name, {}))
    if row.name in _FLOAT_DEFAULTS:
        changes["float_defaults"] = _FLOAT_DEFAULTS[row.name]
    if row.name in _DECAY_IN_PARAMS_DTYPE:
        changes["decay_in_params_dtype"] = "b2"
    if row.name in _PYTHON_SCALARS_FAIL:
        changes["python_scalars_fail"] = True
    return replaced(row, **changes) if changes else row


_ROWS = [_with_facts_above(row) for row in _ROWS]

_TABLE: dict[str, Transform] = {row.name: row for row in _ROWS}

# Spellings that name the same factory (apart from optax._src.* / optax.contrib._* paths and the
# optax.transforms / optax.schedules re-exports, handled in `canonical`).
_ALIASES: dict[str, str] = {
    alias: row.name for row in _ROWS for alias, _ in row.aliases
}


def canonical(name: str) -> str:
    """The table's name for `name`: optax._src.alias.adamw -> optax.adamw,
    optax.transforms.masked -> optax.masked, optax.partition -> optax.multi_transform,
    optax.contrib._reduce_on_plateau.reduce_on_plateau -> optax.contrib.reduce_on_plateau."""
    if name in _TABLE:
        return name
    if name in _ALIASES:
        return _ALIASES[name]
    parts = name.split(".")
    if len(parts) >= 3 and parts[0] == "optax":
        leaf = parts[-1]
        if parts[1] == "contrib":
            return "optax.contrib." + leaf
        if parts[1].startswith("_") or parts[1] in ("transforms", "schedules"):
            for candidate in ("optax." + leaf, "optax.contrib." + leaf):
                if candidate in _TABLE:
                    return candidate
                if candidate in _ALIASES:
                    return _ALIASES[candidate]
            return "optax." + leaf
    return name


def behaviour(name: str, version: str | None = None) -> Transform | None:
    """The row for `name` (canonical or a known alias), as it holds on `version` when that is
    known (see Transform.on); None for names not in the table."""
    row = _TABLE.get(canonical(name))
    return row.on(version) if row is not None else None


def all_transforms() -> list[Transform]:
    return list(_ROWS)


def names_with(predicate: Callable[[Transform], bool]) -> frozenset[str]:
    """Canonical names of the rows for which `predicate(row)` is true."""
    return frozenset(row.name for row in _ROWS if predicate(row))
