"""A factory a caller gives, known from the project's other files: `kernel =
kernel_generator(step_size)` then `kernel(rng_key, state)` in blackjax's module-level
`find_reasonable_step_size`, which no code of its own file calls and its tests call as
`functools.partial(find_reasonable_step_size, kernel_generator=kernel_generator)`, whose
`kernel_generator` returns `functools.partial(hmc.kernel(), ...)`: the `one_step` that
`hmc.kernel` returns splits its `rng_key`.

Proven only when every use of the function's name in the project is seen (a call or a
`functools.partial` of it; a mention in a docstring counts as a use unseen), every one gives
the factory, the factory is a `def` whose every return is a function or a `functools.partial`
of one (defined there, or returned by a module-level function of a project file), and each of
those draws from the argument the call gives it. Anything else leaves the call for `--preview`
(`key_made_callables.py`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument_for, bind_arguments
from optlint.analysis.comments import without_comments
from optlint.analysis.files_naming import files_naming
from optlint.analysis.index import LATER, FunctionInfo, Scope
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.analysis.values import FunctionValue, LibraryRef
from optlint.analysis.walk import child_nodes

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.analysis.index import CallSite
    from optlint.analysis.key_calls_view import KeyCallsView

_IMPORT_LINE = re.compile(r"^[ \t]*(from[ \t]+\S+[ \t]+)?import[ \t].*$", re.MULTILINE)
# How many files may name the function: past that, a caller is too common a name to follow.
_FILES = 8

# A function that calling a factory's result runs, with the keywords a partial fills, and the
# file whose evaluator reads it.
Made = tuple[cst.FunctionDef, frozenset[str], "Evaluator"]


class FactoriesElsewhere:
    """What a call of the callable a caller-given factory makes draws from, as the callers in
    the project's other files show it."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx

    def drawn(self, call: cst.Call, factory: cst.Name, made_at: CallSite) -> tuple[set[int], str]:
        """The ids of `call`'s arguments that every function the factory `factory` (a
        parameter of a module-level function of this file) makes draws from, and what shows
        it; empty when not proven."""
        function = _param_function(made_at.scope, factory.value)
        if function is None or not self._module_level(function):
            return set(), ""
        given = self._given_elsewhere(function, factory.value)
        if not given:
            return set(), ""
        drawn: set[int] | None = None
        for expr, site, owner in given:
            made = _made_by_factory(owner, expr, site)
            if not made:
                return set(), ""
            for node, filled, evaluator in made:
                found = self._drawn_by(node, filled, evaluator, call)
                drawn = found if drawn is None else drawn & found
        givers = sorted({Path(owner.path or "").name for _, _, owner in given})
        return drawn or set(), (f"every caller in the project ({', '.join(givers)}) gives "
                                f"`{factory.value}` a factory whose functions draw from the key")

    def _module_level(self, function: cst.FunctionDef) -> bool:
        info = self.ctx.index.functions.get(function)
        return info is not None and info.scope.parent is self.ctx.index.module_scope

    def _drawn_by(self, node: cst.FunctionDef, filled: frozenset[str], evaluator: Evaluator,
                  call: cst.Call) -> set[int]:
        owned = self.calls.foreign.owned(node, evaluator)
        flow = self.calls.summary(node) if owned else None
        if flow is None:
            return set()
        bound = bind_arguments(node, call, False)
        if any(param.name.value in filled for param, _ in bound):
            return set()  # the call gives what the partial fills: it raises
        return {id(expr) for param, expr in bound
                if param.name.value in flow.consumed_params
                and not flow.param_uses[param.name.value].unseen}

    def _given_elsewhere(self, function: cst.FunctionDef, param: str
                         ) -> list[tuple[cst.BaseExpression, CallSite, Evaluator]]:
        """What every use of `function` in the project gives `param` (with where, and the
        file's evaluator); empty when a use is not a call or a partial of it giving `param`,
        or the file of the function uses its name besides defining it."""
        project = self.ctx.inference.project
        path = self.ctx.inference.path
        name = function.name.value
        if project is None or path is None or _names_in(self.ctx.module, name) != 1:
            return []
        named = files_naming(project, function, path)
        if named is None:
            return []
        texts, naming = named
        if not naming or len(naming) > _FILES:
            return []
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        given: list[tuple[cst.BaseExpression, CallSite, Evaluator]] = []
        for file in naming:
            owner = project.evaluator_for(str(file))
            if owner is None:
                return []
            if not _may_reach(owner, texts[file], name):
                continue
            uses = 0
            for site in owner.index.calls:
                passed = _given_by(owner, site, function, name, param, project)
                if passed is None:
                    continue
                if not isinstance(passed, cst.BaseExpression):
                    return []
                given.append((passed, site, owner))
                uses += 1
            mentions = len(pattern.findall(_IMPORT_LINE.sub("", without_comments(
                texts[file]))))
            if mentions != uses:
                return []  # used other than in the calls read (or mentioned in a string)
        return given


