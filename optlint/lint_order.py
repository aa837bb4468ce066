"""The order files are checked in: a file before the project files it imports.

Checking a file parses the project files it imports when the analysis looks into them (a class,
a helper function), and keeps those trees; a file checked after one of its importers reuses the
tree parsed for that importer. In the other order the file is parsed for its own check, dropped,
then parsed again for its importer's lookup: on a real repository that is a quarter more parsing.
"""

from __future__ import annotations

from pathlib import Path

from optlint.analysis.project_files import ProjectFiles
from optlint.import_graph import ImportGraph


def importers_first(paths: list[Path], root: Path,
                    project: ProjectFiles | None = None) -> list[Path]:
    """`paths` reordered so that each comes before those of them it imports (where imports go
    round in a cycle, in some order); read from the files' import statements, nothing parsed.
    `project`: where imports lead, when the caller has already worked some of that out."""
    return check_plan(paths, root, project)[0]


def check_plan(paths: list[Path], root: Path, project: ProjectFiles | None = None,
               graph: ImportGraph | None = None) -> tuple[list[Path], dict[Path, int]]:
    """`importers_first`'s order, and for each file whose tree a later file may look up, the
    place in that order of the last such file: a file's callers are looked for in the files that
    import it, so an importer's tree is kept until the last file it imports has been checked
    (rather than parsed again for that file's callers), and dropped then. `graph`: the run's
    import graph (the prefilter's), which learns the checked files' imports here."""
    if len(paths) < 2:
        return paths, {}
    graph = graph or ImportGraph(root, project)
    resolved_of = {path: graph.resolved(path) for path in paths}
    by_file = dict.fromkeys(resolved_of.values())
    imports = {resolved: [other for other in graph.facts(resolved).imported if other in by_file]
               for resolved in by_file}
    # Depth-first, iteratively: a file is finished after everything it imports; the reverse of
    # the finishing order puts importers first.
    finished: list[Path] = []
    state: dict[Path, int] = {}  # 1: being visited, 2: finished
    for start in by_file:
        if start in state:
            continue
        stack = [(start, 0)]
        state[start] = 1
        while stack:
            node, child = stack.pop()
            children = imports[node]
            if child < len(children):
                stack.append((node, child + 1))
                following = children[child]
                if following not in state:
                    state[following] = 1
                    stack.append((following, 0))
            else:
                state[node] = 2
                finished.append(node)
    rank = {resolved: number for number, resolved in enumerate(reversed(finished))}
    order = sorted(paths, key=lambda path: rank[resolved_of[path]])
    place = {resolved_of[path]: number for number, path in enumerate(order)}
    kept_until = {}
    for resolved, imported in imports.items():
        last = max((place[other] for other in _through_packages(imported, imports)), default=-1)
        if last > place[resolved]:
            kept_until[resolved] = last
    return order, kept_until


def _through_packages(imported: list[Path], imports: dict[Path, list[Path]]) -> set[Path]:
    """`imported`, and what the `__init__.py` files among them import, transitively: a name
    imported from a package is often defined in one of its modules."""
    found = set(imported)
    pending = [path for path in imported if path.name == "__init__.py"]
    while pending:
        for other in imports.get(pending.pop(), ()):
            if other not in found:
                found.add(other)
                if other.name == "__init__.py":
                    pending.append(other)
    return found
