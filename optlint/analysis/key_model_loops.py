"""Library calls that run a function many times, as data: `jax.lax` loops, batching
transformations, maps over items and leaves, tracing; and calls that hand one value to every
run (replication, stacking, repeating iterables)."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.binding import argument
from optlint.records import record

@record
class LoopBody:
    """Where a `jax.lax` loop takes its body, and what the body returns and is given."""

    position: int  # where the loop takes its body (position, keyword)
    keyword: str
    # Where the body's result holds the carry (`scan` returns `(carry, y)`; the others return
    # the carry); None: no carry (`lax.map`).
    carry: tuple[int, ...] | None
    # The body's parameter given the step index, and where the loop takes the first index:
    # `fori_loop(lower, upper, body_fun, init_val)` calls `body_fun(i, val)` for `i` from `lower`.
    index: int | None = None
    first_index: tuple[int, str] | None = None


# jax.lax loops by qualified name.
LOOP_BODIES: dict[str, LoopBody] = {
    "jax.lax.scan": LoopBody(0, "f", (0,)),
    "jax.lax.fori_loop": LoopBody(2, "body_fun", (), index=0, first_index=(0, "lower")),
    "jax.lax.while_loop": LoopBody(1, "body_fun", ()),
    "jax.lax.map": LoopBody(0, "f", None),
    # trax's backend-neutral `fastmath.scan` is `jax.lax.scan` on JAX.
    "trax.fastmath.scan": LoopBody(0, "f", (0,)),
}

# jax.lax loops with a carry: where they take the initial carry (position, keyword) and which
# parameter of the body receives the carry. The first step draws from what the initial carry
# holds.
LOOP_INITS: dict[str, tuple[int, str, int]] = {
    "jax.lax.scan": (1, "init", 0), "jax.lax.fori_loop": (3, "init_val", 1),
    "jax.lax.while_loop": (2, "init_val", 0), "trax.fastmath.scan": (1, "init", 0),
}

# jax.lax loops handing the body one item per step: where they take the items (position,
# keyword) and which parameter of the body receives the item. Items that are copies of one key
# (`jnp.array([key] * n)`) give every step the same key (`key_scanned_copies.py`).
LOOP_ITEMS: dict[str, tuple[int, str, int]] = {
    "jax.lax.scan": (2, "xs", 1), "jax.lax.map": (1, "xs", 0), "trax.fastmath.scan": (2, "xs", 1),
}
# How such a loop is named where it hands out copies (the end of a consumption's `over`).
COPIED_ITEMS = "(copies of one key as its items)"

# Transformations that map a function over a batch; the position of their `in_axes` argument
# (None: keyword only; `jax.pmap(fun, axis_name=None, *, in_axes=0)` on jax 0.10.2, whose second
# positional argument is the axis name: `pmap(step, "device", in_axes=(0, None))`).
# A key given with a `None` axis reaches every row: each row draws the same numbers.
BATCHING: dict[str, int | None] = {
    "jax.vmap": 1, "jax.pmap": None, "equinox.filter_vmap": None, "equinox.filter_pmap": None,
    # `jax.shard_map(f, *, out_specs, in_specs, mesh)` and the older
    # `jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs)` (jax 0.10.2): a key
    # given the spec `P()` is replicated to every shard, and each shard draws the same numbers
    # (2 host devices: `normal(key, x.shape)` on each half of `x` gave equal halves).
    "jax.shard_map": None, "jax.experimental.shard_map.shard_map": 2,
}
# The transformations that map an argument given by keyword over its leading axis, whatever
# `in_axes` says (it speaks of the positional ones); `eqx.filter_vmap`, `eqx.filter_pmap` and
# `jax.shard_map` refuse keywords (jax 0.10.2: `vmap(f, in_axes=None)(x, k=keys)` gave each
# row its own key).
KEYWORDS_MAPPED = frozenset({"jax.vmap", "jax.pmap"})
# Where they take their axes when not `in_axes`.
AXES_KEYWORDS: dict[str, str] = {
    "jax.shard_map": "in_specs", "jax.experimental.shard_map.shard_map": "in_specs",
}
PARTITION_SPECS = frozenset({"jax.sharding.PartitionSpec", "jax.P"})
# Calls that stack the items of an iterable into one array: `jnp.stack([key] * n)` is `n`
# copies of one key (jax 0.10.2: vmapped over them, every row drew the same numbers, typed
# and raw keys alike).
STACKING = frozenset({"jax.numpy.stack", "jax.numpy.array", "jax.numpy.asarray"})

# Python's `map`: its function runs once per item, given one item of each iterable after it.
ITEM_MAPS = frozenset({"map"})
# Iterables that give one value as every item (`itertools.repeat(seed)`), beside `[seed] * n`
# and `[seed for _ in range(n)]`: a key or seed mapped so reaches every item unchanged.
REPEATING_ITERABLES = frozenset({"itertools.repeat"})

# Calls that give every device the same copy of a value: a key replicated into `pmap` reaches
# every device unchanged, and each draws the same numbers.
REPLICATING = frozenset({"flax.jax_utils.replicate", "jax.device_put_replicated",
                         # copies of one key along a new leading axis, one per row
                         "jax.numpy.broadcast_to", "jax.numpy.tile", "jax.numpy.repeat"})
# The project's own helpers named so do the same (`replicate(tree, n)` stacking copies).
REPLICATING_NAMES = frozenset({"replicate"})

# Tree maps: their function runs once per leaf, so a key it closes over draws the same numbers
# for every leaf (the same noise on every gradient leaf).
TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map"})

# Transformations that trace their function once and run the compiled result afterwards: Python
# code in it (NumPy's random numbers, a key stream object advanced in Python) runs only while
# tracing, so what it makes is fixed for every later call.
TRACING = frozenset({"jax.jit", "equinox.filter_jit", "jax.pmap", "equinox.filter_pmap",
                     "flax.nnx.jit"})


def handed_to_body(call: cst.Call, body: cst.FunctionDef, row: tuple[int, str, int] | None
                   ) -> tuple[cst.Arg, str] | None:
    """The argument the loop `call` takes at `row` (a `LOOP_INITS` or `LOOP_ITEMS` row: its
    position, keyword, and the body's parameter given it) and that parameter's name in `body`;
    None where the row, the argument or the parameter is missing."""
    if row is None:
        return None
    position, keyword, index = row
    given = argument(call, position, keyword)
    params = [*body.params.posonly_params, *body.params.params]
    if given is None or index >= len(params):
        return None
    return given, params[index].name.value
