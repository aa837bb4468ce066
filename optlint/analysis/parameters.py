"""What an unannotated parameter holds: the join of what every call in the project passes it.

`def init_state(opt, model): return opt.init(model)` says nothing about `model` by itself; the
calls to `init_state` do. When every call the analysis can find passes the same value, the
parameter holds it; when callers disagree, one passes something unknown, or the function escapes
(its name is used other than in a call the analysis read: handed to `jax.lax.scan`, stored in a
dict), the parameter is unknown and no rule reports on it. A method's `self` is an instance of
its class. A collaborator the evaluator owns, with its own memos (joins, invocations, the file's
call names and words).
"""

from __future__ import annotations

import functools
import re
import weakref
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import FunctionNode, argument_for
from optlint.analysis.evaluator import Evaluator, Invocation, owned_by
from optlint.analysis.harmless_uses import harmless_uses
from optlint.analysis.index import LATER, Binding, CallSite, ClassInfo, Scope
from optlint.analysis.library_names import CONFIG_ENTRY_DECORATORS
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.values import (
    UNKNOWN,
    ClassRef,
    FunctionValue,
    InstanceValue,
    LibraryRef,
    OneOf,
    TransformedFunction,
    TransformValue,
    Value,
    portable,
)
from optlint.analysis.word_counts import WordCounts
from optlint.patterns import compiled

# Resolves an imported name to its definition in a project file and that file's evaluator.
Resolver = Callable[[LibraryRef], "tuple[Any, Evaluator] | None"]
CallNames = tuple[dict[str, list[CallSite]], dict[str, list[str]]]


