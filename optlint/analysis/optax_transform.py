"""The vocabulary of the Optax table (`optax_table.py`): version ranges and one row's fields.

Kept apart from the rows (`optax_rows.py`) so each file has one job; `optax_table` re-exports
these names, so callers import them from there.
"""

from __future__ import annotations

import re
from dataclasses import field, replace
from typing import Any, Literal

from optlint.records import record

# The oldest and newest optax releases the facts below were checked on.
OLDEST_CHECKED = "0.1.7"
NEWEST_CHECKED = "0.2.8"


def parse_version(version: str) -> tuple[int, ...]:
    """"0.2.8" -> (0, 2, 8); "0.2.9.dev0" / "0.2.9rc1" -> (0, 2, 9). Only the leading numbers count."""
    parts: list[int] = []
    for piece in version.split("."):
        match = re.match(r"\d+", piece)
        if match is None:
            break
        parts.append(int(match.group()))
        if match.end() != len(piece):
            break
    return tuple(parts)


@record
class VersionRange:
    """The optax versions for which a fact holds: since <= version < until."""

    since: str | None = None  # first version where true (inclusive); None: since forever
    until: str | None = None  # first version where no longer true (exclusive); None: still true

    def contains(self, version: str | None) -> bool | None:
        """Whether the fact holds on `version`; None when the version is unknown."""
        if version is None:
            return None
        v = parse_version(version)
        if self.since is not None and v < parse_version(self.since):
            return False
        return not (self.until is not None and v >= parse_version(self.until))

    @property
    def is_never(self) -> bool:
        return (self.since is not None and self.until is not None
                and parse_version(self.until) <= parse_version(self.since))

    def __str__(self) -> str:
        if self.is_never:
            return "never"
        if self.since is None and self.until is None:
            return "all versions"
        if self.until is None:
            return f"optax >= {self.since}"
        if self.since is None:
            return f"optax < {self.until}"
        return f"optax {self.since} ... < {self.until}"


ALWAYS = VersionRange()
# An empty range: the fact holds on no version (e.g. a label tree that is still called on 0.2.8).
NEVER = VersionRange(since="0", until="0")

Kind = Literal["optimizer", "transform", "wrapper", "combinator", "factory"]
ArgPos = tuple[int | None, str]


