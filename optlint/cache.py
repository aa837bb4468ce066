"""Results per file, kept between runs so that an unchanged project is not analysed again.

An entry holds one file's diagnostics, found under a key made of the settings that decide them
(rules, preview, library versions, optlint's own code) and the file's path; it is used only while
the file's content is the same and, when its analysis read other project files, while those are
the same: the files its imports reach (through their own imports), and, when the callers of one of
its functions were looked for, every project file mentioning that function's name. Editing one
file therefore re-analyses that file and the files that import it or call into it, nothing else.

A file edited while a run is in progress could be read by the analysis with one content and
hashed for the key with another: the analysis notes the hash of every project file it reads, and
results that consulted the project are stored only when those hashes are the ones the key uses.

Entries are written atomically (a temporary file, then a rename), so two runs at once never read
half an entry; an entry that cannot be read or does not match is ignored and rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
import time
import contextlib
from dataclasses import asdict, fields, is_dataclass
from pathlib import Path
from typing import Any

from optlint import __version__
from optlint.analysis.dependencies import Dependencies
from optlint.analysis.project_files import ProjectFiles
from optlint.analysis.project_methods import method_words
from optlint.analysis.reach import imported_modules
from optlint.diagnostics import Diagnostic, Edit, Fix, Location, Role
from optlint.lint_types import FileResult, LintOptions
from optlint.notebook import MYST_SUFFIX, NOTEBOOK_SUFFIX
from optlint.source import SourceError, decode, read_bytes
from optlint.sources import source_from_bytes


CACHE_FOLDER = ".optlint_cache"
_FORMAT = 3  # bumped when an entry's layout changes
_KEEP = "surrogateescape"  # a file name that is not UTF-8 is hashed as its bytes


def cache_folder(project_root: Path, configured: Path | None) -> Path:
    """`cache-dir` from the configuration, else $OPTLINT_CACHE_DIR/lint, else .optlint_cache/."""
    if configured is not None:
        return configured
    environment = os.environ.get("OPTLINT_CACHE_DIR")
    if environment:
        return Path(environment) / "lint"
    return project_root / CACHE_FOLDER


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _code_fingerprint() -> str:
    """optlint's own files (size and time): a changed rule must not reuse old results, even
    between two runs of one development version."""
    package = Path(__file__).parent
    stats = [f"{path.relative_to(package)}:{path.stat().st_size}:{path.stat().st_mtime_ns}"
             for path in sorted(package.rglob("*.py"))]
    return digest("\n".join(stats).encode("utf-8", _KEEP))


def _stable(value: Any) -> Any:
    """The same text for the same settings in every process (sets have no stable order)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _stable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    if isinstance(value, dict):
        return {str(key): _stable(item) for key, item in sorted(value.items(), key=str)}
    if isinstance(value, (list, tuple)):
        return [_stable(item) for item in value]
    return value if isinstance(value, (int, float, bool, type(None))) else str(value)


def settings_key(options: LintOptions) -> str:
    decided_by = json.dumps([_FORMAT, __version__, _code_fingerprint(), _stable(
        [options.selection, options.versions, options.respect_noqa, options.preview,
         options.max_file_size, str(options.project_root)])])
    return digest(decided_by.encode("utf-8", _KEEP))[:20]


# A stamp is trusted only when the file was already this much older than the moment it was
# hashed: a file written in the same clock tick as its hash (a coarse file system's mtime) could
# change again without its stamp changing; such a file is hashed again next run, then trusted.
_SETTLED_NS = 2_000_000_000
_STAMPS = "file-stamps"  # not `.json`: an entry is a file's result


