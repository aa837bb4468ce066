"""Questions rules ask about an inferred Optax optimizer, answered from the behaviour table.

Each answer is True (proven for every way the optimizer can be built), False (proven not), or
None (the analysis cannot tell: a part it cannot see, an argument it cannot read, a wrapper that
applies its inner transformation to only some leaves). Rules report only on True.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.optax_table import Transform, VersionRange, behaviour, parse_version
from optlint.analysis.values import OneOf, TransformValue, Value, is_optional_part

Answer = bool | None
# Wrappers whose inner transformations see every leaf of params and state as given.
_TRANSPARENT = {"optax.chain", "optax.named_chain", "optax.MultiSteps", "optax.apply_if_finite",
                "optax.inject_hyperparams", "optax.flatten"}


def keeps_param_state(optimizer: Value, optax_version: str | None) -> Answer:
    """Whether `init` builds state shaped like params (so it fails on a non-array leaf)."""
    return _any_part(optimizer, lambda part, table: _conditional(
        part, table.rejects_non_array_leaves, () if table.init_rejects_non_arrays is not None
        else table.per_param_state_when), optax_version)


def rejects_non_array_params(optimizer: Value, optax_version: str | None) -> Answer:
    """Whether `update(grads, state, params)` raises when params hold non-array leaves (where the
    gradients are None) on this Optax version. With the version unknown, as for every
    version-gated rule, "any version": True when some version in the part's range raises."""
    def reads(part: TransformValue, table: Transform) -> Answer:
        if table.update_passes_params_to_jax:
            return True
        if not table.reads_params:
            return False
        tolerated = holds(table.params_none_ok, optax_version)
        if tolerated is None:  # the version is unknown
            tolerated = table.params_none_ok.since is None and table.params_none_ok.until is None
        return False if tolerated else _conditional(part, True, table.reads_params_when)
    return _any_part(optimizer, reads, optax_version)


def fails_on_python_scalars(optimizer: Value, optax_version: str | None) -> Answer:
    """Whether `init`/`update` raise when params hold Python scalars whose gradients are None
    (an Equinox module filtered with `eqx.is_array_like`, trained with `eqx.filter_grad`)."""
    return _any_part(optimizer, lambda part, table: table.python_scalars_fail, optax_version)


def python_scalar_failer(optimizer: Value) -> str | None:
    """The first part of `optimizer` that fails on Python scalar params, for messages."""
    found = _first_part(optimizer, lambda table: table.python_scalars_fail)
    return found.name if found is not None else None


def calls_callable_tree(factory: str, family: str, optax_version: str | None) -> Answer:
    """Whether `factory` calls a callable pytree given as its mask (family "mask") or labels
    ("labels") instead of reading it, on this optax; unknown version: None, unless the factory
    only exists on versions that read it."""
    row = behaviour(factory)
    if row is None:
        return None
    reads = row.mask_callable_pytree_ok if family == "mask" else row.labels_callable_pytree_ok
    if optax_version is None:
        appeared, fixed = row.exists.since, reads.since
        if appeared is not None and fixed is not None and not reads.is_never and (
                parse_version(appeared) >= parse_version(fixed)):
            return False
        return None
    if row.exists.contains(optax_version) is False:
        return False
    return not reads.contains(optax_version)


def params_reader(optimizer: Value) -> tuple[str, str, str] | None:
    """The first part of `optimizer` that reads params in `update` (or hands them to JAX), the
    optax versions on which non-array leaves there raise ("optax < 0.2.4", "all versions"), and
    what it does with them, for messages."""
    found = _first_part(optimizer, lambda table: table.update_passes_params_to_jax
                        or table.reads_params)
    if found is None:
        return None
    if found.update_passes_params_to_jax:
        return found.name, "all versions", "hands params to `jax.lax.cond`"
    tolerated = found.params_none_ok
    raises = ("all versions" if tolerated.since is None or tolerated.is_never
              else str(VersionRange(until=tolerated.since)))
    return found.name, raises, "reads params"


def stateful_part(optimizer: Value) -> str | None:
    """The name of the first transformation inside `optimizer` that keeps per-parameter state,
    for messages (`optax.adam` inside a chain)."""
    found = _first_part(optimizer, lambda table: table.rejects_non_array_leaves)
    return found.name if found is not None else None


