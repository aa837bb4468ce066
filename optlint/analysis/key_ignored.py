"""Arguments handed to a parameter the called function never reads (`act(obs, rng)` where `def
act(obs, rng)` reads only `obs`): what such an argument holds reaches no result through the call,
so a draw read only that way is no read (`IgnoredArguments`).

The called function is found only where the project's own files prove it: a `def` of the file
or of another project file (through imports and re-exports), a method of a project class (on an
instance made by the class, or by a classmethod returning `cls(...)`), the function a method or
function returns (`act = agent.make_act(state)` returning its nested `def act`), the `__init__`
of a project class built (`Norm(dim, rngs=rngs)`, `constructor`), each name bound once, and any
transformation around it one that passes its arguments on unchanged (`jax.vmap`, `jax.jit`,
`partial(jax.vmap, in_axes=...)` as a decorator). A parameter read only as such an
argument of another call is ignored too (a few calls deep). Anything else is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_objects import PLAIN_CONSTRUCTION
from optlint.analysis.key_partials import bound_partial
from optlint.analysis.project_values import (
    ProjectClass,
    ProjectFile,
    ProjectFunction,
    ProjectInstance,
    ProjectValues,
    names_in,
    passing,
    plain_decorators,
)
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    pass

# How many calls deep a parameter is followed.
_DEPTH = 3
# Calls through which a function may read any local of its frame.
_FRAME_READERS = frozenset({"locals", "vars", "eval", "exec", "breakpoint", "currentframe",
                            "_getframe", "set_trace"})
class IgnoredArguments:
    """Whether a statement of one file reads a name only as arguments its callees ignore."""

    def __init__(self, values: ProjectValues) -> None:
        self._values = values
        self._ignored: dict[tuple[int, int], bool] = {}  # (call, argument) -> ignored

    def only_ignored(self, node: cst.CSTNode, name: str) -> bool:
        """Every read of `name` in `node` is an argument that its callee ignores."""
        return self._only_ignored(node, name, self._values.here, 0)

    def _only_ignored(self, node: cst.CSTNode, name: str, file: ProjectFile, depth: int) -> bool:
        reads = list(_reads_of(node, name))
        arguments = [read for read in reads if read is not None]
        # A read that is no argument first: resolving a callee may parse another file.
        if not reads or len(arguments) < len(reads):
            return False
        return all(self._argument_ignored(call, arg, file, depth) for call, arg in arguments)

    def _argument_ignored(self, call: cst.Call, arg: cst.Arg, file: ProjectFile, depth: int) -> bool:
        key = (id(call), id(arg))
        known = self._ignored.get(key)
        if known is None:
            self._ignored[key] = False  # a call reached again while asked: read
            known = self._ignored[key] = self._ignores(call, arg, file, depth)
        return known

    def _ignores(self, call: cst.Call, arg: cst.Arg, file: ProjectFile, depth: int) -> bool:
        if depth >= _DEPTH or arg.star:
            return False
        func = call.func
        site = file.sites.get(id(call))
        if site is None:
            return False
        # `jax.vmap(f, ...)(x, key)`: the transformed function gets the arguments as given.
        while isinstance(func, cst.Call) and passing(func.func, file):
            first = func.args[0] if func.args and func.args[0].keyword is None else None
            if first is None or first.star:
                return False
            func = first.value
        # `partial(f, model, policy=p)(key, x)`: `f` gets the bound arguments first.
        func, bound, keywords = bound_partial(func, site.scope, file)
        if arg.keyword is not None and arg.keyword.value in keywords:
            return False  # given again: the call's value replaces the bound one
        function = self._values.value(func, site.scope, site.order, file)
        if isinstance(function, ProjectClass):
            function = constructor(self._values, function)
        elif isinstance(function, ProjectInstance):
            # `model(x, key=k)`: its class's `__call__` gets the arguments.
            function = self._values.method(function, "__call__")
        if not isinstance(function, ProjectFunction) or not plain_decorators(function):
            return False
        param = _parameter(function, call, arg, bound)
        if param is None:
            return False
        body = function.node.body
        if any(_frame_reader(node) for node in names_in(body)):
            return False
        reads = list(_reads_of(body, param))
        return not reads or self._only_ignored(body, param, function.file, depth + 1)

    # resolving ------------------------------------------------------------------------------


def constructor(values: ProjectValues, cls: ProjectClass) -> ProjectFunction | None:
    """The `__init__` building an instance of `cls` gets: one the class itself defines, when
    nothing else sees the call's arguments (no class decorator, metaclass or `__new__` of a
    project class in its order, and only bases of the project or of `PLAIN_CONSTRUCTION`)."""
    node = cls.info.node
    own = [item for item in node.body.body
           if isinstance(item, cst.FunctionDef) and item.name.value == "__init__"]
    order = values.order(cls.info, cls.file)
    if len(own) != 1 or node.decorators or order is None:
        return None
    for info, file in order:
        if info is None:
            if file not in PLAIN_CONSTRUCTION:
                return None
        elif info.node.keywords or info.node.decorators or any(
                isinstance(item, cst.FunctionDef) and item.name.value == "__new__"
                for item in info.node.body.body):
            return None
    return ProjectFunction(own[0], cls.file, 1)


def _parameter(function: ProjectFunction, call: cst.Call, arg: cst.Arg,
               bound: int = 0) -> str | None:
    """The parameter `arg` of `call` binds, after `bound` positional arguments a `partial`
    gave (None: a `*args`/`**kwargs` or unclear)."""
    params = function.node.params
    if arg.keyword is not None:
        named = [p for p in (*params.params, *params.kwonly_params)
                 if p.name.value == arg.keyword.value]
        return named[0].name.value if named else None
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in positional[:positional.index(arg) + 1]):
        return None
    place = positional.index(arg) + function.skipped + bound
    ordered = [*params.posonly_params, *params.params]
    return ordered[place].name.value if place < len(ordered) else None


def _frame_reader(name: cst.Name) -> bool:
    return name.value in _FRAME_READERS


def _reads_of(node: cst.CSTNode, name: str) -> Iterator[tuple[cst.Call, cst.Arg] | None]:
    """Each place `node` mentions `name`: as a call's argument or an item of one (the call, the
    argument), or otherwise (None). An attribute's name and a keyword's are no mention."""
    pending: list[tuple[cst.CSTNode, tuple[cst.Call, cst.Arg] | None]] = [(node, None)]
    while pending:
        current, given = pending.pop()
        if isinstance(current, cst.Name):
            if current.value == name:
                yield given
            continue
        if isinstance(current, cst.Attribute):
            pending.append((current.value, None))
        elif isinstance(current, cst.Call):
            pending.append((current.func, None))
            pending.extend((arg.value, (current, arg)) for arg in current.args)
        elif isinstance(current, (cst.Tuple, cst.List)) and given is not None:
            # `f((a, b))`: an item of an argument is given with it.
            pending.extend((element.value, given) for element in current.elements)
        elif isinstance(current, cst.Del):
            # `del key` unbinds the name without reading it (`del x[key]` reads `key`).
            pending.extend((target, None) for target in _deleted_parts(current.target))
        else:
            pending.extend((child, None) for child in child_nodes(current))


def _deleted_parts(target: cst.BaseDelTargetExpression) -> Iterator[cst.CSTNode]:
    """What a `del` statement's target reads: nothing of a plain name it deletes, the whole of
    an item or attribute it deletes (`del cache[key]` reads `cache` and `key`)."""
    if isinstance(target, cst.Name):
        return
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _deleted_parts(element.value)  # type: ignore[arg-type]
        return
    yield target