def _stamp(path: Path) -> list[int] | None:
    """What says a file is unchanged without reading it: size, mtime, ctime (which no `touch`
    can set back) and inode (a file replaced by a rename); None for what is not a regular
    file."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino]


class FileStamps:
    """Per project file, kept between runs: its stamp, its content hash and the modules its
    imports name. A warm run takes both from here for every file whose stamp is the same, so it
    reads no file's content (as ruff decides from modification times)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._entries: dict[str, list[Any]] = {}
        self._changed = False
        if path is not None:
            with contextlib.suppress(OSError, ValueError, TypeError, RecursionError):
                loaded = json.loads(_read_entry(path))
                if isinstance(loaded, dict):
                    self._entries = loaded

    def facts(self, path: Path) -> tuple[str, list[str]] | None:
        """The content hash and imported modules of `path`, when its stamp says unchanged."""
        entry = self._entries.get(str(path))
        try:
            if entry is not None and entry[0] == _stamp(path) and \
                    entry[1] - entry[0][1] > _SETTLED_NS:
                return str(entry[2]), [str(module) for module in entry[3]]
        except (IndexError, TypeError):
            pass
        return None

    def record(self, path: Path, stamp: list[int] | None, content: str,
               modules: list[str], seen_ns: int) -> None:
        if stamp is not None:
            self._entries[str(path)] = [stamp, seen_ns, content, modules]
            self._changed = True

    def save(self) -> None:
        if self.path is not None and self._changed:
            with contextlib.suppress(OSError):
                _write_atomically(self.path, json.dumps(self._entries))
            self._changed = False