def _first_part(optimizer: Value, wanted: Callable[[Transform], bool]) -> Transform | None:
    """The table row of the first part of `optimizer` (of any of its branches) that `wanted`."""
    options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
    for option in options:
        if isinstance(option, TransformValue):
            for part in option.walk():
                table = behaviour(part.name)
                if table is not None and wanted(table):
                    return table
    return None


def _any_part(optimizer: Value, asks: Callable[[TransformValue, Transform], Answer],
              optax_version: str | None) -> Answer:
    """True when, for every way of building `optimizer`, some part says True and sees every leaf
    of params; False when every part says False; else None."""
    if isinstance(optimizer, OneOf):
        answers = [_any_part(option, asks, optax_version) for option in optimizer.options]
        if all(answer is True for answer in answers):
            return True
        return False if all(answer is False for answer in answers) else None
    if not isinstance(optimizer, TransformValue):
        return None
    table = behaviour(optimizer.name, optax_version)  # the facts as they hold on that release
    if table is None or holds(table.exists, optax_version) is False:
        return None
    own = asks(optimizer, table)
    if not (table.wraps or table.wraps_many or optimizer.name in _TRANSPARENT):
        return own
    inner = [_any_part(part, asks, optax_version) for part in optimizer.parts]
    if optimizer.name in _TRANSPARENT and True in inner:
        return True
    if own is True:
        return True
    # `masked`, `multi_transform`: a mask or labels choose which leaves the inner parts see.
    return False if own is False and inner and all(answer is False for answer in inner) else None


def as_called(part: TransformValue, table: Transform) -> Transform:
    """The row as this call makes it: `scale(-lr)` (a step size written negative) is a complete
    descent step, a learning-rate scaling (Transform.final_update_when_negative)."""
    where = table.final_update_when_negative
    if where is None or part.call is None:
        return table
    arg = argument(part.call, *where)
    if arg is None or not _negative(arg.value):
        return table
    return replace(table, final_update=True, scales_by_learning_rate=True,
                   learning_rate_arg=where)


def _negative(expr: cst.BaseExpression) -> bool:
    """`-lr`, `-1e-3`, `-cfg.lr`: written with a leading minus (`-(-x)` is not)."""
    return (isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus)
            and not (isinstance(expr.expression, cst.UnaryOperation)
                     and isinstance(expr.expression.operator, cst.Minus)))


def holds(versions: VersionRange, optax_version: str | None) -> Answer:
    """Whether a fact with this version range holds on the user's optax (None: unknown)."""
    if versions.since is None and versions.until is None:
        return True
    return versions.contains(optax_version)


def _conditional(part: TransformValue, default: bool, when: tuple[str, ...]) -> Answer:
    """`default`, or for facts that hold only when an argument is given (sgd's `momentum`):
    whether the call gives one of them a value other than None or 0."""
    if not default or not when:
        return default
    call = part.call
    if call is None:
        return None
    if any(arg.star for arg in call.args):
        return None
    found: Answer = False
    for name in when:
        arg = argument(call, None, name)
        if arg is None:
            continue
        found = _given(arg.value, part)
        if found is not False:
            return found
    positional = [arg for arg in call.args if arg.keyword is None]
    if found is False and len(positional) > 1:
        return None  # `sgd(lr, 0.9)`: positions after the first are not read
    return found


def _given(expr: cst.BaseExpression, part: TransformValue | None = None) -> Answer:
    """Whether an argument gives a value (not None, not 0); None when it cannot be read (from the
    code, or from the literal inference knows the expression holds: a config default)."""
    known = part.literal(expr) if part is not None else None
    if known is not None:
        expr = cst.parse_expression(known)
    if isinstance(expr, cst.Name) and expr.value == "None":
        return False
    if isinstance(expr, (cst.Integer, cst.Float)):
        return float(expr.value.replace("_", "")) != 0
    return True if isinstance(expr, cst.SimpleString) else None


def state_path(optimizer: Value, wanted: Callable[[TransformValue], bool]) -> str | None:
    """Where the state of the one part of `optimizer` that is `wanted` sits inside the
    optimizer's state, as code to append to the state's expression: "" (the optimizer itself),
    "[1]" (a chain's second part), ".inner_opt_state" (what MultiSteps wraps), "[1].inner_state".
    None when no part or several are wanted, or a step cannot be seen (a chain with a part the
    analysis does not know, or `*`-unpacked parts, whose positions may shift)."""
    if not isinstance(optimizer, TransformValue):
        return None
    found = [path for path in _state_paths(optimizer, wanted) if path is not None]
    unseen = None in _state_paths(optimizer, wanted)
    return found[0] if len(found) == 1 and not unseen else None


