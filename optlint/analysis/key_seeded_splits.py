"""What a callee does with the key it makes from a seed: `generate_dataset(key=0)` doing
`key = PRNGKey(key); k0, k1, k2 = split(key, 3)` only splits it, so its call is a split of the
seed's key, as `split(PRNGKey(0), 3)` written in place would be. Two keys made from one seed are
two objects to JAX's checker, and a split of one with a draw from the other gives correlated
values, never identical ones (`key_messages.py` then says so and moves the finding to
`--preview`, as for the same pair written in place).

A split only when every read of the made key after it is made is the key of one of the
callee's splits; a read of any other kind (a draw, an alias, a return, a closure), or a name
not bound once to the seeding call, leaves the call a draw."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import libcst as cst

from optlint.analysis.prng_keys import Consumption
from optlint.analysis.walk import child_nodes


def seeded_kind(function: cst.FunctionDef, seeding: cst.Call, uses: Iterable[Consumption]) -> str:
    """`"split"` when `function` binds the key `seeding` makes to a name and reads that name
    only as the key of its splits (`uses`: its summary's consumptions); `"draw"` otherwise."""
    made = _made_name(function, seeding)
    if made is None:
        return "draw"
    name, statement = made
    split_keys = {id(use.key) for use in uses if use.kind == "split"}
    reads = list(_reads_after(function.body, statement, name))
    return "split" if reads and all(id(read) in split_keys for read in reads) else "draw"


def _made_name(function: cst.FunctionDef, seeding: cst.Call) -> tuple[str, cst.Assign] | None:
    """The name `name = <seeding>` binds, and that statement."""
    for node in _walk(function.body):
        if isinstance(node, cst.Assign) and node.value is seeding and len(node.targets) == 1:
            target = node.targets[0].target
            if isinstance(target, cst.Name):
                return target.value, node
            return None
    return None


def _reads_after(body: cst.CSTNode, statement: cst.Assign, name: str) -> Iterator[cst.Name]:
    """Each mention of `name` after `statement` in source order, but the plain names that
    assignments bind (`key, sub = split(key)` mentions `key` once: in the split)."""
    own = {id(node) for node in _walk(statement)}  # the seed it reads is no read of the key
    passed = False
    for node in _walk(body, skip_bound=True):
        if node is statement:
            passed = True
        elif passed and id(node) not in own and isinstance(node, cst.Name) and (
                node.value == name):
            yield node


def _walk(node: cst.CSTNode, skip_bound: bool = False) -> Iterator[cst.CSTNode]:
    """The nodes under `node` in source order; with `skip_bound`, without the names an
    assignment's or loop's target binds (an attribute or item target is walked)."""
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        yield current
        children = list(child_nodes(current))
        if skip_bound:
            bound = _bound_targets(current)
            children = [child for child in children if id(child) not in bound]
        pending.extend(reversed(children))


def _bound_targets(node: cst.CSTNode) -> set[int]:
    targets: list[cst.CSTNode] = []
    if isinstance(node, cst.Assign):
        targets = [target for target in node.targets]
    elif isinstance(node, (cst.AnnAssign, cst.For, cst.CompFor)):  # `+=` reads its target
        targets = [node.target]
    skipped: set[int] = set()
    for target in targets:
        inner = target.target if isinstance(target, cst.AssignTarget) else target
        if _plain(inner):
            skipped.add(id(target))
    return skipped


def _plain(target: cst.CSTNode) -> bool:
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_plain(element.value) for element in target.elements)
    return isinstance(target, cst.StarredElement) and _plain(target.value)