class CallerJoins:
    def __init__(self, evaluator: Evaluator, text: str | None = None) -> None:
        self._evaluator = weakref.ref(evaluator)  # its owner (see `owned_by`)
        self._joins: dict[int, Value] = {}
        self._invocations: dict[int, list[Invocation] | None] = {}
        self._text = text  # the file's source, when the caller has it (else regenerated)
        self.words = WordCounts(self.file_text)
        self._call_names: CallNames | None = None

    @property
    def evaluator(self) -> Evaluator:
        return owned_by(self._evaluator)

    def parameter_value(self, binding: Binding) -> Value:
        """What an unannotated parameter holds, from its callers (UNKNOWN when they disagree)."""
        param, scope = binding.node, binding.scope
        if not isinstance(param, cst.Param) or scope is None or scope.kind != "function":
            return UNKNOWN
        function = scope.node
        if not isinstance(function, (cst.FunctionDef, cst.Lambda)):
            return UNKNOWN
        if scope.owner is not None and param.name.value == scope.self_name:
            return self._self_value(function, scope.owner)
        if self.evaluator.frame:
            # Inside a helper followed for one call: what callers pass may read that call's
            # frame, so the answer holds for it alone and is not kept.
            return self._joined(function, param, scope)
        key = id(param)
        if key not in self._joins:
            self._joins[key] = UNKNOWN  # a parameter passed on to itself: no answer from that
            self._joins[key] = self._joined(function, param, scope)
        return self._joins[key]

    def parsed_config(self, binding: Binding, annotated: InstanceValue) -> InstanceValue | None:
        """`@pyrallis.wrap() def main(cfg: TrainConfig)`: the library calls `main` with a config
        built from the command line, every field its class default unless a flag says otherwise
        (the defaults are what the program runs with): an instance made with no argument. None
        when the parameter's function is not called so."""
        function = binding.scope.node if binding.scope is not None else None
        if not isinstance(function, cst.FunctionDef) or binding.scope is None:
            return None
        for decorator in function.decorators:
            called = decorator.decorator
            called = called.func if isinstance(called, cst.Call) else called
            if self.evaluator.qualify(called) in CONFIG_ENTRY_DECORATORS:
                return InstanceValue(annotated.info, annotated.path,
                                     (cst.Call(cst.Name(annotated.info.name)), binding.scope,
                                      binding.order, self.evaluator.path))
        return None

    def _self_value(self, function: FunctionNode, owner: ClassInfo) -> Value:
        if isinstance(function, cst.FunctionDef) and method_kinds(function):
            return UNKNOWN
        evaluator = self.evaluator
        return evaluator.instance_of(ClassRef(owner, evaluator.path))

    def _joined(self, function: FunctionNode, param: cst.Param, scope: Scope) -> Value:
        evaluator = self.evaluator
        invocations = self.invocations_of(function)
        if not invocations:
            return UNKNOWN
        values: list[Value] = []
        for path, site, bound in invocations:
            expr = argument_for(site.node, function, param.name.value, bound)
            if expr is not None:
                owner = evaluator.evaluator_for(path)
                value = owner.value_of(expr, site.scope, site.order)
                value = value if owner is evaluator else portable(value)
            elif param.default is not None and not any(arg.star for arg in site.node.args):
                value = evaluator.value_of(param.default, scope.parent or scope, LATER)
            else:
                return UNKNOWN
            if value is UNKNOWN:
                return UNKNOWN
            if not any(_same(seen, value) for seen in values):
                values.append(value)
        if len(values) == 1:
            return values[0]
        # Callers that pass different optimizers (`run(polyak_sgd(...), x0)` here, `run(chain(
        # clip, polyak_sgd()), x0)` there): one of them, as a factory's branches are; a rule
        # reports what holds for every one, or what holds for one (the call that passes it).
        if len(values) <= _MAX_OPTIONS and all(
                isinstance(value, TransformValue) for value in values):
            return OneOf(tuple(values), by_caller=True)
        return UNKNOWN

    def invocations_of(self, function: FunctionNode) -> list[Invocation] | None:
        """Every call that runs `function`, in this file and in other project files; None when
        the function escapes (used other than in calls the analysis read), so callers unseen may
        pass anything."""
        key = id(function)
        if key not in self._invocations:
            self._invocations[key] = None  # asked again while collecting: unknown
            self._invocations[key] = self._collect_invocations(function)
        return self._invocations[key]

    def _collect_invocations(self, function: FunctionNode) -> list[Invocation] | None:
        if not isinstance(function, cst.FunctionDef):
            return None  # a lambda is called through whatever holds it
        evaluator = self.evaluator
        name = function.name.value
        info = evaluator.index.functions.get(function)
        cls = info.scope.owner if info is not None else None
        if name == "__init__" and cls is not None:
            return self._constructions(function, cls)
        found = _invocations_in(evaluator, function, name, lambda value: _runs(value, function),
                                harmless=harmless_uses(evaluator, function, info))
        if found is None:
            return None
        is_module_level = info is not None and info.scope.parent is evaluator.index.module_scope
        if is_module_level and evaluator.project is not None and evaluator.path is not None:
            # Other files call it by its name, or by a module-level name bound to its jit
            # (`train_step = jax.jit(sgd_step)`, imported elsewhere).
            for called in (name, *self._module_jit_aliases(name)):
                elsewhere = evaluator.project.invocations_elsewhere(function, evaluator.path,
                                                                    called=called)
                if elsewhere is None:
                    return None
                found.extend(elsewhere)
        return found

    def _module_jit_aliases(self, name: str) -> list[str]:
        return [alias for alias in self.call_names()[1].get(name, [])
                if module_jit_of(self.evaluator, alias) is not None]

    def _constructions(self, init: cst.FunctionDef, cls: ClassInfo) -> list[Invocation] | None:
        """The calls of class `cls` (which run its `__init__` with `self` filled), here and in
        other project files; None where a subclass may call it through `super().__init__`."""
        evaluator = self.evaluator
        found = constructions_in_file(
            evaluator, init, cls.name, None,
            lambda callee: isinstance(callee, ClassRef) and callee.info is cls)
        if found is None:
            return None
        if (cls.scope is evaluator.index.module_scope and evaluator.project is not None
                and evaluator.path):
            elsewhere = evaluator.project.invocations_elsewhere(init, evaluator.path,
                                                                constructed=cls.name)
            if elsewhere is None:
                return None
            found.extend(elsewhere)
        return found

    def call_names(self) -> CallNames:
        """The file's calls by the name they call (`f(x)`, `obj.f(x)`, `jax.jit(f)(x)`), and
        the names bound to a jax transformation of a function (`step = jax.jit(step_fn)`), by
        that function's name; built once per file, since every parameter asks."""
        if self._call_names is None:
            evaluator = self.evaluator
            calls: dict[str, list[CallSite]] = {}
            for site in evaluator.index.calls:
                called = _called_name(site.node.func)
                if called is not None:
                    calls.setdefault(called, []).append(site)
            self._call_names = (calls, _aliases(evaluator))
        return self._call_names

    def file_text(self) -> str:
        if self._text is None:
            module = self.evaluator.index.module_scope.node
            self._text = module.code if isinstance(module, cst.Module) else ""
        return self._text


