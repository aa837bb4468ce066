"""A comprehension (or a loop) drawing every item from one key, with nothing else changing
between items.

`[permutation(key, a) for a in arrays]` permutes several arrays alike on purpose (the samplers
in `ALIGNING`: one order for inputs and labels). But `[permutation(key, jnp.arange(784)) for _ in
range(n_tasks)]` reads nothing the comprehension binds: every item is the same permutation, not
arrays kept aligned (rebayes 154023f: every permuted-MNIST task got the same pixel order; run
with jax 0.10.2, the four permutations were identical)."""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_syntax import COMPREHENSIONS, enclosing_comprehension
from optlint.analysis.library_names import JAX_RANDOM


def same_item_each_time(call: cst.Call, key: cst.BaseExpression, how: str,
                        parents: Mapping[int, cst.CSTNode]) -> bool:
    """`call` (a consumer named `how`) builds the items of a comprehension, and the array it
    orders reads no name the comprehension binds: for a `jax.random` sampler its own array
    argument (`[choice(key, n, p=p) for p in probs]` draws every row from the same uniforms,
    pennylane f22dd2d: every broadcast row got the same samples), for another library's
    any argument but `key`."""
    found = enclosing_comprehension(call, parents)
    if found is None:
        return False
    comprehension = found[0]
    bound: set[str] = set()
    loop: cst.CompFor | None = comprehension.for_in
    while loop is not None:
        bound |= _names(loop.target)
        loop = loop.inner_for_in
    module, _, name = how.rpartition(".")
    if module == JAX_RANDOM and name in ALIGNED_ARGUMENT:
        aligned = argument(call, *ALIGNED_ARGUMENT[name])
        return aligned is None or not _names(aligned.value) & bound
    return not any(_names(arg.value) & bound for arg in call.args if arg.value is not key)


# The array argument of the `jax.random` samplers that order several arrays alike when given
# one key (`permutation(key, x)`, `choice(key, a, shape, replace, p)`, `shuffle(key, x)`).
ALIGNED_ARGUMENT: dict[str, tuple[int, str]] = {
    "permutation": (1, "x"), "choice": (1, "a"), "shuffle": (1, "x"),
}


def aligned_by_the_loop(call: cst.Call, how: str, parents: Mapping[int, cst.CSTNode]) -> bool:
    """`call`, a sampler that orders arrays alike, is in a loop whose target the array it orders
    reads (`for i in range(n): permutation(key, arrays[i])`: the arrays permuted alike). Not so
    for `for epoch in range(n): permutation(key, n_rows)`: every epoch the same order (a2c-jax
    99eeca2, jax-flow-matching c40ff3b: every epoch's batches the same)."""
    module, _, name = how.rpartition(".")
    aligned = argument(call, *ALIGNED_ARGUMENT[name]) if (
        module == JAX_RANDOM and name in ALIGNED_ARGUMENT) else None
    node = parents.get(id(call))
    while node is not None and not isinstance(node, (cst.For, cst.While, cst.FunctionDef,
                                                       *COMPREHENSIONS)):
        node = parents.get(id(node))
    if isinstance(node, COMPREHENSIONS):
        targets: set[str] = set()
        clause: cst.CompFor | None = node.for_in
        while clause is not None:
            targets |= _names(clause.target)
            clause = clause.inner_for_in
    elif isinstance(node, cst.For):
        targets = _names(node.target)
    else:
        return False
    read = (_names(aligned.value) if aligned is not None else
            {name for arg in call.args[1:] for name in _names(arg.value)})
    return bool(read & targets)


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            attribute.value.visit(self)  # `jnp.arange` reads `jnp`, not `arange`
            return False

    node.visit(Names())
    return found
