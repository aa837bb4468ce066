"""Module attributes that must be missing, proven from the project's own files: `s4.convFromGen(
out, L)` where the file did `import s4`, a package of the project whose files bind no
`convFromGen` (a test written against an older version of its package, which renamed it
`conv_from_gen`): `AttributeError` there, before any argument runs, so nothing after it runs
(`ProvenRaises` asks, as for a failing `from s4 import convFromGen`).

Only a statement that is the read or the call itself (`x = mod.name(...)`, `mod.name(...)`,
`x = mod.name`), of a name the file binds once, by a plain `import` at its top level, and binds
nowhere else. The module binds no such name when no file it may be binds it, spells it as a
word, or has a submodule of that name; a star import is followed into the project's modules
(a library's, or one that binds names unseen, proves nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from optlint.analysis.evaluator import Evaluator, Project
from optlint.analysis.module_names import kept_bindings, spells

# How many star imports deep a module's names are followed.
_STARS = 3


class MissingModuleAttributes:
    """Which small statements of one file read an attribute their imported project module
    lacks."""

    def __init__(self, inference: Evaluator, filename: str) -> None:
        self._inference = inference
        self._filename = filename
        self._modules: dict[str, str] | None = None  # name -> module, for `import module`
        self._lacks: dict[tuple[str, str], bool] = {}

    def __call__(self, node: cst.BaseSmallStatement) -> bool:
        kind = type(node)
        if kind is not cst.Assign and kind is not cst.Expr and kind is not cst.AnnAssign:
            return False
        value = cast("cst.Assign | cst.Expr | cst.AnnAssign", node).value
        if type(value) is cst.Call:
            value = cast(cst.Call, value).func
        if type(value) is not cst.Attribute:
            return False
        attribute = cast(cst.Attribute, value)
        if type(attribute.value) is not cst.Name:
            return False
        name = cast(cst.Name, attribute.value).value
        module = self._imported_modules().get(name)
        if module is None:
            return False
        asked = (module, attribute.attr.value)
        if asked not in self._lacks:
            project = self._inference.project
            self._lacks[asked] = project is not None and _lacks(
                project, module, attribute.attr.value, self._filename, _STARS)
        return self._lacks[asked]

    def _imported_modules(self) -> dict[str, str]:
        """The names the file binds only by `import module` (or `import a.b as name`) at its top
        level, with their modules."""
        if self._modules is None:
            index = self._inference.index
            found: dict[str, str] = {}
            tree = index.module_scope.node
            for statement in tree.body if isinstance(tree, cst.Module) else ():
                if not isinstance(statement, cst.SimpleStatementLine):
                    continue
                for small in statement.body:
                    if not isinstance(small, cst.Import):
                        continue
                    for alias in small.names:
                        module = alias.evaluated_name
                        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                            found[alias.asname.name.value] = module
                        elif "." not in module:
                            found[module] = module
            bound_elsewhere = {name for scope in index.every_scope for name in scope.bindings}
            self._modules = {name: module for name, module in found.items()
                             if name not in bound_elsewhere
                             and index.imports.aliases.get(name) == module}
        return self._modules


def _lacks(project: Project, module: str, name: str, filename: str, stars: int) -> bool:
    """Every project file `module` may be (seen from `filename`) binds no `name`, nor has a
    submodule of that name; False for a module that is not the project's."""
    files = project.project_files(module, filename)
    separator = "" if module.endswith(".") else "."
    if not files or project.project_files(f"{module}{separator}{name}", filename):
        return False
    return all(_file_lacks(project, path, name, stars) for path in files)


def _file_lacks(project: Project, path: Path, name: str, stars: int) -> bool:
    if spells(project, path, name):
        return False  # written there: it may well bind it
    owner = project.evaluator_for(str(path))
    if owner is None:
        return False
    bound, found = kept_bindings(owner)
    if bound is None or name in bound:
        return False
    for star in found:
        if stars <= 0:
            return False
        target = "." * len(star.relative) + (
            (get_full_name_for_node(star.module) or "") if star.module is not None else "")
        if not _lacks(project, target, name, str(path), stars - 1):
            return False
    return True
