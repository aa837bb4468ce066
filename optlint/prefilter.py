"""Which files are worth a parse: those in which some enabled rule can report.

Each rule's catalog row (optlint/catalog.py) states a necessary condition for it to report in a
file: the file names one of its `libraries` and has one of its words (`trigger_words`: the names
of the library values its analysis looks for, such as `lbfgs` or `inject_hyperparams`), where
"the file" is read with its import neighbourhood. A rule's analysis follows values across files:
into the project files a file imports (a model factory in `models.py`, a solver table in
`solvers.py`), and to the callers of its functions, with what they pass and what they import (a
training script builds the Equinox model in one module, draws the PRNG key, and passes both to a
step in another). So a word or a library counts when it is in the file, in a project file it
imports (transitively), in a project file that imports it (transitively), or in what such an
importer imports. All of it is read from the files' text and import lines
(optlint/import_graph.py), nothing parsed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from optlint.analysis.dependencies import Dependencies
from optlint.analysis.project_files import ProjectFiles
from optlint.catalog import RuleInfo
from optlint.import_graph import (ImportGraph, Named, libraries_named, module_words,
                                  rule_words_in)
from optlint.records import record


@record
class Decision:
    parse: bool
    # For a file not parsed, what decided it (the cache keeps the "nothing here" only while
    # those files are the same); None for a parsed file (the analysis records its own).
    dependencies: Dependencies | None = None


class _Condition:
    """A rule's row as sets, to test against what a neighbourhood names."""

    def __init__(self, rule: RuleInfo) -> None:
        self.code = rule.code
        self.libraries = frozenset(rule.libraries)
        self.words = frozenset(rule.trigger_words)

    def holds(self, named: Named) -> bool:
        return ((not self.libraries or not self.libraries.isdisjoint(named.libraries))
                and (not self.words or not self.words.isdisjoint(named.words)))


class Prefilter:
    def __init__(self, rules: list[RuleInfo], root: Path) -> None:
        self.rules = rules
        self.root = root
        self._conditions = [_Condition(rule) for rule in rules]
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

    def decide(self, text: str, filename: str) -> Decision:
        if not self.rules:  # no rule selected: syntax is what was asked for
            return Decision(True)
        conditions = self._conditions
        for named in self._widening(text, filename):
            if named is None:  # too many files to know who imports it: parse rather than guess
                return Decision(True)
            if any(condition.holds(named) for condition in conditions):
                return Decision(True)
        # Skipped: it holds while the files its imports reach are the same (`consulted`), and
        # while the files naming it or its importers (who may come to import it) are.
        graph = self.graph
        path = graph.resolved(Path(filename))
        above = graph.importers_above(path) or []
        return Decision(False, Dependencies(True, module_words([path, *above]),
                                            graph.take_reads()))

    def may_report(self, code: str, text: str, filename: str) -> bool:
        """Whether rule `code`'s condition holds for the file: what a test of a rule's row
        asks of every finding the rule makes."""
        condition = next(c for c in self._conditions if c.code == code)
        named = Named(frozenset(), frozenset())
        for widened in self._widening(text, filename):
            if widened is None:
                return True
            named = widened
        return condition.holds(named)

    def _widening(self, text: str, filename: str) -> Iterator[Named | None]:
        """What the file's neighbourhood names, widened step by step (the file's libraries;
        its words and what it imports; each importer and what that imports), each step holding
        all before it; None when the project is too large to know the importers. The file's
        libraries come first: they decide most files worth a parse (a rule without words),
        before its text is searched for the rules' words, and without the import graph."""
        # What a run's plan read of this very text (its graph keeps the texts) is not searched
        # for again: on levanter, 43 words and the import lines of 63 files, 0.6% of a run.
        read = (self._graph.facts_of_text(self._graph.resolved(Path(filename)), text)
                if self._graph is not None else None)
        libraries = libraries_named(text) if read is None else read.libraries
        yield Named(libraries, frozenset())
        graph = self.graph
        named = Named(libraries, rule_words_in(text) if read is None else read.words) | \
            graph.named_below(graph.imports_in(text, filename) if read is None else read.imported)
        yield named
        above = graph.importers_above(graph.resolved(Path(filename)))
        if above is None:
            yield None
            return
        for importer in above:
            named = named | graph.named_below([importer])
            yield named

    def take_reads(self) -> tuple[tuple[str, str], ...]:
        return self._graph.take_reads() if self._graph is not None else ()
