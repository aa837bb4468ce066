"""The order in which a chain's transformations meet the updates: every way an inferred
`optax.chain` can be built, flattened through nested chains and wrappers, for the rules that
report a transformation applied before or after another (clipping, decay, accumulation)."""

from __future__ import annotations

from collections.abc import Callable

from optlint.analysis.optax_model import _TRANSPARENT, as_called, holds
from optlint.analysis.optax_table import Transform, behaviour
from optlint.analysis.values import OneOf, TransformValue, Value
from optlint.records import record

# Transformations that hand every leaf to their inner one, unchanged in order: the inner steps
# are applied where the wrapper sits.
_IN_PLACE = _TRANSPARENT - {"optax.chain", "optax.named_chain"}
_MAX_ORDERS = 32


@record(eq=False)
class Step:
    """One transformation as the updates meet it, in a chain flattened through nested chains and
    wrappers. `top` is the index of the analysed chain's own part it came from; `masked` is true
    when a `masked(...)` around it applies it to the leaves its mask selects only."""

    part: TransformValue
    table: Transform
    top: int
    masked: bool = False


# One way of building a chain: its steps in application order; None where a part cannot be seen
# (an unknown value, a wrapper that routes leaves its own way: conditionally_transform, ...).
Order = tuple[Step | None, ...]


def application_orders(chain: Value, optax_version: str | None) -> list[Order] | None:
    """Every way `chain` can be built (one per combination of OneOf branches among its parts
    and of the routes a multi_transform sends leaves down),
    each as its steps in the order they are applied; None when `chain` is not a chain, or when
    there are too many combinations to be worth following."""
    if not isinstance(chain, TransformValue):
        return None
    table = behaviour(chain.name, optax_version)
    if table is None or not table.wraps_many:
        return None
    orders: list[Order] = [()]
    for top, part in enumerate(chain.parts):
        options = _part_orders(part, top, False, optax_version)
        orders = [order + option for order in orders for option in options]
        if len(orders) > _MAX_ORDERS:
            return None
    return orders


def _part_orders(value: Value, top: int, masked: bool,
                 optax_version: str | None) -> list[Order]:
    if isinstance(value, OneOf):
        return [order for option in value.options
                for order in _part_orders(option, top, masked, optax_version)]
    if not isinstance(value, TransformValue):
        return [(None,)]
    table = behaviour(value.name, optax_version)
    if table is None or holds(table.exists, optax_version) is False:
        return [(None,)]
    inner: list[Value] | None = None
    if table.wraps_many:
        inner = list(value.parts)
    elif value.name in _IN_PLACE or value.name == "optax.masked":
        inner = list(value.parts) if len(value.parts) == 1 else None
        masked = masked or value.name == "optax.masked"
    elif table.label_args and value.parts:
        # multi_transform: every leaf goes through exactly one of its transformations (`init`
        # raises ValueError when a label has none: measured, optax 0.2.8), so each is one way
        # the updates are met, and what holds in every order holds for every leaf.
        routes = [order for part in value.parts
                  for order in _part_orders(part, top, masked, optax_version)]
        return routes if len(routes) <= _MAX_ORDERS else [(None,)]
    elif table.wraps:
        return [(None,)]  # routes leaves or steps its own way
    if inner is None:
        return [(Step(value, as_called(value, table), top, masked),)] if not table.wraps else [
            (None,)]
    orders: list[Order] = [()]
    for part in inner:
        options = _part_orders(part, top, masked, optax_version)
        orders = [order + option for order in orders for option in options]
        if len(orders) > _MAX_ORDERS:
            return [(None,)]
    return orders




def misordered(chain: Value, optax_version: str | None, earlier: Callable[[Step], bool],
               later: Callable[[Step], bool],
               rest: Callable[[Step | None], bool] | None = None,
               ) -> list[tuple[Step, Step]] | None:
    """For every way `chain` can be built, the first pair of steps (one that `earlier` holds of,
    a later one that `later` holds of, from different parts of `chain` itself: a pair inside one
    part is that part's own chain's to report) with `rest` holding of every step after the
    later one; None when some way of building it has no such pair, or cannot be followed."""
    orders = application_orders(chain, optax_version)
    if not orders:
        return None
    pairs: list[tuple[Step, Step]] = []
    for order in orders:
        pair = _first_pair(order, earlier, later, rest)
        if pair is None:
            return None
        pairs.append(pair)
    return pairs


def _first_pair(order: Order, earlier: Callable[[Step], bool], later: Callable[[Step], bool],
                rest: Callable[[Step | None], bool] | None) -> tuple[Step, Step] | None:
    for position, second in enumerate(order):
        if second is None or not later(second):
            continue
        if rest is not None and not all(rest(step) for step in order[position + 1:]):
            continue
        for first in order[:position]:
            if first is not None and first.top != second.top and earlier(first):
                return first, second
    return None