class ProjectState:
    """The project's files as they are now: content hashes, and what each file's imports reach.

    A fingerprint is asked for every cached file, so the import graph is condensed once per run
    (Tarjan's strongly connected components: files importing each other share one closure) and
    each component's fingerprint is built from its files and the components it imports."""

    def __init__(self, root: Path, stamps: FileStamps | None = None) -> None:
        self.root = root.resolve()
        self.stamps = stamps or FileStamps(None)
        self._index: ProjectFiles | None = None  # made when a cached result consulted the project
        self._hashes: dict[Path, str | None] = {}
        self._modules: dict[Path, list[str]] = {}  # what each file's imports name
        self._imports: dict[Path, list[Path]] = {}
        self._component_of: dict[Path, int] = {}
        self._component_hash: dict[int, str] = {}
        self._words: dict[Path, frozenset[str]] | None = None
        self._snapshot: str | None = None  # "": none to be had

    def snapshot(self) -> str | None:
        """Every project file's stamp, as one hash: the same in a later run, no file of the
        project was added, removed or changed, so no result that rests on them can have changed
        either, and none needs its import graph or its callers looked at again. None when a
        file is too new for its stamp to be trusted (or the project is too large)."""
        if self._snapshot is None:
            self._snapshot = ""
            paths = self.index.project_paths()
            now, stamps = time.time_ns(), []
            for path in paths or ():
                stamp = _stamp(Path(path))
                if stamp is not None and now - stamp[1] <= _SETTLED_NS:
                    return None
                stamps.append(f"{path}:{stamp}")
            if paths is not None:
                self._snapshot = digest("\n".join(stamps).encode("utf-8", _KEEP))
        return self._snapshot or None

    @property
    def index(self) -> ProjectFiles:
        # Where imports lead and what the files say, without parsing: a run whose every file is
        # unchanged imports no libcst.
        if self._index is None:
            self._index = ProjectFiles(self.root, remember=True)
        return self._index

    def content_hash(self, path: Path) -> str | None:
        if path not in self._hashes:
            self._learn(path)
        return self._hashes[path]

    def _learn(self, path: Path) -> None:
        """The file's content hash and imported modules: from its stamp when that is unchanged,
        else from its bytes (read once for both)."""
        known = self.stamps.facts(path)
        if known is not None:
            self._hashes[path], self._modules[path] = known
            return
        seen_ns, stamp = time.time_ns(), _stamp(path)
        try:
            data = read_bytes(path)
        except (OSError, SourceError):
            self._hashes[path], self._modules[path] = None, []
            return
        self._hashes[path] = digest(data)
        try:
            self._modules[path] = imported_modules(_program(data, path))
        except SourceError:
            self._modules[path] = []
        if stamp == _stamp(path):  # not changed while it was read
            self.stamps.record(path, stamp, self._hashes[path] or "", self._modules[path],
                               seen_ns)

    def _imports_of(self, path: Path) -> list[Path]:
        if path not in self._imports:
            if path not in self._modules:
                self._learn(path)
            self._imports[path] = sorted({found.resolve() for module in self._modules[path]
                                          for found in self.index.project_files(module,
                                                                                str(path))})
        return self._imports[path]

    def _condense(self, start: Path) -> None:
        """Tarjan's algorithm from `start`, iteratively (import chains can be long); assigns
        every file it reaches a component and every component its fingerprint."""
        order: dict[Path, int] = {}
        low: dict[Path, int] = {}
        stack: list[Path] = []
        on_stack: set[Path] = set()
        work = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                order[node] = low[node] = len(order)
                stack.append(node)
                on_stack.add(node)
            children = self._imports_of(node)
            if child < len(children):
                work.append((node, child + 1))
                nxt = children[child]
                if nxt in self._component_of:
                    continue
                if nxt not in order:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], order[nxt])
                continue
            for done in children:  # after the children: take their low links
                if done in on_stack:
                    low[node] = min(low[node], low[done])
            if low[node] == order[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                number = len(self._component_hash)
                for member in members:
                    self._component_of[member] = number
                parts = sorted(f"{m.as_posix()}:{self.content_hash(m)}" for m in members)
                below = sorted({self._component_hash[self._component_of[c]]
                                for m in members for c in self._imports_of(m)
                                if self._component_of.get(c, number) != number})
                joined = "\n".join(parts + below)
                self._component_hash[number] = digest(joined.encode("utf-8", _KEEP))

    def reach_hash(self, path: Path) -> str:
        """One hash for the file and every project file its imports reach."""
        if path not in self._component_of:
            self._condense(path)
        return self._component_hash[self._component_of[path]]

    def files_mentioning(self, words: tuple[str, ...]) -> list[Path] | None:
        """The project files whose text has one of `words` as a word, or defines the method a
        `def:NAME` word names (each text split into words once per run); None when the project
        is too large for callers to be sought."""
        if self._words is None:
            sources = self.index.project_texts()
            if sources is None:
                return None
            self._words = {path: frozenset(re.findall(r"\w+", text)) | method_words(text)
                           for path, text in sources.items()}
        return sorted(path for path, found in self._words.items()
                      if any(word in found for word in words))

    def fingerprint(self, path: Path, dependencies: Dependencies) -> str:
        """What the file's result depends on in the rest of the project, as one hash."""
        roots = [path]
        if dependencies.words:
            mentioning = self.files_mentioning(dependencies.words)
            if mentioning is None:
                return "too-large"  # callers were not looked for: nothing else to depend on
            roots.extend(mentioning)
        parts = [f"{root.as_posix()}:{self.reach_hash(root)}" for root in roots]
        return digest("\n".join([*dependencies.words, *parts]).encode("utf-8", _KEEP))


class LintCache:
    def __init__(self, folder: Path, options: LintOptions) -> None:
        self.folder = folder / settings_key(options)
        self.project = ProjectState(options.project_root, FileStamps(self.folder / _STAMPS))
        self.hits = 0

    def _entry_path(self, resolved: Path) -> Path:
        return self.folder / (digest(str(resolved).encode("utf-8", _KEEP))[:32] + ".json")

    def lookup(self, path: Path, resolved: Path | None = None) -> FileResult | None:
        """`resolved`: `path.resolve()`, where the caller has it (a warm run's costliest call)."""
        if path.suffix not in _CACHED_SUFFIXES:
            return None
        resolved = resolved or path.resolve()
        try:
            entry = json.loads(_read_entry(self._entry_path(resolved)))
            if entry["content"] != self.project.content_hash(resolved):
                return None
            dependencies = Dependencies(entry["consulted"], tuple(entry["words"]))
            # The project as a whole unchanged: no need to follow this file's imports.
            if dependencies.consulted and not (
                    entry.get("snapshot") is not None
                    and entry["snapshot"] == self.project.snapshot()) and \
                    entry["project"] != self.project.fingerprint(resolved, dependencies):
                return None
            diagnostics = [_diagnostic(item, str(path)) for item in entry["diagnostics"]]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            # Absent, corrupt, nested past the parser's depth, not a regular file, or written
            # by another layout: analyse again.
            return None
        self.hits += 1
        return FileResult(str(path), diagnostics=diagnostics)

    def store_all(self, results: dict[Path, FileResult]) -> None:
        """Store every result that holds for the project as this run sees it. A file the
        analysis read of the project (any worker, any file) that has other content now was
        edited during the run: a result that consulted the project may rest on the old content
        while its key would name the new, so none of those is stored."""
        unchanged = all(self.project.content_hash(Path(name).resolve()) == seen
                        for result in results.values() if result.dependencies is not None
                        for name, seen in result.dependencies.read)
        for path, result in results.items():
            if unchanged or (result.dependencies is not None
                             and not result.dependencies.consulted):
                self.store(path, result)
        self.project.stamps.save()

    def store(self, path: Path, result: FileResult) -> None:
        dependencies = result.dependencies
        if (path.suffix not in _CACHED_SUFFIXES or dependencies is None or result.content_hash is None
                or result.errors or result.internal_error or result.notices):
            return
        resolved = path.resolve()
        self.project.content_hash(resolved)  # its stamp, for the next run to trust
        entry = {"content": result.content_hash, "consulted": dependencies.consulted,
                 "words": list(dependencies.words),
                 "project": (self.project.fingerprint(resolved, dependencies)
                             if dependencies.consulted else None),
                 "snapshot": self.project.snapshot() if dependencies.consulted else None,
                 "diagnostics": [_plain(d) for d in result.diagnostics]}
        # A read-only or full disk costs the next run time, not this run's result.
        with contextlib.suppress(OSError):
            _write_atomically(self._entry_path(resolved), json.dumps(entry))


# A notebook's result is cached as a file's is: its key is the notebook's bytes, and what it
# depends on is found from the imports in its code cells. Uncached, the one notebook of a
# repository made every warm run import the engine (levanter: 216 files and one notebook).
# A MyST Markdown notebook (`.md`) is a notebook too.
_CACHED_SUFFIXES = (".py", NOTEBOOK_SUFFIX, MYST_SUFFIX)


def _program(data: bytes, path: Path) -> str:
    """The Python text whose imports the file's result may rest on (raises SourceError)."""
    if path.suffix in (NOTEBOOK_SUFFIX, MYST_SUFFIX):
        source = source_from_bytes(data, str(path))
        return "" if source is None else source.program
    return decode(data, str(path)).text


def _read_entry(path: Path) -> str:
    """An entry's text; OSError for anything but a regular file (a FIFO put in the cache folder
    would block the run on opening it, a device on reading it)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(f"{path}: not a regular file")
        return stream.read().decode("utf-8")


def _plain(diagnostic: Diagnostic) -> dict[str, Any]:
    plain = asdict(diagnostic)
    del plain["filename"]  # the same file may be named differently next time (./a.py, a.py)
    return plain


def _diagnostic(item: dict[str, Any], filename: str) -> Diagnostic:
    fix = item["fix"]
    return Diagnostic(
        item["code"], item["name"], item["message"], filename, Location(**item["start"]),
        Location(**item["end"]),
        None if fix is None else Fix(fix["applicability"], fix["message"], tuple(
            Edit(Location(**e["start"]), Location(**e["end"]), e["content"])
            for e in fix["edits"])),
        item["cell"],
        tuple(_role(r) for r in item["roles"]),
        fix_title=item["fix_title"], file_line=item.get("file_line"))


def _role(item: dict[str, Any]) -> Role:
    start, end = (Location(**item[at]) if item[at] else None for at in ("start", "end"))
    return Role(item["name"], item["text"], start, end, item.get("cell"))


def _write_atomically(target: Path, text: str) -> None:
    if not target.parent.is_dir():
        _make_entry_folder(target.parent)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_IGNORE_ALL = "# Created by optlint.\n*\n"


def _make_entry_folder(folder: Path) -> None:
    """The settings' folder, and the cache folder above it when it is missing. The cache is
    never something to commit, so each folder optlint creates gets a `*` .gitignore; a folder
    optlint did not create never does (`cache-dir = "."` is the project root: a `*` there would
    hide every file from git and from optlint's own discovery)."""
    top = folder.parent
    created_top = not top.exists()
    folder.mkdir(parents=True, exist_ok=True)
    for created in ([top] if created_top else []) + [folder]:
        ignore = created / ".gitignore"
        if not ignore.exists():
            ignore.write_text(_IGNORE_ALL, encoding="utf-8")
