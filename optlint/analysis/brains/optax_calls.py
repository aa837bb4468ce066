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
    DictValue,
    InjectFactory,
    SequenceValue,
    TransformValue,
    Value,
)


@handles("optax.inject_hyperparams")
def inject_hyperparams(call: LibraryCall) -> Value:
    return InjectFactory(call.value(0, "inner_factory"), call.call,
                         static_arg_names(call.arg(1, "static_args")))


@handles_matching(apis.is_optax_transform_factory)
def transformation(call: LibraryCall) -> Value:
    return TransformValue(call.name, call.call, _wrapped_parts(call))


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
