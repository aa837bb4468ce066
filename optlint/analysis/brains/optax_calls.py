"""Optax: gradient transformations and what they wrap, `inject_hyperparams` factories.

Which argument of a wrapper holds the transformation it wraps comes from the behaviour table.
"""

from __future__ import annotations

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.brains.registry import LibraryCall, handles, handles_matching
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import (
    UNKNOWN,
    DictValue,
    InjectFactory,
    LiteralValue,
    OneOf,
    ScheduleValue,
    SequenceValue,
    StateValue,
    TransformValue,
    Value,
)


@handles("optax.inject_hyperparams")
def inject_hyperparams(call: LibraryCall) -> Value:
    return InjectFactory(call.value(0, "inner_factory"), call.call,
                         static_arg_names(call.arg(1, "static_args")))


# Schedules whose names do not say so.
@handles("optax.exponential_decay", "optax.schedules.exponential_decay")
@handles_matching(apis.is_optax_schedule)
def schedule(call: LibraryCall) -> Value:
    return ScheduleValue(call.name, call.call)


@handles_matching(apis.is_optax_transform_factory)
def transformation(call: LibraryCall) -> Value:
    return TransformValue(call.name, call.call, _wrapped_parts(call), _literals(call))


def _literals(call: LibraryCall) -> tuple[tuple[int, str], ...]:
    """The arguments that are not literals in the code but whose values are (see
    TransformValue.literals)."""
    found: list[tuple[int, str]] = []
    for arg in call.call.args:
        if arg.star or isinstance(arg.value, (cst.Integer, cst.Float, cst.SimpleString)):
            continue
        if not isinstance(arg.value, (cst.Name, cst.Attribute, cst.Subscript)):
            continue
        value = call.evaluate(arg.value)
        if isinstance(value, LiteralValue) and value.kind in ("number", "none", "bool"):
            found.append((id(arg.value), value.text))
    return tuple(found)


def _wrapped_parts(call: LibraryCall) -> tuple[Value, ...]:
    table = behaviour(call.name)
    if table is None:
        return ()
    if table.wraps_many:  # chain(*transforms), named_chain(*(name, transform))
        parts: list[Value] = []
        for arg in call.call.args:
            value = call.evaluate(arg.value)
            if arg.star == "*" and isinstance(value, SequenceValue):
                parts.extend(value.items)
            elif call.name == "optax.named_chain" and isinstance(value, SequenceValue):
                parts.extend(value.items[1:2])
            else:
                parts.append(value)
        return tuple(parts)
    if not table.wraps:
        return ()
    position, keyword = table.wraps[0]
    inner = call.arg(position, keyword)
    if inner is None:
        return ()
    if call.name == "optax.multi_transform" and isinstance(inner.value, cst.DictComp):
        # `{label: optax.adamw(lr) for label, lr in lrs.items()}`: every label's transformation
        # is the one the comprehension builds.
        return (call.evaluate(inner.value.value),)
    wrapped = call.evaluate(inner.value)
    if call.name == "optax.multi_transform":  # a dict of transformations by label
        return tuple(value for _, value in wrapped.items) if isinstance(
            wrapped, DictValue) else ()
    return (wrapped,)


def partial_inject(partial: cst.Call, call: LibraryCall) -> Value:
    """`functools.partial(optax.inject_hyperparams, static_args=...)(inner)`."""
    inner_value = call.value(0, "inner_factory")
    own = call.arg(1, "static_args")
    given = own if own is not None else argument(partial, None, "static_args")
    where = partial if own is None and given is not None else call.call
    return InjectFactory(inner_value, where, static_arg_names(given))


def static_arg_names(arg: cst.Arg | None) -> tuple[str, ...] | None:
    """The names in `static_args="mask"` / `("mask", "b1")` / `["mask"]`; None if not literal."""
    if arg is None:
        return ()
    value = arg.value
    elements = [element.value for element in value.elements] if isinstance(
        value, (cst.Tuple, cst.List)) else [value]
    names = [element.evaluated_value for element in elements
             if isinstance(element, cst.SimpleString)]
    if len(names) != len(elements) or not all(isinstance(name, str) for name in names):
        return None
    return tuple(str(name) for name in names)


# The methods of an optimizer whose results carry its state: `init` gives the state, `update`
# the pair (updates, state).
STATE_METHODS = ("init", "update")


def method_result(optimizer: Value, method: str) -> Value | None:
    """What `optimizer.init(...)` / `optimizer.update(...)` gives, for an optimizer the analysis
    sees (every branch of a OneOf a transformation); None otherwise."""
    options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
    if not options or not all(isinstance(option, TransformValue) for option in options):
        return None
    state = StateValue(optimizer)
    return state if method == "init" else SequenceValue("tuple", (UNKNOWN, state))


def state_item(state: StateValue, position: int) -> Value:
    """`state[i]` of a chain's state (a tuple of its parts' states, in order): that part's state,
    when every part is a transformation the analysis sees (an unknown or `*`-unpacked part would
    shift the positions)."""
    chain = state.optimizer
    if not isinstance(chain, TransformValue) or chain.name != "optax.chain":
        return UNKNOWN
    parts = chain.parts
    if not parts or not all(isinstance(part, TransformValue) for part in parts):
        return UNKNOWN
    if chain.call is not None and any(arg.star for arg in chain.call.args):
        return UNKNOWN
    if -len(parts) <= position < len(parts):
        return StateValue(parts[position])
    return UNKNOWN


def state_attribute(state: StateValue, attribute: str) -> Value:
    """`state.inner_opt_state` and the like: the wrapped transformation's state, where the table
    names the attribute that holds it."""
    wrapper = state.optimizer
    if not isinstance(wrapper, TransformValue) or len(wrapper.parts) != 1:
        return UNKNOWN
    row = behaviour(wrapper.name)
    if row is None or not row.inner_state or row.inner_state != attribute:
        return UNKNOWN
    inner = wrapper.parts[0]
    return StateValue(inner) if isinstance(inner, TransformValue) else UNKNOWN
