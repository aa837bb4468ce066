"""The project files that several checked files look into, parsed once before a pool's workers
are forked.

Checking a file parses the project files its lookups point at (a class, a helper function, the
callers of a function), and a process keeps those trees for its later files. Each worker of a
pool is its own process: with files dealt out to workers in small chunks, both workers parsed
nearly every looked-up file (on levanter, 313 parses against 197 linted files, where `--jobs 1`
does 209, and the parses were most of the CPU the pool added). The files imported by two or
more of the checked files are the ones both workers would parse: the parent parses and indexes
them before the fork, and every worker inherits the trees copy-on-write (a checked file among
them is not parsed again for its own check either, `ProjectIndex.analyse`).

A forked pool only: spawned workers (a parent that imported JAX, see `optlint.pool`) start
from nothing, and a tree cannot be sent to them for less than its parse.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from optlint.import_graph import ImportGraph

if TYPE_CHECKING:
    from optlint.analysis.project import ProjectIndex

# One file looked up by one checked file is parsed once whichever worker checks it.
_SHARED_BY = 2


def shared_lookups(order: list[Path], graph: ImportGraph) -> list[Path]:
    """The project files imported by at least two of the files in `order` (directly, or through a
    package's `__init__.py`, where a name imported from a package is often defined), which reach
    the libraries: a lookup parses only those (`ProjectIndex._find`'s gate). In the order of
    `order`'s first importer of each, so that the result does not depend on set order."""
    importers: Counter[Path] = Counter()
    first_seen: dict[Path, int] = {}
    for place, path in enumerate(order):
        for imported in _through_packages(path.resolve(), graph):
            importers[imported] += 1
            first_seen.setdefault(imported, place)
    return sorted((path for path, count in importers.items()
                   if count >= _SHARED_BY and graph.reaches(path)),
                  key=lambda path: (first_seen[path], str(path)))


def _through_packages(path: Path, graph: ImportGraph) -> set[Path]:
    """What `path` imports, and what the `__init__.py` files among those import, transitively."""
    found = set(graph.facts(path).imported)
    pending = [other for other in found if other.name == "__init__.py"]
    while pending:
        for other in graph.facts(pending.pop()).imported:
            if other not in found:
                found.add(other)
                if other.name == "__init__.py":
                    pending.append(other)
    found.discard(path)
    return found


def parse_shared(project: ProjectIndex, paths: list[Path]) -> None:
    """Parse and index `paths` into `project` for the lookups of every worker forked after (on
    a thread with a large stack, as a check does: `optlint.parsing.deep_call`). A file that
    cannot be parsed is left for the lookups, which handle it as they would have."""
    import gc

    from optlint.parsing import deep_call

    was_enabled = gc.isenabled()
    gc.disable()  # libcst's many small objects: see `optlint.pool`
    try:
        deep_call(project.parse_for_lookups, paths)
    finally:
        if was_enabled:
            gc.enable()
