"""The libraries the project's modules that one file imports use themselves.

A row of `key_consumers.py` for "any object" (`dist.sample(seed=key)`) holds in a file that
imports the library. A file often gets its objects from its own project's modules instead
(`pi = actor.apply(params, obs)`, the actor built in the project's `networks.py`, which imports
distrax): where one of the project modules the file imports imports the library, the row holds
there too. One level only: what those modules import in turn is not followed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from optlint.analysis.reach import imported_modules

if TYPE_CHECKING:
    from optlint.context import RuleContext


def imported_project_libraries(ctx: RuleContext) -> frozenset[str]:
    """The top-level names of the modules imported by the project modules `ctx`'s file
    imports (empty without a project)."""
    project = ctx.inference.project
    if project is None:
        return frozenset()
    modules = {full.rpartition(".")[0] for full in ctx.index.imports.aliases.values()}
    modules |= set(ctx.index.imports.aliases.values())
    found: set[str] = set()
    seen = set()
    for module in sorted(modules):
        if not module:
            continue
        for path in project.project_files(module, ctx.filename):
            if path in seen:
                continue
            seen.add(path)
            text = project.module_text(path)
            if text is not None:
                found.update(name.lstrip(".").split(".", 1)[0]
                             for name in imported_modules(text) if not name.startswith("."))
    return frozenset(found)
