"""Library names a file reaches through a star import of a project module that imports them:
nbdev and fastai-style projects gather their imports in one module (`import_essentials.py`:
`import jax.random as jrand`, `from jax import jit`) and every other module starts with
`from ..import_essentials import *` (jax-relax 9458dd2, held-out set 3: `jrand.split(rng_key)`
was no `jax.random` call to the analysis, which saw no import of `jrand`).

Only the star-imported module's own imports of libraries are taken (not its relative imports,
whose package is its own), transitively through its own star imports, and only for names the
file neither imports nor binds itself. A module defining `__all__` exports what it lists, which
may leave its imports out: it is not looked into.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Project
    from optlint.analysis.index import FileIndex


def fold_star_imports(index: FileIndex, project: Project, filename: str) -> None:
    """Add to `index`'s import table the library imports of the project modules it
    star-imports."""
    imports = index.imports
    bound = index.module_scope.bindings
    for module in list(imports.star_modules):
        for path in project.project_files(module, filename):
            owner = project.evaluator_for(str(path))
            if (owner is None or owner.index is index
                    or "__all__" in owner.index.module_scope.bindings):
                continue
            for name, full in owner.index.imports.aliases.items():
                if not full.startswith(".") and name not in bound and not name.startswith("_"):
                    imports.add_alias(name, full)