def _state_paths(optimizer: TransformValue,
                 wanted: Callable[[TransformValue], bool]) -> list[str | None]:
    """Paths to every wanted part; None for a wanted part (or an unseen one) without a path."""
    if wanted(optimizer):
        return [""]
    parts = optimizer.parts
    unseen = any(not isinstance(part, TransformValue) for part in parts)
    if optimizer.name == "optax.chain":
        starred = optimizer.call is None or any(arg.star for arg in optimizer.call.args)
        paths: list[str | None] = []
        for position, part in enumerate(parts):
            if isinstance(part, TransformValue):
                for inner in _state_paths(part, wanted):
                    paths.append(None if starred or unseen or inner is None
                                 else f"[{position}]{inner}")
        return paths + ([None] if unseen else [])
    row = behaviour(optimizer.name)
    if row is not None and row.inner_state and len(parts) == 1:
        if unseen:
            return [None]
        assert isinstance(parts[0], TransformValue)
        return [None if inner is None else f".{row.inner_state}{inner}"
                for inner in _state_paths(parts[0], wanted)]
    # Any other wrapper or combinator: its parts' states are where the table does not say.
    inside = [part for option in parts if isinstance(option, TransformValue)
              for part in option.walk() if wanted(part)]
    return [None] * (len(inside) + (1 if unseen else 0))
# Wrappers and combinators whose `update` calls every inner transformation's `update` with the
# params and extra keyword arguments it was given (or with none, when params are missing):
# measured on optax 0.2.8, `update(grads, state)` without params raises through each of them when
# an inner part reads params, and without `value=` when an inner part requires it.
_FORWARDS_UPDATE_ARGUMENTS = {
    "optax.chain", "optax.named_chain", "optax.MultiSteps", "optax.apply_if_finite",
    "optax.inject_hyperparams", "optax.inject_stateful_hyperparams", "optax.masked",
    "optax.multi_transform", "optax.flatten", "optax.conditionally_mask",
    "optax.with_extra_args_support", "optax.lookahead", "optax.contrib.mechanize",
}


def update_reaches(optimizer: Value, wanted: Callable[[Transform], bool],
                   optax_version: str | None) -> tuple[Answer, TransformValue | None]:
    """Whether `update` of every way of building `optimizer` reaches a part whose table row (as it
    holds on this optax) is `wanted`, through wrappers that forward params and extra arguments;
    with the first such part found (for messages, also when the answer is None)."""
    if isinstance(optimizer, OneOf):
        found = [update_reaches(option, wanted, optax_version) for option in optimizer.options]
        part = next((part for _, part in found if part is not None), None)
        if found and all(answer is True for answer, _ in found):
            return True, part
        if optimizer.by_caller:
            # Each option is what some call passes: one that reaches the part is proof.
            proof = next((part for answer, part in found if answer is True), None)
            if proof is not None:
                return True, proof
        return (False if all(answer is False for answer, _ in found) else None), part
    if not isinstance(optimizer, TransformValue):
        return None, None
    table = behaviour(optimizer.name, optax_version)
    if table is None or holds(table.exists, optax_version) is False:
        return None, None
    if wanted(table):
        return True, optimizer
    if not (table.wraps or table.wraps_many):
        return False, None
    inner = [update_reaches(part, wanted, optax_version) for part in optimizer.parts]
    part = next((part for _, part in inner if part is not None), None)
    if optimizer.name in _FORWARDS_UPDATE_ARGUMENTS and any(answer is True for answer, _ in inner):
        return True, part
    if inner and all(answer is False for answer, _ in inner):
        return False, None
    return None, part
def added_only_if(optimizer: Value, part: TransformValue) -> str | None:
    """The `if` test under which `optimizer`'s builder adds `part`, where the configuration the
    analysis sees does not take it (see `optional_part`); None when `part` is there anyway."""
    def within(value: Value, test: str | None) -> tuple[bool, str | None]:
        if value is part:
            return True, test
        if isinstance(value, OneOf):
            options = value.options
            if test is None and is_optional_part(value):
                test = value.added_if
        elif isinstance(value, TransformValue):
            options = value.parts
        else:
            return False, None
        for option in options:
            found, because = within(option, test)
            if found:
                return True, because
        return False, None
    return within(optimizer, None)[1]


# Wrappers that hand every leaf to their one inner transformation and return what it gives.
_PASS_TO_ONE = {"optax.MultiSteps", "optax.apply_if_finite", "optax.inject_hyperparams",
                "optax.inject_stateful_hyperparams"}


def whole_update(optimizer: TransformValue) -> tuple[TransformValue, bool] | None:
    """The transformation that gives every leaf its final update: `optimizer` less the wrappers
    that pass all leaves to one inner transformation (MultiSteps, apply_if_finite,
    inject_hyperparams, a chain of one part, or of one part after clipping steps). The flag says
    whether clipping came first. None when a part cannot be seen."""
    clipped = False
    current: Value = optimizer
    while isinstance(current, TransformValue):
        table = behaviour(current.name)
        if table is None:
            return None
        if current.name in _PASS_TO_ONE and len(current.parts) == 1:
            current = current.parts[0]
            continue
        if table.wraps_many:
            rest = [part for part in current.parts if not _clips(part)]
            if len(rest) != 1:
                return (current, clipped) if len(current.parts) > 1 else None
            clipped = clipped or len(current.parts) > 1
            current = rest[0]
            continue
        return current, clipped
    return None


def _clips(part: Value) -> bool:
    if not isinstance(part, TransformValue):
        return False
    table = behaviour(part.name)
    return table is not None and table.clips


def gives_final_update(optimizer: Value) -> Answer:
    """Whether some part of `optimizer` produces a complete descent step (an optimizer alias,
    scale_by_learning_rate); None when a part cannot be seen."""
    if isinstance(optimizer, OneOf):
        answers = [gives_final_update(option) for option in optimizer.options]
        if all(answer is True for answer in answers):
            return True
        return False if all(answer is False for answer in answers) else None
    if not isinstance(optimizer, TransformValue):
        return None
    table = behaviour(optimizer.name)
    if table is None:
        return None
    if as_called(optimizer, table).final_update:
        return True
    answers = [gives_final_update(part) for part in optimizer.parts]
    if True in answers:
        return True
    return None if None in answers else False


def adds_decay(part: TransformValue) -> Answer:
    """Whether this part adds weight decay as called (`adamw` unless `weight_decay=0`,
    `add_decayed_weights(wd)` when wd is not 0); None when the rate cannot be read."""
    table = behaviour(part.name)
    if table is None or not table.adds_weight_decay:
        return False
    if part.call is None:
        return None
    if any(arg.star for arg in part.call.args):
        return None
    position, keyword = table.weight_decay_arg or (None, None)
    names = (keyword,) if keyword else table.adds_weight_decay_when or ("weight_decay",)
    for name in names:
        arg = argument(part.call, position, name)
        if arg is not None:
            return _given(arg.value, part)
    if table.weight_decay_arg is None and table.adds_weight_decay_when and len(
            [arg for arg in part.call.args if arg.keyword is None]) > 1:
        return None  # a rate given by a position the table does not know
    return not table.adds_weight_decay_when


def decay_mask_given(part: TransformValue) -> Answer:
    """Whether a decaying part is given a mask (any of its mask arguments, or `weight_decay_mask`,
    the name an open Optax PR gives `mask`) that is not None; None when it cannot be read."""
    table = behaviour(part.name)
    if table is None or part.call is None:
        return None
    if any(arg.star for arg in part.call.args):
        return None
    spellings = [*table.mask_args, (None, "weight_decay_mask")]
    for position, keyword in spellings:
        arg = argument(part.call, position, keyword)
        if arg is not None and not (isinstance(arg.value, cst.Name)
                                    and arg.value.value == "None"):
            return True
    return False


def parts_seeing_every_leaf(optimizer: Value) -> list[TransformValue] | None:
    """Every transformation inside `optimizer` that is given every leaf (reached through chains
    and wrappers that pass all leaves on), in chain order; None when some part cannot be seen or
    a wrapper applies its inner part to only some leaves (`masked`, `multi_transform`)."""
    if not isinstance(optimizer, TransformValue):
        return None
    table = behaviour(optimizer.name)
    if table is None:
        return None
    found = [optimizer]
    if not (table.wraps or table.wraps_many):
        return found
    if optimizer.name not in _TRANSPARENT and optimizer.name not in _PASS_TO_ONE:
        return None
    for part in optimizer.parts:
        inner = parts_seeing_every_leaf(part)
        if inner is None:
            return None
        found.extend(inner)
    return found
