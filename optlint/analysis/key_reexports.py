"""The project file defining a class a file imports from a package that re-exports it: gymnax's
`from gymnax.experimental import RolloutWrapper`, where `gymnax/experimental/__init__.py` says
`RolloutWrapper = rollout.RolloutWrapper` (by assignment), or `from .rollout import
RolloutWrapper` (by import). The methods of the imported modules' classes stand in for a call
on an object of unknown class (`key_imported_methods.py`); a package's `__init__.py` defines
none of them, the module it re-exports from does. Public classes are re-exported so in most
packages, and notebooks and examples import them from the package's top.

Followed a few hops, and only through a file whose text names the class (a cheap test before
a parse)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.analysis.index import FileIndex
    from optlint.analysis.evaluator import Project

# Re-exports followed from the imported name to the class: `pkg` -> `pkg.sub` -> `pkg.sub.mod`.
_HOPS = 3


def reexported_from(project: Project, qualified: str, here: str) -> set[str]:
    """The project files a re-export of `qualified` (`module.Name`, a CapWords name as
    imported in `here`) leads to, beyond the module it names: the file defining the class."""
    found: set[str] = set()
    _follow(project, qualified, here, found, 0)
    return found


def _follow(project: Project, qualified: str, from_file: str, found: set[str],
            hops: int) -> None:
    module, _, name = qualified.rpartition(".")
    if hops > _HOPS or not module or not name[:1].isupper():
        return
    named = re.compile(rf"\b{re.escape(name)}\b")
    for path in project.project_files(module, from_file):
        text = project.module_text(path)
        if text is None or not named.search(text):
            continue
        owner = project.evaluator_for(str(path))
        if owner is None:
            continue
        if name in owner.index.classes:
            found.add(str(path))
            continue
        onward = _onward(owner.index, name)
        if onward is not None:
            _follow(project, onward, str(path), found, hops + 1)


def _onward(index: FileIndex, name: str) -> str | None:
    """Where the module of `index` takes its `name` from: the module it imports it from
    (`from .rollout import Name`), or the module attribute it binds to the name at module
    level (`Name = rollout.Name`, `rollout` an imported module)."""
    aliases = index.imports.aliases
    if name in aliases:
        return aliases[name]
    bindings = index.module_scope.bindings.get(name, [])
    if not bindings or bindings[-1].kind != "assign" or bindings[-1].path:
        return None
    value = bindings[-1].value
    if (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)
            and value.value.value in aliases):
        return f"{aliases[value.value.value]}.{value.attr.value}"
    return None

