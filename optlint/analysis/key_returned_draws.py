"""Which parts of a project function's result its draws reach (`DrawnReturns`).

`evaluator, (params, eval_keys) = setup(env, key, params)`, where `setup` splits `key` and
returns the split keys as `eval_keys` only: the call's draw reaches the caller through
`eval_keys` alone. When nothing reads `eval_keys` before it is bound anew, the draw reaches no
result, whatever the caller does with `evaluator` and `params` (`key_reads.py` asks).

The callee is read for where its draws go: the names bound from a draw (a call its summary
records as a consumption) or from a key parameter it consumes, then the names bound from those,
up to its `return` statements. A draw that may reach anything else (a statement kept for its
effect, an attribute or item stored, a branch's or a loop's test, a nested function, a `yield`)
or a result the call does not return as written (a class built, a function under a
transformation: `grad` returns no part of what the function returns) leaves the question
open: every name the call's result is bound to counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import libcst as cst

from optlint.analysis.key_locals import function_locals
from optlint.analysis.key_overrides import only_raises
from optlint.analysis.key_syntax import body_of, parameter_names, plain_target, target_names
from optlint.analysis.walk import child_nodes

Path = tuple[int, ...]  # an item of a returned value: `(2, 1)` is `value[2][1]`

class _Open(Exception):
    """A draw may reach something other than the returned value."""


class DrawnReturns:
    """Per call of a project function: the names of its result's targets a draw reaches.
    `resolve` says what a call runs (`CallTargets.resolve`), `summary` its walk (`KeyFlow`),
    `library` what a library's consumer the call is consumes (a call of JAX's own `normal`
    in its `random.py` is the sampler, not the function written there), `differentiated`
    whether it runs the function under `grad` (`CallTargets.differentiated`)."""

    def __init__(self, resolve: Callable[[cst.Call], object],
                 summary: Callable[[cst.FunctionDef], object],
                 library: Callable[[cst.Call], list],
                 differentiated: Callable[[cst.Call], bool]) -> None:
        self._resolve = resolve
        self._differentiated = differentiated
        self._summary = summary
        self._library = library
        self._paths: dict[int, frozenset[Path] | None] = {}  # by function

    def reached(self, call: cst.Call,
                targets: Sequence[cst.BaseExpression]) -> frozenset[str] | None:
        """The names of `targets` (those of `targets = call`) that the values the call's draws
        give may reach; None: any of them."""
        paths = self._drawn_paths(call)
        if paths is None:
            return None
        named: set[str] = set()
        for target in targets:
            for name, path in _named_paths(target, ()):
                if name is None:  # a starred target: its items' positions are not known
                    return None
                if any(drawn[:len(path)] == path or path[:len(drawn)] == drawn
                       for drawn in paths):
                    named.add(name)
        return frozenset(named)

    def only_returned(self, call: cst.Call) -> bool:
        """The call's draws reach nothing but what it returns: a call made as a statement,
        its result thrown away, keeps none of them (`warm_up(key)` of a project function
        that draws and returns, as a `jax.random` sampler as a statement does)."""
        return self._drawn_paths(call) is not None

    def _drawn_paths(self, call: cst.Call) -> frozenset[Path] | None:
        resolved = self._resolve(call)
        if not isinstance(resolved, tuple) or self._library(call):
            return None
        function, _bound, stepping = resolved
        # A class built returns the object, not what `__init__` returns; a function under
        # `grad` returns no part of what it returns: neither is read. A compiled one
        # (`@jax.jit`, `jax.checkpoint`) returns what its body returns, and keeps nothing
        # else of a draw (evojax's notebook: `run_sim(key, x, ws, mem);` as a warm-up). An
        # abstract method is not read either: an override's body runs, not this one.
        if (stepping and self._differentiated(call)) or not isinstance(
                function, cst.FunctionDef) or function.name.value == "__init__" \
                or only_raises(function):
            return None
        if id(function) not in self._paths:
            self._paths[id(function)] = None  # a recursive call: not known
            flow = self._summary(function)
            if flow is not None:
                sources = frozenset(getattr(flow, "consumed_params", ()))
                draws = frozenset(id(use.call) for use in getattr(flow, "every", ()))
                self._paths[id(function)] = drawn_paths(function, sources, draws)
        return self._paths[id(function)]


def drawn_paths(function: cst.FunctionDef, sources: frozenset[str],
                draws: frozenset[int]) -> frozenset[Path] | None:
    """The items of `function`'s returned value that a call of `draws` (by id) or a name of
    `sources` may reach through the names bound from them (`()`: the whole value); None: they
    may reach something else, or the function returns in a way not read here."""
    if function.asynchronous is not None:
        return None
    steps = list(_steps(body_of(function)))
    tainted = set(sources)
    try:
        params = parameter_names(function.params)
        local = {name for node, _ in steps for name in _binds(node)} | params
        while True:
            before = len(tainted)
            for node, parts in steps:
                # A nested function's own names are not the ones tainted around it (the
                # `key` a `scan` body unpacks from its carry).
                seen = tainted - function_locals(node) if isinstance(
                    node, cst.FunctionDef) else tainted
                if any(_touches(part, seen, draws, local, params) for part in parts):
                    tainted.update(_bound_by(node))
            if len(tainted) == before:
                break
        paths: set[Path] = set()
        for node, _ in steps:
            if isinstance(node, cst.Return) and node.value is not None and _touches(
                    node.value, tainted, draws, local, params):
                paths.update(_value_paths(node.value, tainted, draws, local, params, ()))
    except _Open:
        return None
    return frozenset(paths)


def _steps(block: Sequence[cst.BaseStatement]
           ) -> Iterator[tuple[cst.CSTNode, Sequence[cst.CSTNode]]]:
    """Each small statement of a body with what it reads (itself), and each compound
    statement with its header, into every branch and loop; a nested function or class as a
    whole (what it reads, it reads later)."""
    for statement in block:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from ((small, (small,)) for small in statement.body)
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            yield statement, (statement,)
        elif isinstance(statement, cst.BaseCompoundStatement):
            yield statement, _header(statement)
            yield from _steps(_suites_of(statement))


def _suites_of(statement: cst.CSTNode) -> list[cst.BaseStatement]:
    found: list[cst.BaseStatement] = []
    for child in child_nodes(statement):
        if isinstance(child, cst.IndentedBlock):
            found.extend(child.body)
        elif isinstance(child, cst.SimpleStatementSuite):
            found.append(cst.SimpleStatementLine(body=child.body))
        elif isinstance(child, (cst.Else, cst.If, cst.ExceptHandler, cst.Finally, cst.MatchCase,
                                cst.ExceptStarHandler)):
            found.extend(_suites_of(child))
    return found


def _header(statement: cst.BaseCompoundStatement) -> Sequence[cst.CSTNode]:
    """What a compound statement reads to decide what runs (`try` reads nothing)."""
    if isinstance(statement, (cst.If, cst.While)):
        return (statement.test,)
    if isinstance(statement, cst.For):
        return (statement.target, statement.iter)
    if isinstance(statement, cst.With):
        return tuple(statement.items)
    if isinstance(statement, cst.Match):
        return (statement.subject, *(case.guard for case in statement.cases
                                     if case.guard is not None))
    return ()




def _binds(node: cst.CSTNode) -> set[str]:
    if isinstance(node, cst.Assign):
        return {name for target in node.targets for name in target_names(target.target)}
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        return set(target_names(node.target))
    if isinstance(node, cst.For):
        return set(target_names(node.target))
    if isinstance(node, cst.With):
        return {name for item in node.items if item.asname is not None
                for name in target_names(item.asname.name)}
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return {node.name.value}
    if isinstance(node, (cst.Global, cst.Nonlocal)):
        raise _Open  # names of another scope: what is bound there outlives the call
    return set()


def _touches(node: cst.CSTNode, tainted: set[str], draws: frozenset[int],
             local: set[str], params: set[str]) -> bool:
    """`node` reads a tainted name or makes a draw: a call of `draws`, or of a callable or
    object the function is given (`fn()`, `obj.sample()`: what it runs may draw). `_Open`
    where it hands a draw to a callable the function holds (`self.store(k)`, `buffer.add(k)`,
    `callback(k)`), which may keep it, or yields."""
    found = False
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Name):
            found = found or current.value in tainted
        elif isinstance(current, cst.Call):
            root = _root(current.func)
            if root in local - tainted and any(
                    _touches(arg.value, tainted, draws, local, params) for arg in current.args):
                raise _Open
            found = found or id(current) in draws or root in params
            pending.append(current.func)
            pending.extend(arg.value for arg in current.args)  # not `keyword=`: a name
        elif isinstance(current, cst.Attribute):
            pending.append(current.value)  # not `.attr`, a field's name
        elif isinstance(current, (cst.Yield, cst.Await)):
            raise _Open
        else:
            pending.extend(child_nodes(current))
    return found


def _root(func: cst.BaseExpression) -> str | None:
    """The name a called expression starts from (`buffer` of `buffer.add`)."""
    while isinstance(func, (cst.Attribute, cst.Call, cst.Subscript)):
        func = func.func if isinstance(func, cst.Call) else func.value
    return func.value if isinstance(func, cst.Name) else None


def _bound_by(node: cst.CSTNode) -> set[str]:
    """The plain names a statement that reads a draw binds with it (`:=` names included);
    `_Open` for any other statement."""
    walrus = {name for found in _walrus_targets(node) for name in target_names(found)}
    if isinstance(node, cst.Assign) and all(plain_target(t.target) for t in node.targets):
        return {name for t in node.targets for name in target_names(t.target)} | walrus
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)) and isinstance(node.target, cst.Name):
        return {node.target.value} | walrus
    if isinstance(node, cst.Return):
        return walrus
    raise _Open


def _walrus_targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    found = []
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.NamedExpr):
            found.append(current.target)
        pending.extend(child_nodes(current))
    return found


def _value_paths(value: cst.BaseExpression, tainted: set[str], draws: frozenset[int],
                 local: set[str], params: set[str], at: Path) -> Iterator[Path]:
    """The items of a returned expression that read a draw: a tuple's items one by one."""
    if isinstance(value, cst.Tuple) and not any(
            isinstance(element, cst.StarredElement) for element in value.elements):
        for position, element in enumerate(value.elements):
            if _touches(element.value, tainted, draws, local, params):
                yield from _value_paths(element.value, tainted, draws, local, params,
                                        (*at, position))
    else:
        yield at


def _named_paths(target: cst.BaseExpression, at: Path) -> Iterator[tuple[str | None, Path]]:
    """Each name an assignment target binds, with the item of the value it is bound to
    (None for a starred target's name)."""
    if isinstance(target, cst.Name):
        yield target.value, at
    elif isinstance(target, (cst.Tuple, cst.List)):
        for position, element in enumerate(target.elements):
            if isinstance(element, cst.StarredElement):
                yield None, at
            else:
                yield from _named_paths(element.value, (*at, position))
