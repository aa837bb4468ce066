"""A loop over a mapping's own keys that reuses a key's name (MultiNet e170d5c, PR #895):
`for key in batch: batch[key] = batch[key][:n]` binds `key` to the entries' names of `batch`,
never to a PRNG key (a JAX key is unhashable: no mapping is indexed by one). Such a loop does
not give the PRNG key of that name a new value: on the paths where it runs, what follows reads
a name, not a key (drawing from it fails); on the others the old key is still there. So the
key flow walks on with the old key, and a draw after the loop that an earlier iteration of an
enclosing loop made from it is a reuse, as the fix shows (it split the key and renamed the loop
variable)."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.walk import child_nodes


def iterates_own_keys(loop: cst.For) -> bool:
    """`for name in mapping:` whose body reads `name` only to index `mapping` itself
    (`mapping[name]`), and never binds `name` or `mapping` anew."""
    target, mapping = loop.target, loop.iter
    if type(target) is not cst.Name or type(mapping) is not cst.Name:
        return False
    name, holder = target.value, mapping.value  # type: ignore[attr-defined]
    indexed = 0
    pending: list[cst.CSTNode] = [loop.body]
    while pending:
        node = pending.pop()
        if type(node) is cst.Subscript and _indexes(node, holder, name):  # type: ignore[arg-type]
            indexed += 1
            continue
        if type(node) is cst.Name and node.value in (name, holder):  # type: ignore[attr-defined]
            return False  # read (or bound) otherwise: what it holds is not told
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return False
        pending.extend(child_nodes(node))
    return indexed > 0


def _indexes(node: cst.Subscript, holder: str, name: str) -> bool:
    """`holder[name]`."""
    if type(node.value) is not cst.Name or node.value.value != holder:  # type: ignore[attr-defined]
        return False
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return False
    index = node.slice[0].slice.value  # type: ignore[attr-defined]
    return type(index) is cst.Name and index.value == name
