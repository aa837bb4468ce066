"""The project's import graph read from the files' import lines, nothing parsed: which libraries
and rule words (the prefilter's, optlint/catalog.py) each file names, which project files it imports, which project files import it, and which files
reach the libraries the analysis looks into (optlint/analysis/reach.py).

One graph per run: built where the files are ordered (optlint/lint_order.py), asked by the
prefilter, then by the analysis's project index (which files are worth a parse for a lookup);
each file's imports are read once. No libcst here: the prefilter asks it before any file is
parsed, and a run whose files all miss the prefilter never imports the parser.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from optlint.analysis.project_files import ProjectFiles, file_stamp, walked_file
from optlint.analysis.reach import REACH_WORDS, declares_settings, imported_modules
from optlint.catalog import RULE_INFOS
from optlint.source import SourceError, decode, read_bytes

# library -> the words a file that uses it names it by (its import, or its usual alias).
LIBRARY_WORDS: dict[str, tuple[str, ...]] = {
    "jax": ("jax",),
    "optax": ("optax",),
    "equinox": ("equinox", "eqx"),
    "flax": ("flax",),
    "haiku": ("haiku",),
    "jaxopt": ("jaxopt",),
    # trax wraps JAX behind `trax.fastmath`: its layers draw from keys without naming jax.
    "trax": ("trax",),
}


def libraries_named(text: str) -> frozenset[str]:
    """The libraries whose words appear in `text` (a word in a comment only costs a parse)."""
    return frozenset(library for library, words in LIBRARY_WORDS.items()
                     if any(word in text for word in words))


# Every rule's words (optlint/catalog.py), looked for in each file once.
RULE_WORDS = frozenset(word for info in RULE_INFOS for word in info.trigger_words)


def rule_words_in(text: str) -> frozenset[str]:
    """The rules' words that appear in `text` (in a comment or a string too: that only costs a
    parse)."""
    return frozenset(word for word in RULE_WORDS if word in text)


class Named(NamedTuple):
    """The libraries and the rules' words some files name."""

    libraries: frozenset[str]
    words: frozenset[str]

    def __or__(self, other: object) -> Named:
        assert isinstance(other, Named)
        return Named(self.libraries | other.libraries, self.words | other.words)


class FileFacts(NamedTuple):
    """What one file's text says, read once."""

    libraries: frozenset[str]  # the libraries it names (`libraries_named`)
    words: frozenset[str]  # the rules' words it has (`rule_words_in`)
    imported: tuple[Path, ...]  # the project files its imports may name
    # It names one of the libraries whose objects the analysis follows into other files
    # (`REACH_WORDS`).
    reach_words: bool


_UNREADABLE = FileFacts(frozenset(), frozenset(), (), False)


