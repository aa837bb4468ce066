"""Where a project's files are, without parsing any: the files an `import` names, and every
file's text. No libcst here, so a warm `check` (every result cached) can decide what changed
without importing the parser."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from optlint.source import SourceError, decode, read_bytes

# Imports from these packages are never project files.
LIBRARIES = ("jax", "jaxlib", "optax", "equinox", "numpy", "flax", "haiku", "torch", "typing",
             "functools", "collections", "dataclasses", "jaxtyping", "math", "os", "sys")
# Looking for a function's callers reads every project file's text once; past this many files the
# project is too large to be sure every caller was seen, and callers stay unknown.
MAX_CALLER_FILES = 4000
_SKIPPED_FOLDERS = {"node_modules", "site-packages", "__pycache__", "build", "dist", "venv"}


class ProjectFiles:
    def __init__(self, root: Path, read: Callable[[Path], bytes] = read_bytes,
                 remember: bool = False) -> None:
        """`remember`: where an import leads is worked out once (for a run, whose files stay
        where they are; not for the language server, where files come and go)."""
        self.root = root.resolve()
        self._read = read
        self._found: dict[tuple[str, Path | None], list[Path]] | None = {} if remember else None
        self._files: dict[str, bool] | None = {} if remember else None  # path -> is a file
        # folder -> the names of its entries (`_listing`)
        self._listings: dict[str, frozenset[str] | None] | None = {} if remember else None
        self._roots: dict[Path | None, list[Path]] = {}  # importing folder -> where to look
        self._folders: dict[str, Path] = {}  # file name -> its resolved folder
        # Each resolved folder as one object: the memos keyed by a folder (`_found`, `_roots`)
        # then match it by identity, not by pathlib's `__eq__` (Python code, thousands of times
        # a run).
        self._same_folder: dict[Path, Path] = {}
        self._sources: dict[Path, str] | None = None  # every project file's text, for callers
        self._too_large = False  # more files than callers are looked for in
        self._walked: tuple[list[str] | None] | None = None  # see `_walk`

    def project_files(self, module: str, from_file: str) -> list[Path]:
        """The project files `import module` in `from_file` may name; none for the libraries."""
        if module.lstrip(".") and module.split(".", 1)[0] in LIBRARIES:
            return []
        return self.candidate_files(module, from_file)

    def candidate_files(self, module: str, from_file: str | None) -> list[Path]:
        """The project files `import module` may name, seen from `from_file`."""
        relative = len(module) - len(module.lstrip("."))
        if self._found is not None:
            key = (module, None if from_file is None else self.folder_of(from_file))
            if key not in self._found:
                self._found[key] = self._candidate_files(module, from_file, relative)
            return self._found[key]
        return self._candidate_files(module, from_file, relative)

    def _candidate_files(self, module: str, from_file: str | None,
                         relative: int) -> list[Path]:
        parts = tuple(part for part in module.lstrip(".").split(".") if part)
        if relative:
            if from_file is None:
                return []
            base = self.folder_of(from_file)
            for _ in range(relative - 1):
                base = base.parent
            bases = [base]
        elif self._files is not None:
            # The roots depend on the importing file's folder alone: worked out once per folder.
            folder = None if from_file is None else self.folder_of(from_file)
            bases = self._roots.get(folder) or self._roots.setdefault(
                folder, self._search_roots(from_file))
        else:
            bases = self._search_roots(from_file)
        found: list[Path] = []
        for base in bases:
            found.extend(self._under(base, parts))
        return found

    def _under(self, base: Path, parts: tuple[str, ...]) -> list[Path]:
        """The files `parts` names under folder `base`: the module's file or its package's
        `__init__.py`."""
        if not parts:  # `from . import x`: the folder's own module, as pathlib names it
            candidates = [str(base.with_suffix(".py")), os.path.join(base, "__init__.py")]
        elif not self._may_hold(str(base), parts):
            return []
        else:  # strings, not Paths: a run asks this thousands of times
            target = os.path.join(base, *parts)
            candidates = [target + ".py", os.path.join(target, "__init__.py")]
        return [Path(candidate) for candidate in candidates if self._is_file(candidate)]

    def _may_hold(self, folder: str, parts: tuple[str, ...]) -> bool:
        """False when a folder on the way to `parts` under `folder` has no entry of that name:
        most imports name other libraries, looked for under every search root, and one listing
        per folder answers them all. True only means "look": the files are then asked for."""
        if self._listings is None:
            return True
        for number, part in enumerate(parts):
            names = self._listing(folder)
            if names is None:
                return True  # unreadable here: ask for the files themselves
            wanted = part.casefold()  # a case-insensitive file system may find `Foo` as `foo`
            if wanted not in names and (number < len(parts) - 1
                                        or wanted + ".py" not in names):
                return False
            folder = os.path.join(folder, part)
        return True

    def _listing(self, folder: str) -> frozenset[str] | None:
        """The names in `folder`, case-folded (none when it is no folder); None when it cannot
        be listed."""
        assert self._listings is not None
        if folder not in self._listings:
            try:
                self._listings[folder] = frozenset(name.casefold() for name in os.listdir(folder))
            except (FileNotFoundError, NotADirectoryError):
                self._listings[folder] = frozenset()
            except OSError:
                self._listings[folder] = None
        return self._listings[folder]

    def _is_file(self, path: str) -> bool:
        if self._files is None:
            return os.path.isfile(path)
        known = self._files.get(path)
        if known is None:
            known = self._files[path] = os.path.isfile(path)
        return known

    def project_paths(self) -> list[str] | None:
        """Every Python file under the project root (as `project_texts` finds them), read
        nowhere; None past MAX_CALLER_FILES."""
        walked = self._walk()
        return None if walked is None else sorted(walked)

    def _walk(self) -> list[str] | None:
        """Every Python file under the project root in the order the walk meets them (one walk
        per instance); None past MAX_CALLER_FILES."""
        if self._walked is None:
            paths: list[str] = []
            for folder, subfolders, files in os.walk(self.root):
                subfolders[:] = [name for name in subfolders if not name.startswith(".")
                                 and name not in _SKIPPED_FOLDERS]
                paths.extend(os.path.join(folder, name) for name in files if name.endswith(".py"))
                if len(paths) > MAX_CALLER_FILES:
                    self._walked = (None,)
                    return None
            self._walked = (paths,)
        return self._walked[0]

    def project_texts(self) -> dict[Path, str] | None:
        """The text of every Python file under the project root; None when there are too many
        for callers to be looked for. Too many is known from the folders' listings, before any
        file is read: a one-file run in a large folder without a project of its own (a home
        directory) read 4,000 files and then dropped them."""
        if self._sources is None:
            walked = self._walk()
            if walked is None:
                self._sources, self._too_large = {}, True
                return None
            sources: dict[Path, str] = {}
            for name in walked:
                file = walked_file(name)
                try:
                    sources[file] = decode(self._read(file), str(file)).text
                except (OSError, SourceError):
                    continue
            self._sources = sources
        return None if self._too_large else self._sources

    def know_folders(self, resolved: Mapping[Path, Path]) -> None:
        """Each file's resolved folder, from its path as named -> its resolved path (see
        `ImportGraph.know_resolved`)."""
        for named, real in resolved.items():
            folder = self._same_folder.setdefault(real.parent, real.parent)
            self._folders[str(named)] = self._folders[str(real)] = folder

    def folder_of(self, filename: str) -> Path:
        # Resolving costs a system call per path component; lookups repeat the same few files.
        folder = self._folders.get(filename)
        if folder is None:
            found = Path(filename).resolve().parent
            folder = self._folders[filename] = self._same_folder.setdefault(found, found)
        return folder

    def _search_roots(self, from_file: str | None) -> list[Path]:
        """The importing file's folder and its parents up to the project root, and `src/`."""
        roots: list[Path] = []
        if from_file is not None:
            folder = self.folder_of(from_file)
            while True:
                roots.append(folder)
                if folder == self.root or folder.parent == folder or self.root not in folder.parents:
                    break
                folder = folder.parent
        for extra in (self.root, self.root / "src"):
            if extra not in roots:
                roots.append(extra)
        return roots


def walked_file(name: str) -> Path:
    """`Path(name).resolve()` for a file the walk of the (resolved) project root found: the walk
    enters no linked folder, so only the file itself may be a link. One system call rather than
    one per path component (a one-file run in this repository resolved 1,100 files)."""
    return Path(name).resolve() if os.path.islink(name) else Path(name)


def file_stamp(path: Path) -> tuple[int, int] | None:
    """(size, mtime) of a file read for an analysis, None when it is gone: a long-lived linter
    (the language server's) compares them to know when to rebuild."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns
