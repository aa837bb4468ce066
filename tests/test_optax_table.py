"""The Optax behaviour table in optlint/analysis/optax_table.py, checked against the installed optax.

Names and signatures are checked for every row; behaviour (state, params, learning rate, extra
update arguments) is checked by running a sample of rows, eagerly, on a two-leaf params dict.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from optlint.analysis.optax_table import (
    ALWAYS,
    NEVER,
    Transform,
    VersionRange,
    all_transforms,
    behaviour,
    canonical,
)

optax = pytest.importorskip("optax")
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
contrib = pytest.importorskip("optax.contrib")

INSTALLED: str = optax.__version__
ROWS = all_transforms()
# The rows as they hold on the installed version.
PRESENT = [row.on(INSTALLED) for row in ROWS if row.exists.contains(INSTALLED)]


def installed(name: str) -> Transform:
    row = behaviour(name, INSTALLED)
    assert row is not None, name
    if not row.exists.contains(INSTALLED):
        pytest.skip(f"{name} is not in optax {INSTALLED}")
    return row


# Public callables of `optax` / `optax.contrib` that do not build a gradient transformation.
NOT_TRANSFORM_FACTORIES = {
    # applying and combining updates / parameters
    "optax.apply_updates", "optax.incremental_update", "optax.periodic_update",
    "optax.tree_map_params", "optax.init_empty_state",
    # numerics and linear algebra helpers
    "optax.global_norm", "optax.safe_norm", "optax.safe_root_mean_squares", "optax.safe_increment",
    "optax.safe_int32_increment", "optax.bias_correction", "optax.update_moment",
    "optax.update_moment_per_elem_norm", "optax.update_infinity_moment",
    "optax.matrix_inverse_pth_root", "optax.power_iteration", "optax.nnls", "optax.multi_normal",
    "optax.scale_gradient",
    # per-example clipping functions (used inside dpsgd), not transformations
    "optax.per_example_global_norm_clip", "optax.per_example_layer_norm_clip",
    # MultiSteps' should_skip_update_fn callbacks
    "optax.skip_not_finite", "optax.skip_large_updates",
    # function transformations
    "optax.value_and_grad_from_state", "optax.microbatch",
    # optax < 0.2.5: conditional tensor update helper
    "optax.maybe_update",
    # optax 0.1.7 only: stochastic gradient estimators, control variates and second-order helpers
    "optax.control_delta_method", "optax.control_variates_jacobians", "optax.fisher_diag",
    "optax.hessian_diag", "optax.hvp", "optax.measure_valued_jacobians",
    "optax.moving_avg_baseline", "optax.pathwise_jacobians", "optax.score_function_jacobians",
    # evaluation helper for schedule-free optimizers
    "optax.contrib.schedule_free_eval_params",
    # losses
    "optax.l2_loss", "optax.squared_error", "optax.huber_loss", "optax.log_cosh",
    "optax.hinge_loss", "optax.cosine_similarity", "optax.cosine_distance", "optax.ctc_loss",
    "optax.ctc_loss_with_forward_probs", "optax.kl_divergence", "optax.convex_kl_divergence",
    "optax.generalized_kl_divergence", "optax.ntxent", "optax.smooth_labels",
    "optax.sigmoid_binary_cross_entropy", "optax.sigmoid_focal_loss",
    "optax.softmax_cross_entropy", "optax.softmax_cross_entropy_with_integer_labels",
    "optax.safe_softmax_cross_entropy",
    # schedules (inject_hyperparams' inputs)
    "optax.constant_schedule", "optax.cosine_decay_schedule", "optax.cosine_onecycle_schedule",
    "optax.exponential_decay", "optax.join_schedules", "optax.linear_onecycle_schedule",
    "optax.linear_schedule", "optax.piecewise_constant_schedule",
    "optax.piecewise_interpolate_schedule", "optax.polynomial_schedule", "optax.sgdr_schedule",
    "optax.warmup_constant_schedule", "optax.warmup_cosine_decay_schedule",
    "optax.warmup_exponential_decay_schedule",
}


def resolve(name: str) -> Any:
    obj: Any = __import__("optax")
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def signature(name: str) -> inspect.Signature:
    return inspect.signature(resolve(name))


def public_factories() -> set[str]:
    found = {"optax.MultiSteps"}
    for prefix, module in (("optax", optax), ("optax.contrib", contrib)):
        for attr in dir(module):
            obj = getattr(module, attr)
            if attr.startswith("_") or inspect.isclass(obj) or inspect.ismodule(obj):
                continue
            # typing aliases (optax.Schedule, optax.Params, ...) are callable but build nothing.
            if callable(obj) and getattr(obj, "__origin__", None) is None:
                found.add(f"{prefix}.{attr}")
    return found


# ---- names and signatures ---------------------------------------------------------------------

def test_table_is_well_formed() -> None:
    names = [row.name for row in ROWS]
    assert len(names) == len(set(names))
    fields = set(Transform.__dataclass_fields__)
    for row in ROWS:
        for _, changes in row.older:
            assert {name for name, _ in changes} <= fields - {"name", "older"}, row.name
        assert canonical(row.name) == row.name and behaviour(row.name) is row
        assert row.per_param_state or not row.per_param_state_when, row.name
        assert not row.reads_params_when or row.reads_params, row.name
        assert row.adds_weight_decay or not row.adds_weight_decay_when, row.name
        assert bool(row.mask_args) or row.mask_callable_pytree_ok == ALWAYS or (
            row.name == "optax.multi_transform"), row.name
        if row.kind in ("wrapper", "combinator", "factory"):
            assert row.wraps or row.wraps_many, row.name
            assert row.passes_params, row.name


@pytest.mark.parametrize("row", PRESENT, ids=lambda row: row.name)
def test_row_exists_on_installed_optax(row: Transform) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert callable(resolve(row.name))
        for alias, versions in row.aliases:
            if versions.contains(INSTALLED):
                assert resolve(alias) is not None, alias


def test_rows_absent_from_installed_optax_are_absent() -> None:
    for row in ROWS:
        if not row.exists.contains(INSTALLED):
            with pytest.raises(AttributeError):
                resolve(row.name)


def test_every_public_factory_is_in_the_table() -> None:
    missing = {name for name in public_factories()
               if behaviour(name) is None and name not in NOT_TRANSFORM_FACTORIES}
    assert not missing, f"add to optax_table or NOT_TRANSFORM_FACTORIES: {sorted(missing)}"
    assert not {name for name in NOT_TRANSFORM_FACTORIES if behaviour(name) is not None}


def _check_arg(name: str, position: int | None, keyword: str) -> None:
    parameters = list(signature(name).parameters.values())
    by_name = {p.name: (i, p) for i, p in enumerate(parameters)}
    assert keyword in by_name, f"{name} has no parameter {keyword!r}"
    index, parameter = by_name[keyword]
    if position is None:
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, f"{name}({keyword}) is positional"
    else:
        assert parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD, (name, keyword)
        assert index == position, f"{name}({keyword}) is at position {index}, not {position}"


@pytest.mark.parametrize("row", PRESENT, ids=lambda row: row.name)
def test_argument_positions_match_signature(row: Transform) -> None:
    args = [*row.mask_args, *row.label_args, *row.wraps]
    if row.learning_rate_arg is not None:
        args.append(row.learning_rate_arg)
    for position, keyword in args:
        _check_arg(row.name, position, keyword)
    kinds = [p.kind for p in signature(row.name).parameters.values()]
    assert row.wraps_many == (inspect.Parameter.VAR_POSITIONAL in kinds
                              and row.kind == "combinator"), row.name
    for keyword in (*row.per_param_state_when, *row.reads_params_when, *row.update_requires_unless,
                    *row.adds_weight_decay_when, *row.inject_static_required):
        assert keyword in signature(row.name).parameters, (row.name, keyword)


def test_learning_rate_argument_recorded_for_every_optimizer() -> None:
    for row in PRESENT:
        if row.kind == "optimizer":
            assert row.final_update, row.name
        if row.scales_by_learning_rate:
            assert row.learning_rate_arg is not None, row.name


# ---- building each factory cheaply --------------------------------------------------------------

PARAMS = {"w": jnp.full((3, 4), 0.5), "b": jnp.full((4,), 0.1)}
GRADS = {"w": jnp.linspace(-1.0, 1.0, 12).reshape(3, 4), "b": jnp.array([0.1, -0.2, 0.3, 0.05])}


def _value_fn(params: Any) -> Any:
    return sum(jnp.sum(x ** 2) for x in jax.tree_util.tree_leaves(params))


def _argument_values() -> dict[str, Any]:
    inner = optax.sgd(0.1)
    labels = {"w": "a", "b": "b"}
    return {
        "learning_rate": 0.1, "max_delta": 1.0, "max_norm": 1.0, "threshold": 1.0,
        "clipping": 1.0, "eta": 0.01, "gamma": 0.55, "decay": 0.9, "step_size": 0.1,
        "step_size_fn": lambda count: 0.1, "f": lambda updates, params: updates,
        "inner": inner, "opt": inner, "every_k_schedule": 2, "fast_optimizer": inner,
        "sync_period": 2, "slow_step_size": 0.5, "max_consecutive_errors": 2,
        "should_transform_fn": lambda count: count >= 0, "mask": {"w": True, "b": False},
        "freeze_mask": {"w": False, "b": True}, "transforms": {"a": inner, "b": inner},
        "param_labels": labels, "inner_factory": optax.sgd, "tx": inner, "optimizer": inner,
        "adv_optimizer": inner, "base_optimizer": inner, "measure_name": "m",
        "measure": lambda updates: updates, "measures": {"m": lambda updates: 0.0},
        "max_backtracking_steps": 5, "max_linesearch_steps": 5, "l2_norm_clip": 1.0,
        "noise_multiplier": 0.0, "seed": 0,
    }


def build(row: Transform, **overrides: Any) -> Any:
    """The transformation `row` makes, with minimal arguments (a factory row: its product)."""
    factory: Callable[..., Any] = resolve(row.name)
    if row.learning_rate_arg is not None:  # adadelta < 0.2.5 fails with its default None
        overrides = {row.learning_rate_arg[1]: 0.1, **overrides}
    values = {**_argument_values(), **overrides}
    kwargs: dict[str, Any] = {}
    args: list[Any] = []
    for parameter in signature(row.name).parameters.values():
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            args.append(optax.sgd(0.1) if row.name == "optax.chain" else ("a", optax.sgd(0.1)))
        elif parameter.name in overrides or (parameter.default is inspect.Parameter.empty
                                             and parameter.kind is not inspect.Parameter.VAR_KEYWORD):
            if parameter.name not in values:
                pytest.skip(f"no value for {row.name}({parameter.name})")
            kwargs[parameter.name] = values[parameter.name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        built = factory(*args, **kwargs)
    if row.kind == "factory":
        built = built(learning_rate=0.1)
    if row.name == "optax.MultiSteps":
        built = built.gradient_transformation()
    return built


def extra_args(row: Transform, grads: Any = GRADS) -> dict[str, Any]:
    values = {"value": jnp.asarray(1.0), "loss": jnp.asarray(1.0), "grad": grads,
              "value_fn": _value_fn, "obj_fn": _value_fn}
    return {name: values[name] for name in row.requires_on(INSTALLED)}


def run(row: Transform, steps: int = 3, grads: Any = GRADS, **overrides: Any) -> Any:
    """The last of `steps` updates (params move between steps)."""
    tx = build(row, **overrides)
    params = PARAMS
    state = tx.init(params)
    for _ in range(steps):
        updates, state = tx.update(grads, state, params, **extra_args(row, grads))
        params = optax.apply_updates(params, updates)
    return jnp.concatenate([jnp.ravel(x) for x in jax.tree_util.tree_leaves(updates)])


# ---- update's extra arguments -------------------------------------------------------------------

@pytest.mark.parametrize("row", PRESENT, ids=lambda row: row.name)
def test_update_keyword_only_arguments(row: Transform) -> None:
    tx = build(row)
    required = {p.name for p in inspect.signature(tx.update).parameters.values()
                if p.kind is inspect.Parameter.KEYWORD_ONLY
                and p.default is inspect.Parameter.empty}
    # Wrapped in chain, an update shows only **extra_args; otherwise what it shows must agree.
    assert required <= set(row.requires_on(INSTALLED)), row.name
    if required:
        assert required == set(row.requires_on(INSTALLED)), row.name
    for optional in row.update_accepts:
        assert optional in inspect.signature(tx.update).parameters, (row.name, optional)


@pytest.mark.parametrize("row", PRESENT, ids=lambda row: row.name)
def test_params_positional_required_matches_update_signature(row: Transform) -> None:
    parameters = list(inspect.signature(build(row).update).parameters.values())
    params = parameters[2] if len(parameters) > 2 else None
    required = params is not None and params.kind is not inspect.Parameter.VAR_KEYWORD and (
        params.default is inspect.Parameter.empty)
    assert required == row.params_positional_required, row.name


@pytest.mark.parametrize("row", [row for row in PRESENT if row.requires_on(INSTALLED)],
                         ids=lambda row: row.name)
def test_update_without_required_arguments_fails(row: Transform) -> None:
    tx = build(row)
    state = tx.init(PARAMS)
    # Traced, not run: the error is raised while tracing, and lbfgs' eager update is slow.
    with pytest.raises((TypeError, ValueError)) as info:
        jax.eval_shape(lambda state: tx.update(GRADS, state, PARAMS), state)
    for name in row.requires_on(INSTALLED):
        assert name in str(info.value), (row.name, name, str(info.value))


def test_lbfgs_without_linesearch_needs_no_extra_arguments() -> None:
    row = installed("optax.lbfgs")
    assert row.update_requires_unless == ("linesearch",)
    tx = build(row, linesearch=None)
    jax.eval_shape(lambda state: tx.update(GRADS, state, PARAMS), tx.init(PARAMS))


@pytest.mark.parametrize("name", ["optax.polyak_sgd", "optax.contrib.reduce_on_plateau",
                                  "optax.contrib.momo"])
def test_update_with_required_arguments_runs(name: str) -> None:
    row = installed(name)
    assert row.exists.contains(INSTALLED)
    assert run(row, steps=1).shape == (16,)


# ---- behaviour, by running ------------------------------------------------------------------------

def _init_with_function_leaf(row: Transform, **overrides: Any) -> bool:
    try:
        build(row, **overrides).init({**PARAMS, "act": jax.nn.relu})
    except (TypeError, AttributeError, ValueError):
        return False
    return True


def _has_params_shaped_state(row: Transform, **overrides: Any) -> bool:
    state = build(row, **overrides).init(PARAMS)
    return any(getattr(leaf, "shape", None) == (3, 4) for leaf in jax.tree_util.tree_leaves(state))


@pytest.mark.parametrize("name", ["optax.adam", "optax.sgd", "optax.adamw", "optax.fromage",
                                  "optax.clip_by_global_norm", "optax.MultiSteps",
                                  "optax.inject_hyperparams", "optax.contrib.reduce_on_plateau",
                                  "optax.trace", "optax.lion"])
def test_per_parameter_state(name: str) -> None:
    row = installed(name)
    # Built with defaults, so a conditional per-parameter state (sgd's momentum) is off.
    unconditional = not row.per_param_state_when
    assert _has_params_shaped_state(row) == (row.per_param_state and unconditional), name
    assert (not _init_with_function_leaf(row)) == (row.rejects_non_array_leaves and unconditional)


def test_sgd_momentum_adds_state() -> None:
    row = installed("optax.sgd")
    assert row.per_param_state_when == ("momentum",)
    assert _has_params_shaped_state(row, momentum=0.9)
    assert not _init_with_function_leaf(row, momentum=0.9)


def _update_without_params_fails(row: Transform) -> bool:
    tx = build(row)
    state = tx.init(PARAMS)
    try:
        tx.update(GRADS, state, None, **extra_args(row))
    except (TypeError, ValueError, AttributeError, IndexError):  # IndexError: zoom, 0.2.5-0.2.7
        return True
    return False


@pytest.mark.parametrize("name", ["optax.adam", "optax.adamw", "optax.add_decayed_weights",
                                  "optax.lamb", "optax.sgd", "optax.clip_by_global_norm",
                                  "optax.adaptive_grad_clip", "optax.novograd",
                                  "optax.contrib.prodigy", "optax.contrib.reduce_on_plateau"])
def test_reads_params(name: str) -> None:
    row = installed(name)
    assert _update_without_params_fails(row) == row.reads_params, name


@pytest.mark.parametrize("name", ["optax.adamw", "optax.add_decayed_weights", "optax.lamb",
                                  "optax.adam"])
def test_params_with_non_array_leaves_where_updates_are_none(name: str) -> None:
    """update(filtered_grads, state, unfiltered_model): the Equinox pattern."""
    row = installed(name)
    tx = build(row)
    state = tx.init({**PARAMS, "act": None})
    try:
        tx.update({**GRADS, "act": None}, state, {**PARAMS, "act": 3})
        ran = True
    except (TypeError, ValueError):
        ran = False
    assert ran == bool(row.params_none_ok.contains(INSTALLED)), name


@pytest.mark.parametrize("name", ["optax.adam", "optax.sgd", "optax.sign_sgd", "optax.rmsprop",
                                  "optax.clip_by_global_norm", "optax.scale_by_adam",
                                  "optax.scale_by_learning_rate", "optax.scale",
                                  "optax.nadam", "optax.contrib.cocob"])
def test_scales_by_learning_rate(name: str) -> None:
    row = installed(name)
    if row.learning_rate_arg is None:
        assert not row.scales_by_learning_rate
        return
    _, keyword = row.learning_rate_arg
    one, two = run(row, **{keyword: 1.0}), run(row, **{keyword: 2.0})
    grads = jnp.concatenate([jnp.ravel(x) for x in jax.tree_util.tree_leaves(GRADS)])
    scales = bool(jnp.allclose(two, 2 * one, rtol=1e-4)) and float(jnp.vdot(one, grads)) < 0
    assert scales == row.scales_by_learning_rate, name


@pytest.mark.parametrize("name", ["optax.adam", "optax.sgd", "optax.lion", "optax.sign_sgd",
                                  "optax.adagrad", "optax.rmsprop", "optax.scale_by_adam",
                                  "optax.adamax", "optax.scale"])
def test_scale_invariance(name: str) -> None:
    row = installed(name)
    tenfold = jax.tree_util.tree_map(lambda g: 10 * g, GRADS)
    same = bool(jnp.allclose(run(row), run(row, grads=tenfold), rtol=1e-3, atol=1e-6))
    assert same == row.scale_invariant, name


# ---- the version ranges ---------------------------------------------------------------------------

def test_version_range() -> None:
    since = VersionRange(since="0.2.4")
    assert since.contains("0.2.4") and since.contains("0.2.10") and since.contains("0.3.0.dev0")
    assert since.contains("0.2.3") is False and since.contains(None) is None
    assert VersionRange(until="0.2.2").contains("0.2.1") and not VersionRange(until="0.2.2").contains(
        "0.2.2")
    assert NEVER.contains("0.2.8") is False and NEVER.is_never and ALWAYS.contains("0.1.0")
    row = behaviour("optax.contrib.reduce_on_plateau")
    assert row is not None
    assert row.requires_on("0.2.1") == ("loss",) and row.requires_on("0.2.2") == ("value",)
    assert row.requires_on(None) == ("value",)


def test_aliases() -> None:
    for alias, target in [("optax.partition", "optax.multi_transform"),
                          ("optax.transforms.partition", "optax.multi_transform"),
                          ("optax.transforms.masked", "optax.masked"),
                          ("optax._src.alias.adamw", "optax.adamw"),
                          ("optax.schedules.inject_hyperparams", "optax.inject_hyperparams"),
                          ("optax.contrib._reduce_on_plateau.reduce_on_plateau",
                           "optax.contrib.reduce_on_plateau"),
                          ("optax.transforms.MultiSteps", "optax.MultiSteps")]:
        found = behaviour(alias)
        assert found is not None and found.name == target, alias
    assert behaviour("optax.not_a_transform") is None
    assert behaviour("optax.apply_updates") is None




# ---- facts the chain-order rules read -----------------------------------------------------------

def test_weight_decay_argument_position() -> None:
    for row in PRESENT:
        if row.weight_decay_arg is not None:
            _check_arg(row.name, *row.weight_decay_arg)


def test_plateau_scale_is_undone_by_a_scale_invariant_optimizer() -> None:
    """After a reduction, sign_sgd behind reduce_on_plateau keeps its step; in front, it shrinks."""
    rows = [row for row in PRESENT if row.plateau_scale]
    assert [row.name for row in rows] == ["optax.contrib.reduce_on_plateau"]
    plateau = lambda: contrib.reduce_on_plateau(patience=1, factor=0.1)  # noqa: E731

    def last_update(chain: Any) -> Any:
        state = chain.init(PARAMS)
        for _ in range(4):
            updates, state = chain.update(GRADS, state, PARAMS, value=jnp.asarray(1.0))
        return jnp.abs(updates["b"]).max()

    lr = 1e-2
    before = last_update(optax.chain(plateau(), optax.sign_sgd(lr)))
    after = last_update(optax.chain(optax.sign_sgd(lr), plateau()))
    assert float(before) == pytest.approx(lr) and float(after) < lr / 5


def test_decoupled_decay_twin_takes_the_same_arguments() -> None:
    for row in PRESENT:
        if row.decoupled_decay is None:
            continue
        own = list(signature(row.name).parameters.values())
        twin = signature(row.decoupled_decay).parameters
        positional = [p for p in own if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
        assert list(twin)[:len(positional)] == [p.name for p in positional], row.name
        assert all(p.name in twin for p in own) and "weight_decay" in twin and "mask" in twin
# ---- what states hold ---------------------------------------------------------------------------

@pytest.mark.parametrize("row", PRESENT, ids=lambda row: row.name)
def test_state_attributes(row: Transform) -> None:
    """`hyperparams`, `b1` and `z` exist on a state exactly where the table says so (a chain's
    state is a tuple without them), and inner_state names the wrapped transformation's state."""
    try:
        state = build(row).init(PARAMS)
    except (TypeError, AttributeError, ValueError):
        pytest.skip(f"{row.name} does not init with minimal arguments")
    for attribute in ("hyperparams", "b1", "z"):
        assert hasattr(state, attribute) == (attribute in row.state_attributes), (row.name, attribute)
    for attribute in row.state_attributes:
        assert hasattr(state, attribute), (row.name, attribute)
    if row.inner_state:
        assert hasattr(state, row.inner_state), row.name


@pytest.mark.parametrize("row", [row for row in PRESENT if row.float_defaults],
                         ids=lambda row: row.name)
def test_float_defaults_match_signature(row: Transform) -> None:
    parameters = signature(row.name).parameters
    for name, default in row.float_defaults:
        assert parameters[name].default == default, (row.name, name)
@pytest.mark.parametrize("name", ["optax.adam", "optax.adamw", "optax.lion", "optax.sgd",
                                  "optax.rmsprop", "optax.adafactor"])
def test_python_scalars_with_none_gradients(name: str) -> None:
    """eqx.filter(model, eqx.is_array_like) with eqx.filter_grad gradients: Python scalar params
    leaves (Dropout's p and inference) whose gradients are None."""
    row = installed(name)
    tx = build(row)
    params = {**PARAMS, "p": 0.1, "inference": False}
    try:
        state = tx.init(params)
        tx.update({**GRADS, "p": None, "inference": None}, state, params)
        ran = True
    except (TypeError, ValueError, AttributeError):
        ran = False
    assert ran == (not row.python_scalars_fail), name
def test_mask_passthrough_and_freeze() -> None:
    """masked passes the leaves outside its mask through unchanged; freeze zeroes the leaves its
    mask marks True, and a weight decay after it still moves them."""
    params = {"w": jnp.ones(2), "b": jnp.ones(2)}
    grads = {"w": jnp.full(2, 3.0), "b": jnp.full(2, 3.0)}
    passing = [row.name for row in PRESENT if row.passes_unmasked_through]
    assert passing == ["optax.masked"]
    masked = optax.masked(optax.sgd(0.1), {"w": True, "b": False})
    updates, _ = masked.update(grads, masked.init(params), params)
    assert float(updates["b"][0]) == 3.0 and float(updates["w"][0]) == pytest.approx(-0.3)
    for row in PRESENT:
        if row.zeroes_masked:
            freeze = _factory(row.name)({"w": True, "b": False})
            updates, _ = freeze.update(grads, freeze.init(params), params)
            assert float(updates["w"][0]) == 0.0 and float(updates["b"][0]) == 3.0
            decayed = optax.chain(freeze, optax.add_decayed_weights(0.5))
            updates, _ = decayed.update(grads, decayed.init(params), params)
            assert float(updates["w"][0]) == 0.5


def _factory(name: str) -> Callable[..., Any]:
    found: Any = optax
    for piece in name.split(".")[1:]:
        found = getattr(found, piece)
    return found


def test_weight_decay_arg_positions() -> None:
    for row in PRESENT:
        if row.weight_decay_arg is None:
            continue
        position, keyword = row.weight_decay_arg
        names = list(inspect.signature(_factory(row.name)).parameters)
        assert position is not None and names[position] == keyword, row.name
