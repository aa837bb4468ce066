"""Which files are worth a parse: those in which some enabled rule can fire.

A rule fires only on code that uses its libraries (its catalog row's `libraries`), and some rules
only where one of their words appears too (`update` for OPT007). A file uses a library when it
names it, when a project file it imports does (a model factory in `models.py`), or when a file
that runs it does: a project file importing it, or what that file imports (a package's training
script builds the Equinox model in one module and passes it to a step in another). All of it is
read from import lines (optlint/import_graph.py), nothing parsed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from optlint.analysis.dependencies import Dependencies
from optlint.analysis.project_files import ProjectFiles
from optlint.catalog import RuleInfo
from optlint.import_graph import ImportGraph, libraries_named, module_words


@dataclass(frozen=True)
class Decision:
    parse: bool
    # For a file not parsed, what decided it (the cache keeps the "nothing here" only while
    # those files are the same); None for a parsed file (the analysis records its own).
    dependencies: Dependencies | None = None


def has_trigger_words(rule: RuleInfo, text: str) -> bool:
    """Whether `text` has one of the rule's trigger words (any text does for a rule with none):
    only then can the rule fire in it."""
    return not rule.trigger_words or any(word in text for word in rule.trigger_words)


class Prefilter:
    def __init__(self, rules: list[RuleInfo], root: Path) -> None:
        self.rules = rules
        self.root = root
        self._graph: ImportGraph | None = None

    @property
    def built_graph(self) -> ImportGraph | None:
        """The import graph, when a decision has needed it."""
        return self._graph

    def use_graph(self, graph: ImportGraph) -> None:
        """Decide from `graph` (a run's, already holding the checked files' imports)."""
        self._graph = graph

    @property
    def graph(self) -> ImportGraph:
        if self._graph is None:
            # Where imports lead is not remembered: a long-lived linter (the language server's)
            # sees files come and go. A run hands its own graph over (`use_graph`).
            self._graph = ImportGraph(self.root, ProjectFiles(self.root))
        return self._graph

    def needed_libraries(self, text: str) -> frozenset[str] | None:
        """The libraries one of which the file must use for a rule whose words it has to fire;
        None when a rule needs none (every file is worth a parse)."""
        needed: set[str] = set()
        for rule in self.rules:
            if not has_trigger_words(rule, text):
                continue
            if not rule.libraries:
                return None
            needed.update(rule.libraries)
        return frozenset(needed)

    def decide(self, text: str, filename: str) -> Decision:
        if not self.rules:  # no rule selected: syntax is what was asked for
            return Decision(True)
        needed = self.needed_libraries(text)
        if needed is None or needed & libraries_named(text):
            return Decision(True)
        if not needed:  # no rule's words: the file's own text decides
            return Decision(False, Dependencies())
        graph = self.graph
        path = Path(filename).resolve()
        if needed & graph.libraries_below(graph.imports_in(text, filename)):
            return Decision(True)
        above = graph.importers_above(path)
        if above is None:  # too many files to know who imports it: parse rather than guess
            return Decision(True)
        if any(needed & graph.libraries_below([importer]) for importer in above):
            return Decision(True)
        # Skipped: it holds while the files its imports reach are the same (`consulted`), and
        # while the files naming it or its importers (who may come to import it) are.
        return Decision(False, Dependencies(True, module_words([path, *above]),
                                            graph.take_reads()))

    def take_reads(self) -> tuple[tuple[str, str], ...]:
        return self._graph.take_reads() if self._graph is not None else ()
