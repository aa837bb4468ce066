"""A comprehension drawing every item from one key, with nothing else changing between items.

`[permutation(key, a) for a in arrays]` permutes several arrays alike on purpose (the samplers
in `ALIGNING`: one order for inputs and labels). But `[permutation(key, jnp.arange(784)) for _ in
range(n_tasks)]` reads nothing the comprehension binds: every item is the same permutation, not
arrays kept aligned (rebayes 154023f: every permuted-MNIST task got the same pixel order; run
with jax 0.10.2, the four permutations were identical)."""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from optlint.analysis.key_syntax import enclosing_comprehension


def same_item_each_time(call: cst.Call, key: cst.BaseExpression,
                        parents: Mapping[int, cst.CSTNode]) -> bool:
    """`call` builds the items of a comprehension, and none of its arguments but `key` reads a
    name the comprehension binds."""
    found = enclosing_comprehension(call, parents)
    if found is None:
        return False
    comprehension = found[0]
    bound: set[str] = set()
    loop: cst.CompFor | None = comprehension.for_in
    while loop is not None:
        bound |= _names(loop.target)
        loop = loop.inner_for_in
    return not any(_names(arg.value) & bound for arg in call.args if arg.value is not key)


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
