"""A method called with a key on an object of unknown class, defined by the classes of the
project modules the file imports (MultiNet e170d5c: `model.sample_actions(key, obs)` where
`model` is built by a config of the imported `pi0` module, whose `Pi0.sample_actions` draws
`jax.random.normal(rng, ...)` from it).

`key_methods.py` proves such a call from the classes of the file itself. Where the file defines
no method of that name, the classes of the project modules it imports (one level: the modules
it names, and those of the names it imports) stand in: the call consumes the key when at least
one of them defines the method and every definition draws from the argument the call gives it.
Where none of them defines it, the project's files that do stand in (a few only:
`key_project_methods.py`). An abstract method (`@abc.abstractmethod`, or a body that only
raises) runs nothing and is left out, as is a mixin's forwarding to one (`super().init(...)`,
`key_interface_methods.py`); a definition whose decorators may change what runs leaves the
call unproven. The message names the classes."""

from __future__ import annotations

import re
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_interface_methods import defined_method, runs_own_code
from optlint.analysis.key_project_methods import project_files_defining
from optlint.analysis.key_reexports import reexported_from
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Project
    from optlint.analysis.key_calls_view import KeyCallsView

_ABSTRACT = frozenset({"abc.abstractmethod", "abstractmethod"})
# A definition of one of these is read as what the class runs; more would cost parses.
_MOST_CLASSES = 8
# Every `def NAME(` of a text (any indent, `async def` too): a cheap test before a parse.
_DEFINED = re.compile(r"\bdef\s+(\w+)\s*\(")
_WORD = re.compile(r"\w+")
# By project, by path: a text read and the names it defines (`_defines`), so that a text is
# scanned once per run rather than once per method name asked by each file importing it.
_NAMES: weakref.WeakKeyDictionary[object, dict[Path, tuple[str, frozenset[str]]]] = (
    weakref.WeakKeyDictionary())


class ImportedMethods:
    """The methods of the classes of the project modules one file imports, by name."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self._paths: list[str] | None = None
        self._found: dict[str, list[tuple[cst.FunctionDef, str]] | None] = {}
        # By name: the classes of the project's other files defining it (`key_project_methods`).
        self._elsewhere: dict[str, list[tuple[cst.FunctionDef, str]] | None] = {}

    def consumptions(self, call: cst.Call, name: str, injected: bool = False
                     ) -> list[Consumption]:
        """What `receiver.name(...)` consumes, from the imported classes defining `name`, or
        for an object the caller hands in (`injected`), the project's classes defining it
        where no imported one does."""
        methods = self._methods(name)
        project_wide = methods == [] and injected
        if project_wide:
            if name not in self._elsewhere:
                self._elsewhere[name] = self._defined_in(
                    name, project_files_defining(self.ctx, name))
            methods = self._elsewhere[name]
        if not methods:
            return []
        drawn: set[int] | None = None
        for method, _ in methods:
            flow = self.calls.summary(method)
            if flow is None:
                return []
            found = {id(expr) for param, expr in bind_arguments(method, call, True)
                     if param.name.value in flow.consumed_params
                     and not flow.param_uses[param.name.value].unseen}
            drawn = found if drawn is None else drawn & found
        classes = ", ".join(sorted({owner for _, owner in methods}))
        where = "the project" if project_wide else "the project modules this file imports"
        proof = f"every class of {where} that defines `{name}` ({classes}) draws from the key"
        return [Consumption(call, arg.value, self.calls.callee(call), library=False,
                            proof=proof)
                for arg in call.args if id(arg.value) in (drawn or set())][:1]

    def _methods(self, name: str) -> list[tuple[cst.FunctionDef, str]] | None:
        """(method, its class's name) of each imported class defining `name`; None when one
        of them cannot be told (decorated, or too many)."""
        if name not in self._found:
            self._found[name] = self._look_up(name)
        return self._found[name]

    def _look_up(self, name: str) -> list[tuple[cst.FunctionDef, str]] | None:
        project = self.ctx.inference.project
        if project is None or any(
                isinstance(info.node, cst.FunctionDef) and info.node.name.value == name
                and info.scope.owner is not None for info in self.ctx.index.functions.values()):
            return []  # the file's own classes define it: `key_methods.py` asks them
        return self._defined_in(name, self._imported_paths())

    def _defined_in(self, name: str, paths: list[str] | None
                    ) -> list[tuple[cst.FunctionDef, str]] | None:
        """(method, its class's name) of each class of `paths` defining `name`."""
        project = self.ctx.inference.project
        if project is None or paths is None:
            return None
        found: list[tuple[cst.FunctionDef, str]] = []
        for path in paths:
            if not _defines(project, Path(path), name):
                continue  # a cheap test before a parse
            owner = project.evaluator_for(str(path))
            if owner is None:
                continue
            for info in owner.index.classes.values():
                method = defined_method(info, name)
                if method is None:
                    continue
                if any((owner.qualify(d.decorator) or "") in _ABSTRACT
                       for d in method.decorators) or not runs_own_code(owner.index, method, info):
                    continue  # runs nothing: a subclass's method does
                run = self.calls.foreign.method(info, str(path), name)
                if run is None:
                    return None  # decorated: what runs is not told
                found.append((run[0], info.name))
                if len(found) > _MOST_CLASSES:
                    return None
        return found

    def _imported_paths(self) -> list[str]:
        """The project files the file's imports name (a module, or the module of a name)."""
        if self._paths is None:
            project = self.ctx.inference.project
            here = self.ctx.inference.path
            modules = set(self.ctx.index.imports.aliases.values())
            modules |= {full.rpartition(".")[0] for full in modules}
            paths: set[str] = set()
            for module in sorted(modules):
                if module and project is not None and here is not None:
                    paths.update(str(path) for path in project.project_files(module, here))
                    # A class a package re-exports: the module defining it.
                    paths.update(reexported_from(project, module, here))
            self._paths = sorted(path for path in paths if path != here)
        return self._paths


def _defines(project: Project, path: Path, name: str) -> bool:
    """The text of `path` has a `def name(`: read from the names it defines, scanned once per
    text (a name that is not all word characters is searched for as before)."""
    text = project.module_text(path)
    if text is None:
        return False
    if _WORD.fullmatch(name) is None:
        return re.search(rf"\bdef\s+{re.escape(name)}\s*\(", text) is not None
    known = _NAMES.setdefault(project, {})
    kept = known.get(path)
    if kept is None or (kept[0] is not text and kept[0] != text):
        kept = known[path] = (text, frozenset(_DEFINED.findall(text)))
    return name in kept[1]