def _may_reach(owner: Evaluator, text: str, name: str) -> bool:
    """A file can run the function only by a name its imports bind, by an
    attribute of its module (`step_size.find_reasonable_step_size`) or through a star import;
    a file naming it otherwise mentions it (a docstring) or defines a namesake."""
    return name in owner.index.imports.aliases or f".{name}" in text or "import *" in text


def _given_by(owner: Evaluator, site: CallSite, function: cst.FunctionDef, name: str,
              param: str, project: object) -> cst.BaseExpression | bool | None:
    """What `site` gives `param` when it calls `function` (by `name`) or makes a
    `functools.partial` of it; False when it runs the function without giving it; None when
    the call is not of it."""
    call = site.node
    target = call.func
    partial = owner.qualify(call.func) == FUNCTOOLS_PARTIAL
    if partial:
        if not call.args or call.args[0].keyword is not None:
            return None
        target = call.args[0].value
    if not (isinstance(target, cst.Name) and target.value == name) and not (
            isinstance(target, cst.Attribute) and target.attr.value == name):
        return None
    value = owner.value_of(target, site.scope, site.order)
    resolve = getattr(project, "resolve_function", None)
    found = (resolve(value.name, value.origin or owner.path, lambda: True)
             if isinstance(value, LibraryRef) and resolve is not None else None)
    if found is None or found[0].node is not function:
        return False
    if partial:
        # `partial(f, a, b=...)`: its arguments after the function, as a call of it gives them.
        call = call.with_changes(args=call.args[1:])
    passed = argument_for(call, function, param)
    return passed if passed is not None else False


def _made_by_factory(owner: Evaluator, expr: cst.BaseExpression, site: CallSite) -> list[Made]:
    """The functions calling what the factory `expr` returns runs: a `def` of `owner`'s file
    whose every return is a function, or a partial of one; empty when one cannot be told."""
    value = owner.value_of(expr, site.scope, site.order)
    if not isinstance(value, FunctionValue) or value.bound \
            or not isinstance(value.node, cst.FunctionDef):
        return []
    info = owner.index.functions.get(value.node)
    if info is None or not info.returns:
        return []
    made: list[Made] = []
    for returned in info.returns:
        filled: frozenset[str] = frozenset()
        if isinstance(returned, cst.Call) and owner.qualify(returned.func) == FUNCTOOLS_PARTIAL:
            if not returned.args or any(arg.keyword is None for arg in returned.args[1:]):
                return []  # positional arguments filled: the call's shift
            filled = frozenset(arg.keyword.value for arg in returned.args[1:]
                               if arg.keyword is not None)
            returned = returned.args[0].value
        function = _function_value(owner, returned, info)
        if function is None:
            return []
        made.append((*function[:1], filled, function[1]))
    return made


def _function_value(owner: Evaluator, expr: cst.BaseExpression, info: FunctionInfo
                    ) -> tuple[cst.FunctionDef, Evaluator] | None:
    """The `def` `expr` (in the body of `info`) holds: one of the file, or the one a
    module-level function of another project file returns (`kernel = hmc.kernel()`)."""
    value = owner.value_of(expr, info.scope, LATER)
    if isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef) \
            and not value.bound and value.node in owner.index.functions:
        return value.node, owner
    if isinstance(expr, cst.Name):
        # Bound once, in the factory or a function it is nested in (`kernel = hmc.kernel()`).
        binding = owner.lookup(expr.value, info.scope, LATER)
        bindings = binding.scope.bindings.get(expr.value, []) if binding is not None \
            and binding.scope is not None else []
        if binding is None or len(bindings) != 1 or binding.kind != "assign" or binding.path:
            return None
        expr = binding.value  # type: ignore[assignment]
    if not isinstance(expr, cst.Call) or expr.args:
        return None
    factory = owner.value_of(expr.func, info.scope, LATER)
    project = owner.project
    if not isinstance(factory, LibraryRef) or project is None:
        return None
    found = project.resolve_function(factory.name, factory.origin or owner.path, lambda: True)
    if found is None or not isinstance(found[0].node, cst.FunctionDef):
        return None
    other = found[1]
    made = other.index.functions.get(found[0].node)
    if made is None or len(made.returns) != 1:
        return None
    returned = other.value_of(made.returns[0], made.scope, LATER)
    if (isinstance(returned, FunctionValue) and isinstance(returned.node, cst.FunctionDef)
            and not returned.bound and returned.node in other.index.functions):
        return returned.node, other
    return None


def _param_function(scope: Scope | None, name: str) -> cst.FunctionDef | None:
    """The function whose parameter `name` is, seen from `scope` (None: not a parameter)."""
    while scope is not None and name not in scope.bindings:
        scope = scope.parent
    if scope is None or not isinstance(scope.node, cst.FunctionDef) or not any(
            binding.kind == "param" for binding in scope.bindings[name]):
        return None
    return scope.node


def _names_in(module: cst.Module, name: str) -> int:
    """How many `Name` nodes of the module are `name` (a function's own name counts once)."""
    count = 0
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if type(node) is cst.Name and node.value == name:  # type: ignore[attr-defined]
            count += 1
        stack.extend(child_nodes(node))
    return count
