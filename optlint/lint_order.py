"""The order files are checked in: a file before the project files it imports.

Checking a file parses the project files it imports when the analysis looks into them (a class,
a helper function), and keeps those trees; a file checked after one of its importers reuses the
tree parsed for that importer. In the other order the file is parsed for its own check, dropped,
then parsed again for its importer's lookup: on a real repository that is a quarter more parsing.
"""

from __future__ import annotations

from pathlib import Path

from optlint.analysis.project_files import ProjectFiles
from optlint.analysis.reach import imported_modules
from optlint.source import SourceError, decode, read_bytes


def importers_first(paths: list[Path], root: Path,
                    project: ProjectFiles | None = None) -> list[Path]:
    """`paths` reordered so that each comes before those of them it imports (where imports go
    round in a cycle, in some order); read from the files' import statements, nothing parsed.
    `project`: where imports lead, when the caller has already worked some of that out."""
    if len(paths) < 2:
        return paths
    project = project or ProjectFiles(root, remember=True)
    by_file = dict.fromkeys(path.resolve() for path in paths)
    imports: dict[Path, list[Path]] = {}
    for resolved in by_file:
        try:
            text = decode(read_bytes(resolved), str(resolved)).text
        except (OSError, SourceError):
            text = ""
        found = {candidate.resolve() for module in imported_modules(text)
                 for candidate in project.project_files(module, str(resolved))}
        imports[resolved] = sorted(found.intersection(by_file).difference({resolved}))
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
    return sorted(paths, key=lambda path: rank[path.resolve()])