def _invocations_in(owner: Evaluator, function: FunctionNode, name: str,
                    runs: Callable[[Value], bool | None], skip_imports: bool = False,
                    harmless: int = 0) -> list[Invocation] | None:
    """The calls in `owner`'s file that run the function (as `runs(callee value)` says), or None
    when the name is used in more places than those calls and the wrappers that alias them."""
    found: list[Invocation] = []
    calls_by_name, aliases_of = owner.call_names()
    aliases = aliases_of.get(name, [])
    for site in (site for called in (name, *aliases) for site in calls_by_name.get(called, [])):
        callee = owner.value_of(site.node.func, site.scope, site.order)
        bound = runs(callee)
        if bound is not None:
            found.append(Invocation(owner.path, site, bound))
    if skip_imports and not found:
        # Another file that never calls it by a name resolving here: a namesake, or a mention.
        return found
    direct = sum(1 for _, site, _ in found if _called_name(site.node.func) == name)
    definitions = 1 if not skip_imports else 0
    if owner.uses_more_than(name, direct + definitions + len(aliases) + harmless, skip_imports):
        return None
    return found


def constructions_in_file(owner: Evaluator, init: cst.FunctionDef, name: str, path: Path | None,
                          is_class: Callable[[Value], bool]) -> list[Invocation] | None:
    """The calls of class `name` in `owner`'s file (`is_class(callee)` says which are this
    class; in another file, `path` is the class's file, see `imported_class`); None when the
    class is subclassed here or used other than in calls, annotations and `isinstance`."""
    text = owner.file_text()
    if name in _base_words(text):
        return None  # a subclass's `super().__init__(...)` passes what its own callers pass

    def runs(callee: Value) -> bool | None:
        # `self` is filled by the construction: the call's arguments start at the second.
        return True if is_class(callee) else None

    return _invocations_in(owner, init, name, runs, skip_imports=path is not None,
                           harmless=_type_uses(text, name))


def imported_class(path: Path, name: str, resolve: Resolver) -> Callable[[Value], bool]:
    """Whether a callee, a name imported in another file, is the class `name` of file `path`."""
    return lambda callee: _imported_from(callee, path, name, resolve, lambda info: info.name)


def _type_uses(text: str, name: str) -> int:
    """Uses of a class name that construct nothing: annotations and `isinstance` checks."""
    return _type_use_counts(text)[name]


# Per text, not per name: a file's every class asking would read the whole text each time.
# Compiled when first used (`optlint.patterns`): most checks never ask.
_CLASS_BASES = r"^[ \t]*class\s+\w+\s*\(([^)]*)"
_ANNOTATED = r"(?::|->|\[|\|)\s*[\"']?(\w+)"
_ISINSTANCE = r"isinstance\(\s*[^,()]+,\s*\(?\s*(\w+)"


@functools.lru_cache(maxsize=4)
def _base_words(text: str) -> frozenset[str]:
    """Every word in the base lists of the text's `class X(...)` statements."""
    return frozenset(word for bases in compiled(_CLASS_BASES, re.MULTILINE).findall(text)
                     for word in _WORD.findall(bases))


@functools.lru_cache(maxsize=4)
def _type_use_counts(text: str) -> Counter[str]:
    """How often each word follows `:`, `->`, `[` or `|` (an annotation) or is the class an
    `isinstance` checks."""
    return (Counter(compiled(_ANNOTATED).findall(text))
            + Counter(compiled(_ISINSTANCE).findall(text)))


