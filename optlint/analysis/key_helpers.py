"""Which functions of a file consume a key, directly or through one another: a cheap gate, so
that only calls by these names are resolved and summarised (`FileKeyCalls.helpers`).

A function reaches another by the name it calls (`f(...)`, `jax.grad(f)`), except through a
method call given no key (`tree.draw()`): that reaches a consuming `draw` only where the call
runs a function of the project (`runs`, the call targets' own answer), since a method of the
file called on what the analysis cannot name runs nothing it follows. Reached by name alone,
1765 of 4742 summaries of the package benchmark recorded no consumption (stop 43)."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.key_call_targets import passes_key

from optlint.analysis.key_model_loops import LOOP_BODIES
from optlint.analysis.key_model_streams import STREAM_DRAWS
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_syntax import enclosing_def, param_owner
from optlint.analysis.key_transforms import aliased_qualify
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

# The last names of the `jax.lax` loops (a cheap gate before qualifying a call).
_LOOP_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in LOOP_BODIES)


@record(frozen=False)
class KeyHelpers:
    consuming: Container[str]  # functions that consume a key
    drawing: set[str]  # functions drawing from an rng stream (`hk.next_rng_key()`)
    higher_order: set[str]  # functions calling a function they are given


def key_helpers(ctx: RuleContext, candidates: set[int],
                runs: Callable[[CallSite], bool] | None = None,
                later: Callable[[Callable[[CallSite], bool]], list[CallSite]] | None = None,
                on_demand: Callable[[Callable[[CallSite], bool]], list[CallSite]] | None = None
                ) -> KeyHelpers:
    """Names of the file's functions that consume a key, directly or through one another
    (a cheap gate: only calls by these names are resolved and summarised); `runs` tells
    whether a method call given no key runs a project function (None: every one may);
    `later` gives the candidates still to be found, told which calls are in a function that
    `candidates` already reach by name (`key_candidates.candidates_and_helpers`); with
    `on_demand` instead, they are asked only of the functions a name asked about reaches
    (`HelpersOnDemand`)."""
    calls_in: dict[str, set[str]] = {
        info.node.name.value: set() for info in ctx.index.functions.values()
        if isinstance(info.node, cst.FunctionDef)}
    # By the method's name, by the function calling it: `x.method(...)` calls given no key.
    method_calls: dict[str, dict[str, list[CallSite]]] = {}
    consuming: set[str] = set()
    drawing: set[str] = set()
    higher_order: set[str] = set()
    # Functions running a `jax.lax` loop (by name first: a cheap gate).
    looping: set[str | None] = set()
    # (the function a call is in, the function given it whose parameter it calls)
    given_calls: list[tuple[str, str]] = []
    # This loop is asked of every call of every file: what is the same for many calls is
    # worked out once (the function a scope is in, whose parameter a name is), the calls of
    # the rng stream are the file's call groups', and node types are compared exactly (libcst's
    # `Name`, `Attribute` and `FunctionDef` have no subclasses; `isinstance` on them costs a
    # Python-level call each).
    in_function: dict[int, str | None] = {}  # by scope: `enclosing_def`
    params: dict[tuple[int, str], str | None] = {}  # by (scope, name): `param_owner`
    stream_draws = {id(site.node) for site in ctx.calls_where(named=STREAM_DRAWS.__contains__)}
    for site in ctx.calls():
        call = site.node
        func = call.func
        in_scope = id(site.scope)
        if in_scope in in_function:
            function = in_function[in_scope]
        else:
            function = in_function[in_scope] = enclosing_def(site)
        plain: cst.Name | None = func if type(func) is cst.Name else None
        method = type(func) is cst.Attribute
        last = plain.value if plain is not None else last_name(func)
        if last in _LOOP_NAMES and aliased_qualify(ctx, func, site) in LOOP_BODIES:
            looping.add(function)
        if function is None:
            continue
        if id(call) in candidates:
            consuming.add(function)
        if id(call) in stream_draws:
            drawing.add(function)
        if plain is not None:
            if (in_scope, plain.value) in params:
                given_to = params[in_scope, plain.value]
            else:
                given_to = params[in_scope, plain.value] = param_owner(site.scope, plain)
            if given_to is not None:
                given_calls.append((function, given_to))
        called = calls_in.setdefault(function, set())
        if runs is not None and last is not None and method and not passes_key(call):
            method_calls.setdefault(last, {}).setdefault(function, []).append(site)
        elif last is not None:
            called.add(last)
        # A helper handed to a transformation or loop (`jax.grad(loss)`, `scan(body, ...)`).
        for arg in call.args:
            if type(arg.value) is cst.Name:
                called.add(arg.value.value)
    for function, given_to in given_calls:
        if given_to == function or given_to in looping:
            # Calls a function it is given, itself or in a function nested in it that a
            # loop it runs steps (`scan(lambda c, x: f(x, c), ...)`).
            higher_order.add(given_to)
    # The functions each function defines (`make_dropout` defines `apply`).
    defines: dict[str, set[str]] = {}
    for info in ctx.index.functions.values():
        parent = info.scope.parent
        if (isinstance(info.node, cst.FunctionDef) and parent is not None
                and isinstance(parent.node, cst.FunctionDef)):
            defines.setdefault(parent.node.name.value, set()).add(info.node.name.value)
    # Names bound to a transformed helper (`grad_fn = eqx.filter_value_and_grad(loss)`), and
    # names bound to what a function returns (`drop = make_dropout(0.5)`): a factory's closure.
    wrapping: list[tuple[str, set[str]]] = []
    made: list[tuple[str, str]] = []
    for scope in ctx.index.every_scope:
        for name, bindings in scope.bindings.items():
            for binding in bindings:
                value = binding.value
                if type(value) is not cst.Call:
                    continue
                if not binding.path:
                    wrapping.append((name, _wrapped_names(value)))
                factory = last_name(value.func)  # type: ignore[attr-defined]
                if factory in defines:
                    made.append((name, factory))  # type: ignore[arg-type]
    # A class built runs its constructor: `Env(seed)` consumes what its `__init__` does.
    wrapping += [(info.name, {item.name.value}) for info in ctx.index.classes.values()
                 for item in info.node.body.body if isinstance(item, cst.FunctionDef)
                 and item.name.value in ("__init__", "__post_init__")]
    # A transformation of a factory's closure (`train = jax.jit(jax.vmap(make_train(c)))`).
    made += [(name, factory) for name, wrapped in wrapping for factory in wrapped
             if factory in defines]
    # A name is found when one it reaches is: a function calling it, a factory defining it, a
    # name bound to it transformed. Followed from each found name to the names reaching it
    # (once each: a file of many functions, each calling the next, is no longer quadratic).
    reached_by: dict[str, list[str]] = {}
    for name, factory in made:
        for defined in defines[factory]:
            reached_by.setdefault(defined, []).append(name)
    for function, called in calls_in.items():
        for name in called:
            reached_by.setdefault(name, []).append(function)
    for name, wrapped in wrapping:
        for inner in wrapped:
            reached_by.setdefault(inner, []).append(name)
    if later is not None:
        # (by name alone: what a method call reaches waits for `runs`, asked below)
        named = _callers_closure(consuming, reached_by)
        for site in later(lambda site: in_function.get(id(site.scope)) in named):
            function = in_function.get(id(site.scope))
            if function is not None:
                consuming.add(function)
    for found in (consuming, drawing):
        _close(found, list(found), reached_by, method_calls, None if found is drawing else runs,
               stream=found is drawing)
    if on_demand is not None:
        return KeyHelpers(HelpersOnDemand(consuming, reached_by, method_calls, runs, on_demand,
                                          lambda site: in_function.get(id(site.scope))),
                          drawing, higher_order)
    return KeyHelpers(consuming, drawing, higher_order)


def _close(found: set[str], pending: list[str], reached_by: dict[str, list[str]],
           method_calls: dict[str, dict[str, list[CallSite]]],
           runs: Callable[[CallSite], bool] | None, stream: bool = False) -> None:
    """Adds to `found` every name reaching one of `pending` (found already): by name, or by a
    method call given no key that `runs` a project function."""
    while pending:
        reached = pending.pop()
        callers = [*reached_by.get(reached, ()), *(
            function for function, sites in method_calls.get(reached, {}).items()
            # (what draws from an rng stream needs no key to reach it)
            if stream or runs is None or function in found
            or any(runs(site) for site in sites))]
        for name in callers:
            if name not in found:
                found.add(name)
                pending.append(name)


class HelpersOnDemand:
    """The functions of a file consuming a key, for a flow made for another file's lookups,
    which asks about a few names (`name in helpers`): the dearest candidates (another file's
    method, `key_candidates.foreign_candidates`) are asked only of the functions a name asked
    about reaches, by name or by any method call, not of the whole file.

    The same answers as asking every call first: a name is a helper when a path of calls leads
    it to a candidate (by method calls only where `runs`), and every function on such a path
    is one the name reaches; a name found no helper so stays one (a candidate found later, for
    another name, is in no function this one reaches)."""

    def __init__(self, found: set[str], reached_by: dict[str, list[str]],
                 method_calls: dict[str, dict[str, list[CallSite]]],
                 runs: Callable[[CallSite], bool] | None,
                 ask: Callable[[Callable[[CallSite], bool]], list[CallSite]],
                 function_of: Callable[[CallSite], str | None]) -> None:
        self.found = found  # helpers through the candidates asked so far (closed)
        self._reached_by, self._method_calls, self._runs = reached_by, method_calls, runs
        self._ask, self._function_of = ask, function_of
        self._asked: set[str] = set()  # the functions whose calls were asked
        self._not: set[str] = set()  # names found no helper, for good
        self._reaches: dict[str, set[str]] | None = None  # what each name calls

    def __contains__(self, name: object) -> bool:
        if name in self.found:
            return True
        if not isinstance(name, str) or name in self._not:
            return False
        reached = self._reached(name)
        new = reached - self._asked
        self._asked |= new
        seeds = {function for site in self._ask(lambda site: self._function_of(site) in new)
                 if (function := self._function_of(site)) is not None} - self.found
        self.found |= seeds
        _close(self.found, list(seeds), self._reached_by, self._method_calls, self._runs)
        if name in self.found:
            return True
        self._not.add(name)
        return False

    def _reached(self, name: str) -> set[str]:
        """`name` and the names it reaches, by name or by any method call, short of helpers."""
        if self._reaches is None:
            self._reaches = {}
            for callee, callers in self._reached_by.items():
                for caller in callers:
                    self._reaches.setdefault(caller, set()).add(callee)
            for method, sites in self._method_calls.items():
                for caller in sites:
                    self._reaches.setdefault(caller, set()).add(method)
        reached = {name}
        pending = [name]
        while pending:
            for callee in self._reaches.get(pending.pop(), ()):
                if callee not in reached and callee not in self.found:
                    reached.add(callee)
                    pending.append(callee)
        return reached


def _callers_closure(found: set[str], reached_by: dict[str, list[str]]) -> set[str]:
    """`found` and every name reaching one of them by name (`reached_by`), as `key_helpers`
    follows them but for method calls."""
    closed = set(found)
    pending = list(found)
    while pending:
        for name in reached_by.get(pending.pop(), ()):
            if name not in closed:
                closed.add(name)
                pending.append(name)
    return closed


def _wrapped_names(call: cst.Call) -> set[str]:
    """The names a call is given (`jax.jit(step)`: `step`), also inside the transformations
    it is given and the factories they are given: `jax.jit(jax.vmap(make_train(c)))` gives
    `make_train`."""
    names: set[str] = set()
    pending = [call]
    while pending:
        current = pending.pop()
        for arg in current.args:
            if isinstance(arg.value, cst.Name):
                names.add(arg.value.value)
            elif isinstance(arg.value, cst.Attribute) and arg is current.args[0]:
                names.add(arg.value.attr.value)  # `jax.vmap(self._sample)`: a method
            elif isinstance(arg.value, cst.Call) and arg is current.args[0]:
                pending.append(arg.value)
                name = last_name(arg.value.func)
                if name is not None:
                    names.add(name)
    return names
