"""Which worker of a pool checks which files: fixed shards, planned from the import graph.

A worker's CPU is its own files' parses and analysis, plus the parses of the project files its
lookups look into (an imported class or helper function; the callers of a function, in the files
that import it), each parsed once per worker and kept for its later files. Files dealt out in
small chunks made every worker parse nearly every looked-up file; and parsing those in the parent
before the workers are forked puts that parse on every worker's path (on levanter the critical
path was at best 1.26x shorter than `--jobs 1`). A worker owning a fixed shard of files that
import one another for the whole run parses what its shard looks into, once, beside the other
workers. The shards are balanced by an estimate of each worker's CPU read from the import graph
(nothing parsed): the bytes of its files, and of the files their lookups may parse.

Measured on levanter with benchmarks/pool_split.py: see the README's performance section.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from optlint.import_graph import ImportGraph

# A file's analysis (index, inference, rules) costs about this much of its parse: on levanter,
# 1.85 s of analysis against 2.97 s of parses and indexes, in a `--jobs 1` run.
_ANALYSIS_PER_PARSE = 0.6
# At most this many passes of single-file moves after the first assignment (each pass that moves
# nothing ends them).
_IMPROVING_PASSES = 4


def plan_shards(order: list[Path], graph: ImportGraph, workers: int) -> list[list[Path]]:
    """`order` split into at most `workers` shards (none empty), each in `order`'s order."""
    resolved = [path.resolve() for path in order]
    needs = _looked_into(resolved, graph)
    size = {path: _size(path) for path in {tree for trees in needs.values() for tree in trees}}
    planner = _Planner(needs, size, workers)
    # Largest first, each to the shard it makes least costly; then moves that lower the largest.
    for path in sorted(needs, key=lambda path: (-size[path], str(path))):
        planner.add(path, min(range(workers), key=lambda shard: (
            planner.cost_with(path, shard), shard)))
    planner.improve()
    shards: list[list[Path]] = [[] for _ in range(workers)]
    for path, resolved_path in zip(order, resolved, strict=True):
        shards[planner.shard_of[resolved_path]].append(path)
    return [shard for shard in shards if shard]


def through_packages(path: Path, graph: ImportGraph) -> set[Path]:
    """What `path` imports, and what the `__init__.py` files among those import, transitively
    (a name imported from a package is often defined in one of its modules)."""
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


def _looked_into(resolved: list[Path], graph: ImportGraph) -> dict[Path, frozenset[Path]]:
    """Each checked file, with the trees checking it may parse: itself, the files it imports
    that reach the libraries (a lookup's gate), and the checked files importing it that reach
    them (where its functions' callers are looked for)."""
    checked = dict.fromkeys(resolved)
    imported = {path: {other for other in through_packages(path, graph) if graph.reaches(other)}
                for path in checked}
    importers: dict[Path, set[Path]] = {path: set() for path in checked}
    for path, others in imported.items():
        if graph.reaches(path):
            for other in others:
                if other in checked:
                    importers[other].add(path)
    return {path: frozenset({path, *imported[path], *importers[path]}) for path in checked}


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


class _Planner:
    """Shards under construction, each with its estimated CPU (in bytes parsed)."""

    def __init__(self, needs: dict[Path, frozenset[Path]], size: dict[Path, int],
                 workers: int) -> None:
        self.needs, self.size = needs, size
        self.shard_of: dict[Path, int] = {}
        self.uses: list[Counter[Path]] = [Counter() for _ in range(workers)]  # tree -> files
        self.cost = [0.0] * workers

    def cost_with(self, path: Path, shard: int) -> float:
        """The cost of `shard` with `path` added to it."""
        uses = self.uses[shard]
        return self.cost[shard] + _ANALYSIS_PER_PARSE * self.size[path] + sum(
            self.size[tree] for tree in self.needs[path] if not uses[tree])

    def add(self, path: Path, shard: int) -> None:
        self.cost[shard] = self.cost_with(path, shard)
        self.uses[shard].update(self.needs[path])
        self.shard_of[path] = shard

    def remove(self, path: Path) -> None:
        shard = self.shard_of.pop(path)
        uses = self.uses[shard]
        self.cost[shard] -= _ANALYSIS_PER_PARSE * self.size[path]
        for tree in self.needs[path]:
            uses[tree] -= 1
            if not uses[tree]:
                del uses[tree]
                self.cost[shard] -= self.size[tree]

    def improve(self) -> None:
        """Move single files out of the costliest shard while that lowers the costliest cost
        (a file stays where it is when no shard is better)."""
        for _ in range(_IMPROVING_PASSES):
            moved = False
            for path in sorted(self.shard_of, key=str):
                source = self.shard_of[path]
                if self.cost[source] < max(self.cost):
                    continue
                self.remove(path)
                target = min(range(len(self.cost)), key=lambda shard: (
                    max(self.cost_with(path, shard), *self._others(shard)), shard != source,
                    shard))
                self.add(path, target)
                moved = moved or target != source
            if not moved:
                return

    def _others(self, shard: int) -> list[float]:
        return [cost for other, cost in enumerate(self.cost) if other != shard]
