"""The library bases of a class that another file of the project defines, for the library
models' `made_by` rows: `self.G = Generator(...)` with `from networks import Generator`, a
`flax.linen.Module` in `networks.py`, then `self.G.apply(v, x, rngs=rngs)` draws its dropout
masks from the `rngs` given (cyclegan-jax 3f61c04). Asked only where no row matched what the
file itself shows, so a file with no such call parses nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.project_files import LIBRARIES

if TYPE_CHECKING:
    from optlint.context import RuleContext

# How many files up a chain of project bases is followed.
_HOPS = 3


def imported_bases(ctx: RuleContext, made: set[str]) -> set[str]:
    """The qualified bases, and theirs, of the project classes `made` names by their import
    (`networks.Generator`): empty for names of libraries, or of no project class."""
    project = ctx.inference.project
    if project is None:
        return set()
    found: set[str] = set()
    for name in made:
        if "." in name and name.split(".", 1)[0] not in LIBRARIES:
            found |= _bases(project, name, ctx.inference.path, 0)
    return found


def _bases(project: object, qualified: str, origin: str | None, hops: int) -> set[str]:
    resolved = project.resolve_class(qualified, origin)  # type: ignore[attr-defined]
    if resolved is None or hops > _HOPS:
        return set()
    info, owner = resolved
    found: set[str] = set()
    pending, seen = [info], {info.name}
    while pending:
        cls = pending.pop()
        for base in cls.bases:
            name = owner.qualify(base) or ""
            found.add(name)
            local = owner.index.classes.get(base.value) if isinstance(base, cst.Name) else None
            if local is not None and local.name not in seen:
                seen.add(local.name)
                pending.append(local)  # a base in the same file
            elif "." in name and name.split(".", 1)[0] not in LIBRARIES:
                found |= _bases(project, name, owner.path, hops + 1)
    found.discard("")
    return found


def file_bases(ctx: RuleContext, class_name: str, seen: set[str] | None = None) -> set[str]:
    """The qualified names of a class's bases, and theirs (classes of the file)."""
    seen = set() if seen is None else seen
    info = ctx.index.classes.get(class_name)
    if info is None or class_name in seen:
        return set()
    seen.add(class_name)
    found: set[str] = set()
    for base in info.bases:
        found.add(ctx.qualify(base) or "")
        if isinstance(base, cst.Name):
            found |= file_bases(ctx, base.value, seen)
    return found