@record
class Transform:
    """One Optax factory and what it does. Fields default to "no"/"nothing"."""

    # Canonical public name, e.g. "optax.adamw", "optax.contrib.reduce_on_plateau".
    name: str
    # optimizer: a full optimizer alias (its update is final, ready for apply_updates);
    # transform: a building block for `chain`; wrapper: takes one inner transformation;
    # combinator: takes several (chain, multi_transform); factory: takes an optimizer *factory*
    # and returns a factory (inject_hyperparams).
    kind: Kind
    # Which optax versions have it (lbfgs: since 0.2.3). Rules should not suggest a name the
    # user's optax lacks.
    exists: VersionRange = ALWAYS

    # init builds per-parameter state (zeros_like etc. over every params leaf). For wrappers this
    # is the wrapper's *own* state (MultiSteps' acc_grads); the inner transformation adds its own.
    per_param_state: bool = False
    # ...but only when one of these arguments is given and not None/0 (sgd: ("momentum",));
    # empty: unconditional. The same convention holds for every `*_when` field below.
    per_param_state_when: tuple[str, ...] = ()
    # init fails on a non-array params leaf (an Equinox MLP's activation function): the
    # "filter the model before init" rule. None: same as per_param_state, under the same
    # per_param_state_when condition (the usual case); set
    # explicitly where they differ (inject_hyperparams and reduce_on_plateau read every leaf's
    # dtype without keeping per-parameter state; fromage keeps none and never looks).
    init_rejects_non_arrays: bool | None = None

    # update() uses `params` (raises or misbehaves when they are missing): the "pass params to
    # update" rule. For wrappers: the wrapper itself needs them (inner ones may too).
    reads_params: bool = False
    # ...only when one of these arguments is given and not None/0; empty: unconditional.
    reads_params_when: tuple[str, ...] = ()
    # update() accepts `params` holding non-array leaves where the (filtered) updates hold None,
    # i.e. `update(filtered_grads, state, unfiltered_model)`. Only matters when reads_params.
    # add_decayed_weights-based decay tolerates it since 0.2.4 (optax 3b088fd, tree.map with
    # is_leaf=None); trust-ratio, parameter-free and other readers still fail on 0.2.8.
    params_none_ok: VersionRange = ALWAYS
    # update() hands `params`, when given, to JAX as data even though no part reads them:
    # MultiSteps passes them as an operand of its own `lax.cond` (read in the sources of 0.1.7,
    # 0.2.2 and 0.2.8), so `MultiSteps(adam).update(filtered_grads, state, unfiltered_model)`
    # raises TypeError "... is not a valid JAX type" on a function leaf (measured on 0.2.8, issue
    # #20: with adamw, adam and sgd inside). Without params it runs.
    update_passes_params_to_jax: bool = False

    # Required keyword-only extra arguments of update: "value", "grad", "value_fn" (line
    # searches), "obj_fn" (sophia's Hessian estimator). reduce_on_plateau's was `loss` < 0.2.2.
    update_requires: tuple[str, ...] = ()
    # ...except when one of these arguments is passed as None (lbfgs(linesearch=None) needs none).
    update_requires_unless: tuple[str, ...] = ()
    # Optional extra keyword arguments update understands (sam's grad_fn).
    update_accepts: tuple[str, ...] = ()
    # update's `params` parameter has no default: `update(grads, state)` raises TypeError
    # (missing positional argument 'params') even where params are not used (scale_by_factored_rms
    # reads them; add_decayed_weights on every version 0.1.7 ... 0.2.8). Measured on 0.2.8.
    params_positional_required: bool = False
    # init or update raises when params hold a Python scalar (an Equinox module filtered with
    # `eqx.is_array_like`: Dropout's `p` and `inference`) whose gradient is None (eqx.filter_grad):
    # `ValueError: pytree structure error` in update (adam, lion, ...), or AttributeError in init
    # (adafactor). Measured on optax 0.2.8 / jax 0.10.2 with a params dict holding 0.1 and False
    # beside arrays; plain sgd, sgd with momentum, rmsprop and the stateless transforms run.
    python_scalars_fail: bool = False

    # The produced update is already multiplied by -learning_rate (or by a step size capped by
    # it: polyak_sgd, momo). A chain holding two of these scales twice.
    scales_by_learning_rate: bool = False
    # The output is a complete descent step, ready for apply_updates (every optimizer alias, and
    # scale_by_learning_rate). A chain whose last scaling step is not final (ends in scale_by_adam)
    # is missing its learning rate; cocob's output is final although its learning_rate does nothing.
    final_update: bool = False
    # Where the learning rate (or step size, or its cap) is passed: (position, keyword).
    learning_rate_arg: ArgPos | None = None
    # The output is a complete descent step (final_update, scales_by_learning_rate) when this
    # argument is written negative: `scale(-lr)` is the learning-rate scaling of a hand-built
    # adam (measured, issue #20: chain(scale_by_adam(), scale(-0.1), add_decayed_weights(0.05))
    # grows a weight 1.0 -> 1.63 in 10 zero-gradient steps, x1.05 a step).
    final_update_when_negative: ArgPos | None = None
    # Output magnitude does not depend on the gradient's scale (adam, lion, sign methods...):
    # scaling the loss or the gradient before it (reduce_on_plateau, loss scaling) is a no-op.
    scale_invariant: bool = False
    # A clipping transformation: where it sits in a chain matters (after adam it clips updates).
    clips: bool = False
    # Sums the updates it meets over k steps (the argument here; k=1, its default, does nothing)
    # and emits zeros in between: apply_every. Measured (issue #20, optax 0.2.8): in
    # chain(apply_every(4), adamw(0.1, weight_decay=0.1)) the weights move on every micro-batch
    # (1.0 -> 0.990, 0.980, 0.970 before the first boundary; momentum keeps moving them after it),
    # where MultiSteps(adamw, 4) holds them at 1.0 until the boundary; in
    # chain(adamw(0.1, ...), apply_every(4)) the first boundary step is 3.9x MultiSteps' (four
    # adam steps summed), and chain(clip_by_global_norm(1), sgd(0.1), apply_every(4)) with
    # micro-batch gradients 10, -9, 10, -9 (mean 0.5) does not move the weight (MultiSteps: -0.05).
    accumulates_over: ArgPos | None = None
    # Adds decayed weights (add_decayed_weights, decoupled-decay optimizers): needs a mask on
    # Equinox models with buffers, and must come after the scaling, not before it.
    adds_weight_decay: bool = False
    # ...only when one of these arguments is given non-zero (their default is 0/None).
    adds_weight_decay_when: tuple[str, ...] = ()
    # Where a decay-only transformation takes its rate (add_decayed_weights: position 0).
    weight_decay_arg: ArgPos | None = None
    # The optimizer taking the same arguments plus decoupled `weight_decay` and `mask`
    # (adam -> adamw): what `chain(adam(lr), add_decayed_weights(wd))` was meant to be.
    decoupled_decay: str | None = None
    # Multiplies the updates by a factor it lowers when the loss stops improving
    # (reduce_on_plateau): a scale-invariant transformation after it normalises the factor away.
    plateau_scale: bool = False

    # (position, keyword) of mask arguments; position None: keyword only.
    mask_args: tuple[ArgPos, ...] = ()
    # A callable pytree (an Equinox-module-shaped mask) given as a mask argument is used as a tree
    # rather than called: since 0.2.4 (optax 6f12911 "Make masking compatible with callable pytrees").
    mask_callable_pytree_ok: VersionRange = ALWAYS
    # multi_transform/partition param_labels.
    label_args: tuple[ArgPos, ...] = ()
    # A callable pytree given as labels is used as a tree: never so far (still called on 0.2.8).
    labels_callable_pytree_ok: VersionRange = ALWAYS
    # Where inner transformation(s) are passed (position, keyword).
    wraps: tuple[ArgPos, ...] = ()
    # chain(*transforms): every positional argument is a transformation.
    wraps_many: bool = False
    # inject_hyperparams: every callable argument not in static_args is taken for a schedule and
    # called with the step count (masks, label functions, dtypes included).
    callables_are_schedules: bool = False
    # Arguments inject_hyperparams must be told are static for this optimizer to run under jit.
    inject_static_required: tuple[str, ...] = ()

    # Attributes of the state `init` returns that code reads and rules ask about: `hyperparams`
    # (inject_hyperparams' state), `b1` and `z` (schedule_free's, which
    # `contrib.schedule_free_eval_params` reads). A row without them has a state without them
    # (a chain's is a tuple): checked for every row by tests/test_optax_table.py.
    state_attributes: tuple[str, ...] = ()
    # The state attribute holding the wrapped transformation's state (MultiSteps: inner_opt_state).
    inner_state: str = ""
    # Float defaults of hyperparameters that low-precision storage changes in meaning (b2=0.999 is
    # 1.0 in bfloat16, eps=1e-8 is 0.0 in float16): what inject_hyperparams stores in the params'
    # dtype when no hyperparam_dtype is given. Checked against the signatures by the tests.
    float_defaults: tuple[tuple[str, float], ...] = ()
    # The decay rate (an argument named here, its default in float_defaults) this optimizer applies
    # to a moment kept in the params' dtype: with bfloat16 params, b2=0.999 is applied as 1.0 and
    # the second moment stops being an average. Measured (issue #20, optax 0.2.8, jax 0.10.2):
    # 3000 steps of a constant gradient, last update with bfloat16 params over float32 params:
    # adam, adamw, nadam, nadamw, radam, scale_by_adam 1.65x; yogi 1.57x; amsgrad 0.83x;
    # adabelief 0.21x; with b2=0.95 (0.949 in bfloat16) 0.98x. rmsprop (0.9), lion, adamax: <10%.
    decay_in_params_dtype: str = ""
    # For wrappers/combinators: how params, masks and state reach the inner transformations.
    passes_params: str = ""
    # masked: the leaves its mask leaves out get the incoming updates unchanged (the raw gradient
    # when it is the whole optimizer), not zero.
    passes_unmasked_through: bool = False
    # freeze: sets to zero the updates of the leaves its mask marks True. What a later part of a
    # chain adds (weight decay) still reaches them.
    zeroes_masked: bool = False
    # One line: the measured fact or evidence, for rule messages and docs.
    note: str = ""
    # Other public spellings of this factory, with the versions that have them.
    aliases: tuple[tuple[str, VersionRange], ...] = field(default=())
    # Facts that differ on older versions: ((versions, ((field, value), ...)), ...). The fields
    # above describe the newest version checked; `on(version)` applies these. Measured by running
    # tests/test_optax_table.py's checks against every release 0.1.7 ... 0.2.8.
    older: tuple[tuple[VersionRange, tuple[tuple[str, Any], ...]], ...] = field(default=())

    def on(self, version: str | None) -> Transform:
        """This row as it holds on `version` (the newest facts when the version is unknown)."""
        row = self
        for versions, changes in self.older:
            if versions.contains(version):
                row = replace(row, **dict(changes))
        return row

    @property
    def rejects_non_array_leaves(self) -> bool:
        if self.init_rejects_non_arrays is not None:
            return self.init_rejects_non_arrays
        return self.per_param_state

    def requires_on(self, version: str | None) -> tuple[str, ...]:
        """The required extra update arguments on `version` (newest spelling when unknown)."""
        return self.on(version).update_requires
