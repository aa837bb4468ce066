"""Classes and functions defined in other files of the checked project, found when an import
names them.

Only the files an import actually points at are read, once per process, and only to index them:
a project-wide index built lazily instead of a pass over every file up front.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import libcst as cst

from optlint.analysis.dependencies import Dependencies
from optlint.analysis.index import ClassInfo, build_index
from optlint.analysis.project_files import LIBRARIES, ProjectFiles, file_stamp
from optlint.analysis.evaluator import Invocation
from optlint.analysis.parameters import (
    Resolver,
    constructions_in_file,
    imported_class,
    invocations_in_file,
    module_jit_of,
)
from optlint.analysis.values import FunctionValue, LibraryRef
from optlint.analysis.word_counts import distinct_words
from optlint.source import SourceError, decode, read_bytes
from optlint.parsing import Unanalysable, parse_module, parse_screened

if TYPE_CHECKING:
    from optlint.analysis.inference import Inference
    from optlint.import_graph import ImportGraph

_MAX_REEXPORT_HOPS = 4
# Callers are looked for by scanning every project file's text for the function's name; past
# this many names, the files' words are indexed once instead (a run asks for hundreds, a
# one-file run for a few, where indexing every file would cost more than it saves).
_SCANS_BEFORE_WORD_INDEX = 16
_WORD = re.compile(r"\w+")
_Found = TypeVar("_Found", ClassInfo, FunctionValue)


class _Unreached:
    """A lookup stopped by the reach gate: the file it points at never reaches equinox or optax."""


_UNREACHED = _Unreached()


class ProjectIndex:
    def __init__(self, root: Path, graph: ImportGraph | None = None,
                 hash_reads: bool = True) -> None:
        """`graph`: the run's import graph (which files reach the libraries), where the caller
        has one; else one of this index's own. `hash_reads`: note each project file read with
        its bytes' hash (`recorded`), which only the cache reads."""
        self.root = root.resolve()
        self._hash_reads = hash_reads
        self._files: dict[Path, Inference | None] = {}
        # Every file's evaluator alive now, by the path its values name (`ClassRef.path`): the
        # files above, and the file being linted while it is.
        self._evaluators: weakref.WeakValueDictionary[str, Inference] = (
            weakref.WeakValueDictionary())
        self._texts: dict[Path, str] = {}  # the text each of `_files` was parsed from
        # (qualified name, importing folder) -> the class, or None when it is not a project class
        self._resolved: dict[tuple[str, str, bool], tuple[ClassInfo, Inference] | None] = {}
        # (qualified name, importing folder, through the reach gate) -> the function, or None
        self._functions: dict[tuple[str, str, bool],
                              tuple[FunctionValue, Inference] | _Unreached | None] = {}
        self.following = 0  # calls being followed into other files right now (a depth guard)
        self._paths = ProjectFiles(self.root, self._read)  # where the files are, their texts
        if graph is None:
            from optlint.import_graph import ImportGraph

            graph = ImportGraph(self.root, ProjectFiles(self.root), hash_reads)
        self._reach = graph
        # Where an import leads, asked thousands of times a run: the graph's answers, which a
        # run's graph remembers (the files of a run stay where they are).
        self._where = graph.files
        # (file, function name) -> the calls from other files that run it; None: unknown
        self._callers: dict[tuple[Path, str], list[Invocation] | None] = {}
        # word -> the files of the project texts (`_word_source`) where it stands as a word
        self._word_files: dict[str, list[Path]] | None = None
        self._word_source: dict[Path, str] | None = None
        self._scans = 0
        self._index_words_at_once = False  # see `checking`
        # What the file being linted has read of the project so far (see `Dependencies`).
        self._consulted = False
        self._words: set[str] = set()
        self._read_since: dict[str, str] = {}  # files read since `recorded`: their bytes' hash
        # Every project file this index has read, with its (size, mtime) then: a long-lived
        # index (the language server's) can tell that one changed on disk without being told.
        self.read_stamps: dict[Path, tuple[int, int] | None] = {}
        # Linted files' trees kept for later files' lookups: the place in the run they are
        # kept until (`hold`), and those a lookup has used.
        self._held: dict[Path, int] = {}
        self._served: set[Path] = set()
        # The file being linted (`analyse`): path, text, evaluator; lookups into it (its own
        # calls of an imported function, an import cycle) use it rather than parse it again.
        self._linting: tuple[Path, str, weakref.ref[Inference]] | None = None
        self._real_paths: dict[str, Path] = {}  # see `real_path`

    def real_path(self, path: str | Path) -> Path:
        """`Path(path).resolve()`, worked out once per path: it costs a system call per path
        component, and a run asks it of the same few hundred files thousands of times."""
        key = str(path)
        found = self._real_paths.get(key)
        if found is None:
            found = self._real_paths[key] = Path(path).resolve()
        return found

    def know_real_paths(self, real_paths: Mapping[str, Path]) -> None:
        """`real_path`'s answers the run has worked out already (each file's name -> its
        resolved path); a resolved path resolves to itself."""
        for name, real in real_paths.items():
            self._real_paths[name] = self._real_paths[str(real)] = real

    def checking(self, files: int) -> None:
        """The run checks `files` files, and its callers search asks about a name or two for
        each (levanter: 279 names for 200 files): past `_SCANS_BEFORE_WORD_INDEX` files, the
        project's words are indexed at the first name, not after that many scans (each a search
        of every file's text; on levanter the scans cost more than the index)."""
        self._index_words_at_once = files > _SCANS_BEFORE_WORD_INDEX

    def start_recording(self) -> None:
        self._consulted, self._words = False, set()

    def depends_on(self, word: str) -> None:
        """The file being linted relies on which project files mention `word` (`Dependencies`)."""
        self._consulted = True
        self._words.add(word)

    def recorded(self) -> Dependencies:
        read, self._read_since = {*self._read_since.items(), *self._reach.take_reads()}, {}
        return Dependencies(self._consulted, tuple(sorted(self._words)), tuple(sorted(read)))

    def _read(self, path: Path) -> bytes:
        """A project file's bytes, noted for the cache (see `Dependencies.read`)."""
        data = read_bytes(path)
        if self._hash_reads:
            import hashlib  # here: a run that reads no other file does not pay for OpenSSL's start

            self._read_since[str(path)] = hashlib.sha256(data).hexdigest()
        self.read_stamps[path] = file_stamp(path)
        return data

    def changed_on_disk(self) -> bool:
        """Whether a file this index read has changed (or gone) since."""
        return (any(file_stamp(path) != stamp for path, stamp in self.read_stamps.items())
                or self._reach.changed_on_disk())

    def resolve_class(self, qualified: str, from_file: str | None, hops: int = 0,
                      gated: bool = True) -> tuple[ClassInfo, Inference] | None:
        """The class an imported name refers to, and its file's inference. `gated`: only in a
        file reaching the libraries (else a call hands the class what the rules follow: a
        key given to its static method, `key_foreign_statics.py`)."""
        self._consulted = True
        module, _, name = qualified.rpartition(".")
        # Classes are CapWords: a lower-case name is a function or module, not worth a parse.
        if (hops > _MAX_REEXPORT_HOPS or qualified.split(".", 1)[0] in LIBRARIES
                or not module or not name[:1].isupper()):
            return None
        # Where the search starts depends on the importing file's folder, so that is in the key.
        key = (qualified, str(self._folder_of(from_file)) if from_file else "", gated)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(module, name, from_file, hops, gated)
        return self._resolved[key]

    def _resolve(self, module: str, name: str, from_file: str | None,
                 hops: int, gated: bool) -> tuple[ClassInfo, Inference] | None:
        # A class in a file that cannot reach the libraries can be neither a module nor hold one.
        found = self._find(module, name, from_file, _module_class, gated,
                           lambda reexported, path: self.resolve_class(reexported, path, hops + 1,
                                                                       gated),
                           admitted=self._reach.declares_settings)
        return None if isinstance(found, _Unreached) else found

    def resolve_function(self, qualified: str, from_file: str | None,
                         arguments_reach: Callable[[], bool],
                         hops: int = 0) -> tuple[FunctionValue, Inference] | None:
        """The module-level `def` an imported name refers to, and its file's inference.

        Its file is parsed only when it reaches equinox or optax, or when `arguments_reach()` says
        the call hands it a module or a transformation (asked only then: it infers arguments)."""
        self._consulted = True
        found = self._function_lookup(qualified, from_file, True, hops)
        if isinstance(found, _Unreached):
            if not arguments_reach():
                return None
            found = self._function_lookup(qualified, from_file, False, hops)
        return None if isinstance(found, _Unreached) else found

    def _function_lookup(self, qualified: str, from_file: str | None, gated: bool,
                         hops: int) -> tuple[FunctionValue, Inference] | _Unreached | None:
        """One search, through re-exports; `_UNREACHED` when the gate stopped it at any hop,
        so the caller decides about an ungated search whichever hop the gate stopped."""
        module, _, name = qualified.rpartition(".")
        if hops > _MAX_REEXPORT_HOPS or qualified.split(".", 1)[0] in LIBRARIES or not module:
            return None
        folder = str(self._folder_of(from_file)) if from_file else ""
        key = (qualified, folder, gated)
        if key not in self._functions:
            self._functions[key] = self._find(
                module, name, from_file, _module_function, gated,
                lambda reexported, path: self._function_lookup(reexported, path, gated, hops + 1))
        return self._functions[key]

    def _find(self, module: str, name: str, from_file: str | None,
              pick: Callable[[Inference, str], _Found | None], gated: bool,
              reexport: Callable[[str, str], tuple[_Found, Inference] | _Unreached | None],
              admitted: Callable[[Path], bool] | None = None,
              ) -> tuple[_Found, Inference] | _Unreached | None:
        """`admitted`: files worth a parse though they never reach the libraries."""
        for path in self.candidate_files(module, from_file):
            if gated and not self._reach.reaches(self.real_path(path)) and not (
                    admitted is not None and admitted(self.real_path(path))):
                return _UNREACHED  # not worth a parse
            owner = self._inference_for(path)
            if owner is None:
                continue
            found = pick(owner, name)
            if found is not None:
                return found, owner
            # `from .models import Net` in a package's __init__.py: follow the re-export.
            reexported = owner.index.imports.aliases.get(name)
            if reexported is not None:
                return reexport(reexported, str(path))
            return None
        return None

    def project_files(self, module: str, from_file: str) -> list[Path]:
        """The project files `import module` in `from_file` may name; none for the libraries."""
        if module.lstrip(".") and module.split(".", 1)[0] in LIBRARIES:
            return []
        return self.candidate_files(module, from_file)

    def project_texts(self) -> dict[Path, str] | None:
        """Every project file's text (where callers are looked for); None when the project is
        too large for callers to be looked for."""
        return self._paths.project_texts()

    def candidate_files(self, module: str, from_file: str | None) -> list[Path]:
        """The project files `import module` may name, seen from `from_file`."""
        self._consulted = True
        return self._where.candidate_files(module, from_file)

    def _project_sources(self) -> dict[Path, str] | None:
        return self._paths.project_texts()

    def _folder_of(self, filename: str) -> Path:
        return self._where.folder_of(filename)

    def invocations_elsewhere(self, function: cst.FunctionDef, path: str,
                              constructed: str | None = None,
                              called: str | None = None) -> list[Invocation] | None:
        """The calls in other project files that run module-level `function` of `path` (or, with
        `constructed`, the `__init__` of that module-level class, run by calling the class; with
        `called`, calls of that module-level jit of it); None when they cannot all be seen (the
        project is too large, a file that names it does not parse, uses it other than in calls,
        or subclasses the class)."""
        target = self.real_path(path)
        name = constructed or called or function.name.value
        self._consulted = True
        self._words.add(name)
        key = (target, name)
        if key in self._callers:
            return self._callers[key]
        self._callers[key] = None  # asked again while collecting: unknown
        sources = self._project_sources()
        found: list[Invocation] | None = [] if sources is not None else None
        # A call by name runs the function only through an import that leads to its file
        # (directly, or through a package re-exporting it): a file that imports nothing leading
        # there calls a namesake or only mentions it, and is not worth a parse. In a project
        # checked one file at a time, most files naming a common name (`main`, `loss_fn`) are
        # such files. Only the imports of the files naming the function are followed.
        for file in self._files_naming(name, sources):
            if file == target or not self._reach.imports_transitively(file, target):
                continue
            if not self._reach.reaches(file):
                # A caller that never reaches equinox or optax passes on what it is given: not
                # worth a parse to learn that, and an argument not read is one not known.
                found = None
                break
            owner = self._inference_for(file)
            if owner is None:
                sites = None
            elif constructed is not None:
                sites = constructions_in_file(
                    owner, function, constructed, target,
                    imported_class(target, constructed, self._resolver(owner.path, True)))
            else:
                sites = invocations_in_file(owner, function, target,
                                            self._resolver(owner.path, classes=False), called)
            if sites is None:
                found = None
                break
            assert found is not None
            found.extend(sites)
        self._callers[key] = found
        return found

    def _files_naming(self, name: str, sources: dict[Path, str] | None) -> list[Path]:
        """The files of `sources` where `name` stands as a word, in their order there."""
        if sources is None:
            return []
        if _WORD.fullmatch(name) and (self._word_source is sources or self._index_words_at_once
                                      or self._scans >= _SCANS_BEFORE_WORD_INDEX):
            if self._word_source is not sources or self._word_files is None:
                self._word_files = {}
                for file, text in sources.items():
                    for word in distinct_words(text):
                        self._word_files.setdefault(word, []).append(file)
                self._word_source = sources
            return self._word_files.get(name, [])
        self._scans += 1
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        # `in` first: far cheaper than the regular expression on the many files without it.
        return [file for file, text in sources.items() if name in text and pattern.search(text)]

    def _resolver(self, origin: str | None, classes: bool) -> Resolver:
        """Resolves a name imported in file `origin` to its class or function definition."""
        def resolve(ref: LibraryRef) -> tuple[Any, Inference] | None:
            where = ref.origin or origin
            if classes:
                return self.resolve_class(ref.name, where)
            return self.resolve_function(ref.name, where, lambda: True)
        return resolve

    def analyse(self, text: str, filename: str) -> Inference:
        """Parse and index a file being linted (raises ParserSyntaxError).

        A file already parsed for a class lookup is not parsed again. Linted files are not kept
        for later lookups: holding every tree costs more (memory, and the garbage collector
        walking it) than parsing the few files that imports point at."""
        path = self.real_path(filename)
        self._linting = None
        found = self._files.get(path)
        if found is not None and self._texts.get(path) == text:
            # Parsed for another file's lookup: what it already inferred may come from others.
            self._consulted = True
            return found
        inference = self._index(parse_module(text), filename, text)
        self._linting = (path, text, weakref.ref(inference))
        return inference

    def linted(self) -> None:
        """The file `analyse` parsed is done with (the engine may release its tree next)."""
        self._linting = None

    def parsed_files(self) -> list[Path]:
        """The files parsed for class lookups so far, in the order they were parsed."""
        return [path for path, owner in self._files.items() if owner is not None]

    def keeps(self, inference: Inference) -> bool:
        """Whether `inference` is held for later class lookups (and so must stay whole)."""
        return any(held is inference for held in self._files.values())

    def _index(self, module: cst.Module, filename: str, text: str) -> Inference:
        from optlint.analysis.inference import Inference  # imported with the first file

        evaluator = Inference(build_index(module), self, filename, text)
        self._evaluators[filename] = evaluator
        if evaluator.index.imports.star_modules:
            from optlint.analysis.star_imports import fold_star_imports  # rare: imported lazily

            fold_star_imports(evaluator.index, self, filename)
        return evaluator

    def evaluator_for(self, path: str) -> Inference | None:
        """The evaluator of file `path`, which a value names as its defining file: the one alive
        now, else the file parsed afresh."""
        found = self._evaluators.get(path)
        return found if found is not None else self._inference_for(self.real_path(path))

    def hold(self, path: Path, inference: Inference, text: str, until: int) -> None:
        """Keep a linted file's tree for lookups by the files checked up to place `until`."""
        self._files[path], self._texts[path], self._held[path] = inference, text, until

    def drop_held(self, place: int) -> None:
        """Drop the held trees no file from `place` on will look up; one no lookup used is
        freed at once (see `FileIndex.release`); one a lookup used is referenced by what it
        found, and left to the collector."""
        for path, until in list(self._held.items()):
            if until < place:
                del self._held[path]
                dropped = self._files.pop(path, None)
                self._texts.pop(path, None)
                if dropped is not None and path not in self._served:
                    dropped.index.release()
                self._served.discard(path)

    def module_text(self, path: Path) -> str | None:
        """A project file's text, read as a dependency of the file being linted (None when
        it cannot be read)."""
        if path in self._texts:
            return self._texts[path]
        try:
            return decode(self._read(path), str(path)).text
        except (OSError, SourceError):
            return None

    def _inference_for(self, path: Path) -> Inference | None:
        if path in self._held:
            self._served.add(path)
        if path not in self._files:
            try:
                text = decode(self._read(path), str(path)).text
                self._files[path] = (self._being_linted(path, text)
                                     or self._index(parse_screened(text, str(path)), str(path),
                                                    text))
                self._texts[path] = text
            except (OSError, SourceError, cst.ParserSyntaxError, Unanalysable, RecursionError):
                self._files[path] = None
        return self._files[path]

    def _being_linted(self, path: Path, text: str) -> Inference | None:
        """The file being linted's evaluator when it is `path` with `text` (the text on disk):
        kept from here on as a looked-up file is, so the engine neither holds nor releases it."""
        if self._linting is None:
            return None
        linted_path, linted_text, linted = self._linting
        return linted() if linted_path == path and linted_text == text else None

def _module_class(owner: Inference, name: str) -> ClassInfo | None:
    info = owner.index.classes.get(name)
    return info if info is not None and info.scope is owner.index.module_scope else None


def _module_function(owner: Inference, name: str, hops: int = 0) -> FunctionValue | None:
    """The last module-level binding of `name`, when it is a plain `def` (decorated ones too,
    unless the decoration makes something else of them, as `@optax.inject_hyperparams` does),
    the `def` it binds the jit of, or the function another module-level name it is bound to
    names (`ask = ask_cma_strategy`, a public name kept for a renamed function)."""
    bindings = owner.index.module_scope.bindings.get(name)
    if bindings and bindings[-1].kind == "assign":
        alias = bindings[-1].value
        if (isinstance(alias, cst.Name) and not bindings[-1].path and alias.value != name
                and hops < _MAX_REEXPORT_HOPS):
            return _module_function(owner, alias.value, hops + 1)
        return module_jit_of(owner, name)  # `train_step = jax.jit(sgd_step)`: runs sgd_step
    if not bindings or bindings[-1].kind != "def":
        return None
    value = owner.value_of_binding(bindings[-1])
    return value if isinstance(value, FunctionValue) else None