def _runs(callee: Value, function: FunctionNode) -> bool | None:
    """Whether calling `callee` runs `function`: None if not, else whether it is bound."""
    if isinstance(callee, TransformedFunction):
        callee = callee.func
    if isinstance(callee, FunctionValue) and callee.node is function:
        return callee.bound
    return None


def runs_imported(callee: Value, path: Path, name: str, resolve: Resolver,
                  defined: str | None = None) -> bool | None:
    """Whether `callee` (a name imported in another file) is the function `name` of `path`
    (`defined`: the function's own name, when `name` is a module-level jit of it)."""
    if isinstance(callee, TransformedFunction):
        callee = callee.func
    return False if _imported_from(callee, path, name, resolve,
                                   lambda function: function.node.name.value,
                                   defined) else None


def _imported_from(callee: Value, path: Path, name: str, resolve: Resolver,
                   name_of: Callable[[Any], str], defined: str | None = None) -> bool:
    """Whether `callee`, an imported name, resolves to the definition `name` (or `defined`)
    in file `path`."""
    if not isinstance(callee, LibraryRef) or callee.name.rsplit(".", 1)[-1] != name:
        return False
    found = resolve(callee)
    if found is None:
        return False
    definition, owner = found
    real = owner.project.real_path if owner.project is not None else _real_path
    return (owner.path is not None and real(owner.path) == path
            and name_of(definition) == (defined or name))


def _real_path(path: str | Path) -> Path:
    return Path(path).resolve()


def invocations_in_file(owner: Evaluator, function: cst.FunctionDef, path: Path,
                        resolve: Resolver, called: str | None = None) -> list[Invocation] | None:
    """The calls in another project file that run `function` (of `path`) by its imported name,
    or by `called`, a module-level jit of it."""
    name = called or function.name.value
    defined = function.name.value
    return _invocations_in(owner, function, name,
                           lambda callee: runs_imported(callee, path, name, resolve, defined),
                           skip_imports=True)


def module_jit_of(owner: Evaluator, name: str) -> FunctionValue | None:
    """The function a module-level name is bound to the jit of (`train_step =
    jax.jit(sgd_step)`): calling the name runs it and gives what it returns."""
    bindings = owner.index.module_scope.bindings.get(name)
    if not bindings or bindings[-1].kind != "assign" or bindings[-1].path:
        return None
    value = owner.value_of_binding(bindings[-1])
    if not (isinstance(value, TransformedFunction) and isinstance(value.func, FunctionValue)):
        return None
    kind = apis.JAX_FUNCTION_TRANSFORMS.get(value.transform) or (
        apis.FILTERING_FUNCTION_TRANSFORMS.get(value.transform))
    return value.func if kind == "jit" else None


def _aliases(inference: Evaluator) -> dict[str, list[str]]:
    """Names bound to a jax or Equinox transformation of a function, by the function's name:
    `step = jax.jit(step_fn)` gives {"step_fn": ["step"]}."""
    aliases: dict[str, list[str]] = {}
    for scope in inference.index.every_scope:
        for alias, bindings in scope.bindings.items():
            for binding in bindings:
                value = binding.value
                if (binding.kind == "assign" and not binding.path and isinstance(value, cst.Call)
                        and value.args and isinstance(value.args[0].value, cst.Name)
                        and value.args[0].keyword is None
                        and _is_function_transform(inference.qualify(value.func))):
                    aliases.setdefault(value.args[0].value.value, []).append(alias)
    return aliases


def _is_function_transform(name: str | None) -> bool:
    return name in apis.JAX_FUNCTION_TRANSFORMS or name in apis.FILTERING_FUNCTION_TRANSFORMS


def _called_name(func: cst.BaseExpression) -> str | None:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Call) and func.args and isinstance(func.args[0].value, cst.Name):
        return func.args[0].value.value  # `jax.jit(step)(model)`
    return None


_WORD = re.compile(r"\w+")


_MAX_OPTIONS = 8


def _same(first: Value, second: Value) -> bool:
    return first is second or (type(first) is type(second) and first == second)
