"""The rows of the Optax table: one `Transform` per public factory, as measured (the sources of
the facts are in `optax_table.py`'s docstring). `optax_table` adds the per-state and dtype facts
and answers lookups."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from optlint.analysis.optax_transform import ALWAYS, NEVER, ArgPos, Transform, VersionRange

# ----------------------------------------------------------------------------------------------
# Builders, to keep the rows short.

_LR: ArgPos = (0, "learning_rate")
_LINESEARCH_ARGS = ("value", "grad", "value_fn")
# Decay through add_decayed_weights: `update(filtered, state, unfiltered)` works from 0.2.4.
_DECAY_NONE_OK = VersionRange(since="0.2.4")
_MASK_OK = VersionRange(since="0.2.4")


def _v(since: str | None = None, until: str | None = None) -> VersionRange:
    return VersionRange(since=since, until=until)


def _opt(name: str, *, exists: VersionRange = ALWAYS, per_param_state: bool = True,
         scale_invariant: bool = False, lr: ArgPos | None = _LR, **kw: Any) -> Transform:
    kw.setdefault("scales_by_learning_rate", True)
    return Transform(name=name, kind="optimizer", exists=exists, per_param_state=per_param_state,
                     final_update=True, learning_rate_arg=lr,
                     scale_invariant=scale_invariant, **kw)


def _tx(name: str, *, exists: VersionRange = ALWAYS, per_param_state: bool = False,
        **kw: Any) -> Transform:
    return Transform(name=name, kind="transform", exists=exists, per_param_state=per_param_state,
                     **kw)


def _decay_opt(name: str, *, mask: ArgPos | None, exists: VersionRange = ALWAYS,
               when: tuple[str, ...] = (), none_ok: VersionRange = _DECAY_NONE_OK,
               **kw: Any) -> Transform:
    """An optimizer with decoupled weight decay: reads params for the decay."""
    return _opt(name, exists=exists, reads_params=True, params_none_ok=none_ok,
                adds_weight_decay=True, adds_weight_decay_when=when,
                mask_args=(mask,) if mask else (),
                mask_callable_pytree_ok=_MASK_OK if mask else ALWAYS, **kw)


# inject_hyperparams' init reads every params leaf's dtype from 0.2.8 on (a function leaf: TypeError).
_INJECT_OLDER = ((_v(until="0.2.8"), (("init_rejects_non_arrays", False),)),)

# rprop's update raised without params before 0.2.3.
_RPROP_OLDER = ((_v(until="0.2.3"), (("reads_params", True), ("params_none_ok", NEVER))),)

# Unreleased optax (main after 0.2.8) adds weight_decay_mask to adabelief, prodigy, sophia and muon,
# and an open PR (#1635) would rename adamw/lion/lamb's `mask` to `weight_decay_mask`.
_MAIN_DECAY = "optax main (after 0.2.8) adds weight_decay/weight_decay_mask, not in a release yet"
_MASK_RENAME = "optax PR #1635 (open) would rename mask to weight_decay_mask: accept both"

_NOPARAMS = "update without params: ValueError 'requires the current value of parameters'"

_ROWS: list[Transform] = [
    # ---- optimizers in `optax` ---------------------------------------------------------------
    _opt("optax.adabelief", scale_invariant=True, note=_MAIN_DECAY),
    _decay_opt("optax.adadelta", exists=_v("0.2.0"), mask=(4, "weight_decay_mask"),
               when=("weight_decay",), scale_invariant=True,
               note="reads params even with weight_decay=0 (measured: " + _NOPARAMS + "); "
                    "learning_rate defaults to None; scale invariant up to eps=1e-6"),
    _opt("optax.adafactor", scale_invariant=True, reads_params=True, params_none_ok=NEVER,
         adds_weight_decay=True, adds_weight_decay_when=("weight_decay_rate",),
         mask_args=((11, "weight_decay_mask"),), mask_callable_pytree_ok=_MASK_OK,
         # Measured (issue #20): jitted init/update run with static_args=
         # ("min_dim_size_to_factor",) alone; with ("dtype_momentum",) alone they raise
         # TracerBoolConversionError.
         inject_static_required=("min_dim_size_to_factor",),
         note="multiply_by_parameter_scale=True (default) reads params; init on a function leaf: "
              "AttributeError"),
    _opt("optax.adagrad", note="not scale invariant: initial_accumulator_value=0.1"),
    _opt("optax.adam", scale_invariant=True, decoupled_decay="optax.adamw",
         note="never reads params: update(grads, state, unfiltered_model) runs"),
    _opt("optax.adamax", scale_invariant=True, decoupled_decay="optax.adamaxw"),
    _decay_opt("optax.adamaxw", mask=(5, "mask"), scale_invariant=True),
    _decay_opt("optax.adamw", mask=(7, "mask"), scale_invariant=True,
               weight_decay_arg=(6, "weight_decay"),
               note="weight_decay=1e-4 by default, so every float leaf decays unless masked; "
                    "reads params even with weight_decay=0 (" + _NOPARAMS + "); " + _MASK_RENAME),
    _decay_opt("optax.adan", exists=_v("0.2.4"), mask=(7, "mask"), when=("weight_decay",),
               scale_invariant=True),
    _opt("optax.amsgrad", scale_invariant=True),
    _opt("optax.fromage", per_param_state=False, scale_invariant=True, reads_params=True,
         params_none_ok=NEVER,
         note="update = -lr/sqrt(1+lr^2) * |p|/|g| * g: reads params, keeps no per-parameter state"),
    _decay_opt("optax.lamb", mask=(6, "mask"), when=("weight_decay",), none_ok=NEVER,
               scale_invariant=True,
               note="the trust ratio reads params whatever weight_decay is; " + _MASK_RENAME),
    _decay_opt("optax.lars", mask=(2, "weight_decay_mask"), when=("weight_decay",),
               none_ok=NEVER, scale_invariant=True,
               note="trust ratio reads params whatever weight_decay is; a second mask, "
                    "trust_ratio_mask (position 5), is listed in mask_args too"),
    _opt("optax.lbfgs", exists=_v("0.2.3"), reads_params=True, params_none_ok=NEVER,
         update_requires=_LINESEARCH_ARGS, update_requires_unless=("linesearch",),
         inject_static_required=("memory_size",),
         note="update without value=, grad=, value_fn=: TypeError missing 3 required keyword-only "
              "arguments; value_fn is called on params (filtered params need eqx.combine inside); "
              "learning_rate=None means the zoom line search picks the step; linesearch=None "
              "drops the line search and the extra arguments"),
    _decay_opt("optax.lion", mask=(5, "mask"), scale_invariant=True,
               note="weight_decay=1e-3 by default; sign-based, so scale invariant; " + _MASK_RENAME),
    _opt("optax.nadam", exists=_v("0.1.9"), scale_invariant=True, decoupled_decay="optax.nadamw"),
    _decay_opt("optax.nadamw", exists=_v("0.1.9"), mask=(7, "mask"), scale_invariant=True),
    _opt("optax.noisy_sgd", per_param_state=False),
    _opt("optax.novograd", scale_invariant=True, reads_params=True, params_none_ok=NEVER,
         adds_weight_decay=True, adds_weight_decay_when=("weight_decay",),
         note="reads params even with weight_decay=0: without them a pytree structure error"),
    _opt("optax.optimistic_adam", exists=_v("0.2.4"), scale_invariant=True),
    _opt("optax.optimistic_adam_v2", exists=_v("0.2.6"), scale_invariant=True),
    _opt("optax.optimistic_gradient_descent"),
    _opt("optax.polyak_sgd", exists=_v("0.2.2"), per_param_state=False,
         lr=(0, "max_learning_rate"), update_requires=("value",),
         note="update without value=: TypeError missing 1 required keyword-only argument 'value'; "
              "the step is min(max_learning_rate, (value - f_min) / |g|^2)"),
    _opt("optax.radam", note="not scale invariant: its first steps (before the variance "
                             "threshold) are momentum SGD"),
    _opt("optax.rmsprop", scale_invariant=True),
    _opt("optax.rprop", exists=_v("0.2.0"), scale_invariant=True, older=_RPROP_OLDER,
         note="learning_rate is the initial per-parameter step size; sign-based"),
    _opt("optax.sgd", per_param_state_when=("momentum",),
         note="without momentum the state is EmptyState: init(model) with a function leaf runs"),
    _opt("optax.sign_sgd", exists=_v("0.2.4"), per_param_state=False, scale_invariant=True),
    _opt("optax.signum", exists=_v("0.2.7"), scale_invariant=True),
    _opt("optax.sm3", scale_invariant=True),
    _opt("optax.yogi", note="not scale invariant: initial_accumulator_value=1e-6 and the additive "
                            "second-moment update"),

    # ---- building blocks ---------------------------------------------------------------------
    _tx("optax.scale_by_adadelta", exists=_v("0.2.0"), per_param_state=True),
    _tx("optax.scale_by_adam", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_adamax", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_adan", exists=_v("0.2.4"), per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_amsgrad", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_belief", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_distance_over_gradients", params_positional_required=True, exists=_v("0.1.8"), per_param_state=True,
        reads_params=True, params_none_ok=NEVER, scale_invariant=True,
        note="DoG: keeps a copy of the initial params and measures the distance travelled"),
    _tx("optax.scale_by_factored_rms", per_param_state=True, scale_invariant=True,
        reads_params=True, params_none_ok=NEVER, params_positional_required=True,
        note="update(grads, state, None): ValueError 'requires the current value of parameters'"),
    _tx("optax.scale_by_lbfgs", params_positional_required=True, exists=_v("0.2.3"), per_param_state=True, reads_params=True,
        params_none_ok=NEVER, note="stores params and updates differences; no line search"),
    _tx("optax.scale_by_learning_rate", exists=_v("0.1.8"), scales_by_learning_rate=True,
        final_update=True, learning_rate_arg=_LR, note="scale(-learning_rate) (flip_sign=True by default)"),
    _tx("optax.scale_by_lion", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_novograd", params_positional_required=True, per_param_state=True, scale_invariant=True, reads_params=True,
        params_none_ok=NEVER, adds_weight_decay=True, adds_weight_decay_when=("weight_decay",)),
    _tx("optax.scale_by_optimistic_gradient", per_param_state=True),
    _tx("optax.scale_by_param_block_norm", params_positional_required=True, reads_params=True, params_none_ok=NEVER),
    _tx("optax.scale_by_param_block_rms", params_positional_required=True, reads_params=True, params_none_ok=NEVER),
    _tx("optax.scale_by_polyak", exists=_v("0.2.2"), update_requires=("value",),
        learning_rate_arg=(1, "max_learning_rate"),
        note="update without value=: TypeError missing 1 required keyword-only argument 'value'; "
             "multiplies by the Polyak step (capped by max_learning_rate) without flipping the "
             "sign: polyak_sgd adds the sign"),
    _tx("optax.scale_by_radam", per_param_state=True),
    _tx("optax.scale_by_rms", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_rprop", exists=_v("0.2.0"), per_param_state=True, scale_invariant=True,
        older=_RPROP_OLDER,
        learning_rate_arg=_LR,
        note="learning_rate is the initial step size; the output is not negated"),
    _tx("optax.scale_by_rss", per_param_state=True),
    _tx("optax.scale_by_schedule", note="multiplies by step_size_fn(count) without flipping the "
                                        "sign: scale_by_schedule(lambda c: -lr(c)) is the idiom"),
    _tx("optax.scale_by_sign", exists=_v("0.2.4"), scale_invariant=True),
    _tx("optax.scale_by_sm3", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_stddev", per_param_state=True, scale_invariant=True),
    _tx("optax.scale_by_trust_ratio", params_positional_required=True, reads_params=True, params_none_ok=NEVER,
        scale_invariant=True, note="output norm is |params| per leaf"),
    _tx("optax.scale_by_yogi", per_param_state=True),
    _tx("optax.scale_by_backtracking_linesearch", exists=_v("0.2.0"), init_rejects_non_arrays=True,
        older=((_v(until="0.2.5"), (("init_rejects_non_arrays", False),)),),
        reads_params=True, params_none_ok=NEVER, update_requires=_LINESEARCH_ARGS,
        params_positional_required=True, learning_rate_arg=(4, "max_learning_rate"),
        note="update without value=, grad=, value_fn=: TypeError missing 3 required keyword-only "
             "arguments; calls value_fn(params); multiplies the incoming direction by the step "
             "it finds, without flipping the sign: chain it after a descent direction such as "
             "sgd(learning_rate=1.0)"),
    _tx("optax.scale_by_zoom_linesearch", exists=_v("0.2.3"), per_param_state=True,
        reads_params=True, params_none_ok=NEVER, update_requires=_LINESEARCH_ARGS,
        params_positional_required=True, learning_rate_arg=(1, "max_learning_rate"),
        note="update without value=, grad=, value_fn=: TypeError missing 3 required keyword-only "
             "arguments; calls value_fn(params); like the backtracking search it scales the "
             "incoming direction without flipping the sign (lbfgs chains it after scale_by_lbfgs)"),
    _tx("optax.normalize_by_update_norm", exists=_v("0.2.3"), scale_invariant=True),
    _tx("optax.scale", final_update_when_negative=(0, "step_size"), note="multiplies by step_size as given: scale(-lr) is the idiom; "
                            "scale(lr) ascends"),
    _tx("optax.clip", clips=True),
    _tx("optax.clip_by_global_norm", clips=True,
        note="chain(adam, clip_by_global_norm) clips adam's small updates, never the gradients "
             "(measured: bitwise identical to plain adam)"),
    _tx("optax.clip_by_block_rms", clips=True),
    _tx("optax.adaptive_grad_clip", params_positional_required=True, clips=True, reads_params=True, params_none_ok=NEVER,
        note="clips relative to the params' norm: " + _NOPARAMS),
    _tx("optax.add_decayed_weights", reads_params=True, params_none_ok=_DECAY_NONE_OK,
        adds_weight_decay=True, adds_weight_decay_when=("weight_decay",),
        weight_decay_arg=(0, "weight_decay"),
        mask_args=((1, "mask"),), mask_callable_pytree_ok=_MASK_OK,
        aliases=(("optax.additive_weight_decay", _v(until="0.1.8")),),
        params_positional_required=True,
        note="update(grads, state): TypeError missing positional 'params' (every version "
             "0.1.7 ... 0.2.8); update(grads, state, None): ValueError; "
             "before the scaling (chain(add_decayed_weights, adam)) the decay is rescaled away, "
             "after a final update (chain(adam(lr), add_decayed_weights)) it grows the weights"),
    _tx("optax.add_noise", note="seed became keyword-only `key` in 0.2.5"),
    _tx("optax.apply_every", per_param_state=True, accumulates_over=(0, "k"),
        note="accumulates gradients and emits zeros in between: not MultiSteps"),
    _tx("optax.centralize"),
    _tx("optax.ema", per_param_state=True),
    _tx("optax.trace", per_param_state=True),
    _tx("optax.identity"),
    _tx("optax.set_to_zero", scale_invariant=True, note="the way to freeze a group in multi_transform"),
    _tx("optax.zero_nans",
        note="inside MultiSteps a NaN micro-batch stays in acc_grads for good (0.1.8+): put it "
             "outside, chain(zero_nans(), MultiSteps(opt, k).gradient_transformation())"),
    _tx("optax.keep_params_nonnegative", params_positional_required=True, reads_params=True, params_none_ok=NEVER),
    _tx("optax.stateless"),
    _tx("optax.stateless_with_tree_map"),
    _tx("optax.snapshot", exists=_v("0.2.6")),
    _tx("optax.monitor", exists=_v("0.2.7")),
    _tx("optax.measure_with_ema", exists=_v("0.2.7"), init_rejects_non_arrays=True),
    _tx("optax.freeze", exists=_v("0.2.6"), mask_args=((0, "mask"),), zeroes_masked=True,
        passes_params="True in the mask means frozen (updates set to zero): the opposite of masked",
        note="chain(freeze(mask), adamw) still decays frozen leaves; put freeze last"),

    # ---- wrappers and combinators ------------------------------------------------------------
    Transform("optax.chain", "combinator", wraps_many=True,
              passes_params="every inner transformation gets the same params and the extra "
                            "update arguments; state is a tuple (no .hyperparams: use "
                            "optax.tree.get)"),
    Transform("optax.named_chain", "combinator", exists=_v("0.1.8"), wraps_many=True,
              passes_params="like chain; positional (name, transformation) pairs; state is a dict"),
    Transform("optax.masked", "wrapper", wraps=((0, "inner"),), mask_args=((1, "mask"),),
              mask_callable_pytree_ok=_MASK_OK, passes_unmasked_through=True,
              passes_params="the inner transformation sees only the masked subtree of params and "
                            "updates (MaskedNode elsewhere); masked-out leaves get the raw "
                            "gradient passed through unchanged, not frozen",
              note="optax < 0.2.4 calls a callable mask: a module-shaped mask raises at init"),
    Transform("optax.multi_transform", "combinator", wraps=((0, "transforms"),),
              label_args=((1, "param_labels"),), labels_callable_pytree_ok=NEVER,
              mask_callable_pytree_ok=_MASK_OK,
              aliases=(("optax.partition", _v("0.2.5")),
                       ("optax.transforms.partition", _v("0.2.3"))),
              passes_params="each transformation in the dict gets its label's subtree of params "
                            "through masked(); every label must have a transformation",
              note="module-shaped labels are called (TypeError on 0.2.2 and 0.2.8); a label "
                   "function on Equinox params works from 0.2.4 (the masks it builds are used as "
                   "trees)"),
    Transform("optax.MultiSteps", "wrapper", wraps=((0, "opt"),), per_param_state=True,
              update_passes_params_to_jax=True,
              passes_params="params pass through to the inner optimizer on every k-th step; own "
                            "state acc_grads is zeros_like(params); use .gradient_transformation() "
                            "inside chain",
              note="MultiStepsState has no .hyperparams (use optax.tree.get)"),
    Transform("optax.inject_hyperparams", "factory", wraps=((0, "inner_factory"),),
              init_rejects_non_arrays=True, callables_are_schedules=True,
              aliases=(("optax.schedules.inject_hyperparams", _v("0.1.8")),),
              older=_INJECT_OLDER,
              passes_params="params pass through; numeric (and callable!) arguments become "
                            "hyperparams in state; static_args (position 1) keeps them out",
              note="mask=<tree or function> is taken for a schedule (still on 0.2.8): weight decay "
                   "silently off or ValueError; use static_args='mask'"),
    Transform("optax.inject_stateful_hyperparams", "factory", exists=_v("0.1.8"),
              wraps=((0, "inner_factory"),), init_rejects_non_arrays=True,
              callables_are_schedules=True, older=_INJECT_OLDER,
              aliases=(("optax.schedules.inject_stateful_hyperparams", _v("0.1.8")),),
              passes_params="like inject_hyperparams; schedules may be stateful",
              note="same schedule handling of callable arguments as inject_hyperparams"),
    Transform("optax.lookahead", "wrapper", params_positional_required=True, wraps=((0, "fast_optimizer"),), reads_params=True,
              params_none_ok=NEVER,
              passes_params="params must be optax.LookaheadParams (init_synced(params)); the "
                            "inner optimizer gets params.fast",
              note="plain params: AttributeError 'no attribute fast' at update"),
    Transform("optax.apply_if_finite", "wrapper", wraps=((0, "inner"),),
              passes_params="params and state pass through; a non-finite update is skipped "
                            "(inner state kept) up to max_consecutive_errors"),
    Transform("optax.flatten", "wrapper", wraps=((0, "inner"),), init_rejects_non_arrays=True,
              passes_params="the inner transformation sees params and updates flattened into one "
                            "vector"),
    Transform("optax.conditionally_mask", "wrapper", exists=_v("0.2.3"), wraps=((0, "inner"),),
              passes_params="extra update arguments reach the inner one only with "
                            "forward_extra_args=True"),
    Transform("optax.conditionally_transform", "wrapper", exists=_v("0.2.3"),
              wraps=((0, "inner"),),
              passes_params="extra update arguments reach the inner one only with "
                            "forward_extra_args=True"),
    Transform("optax.selective_transform", "wrapper", exists=_v("0.2.6"),
              wraps=((0, "optimizer"),), mask_args=((None, "freeze_mask"),),
              passes_params="freeze_mask True = frozen; the optimizer sees only the trainable "
                            "leaves"),
    Transform("optax.with_extra_args_support", "wrapper", wraps=((0, "tx"),),
              passes_params="params pass through; extra update arguments are dropped"),

    # ---- optax.contrib -----------------------------------------------------------------------
    _decay_opt("optax.contrib.acprop", exists=_v("0.2.3"), mask=(6, "mask"),
               when=("weight_decay",), scale_invariant=True),
    _decay_opt("optax.contrib.ademamix", exists=_v("0.2.5"), mask=(9, "mask"),
               when=("weight_decay",), scale_invariant=True),
    _opt("optax.contrib.adopt", exists=_v("0.2.5"), scale_invariant=True,
         note="the first update is zero (it initialises the second moment)"),
    _decay_opt("optax.contrib.cocob", exists=_v("0.1.8"), mask=(4, "mask"), when=("weight_decay",),
               none_ok=NEVER, scale_invariant=True, scales_by_learning_rate=False,
               note="reads params always (parameter-free); its learning_rate scales the gradient "
                    "*before* the scale-invariant coin betting, so it has no effect (measured: "
                    "lr=1 and lr=2 give identical updates); learning_rate, weight_decay and mask "
                    "arguments since 0.2.3",
               older=((_v(until="0.2.3"), (("mask_args", ()), ("learning_rate_arg", None),
                                           ("adds_weight_decay", False),
                                           ("adds_weight_decay_when", ()),
                                           ("params_positional_required", True))),)),
    _decay_opt("optax.contrib.dadapt_adamw", exists=_v("0.1.8"), mask=None, when=("weight_decay",),
               none_ok=NEVER, scale_invariant=True,
               note="D-Adaptation: learning_rate (default 1.0) multiplies the estimated step"),
    _decay_opt("optax.contrib.dog", exists=_v("0.2.3"), mask=(4, "mask"), when=("weight_decay",),
               none_ok=NEVER, scale_invariant=True,
               note="keeps the initial params; init_learning_rate/reps_rel became init_step in 0.2.6",
               older=((_v(until="0.2.6"), (("mask_args", ((5, "mask"),)),)),)),
    _decay_opt("optax.contrib.dowg", exists=_v("0.2.3"), mask=(4, "mask"), when=("weight_decay",),
               none_ok=NEVER, scale_invariant=True, note="keeps the initial params",
               older=((_v(until="0.2.4"), (("init_rejects_non_arrays", False),)),)),
    _decay_opt("optax.contrib.galore", exists=_v("0.2.7"), mask=(6, "mask"), when=("weight_decay",),
               none_ok=NEVER, per_param_state=False, init_rejects_non_arrays=True,
               note="projects 2-D leaves; base_optimizer (position 4) defaults to adam"),
    _decay_opt("optax.contrib.madgrad", exists=_v("0.2.7"), mask=None, when=("weight_decay",),
               none_ok=NEVER, note="reads params always (dual averaging from the initial point)"),
    _decay_opt("optax.contrib.momo", params_positional_required=True, exists=_v("0.2.3"), mask=None, when=("weight_decay",),
               none_ok=NEVER, update_requires=("value",),
               note="update without value=: TypeError missing 1 required keyword-only argument; "
                    "learning_rate caps the Polyak-type step"),
    _decay_opt("optax.contrib.momo_adam", params_positional_required=True, exists=_v("0.2.3"), mask=None, when=("weight_decay",),
               none_ok=NEVER, update_requires=("value",),
               note="update without value=: TypeError missing 1 required keyword-only argument"),
    _decay_opt("optax.contrib.muon", exists=_v("0.2.5"), mask=(6, "weight_decay_mask"),
               when=("weight_decay",), none_ok=NEVER, scale_invariant=True,
               note="orthogonalises 2-D leaves, adam for the rest; reads params always"),
    _decay_opt("optax.contrib.prodigy", exists=_v("0.1.8"), mask=None, when=("weight_decay",),
               none_ok=NEVER, scale_invariant=True,
               note="keeps the initial params; learning_rate (default 1.0) multiplies the estimate; "
                    + _MAIN_DECAY),
    _decay_opt("optax.contrib.simplified_ademamix", exists=_v("0.2.5"), mask=(7, "mask"),
               when=("weight_decay",), scale_invariant=True),
    _decay_opt("optax.contrib.sophia", exists=_v("0.2.5"), mask=(5, "weight_decay_mask"),
               none_ok=NEVER, scale_invariant=True, update_requires=("obj_fn",),
               note="update without obj_fn=: ValueError 'obj_fn must be provided'; without params: "
                    "ValueError; weight_decay=1e-4 by default"),
    _decay_opt("optax.contrib.schedule_free_adamw", exists=_v("0.2.3"), mask=None,
               when=("weight_decay",), none_ok=NEVER, scale_invariant=True,
               note="the params it trains are not the ones to evaluate: "
                    "schedule_free_eval_params(state, params) (state must be its own, not a chain's)"),
    _decay_opt("optax.contrib.schedule_free_sgd", exists=_v("0.2.3"), mask=None,
               when=("weight_decay",), none_ok=NEVER,
               note="evaluate with schedule_free_eval_params(state, params)"),
    _opt("optax.contrib.dpsgd", exists=_v("0.1.8"), per_param_state_when=("momentum",),
         aliases=(("optax.dpsgd", ALWAYS),),
         note="gradients need a leading per-example batch dimension; optax.dpsgd (every version) "
              "is deprecated and hidden from dir(optax) since 0.2.3"),
    _tx("optax.contrib.differentially_private_aggregate", exists=_v("0.1.8"),
        aliases=(("optax.differentially_private_aggregate", ALWAYS),),
        note="gradients need a leading per-example batch dimension; the optax.* alias is "
             "deprecated and hidden from dir(optax) since 0.2.3"),
    _tx("optax.contrib.scale_by_acprop", exists=_v("0.2.3"), per_param_state=True,
        scale_invariant=True),
    _tx("optax.contrib.scale_by_ademamix", exists=_v("0.2.5"), per_param_state=True,
        scale_invariant=True),
    _tx("optax.contrib.scale_by_adopt", exists=_v("0.2.5"), per_param_state=True,
        scale_invariant=True),
    _tx("optax.contrib.scale_by_cocob", params_positional_required=True, exists=_v("0.2.3"), per_param_state=True,
        reads_params=True, params_none_ok=NEVER, scale_invariant=True),
    _tx("optax.contrib.scale_by_galore", exists=_v("0.2.7"), init_rejects_non_arrays=True,
        wraps=((3, "base_optimizer"),),
        passes_params="the base optimizer (default adam) runs on the low-rank projections"),
    _tx("optax.contrib.scale_by_madgrad", exists=_v("0.2.7"), per_param_state=True,
        reads_params=True, params_none_ok=NEVER, learning_rate_arg=_LR),
    _tx("optax.contrib.scale_by_muon", exists=_v("0.2.5"), per_param_state=True,
        scale_invariant=True, note="every leaf must be 2-D unless weight_dimension_numbers says "
                                   "otherwise (muon() routes the rest to adam)"),
    _tx("optax.contrib.scale_by_simplified_ademamix", exists=_v("0.2.5"), per_param_state=True,
        scale_invariant=True),
    _tx("optax.contrib.normalize", exists=_v("0.1.8"), scale_invariant=True,
        older=((_v(until="0.2.3"), (("reads_params", True), ("params_none_ok", NEVER))),)),
    _tx("optax.contrib.hutchinson_estimator_diag_hessian", exists=_v("0.2.5"),
        reads_params=True, params_none_ok=NEVER, update_requires=("obj_fn",),
        scale_invariant=True,
        note="update without obj_fn= or params: ValueError; its output is a Hessian-diagonal "
             "estimate from obj_fn, not a function of the updates"),
    _tx("optax.contrib.reduce_on_plateau", exists=_v("0.1.8"), init_rejects_non_arrays=True,
        update_requires=("value",), plateau_scale=True,
        older=((_v(until="0.2.2"), (("update_requires", ("loss",)),)),
               (_v(until="0.2.4"), (("init_rejects_non_arrays", False),))),
        note="multiplies the updates by its scale: after a scale-invariant optimizer "
             "(chain(adam(lr), reduce_on_plateau())), not before it; update without value=: "
             "TypeError (named loss= before 0.2.2, optax 43c5de1)"),
    Transform("optax.contrib.mechanize", "wrapper",
              wraps=((0, "base_optimizer"),), per_param_state=True, reads_params=True,
              params_none_ok=NEVER,
              older=((_v(until="0.2.4"), (("init_rejects_non_arrays", False),)),),
              passes_params="the base optimizer gets params unchanged; mechanic learns a scale "
                            "for its updates and keeps a copy of the initial params",
              note=_NOPARAMS + "; its weight_decay (0.01) only enters the learned scale, it does "
                               "not decay the params"),
    Transform("optax.contrib.sam", "wrapper", params_positional_required=True, exists=_v("0.1.8"),
              wraps=((0, "optimizer"), (1, "adv_optimizer")), per_param_state=True,
              init_rejects_non_arrays=False, reads_params=True, params_none_ok=NEVER,
              update_accepts=("grad_fn",),
              passes_params="alternates adversarial steps (adv_optimizer) and outer steps "
                            "(optimizer); opaque_mode=True needs update(..., grad_fn=)"),
    Transform("optax.contrib.schedule_free", "wrapper", exists=_v("0.2.3"),
              wraps=((0, "base_optimizer"),), per_param_state=True, reads_params=True,
              params_none_ok=NEVER, learning_rate_arg=(1, "learning_rate"),
              passes_params="the base optimizer's updates move the z sequence; the params "
                            "returned are the y interpolation: evaluate with "
                            "schedule_free_eval_params(state, params)",
              note="learning_rate only weights the averaging (measured: lr=1 and lr=2 give "
                   "identical updates with sgd inside); the base optimizer's own rate is the step"),
    Transform("optax.contrib.split_real_and_imaginary", "wrapper", exists=_v("0.1.8"),
              wraps=((0, "inner"),), init_rejects_non_arrays=True,
              passes_params="complex leaves are split into (real, imaginary) pairs for the inner "
                            "transformation"),
]

# lars has a second mask; added here to keep the builder simple.
_ROWS = [
    replace(row, mask_args=row.mask_args + ((5, "trust_ratio_mask"),))
    if row.name == "optax.lars" else row
    for row in _ROWS
]