class ImportGraph:
    def __init__(self, root: Path, files: ProjectFiles | None = None,
                 hash_reads: bool = True, keep_texts: bool = False) -> None:
        """`hash_reads`: note each file read with its bytes' hash (`take_reads`), which only the
        cache reads: a run without one neither hashes nor imports hashlib. `keep_texts`: keep
        the text each file's facts were read from (a run's graph: `facts_of_text`)."""
        self.root = root.resolve()
        self._hash_reads = hash_reads
        self.files = files or ProjectFiles(self.root, remember=True)
        self._facts: dict[Path, FileFacts] = {}
        self._reaches: dict[Path, bool] = {}  # see `reaches`
        self._importers: dict[Path, list[Path]] | None = None
        self._too_large = False
        self._below: dict[Path, Named] = {}  # what is named below a file, memoised
        self._read_since: dict[str, str] = {}  # files read since `take_reads`: their bytes' hash
        # Each file read, with its (size, mtime) then: a long-lived graph (the language
        # server's) must be rebuilt when one changes.
        self._stamps: dict[Path, tuple[int, int] | None] = {}
        self._resolved: dict[Path, Path] = {}  # a candidate file -> its resolved path
        # target -> files whose imports lead nowhere near it (see `imports_transitively`)
        self._leading_elsewhere: dict[Path, set[Path]] = {}
        # file -> `facts(file).imported` as a set, for `imports_transitively`'s membership
        # tests (in a tuple, each is pathlib's `__eq__`, Python code, per file before it)
        self._imported_sets: dict[Path, frozenset[Path]] = {}
        self._texts: dict[Path, str] | None = {} if keep_texts else None  # see `facts_of_text`

    def changed_on_disk(self) -> bool:
        return any(file_stamp(path) != stamp for path, stamp in self._stamps.items())

    def take_reads(self) -> tuple[tuple[str, str], ...]:
        """The files read since the last call, each with the hash of the bytes read (for the
        cache, as `Dependencies.read`)."""
        reads, self._read_since = tuple(sorted(self._read_since.items())), {}
        return reads

    def facts(self, path: Path) -> FileFacts:
        """What the file at resolved `path` names and imports, read once."""
        found = self._facts.get(path)
        if found is None:
            text = self._text(path)
            found = self._facts[path] = _UNREADABLE if text is None else FileFacts(
                libraries_named(text), rule_words_in(text), self.imports_in(text, str(path)),
                any(word in text for word in REACH_WORDS))
            if self._texts is not None and text is not None:
                self._texts[path] = text
        return found

    def facts_of_text(self, path: Path, text: str) -> FileFacts | None:
        """`facts(path)` when they were read from `text` (a run's graph keeps the texts): the
        prefilter's decision about a file the run's plan has read, without searching the text
        for every rule's word again. None otherwise (an editor's buffer, a file changed since)."""
        if self._texts is None or self._texts.get(path) != text:
            return None
        return self._facts.get(path)

    def _text(self, path: Path) -> str | None:
        """The file's text, its bytes' hash noted for the cache (see `take_reads`)."""
        try:
            data = read_bytes(path)
            text = decode(data, str(path)).text
        except (OSError, SourceError):
            return None
        if self._hash_reads:
            import hashlib  # here: a run that reads no other file does not pay for OpenSSL's start

            self._read_since[str(path)] = hashlib.sha256(data).hexdigest()
        self._stamps[path] = file_stamp(path)
        return text

    def reaches(self, path: Path) -> bool:
        """Whether the file at resolved `path` names one of `REACH_WORDS`' libraries, or imports
        a project file that does (transitively): only such a file's classes and functions can
        be, or hold, what the rules look at (see optlint/analysis/reach.py)."""
        if path in self._reaches:
            return self._reaches[path]
        seen: list[Path] = []
        for current, facts in self._imported_below([path]):
            seen.append(current)
            if facts.reach_words or self._reaches.get(current):
                self._reaches[path] = True
                return True
        # Nothing reachable from here names the libraries, so nothing reachable from any file
        # seen on the way does either.
        self._reaches.update(dict.fromkeys(seen, False))
        return False

    def _imported_below(self, starts: Iterable[Path]) -> Iterator[tuple[Path, FileFacts]]:
        """`starts` and every project file they import, transitively, each once with its facts."""
        seen: set[Path] = set()
        pending = list(starts)
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            facts = self.facts(current)
            yield current, facts
            pending.extend(facts.imported)

    def imports_transitively(self, path: Path, target: Path) -> bool:
        """Whether the file at resolved `path` imports `target`, directly or through other files
        (a package re-exporting it). Only the files `path` reaches have their imports read (a
        one-file check need not read every project file's), and what was found to lead nowhere
        near `target` is not followed again."""
        leading_elsewhere = self._leading_elsewhere.setdefault(target, set())
        seen: set[Path] = set()
        pending = [path]
        while pending:
            current = pending.pop()
            if current in seen or current in leading_elsewhere:
                continue
            seen.add(current)
            imported = self.facts(current).imported
            imported_set = self._imported_sets.get(current)
            if imported_set is None:
                imported_set = self._imported_sets[current] = frozenset(imported)
            if target in imported_set:
                return True
            pending.extend(imported)
        # Every file seen had all it imports followed, and none leads to `target`.
        leading_elsewhere.update(seen)
        return False

    def declares_settings(self, path: Path) -> bool:
        """Whether the file declares a configuration class (see `reach.declares_settings`)."""
        text = self._text(path)
        return text is not None and declares_settings(text)

    def imports_in(self, text: str, filename: str) -> tuple[Path, ...]:
        """The project files `text`'s imports may name, seen from `filename`."""
        found = {self.resolved(candidate) for module in imported_modules(text)
                 for candidate in self.files.project_files(module, filename)}
        found.discard(self.resolved(Path(filename)))
        return tuple(sorted(found))

    def resolved(self, path: Path) -> Path:
        """`path.resolve()`, worked out once per path: resolving costs a system call per path
        component (and ~110,000 instructions of pathlib's Python), and a run asks it of the same
        few hundred files at each stage (the plan, the engine, the imports)."""
        found = self._resolved.get(path)
        if found is None:
            found = self._resolved[path] = path.resolve()
        return found

    def know_resolved(self, resolved: Mapping[Path, Path]) -> None:
        """What the run's discovery resolved (each path as named -> resolved), taken as it is
        rather than resolved again; a resolved path resolves to itself."""
        for named, real in resolved.items():
            self._resolved[named] = self._resolved[real] = real
        self.files.know_folders(resolved)

    def named_below(self, starts: Iterable[Path]) -> Named:
        """The libraries and rule words named by `starts` and every project file they import,
        transitively."""
        starts = list(starts)
        if len(starts) == 1 and starts[0] in self._below:
            return self._below[starts[0]]
        libraries: set[str] = set()
        words: set[str] = set()
        for _, facts in self._imported_below(starts):
            libraries.update(facts.libraries)
            words.update(facts.words)
        named = Named(frozenset(libraries), frozenset(words))
        if len(starts) == 1:
            self._below[starts[0]] = named
        return named

    def importers_above(self, path: Path) -> list[Path] | None:
        """Every project file that imports `path`, transitively (not `path` itself); None when
        the project is too large to read every file's imports."""
        importers = self._importer_map()
        if importers is None:
            return None
        seen = {path}
        found: list[Path] = []
        pending = [path]
        while pending:
            for importer in importers.get(pending.pop(), ()):
                if importer not in seen:
                    seen.add(importer)
                    found.append(importer)
                    pending.append(importer)
        return found

    def _importer_map(self) -> dict[Path, list[Path]] | None:
        if self._importers is None and not self._too_large:
            paths = self.files.project_paths()
            if paths is None:
                self._too_large = True
                return None
            importers: dict[Path, list[Path]] = {}
            for name in paths:
                importer = walked_file(name)
                for imported in self.facts(importer).imported:
                    importers.setdefault(imported, []).append(importer)
            self._importers = importers
        return self._importers


def module_words(paths: Iterable[Path]) -> tuple[str, ...]:
    """The word an import of each file names: its stem, or its package's name for an
    `__init__.py` (`from pkg import steps`, `import pkg.steps`, `from .steps import f`)."""
    return tuple(sorted({path.parent.name if path.name == "__init__.py" else path.stem
                         for path in paths} - {""}))
