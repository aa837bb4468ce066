"""Lambdas that read a loop's key when they are called, not when they are made.

`[lambda h: block(h, key=k) for block, k in zip(blocks, keys)]` makes one lambda per item, but a
lambda reads the names it closes over when it runs (Python binds closures late): called after the
comprehension has ended, every one of them sees the last item, and all draw from the last key
(levanter 5fdf6fc: gradient-checkpointed stages). The same holds for lambdas a `for` loop
appends to a list. `lambda h, k=k: ...` and `functools.partial(block, key=k)` bind the key when
they are made, so each keeps its own.

Only lambdas kept as made count: the element itself, an item of a tuple, list or dict it builds,
or the argument of `append`. A lambda called where it is made (`(lambda: f(k))()`) or handed to
a call in the element (`jax.checkpoint(lambda h: f(h, k))(x)`) may run inside the iteration; a
generator expression hands each lambda out before the next item is bound.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.key_syntax import comprehension_names, parameter_names, target_names
from optlint.analysis.walk import child_nodes

# What repeats the draw, as a `Consumption.over` (`key_messages` words the finding from it).
LATE_BOUND = "late-bound lambdas"

BUILDING_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp)


def kept_lambdas_of_comprehension(node: cst.ListComp | cst.SetComp | cst.DictComp
                                  ) -> Iterator[tuple[cst.Lambda, frozenset[str]]]:
    """The lambdas the comprehension keeps in what it builds, each with the comprehension's
    names it reads free (none: left out)."""
    names = comprehension_names(node)
    built = (node.key, node.value) if isinstance(node, cst.DictComp) else (node.elt,)
    for element in built:
        for function in _kept(element):
            free = _free_names(function) & names
            if free:
                yield function, frozenset(free)


def kept_lambdas_of_loop(node: cst.For) -> Iterator[tuple[cst.Lambda, frozenset[str]]]:
    """The lambdas a `for` loop's body appends to a list (`stages.append(lambda h: ...)`),
    each with the loop's names it reads free (none: left out)."""
    names = set(target_names(node.target))
    for call in _appends(node.body):
        for function in _kept(call.args[0].value):
            free = _free_names(function) & names
            if free:
                yield function, frozenset(free)


def _kept(element: cst.BaseExpression) -> Iterator[cst.Lambda]:
    if isinstance(element, cst.Lambda):
        yield element
    elif isinstance(element, (cst.Tuple, cst.List)):
        for item in element.elements:
            yield from _kept(item.value)
    elif isinstance(element, cst.Dict):
        for entry in element.elements:
            if isinstance(entry, cst.DictElement):
                yield from _kept(entry.value)


def _appends(body: cst.CSTNode) -> Iterator[cst.Call]:
    """The `x.append(item)` calls of a loop body, not of functions or classes defined in it."""
    pending = list(child_nodes(body))
    while pending:
        node = pending.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value == "append" and len(node.args) == 1
                and node.args[0].keyword is None and not node.args[0].star):
            yield node
        pending.extend(child_nodes(node))


def _free_names(function: cst.Lambda) -> set[str]:
    """The names a lambda's body reads that its parameters (and nested lambdas') do not bind."""
    params = parameter_names(function.params)
    read: set[str] = set()
    pending: list[cst.CSTNode] = [function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.Name):
            read.add(node.value)
        elif isinstance(node, cst.Lambda):
            read |= _free_names(node)
            continue
        elif isinstance(node, cst.Attribute):
            pending.append(node.value)  # `x.key`: `key` is no name read
            continue
        elif isinstance(node, cst.Arg):
            pending.append(node.value)  # `f(key=k)`: the keyword is no name read
            continue
        pending.extend(child_nodes(node))
    return read - params


