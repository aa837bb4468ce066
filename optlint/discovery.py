"""Which files to check: walk folders for .py/.pyi (and notebooks: .ipynb, and .md that declare
themselves one), skip excludes and .gitignore."""

from __future__ import annotations

import functools
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from optlint.config import Settings, invalid_pattern  # noqa: F401 - named from here too
from optlint.source import SourceError, read_bytes

if TYPE_CHECKING:
    import pathspec

# A `.md` found in a folder is read only when its front matter declares a Python notebook (MyST,
# `optlint.myst`); one named explicitly is kept, and checking it says why it is skipped, except
# under `force_exclude` (files a tool names one by one: pre-commit passes every staged `.md`),
# where it is left out as in a folder, quietly.
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb", ".md")
_MARKDOWN_SUFFIXES = (".md", ".markdown")  # identify's `markdown` tag, in any case


class DiscoveryError(Exception):
    pass


def _spec(patterns: list[str]) -> pathspec.PathSpec:
    return _compiled(tuple(patterns))


@functools.lru_cache(maxsize=256)
def _compiled(patterns: tuple[str, ...]) -> pathspec.PathSpec:
    # Git's own matching rules (the "gitwildmatch" name is deprecated in pathspec). Lines that
    # pathspec refuses but git accepts and never matches (`!`, `\`, `a\`) are left out. Each
    # line is compiled once (alone, to find those), and the same lists (the default excludes,
    # a .gitignore read for several walks) once per process. pathspec (40 ms with its imports)
    # is imported here: files named one by one (pre-commit's) match no pattern.
    import pathspec

    valid: list[Any] = []  # pathspec's pattern type for GitIgnoreSpec is not public
    for pattern in patterns:
        try:
            valid.extend(pathspec.GitIgnoreSpec.from_lines([pattern]).patterns)
        except (ValueError, TypeError):
            continue
    return pathspec.GitIgnoreSpec(valid)


def discover(paths: list[Path], settings: Settings, force_exclude: bool = False,
             suffixes: tuple[str, ...] = SOURCE_SUFFIXES,
             problems: list[str] | None = None,
             resolved: dict[Path, Path] | None = None) -> list[Path]:
    """Files to check, sorted, each once however it was named. A file named explicitly is kept
    unless `force_exclude` and the settings exclude it or it is a `.md` that declares no
    notebook. Folders that cannot be read are described in `problems`, when given;
    a path named explicitly that is not a regular file (a FIFO) is kept: reading it says why.
    `resolved`, when given, receives each file's resolved path (worked out here once: a
    `resolve` is a system call per path component, and later stages need it for every file)."""
    root = settings.project_root
    found: dict[Path, Path] = {}  # resolved -> as first named
    for path in paths:
        if not path.exists():
            raise DiscoveryError(f"{path}: no such file or directory")
        if not path.is_dir():
            if not (force_exclude and (excluded_by_settings(path, settings)
                                       or _plain_markdown(path))):
                found.setdefault(path.resolve(), path)
            continue
        excluded = _spec(settings.exclude + settings.extend_exclude)
        for file, real in _walk(path, root, excluded, settings.respect_gitignore, suffixes,
                                problems):
            found.setdefault(real, file)
    if resolved is not None:
        resolved.update((named, real) for real, named in found.items())
    return sorted(found.values())


def excluded_by_settings(path: Path, settings: Settings) -> bool:
    """Whether `exclude`/`extend-exclude` leave out this path (a file named by --stdin-filename
    with --force-exclude: editors pipe every buffer and rely on the linter to skip)."""
    return _is_excluded(path, settings.project_root,
                        _spec(settings.exclude + settings.extend_exclude))


def _is_excluded(path: Path, base: Path, excluded: pathspec.PathSpec) -> bool:
    """Whether a pattern matches the path relative to `base` (the project root, or the folder
    named on the command line when that folder is itself under an excluded one)."""
    return _is_excluded_resolved(path.resolve(), base, excluded)


def _is_excluded_resolved(resolved: Path, base: Path, excluded: pathspec.PathSpec) -> bool:
    try:
        relative = resolved.relative_to(base).as_posix()
    except ValueError:
        relative = resolved.as_posix().lstrip("/")
    return excluded.match_file(relative)


def _walk(top: Path, root: Path, excluded: pathspec.PathSpec, respect_gitignore: bool,
          suffixes: tuple[str, ...], problems: list[str] | None) -> list[tuple[Path, Path]]:
    """Each file found, as named from `top` and resolved."""
    found: list[tuple[Path, Path]] = []
    # (folder, spec) pairs of the .gitignore files in force, from the root down.
    ignores: list[tuple[Path, pathspec.PathSpec]] = []
    if respect_gitignore:
        ignores = _repository_excludes(top.resolve()) + _parent_gitignores(top.resolve(), root)
    # A folder named explicitly is checked even inside an excluded one (a site-packages tree).
    base = top.resolve() if _is_excluded(top, root, excluded) else root
    def unreadable(error: OSError) -> None:
        if problems is not None:
            problems.append(f"{error.filename}: cannot read folder: {error.strerror or error}")

    for folder, dirnames, filenames in os.walk(top, onerror=unreadable):
        folder_path = Path(folder)
        resolved = folder_path.resolve()
        if respect_gitignore:
            ignores = [(base, spec) for base, spec in ignores
                       if base == resolved or base in resolved.parents]
            local = resolved / ".gitignore"
            if local.is_file():
                ignores.append((resolved, _spec(_lines(local))))
        # Children are matched by their path inside the resolved folder (one `resolve` per
        # folder, not per file): a symbolic link is excluded or ignored by its own name.
        kept_dirs = []
        for name in sorted(dirnames):
            child = resolved / name
            if (_is_excluded_resolved(child, base, excluded)
                    or _gitignored(child, ignores, True)):
                continue
            kept_dirs.append(name)
        dirnames[:] = kept_dirs
        for name in sorted(filenames):
            if not name.endswith(suffixes):
                continue
            child = resolved / name
            if _is_excluded_resolved(child, base, excluded) or _gitignored(child, ignores, False):
                continue
            real = _regular_file(child)
            if real is not None and (not name.endswith(".md") or _myst_notebook(real)):
                found.append((folder_path / name, real))
    return found


def _plain_markdown(path: Path) -> bool:
    """A Markdown file (any that pre-commit's `markdown` type names) that optlint does not read
    as a notebook: only a `.md` whose front matter declares one is read."""
    if path.suffix.lower() not in _MARKDOWN_SUFFIXES:
        return False
    return path.suffix != ".md" or not _myst_notebook(path)


def _myst_notebook(path: Path) -> bool:
    from optlint.myst import declares_python_notebook  # only a tree with `.md` files pays

    return declares_python_notebook(path)


def _lines(ignore_file: Path) -> list[str]:
    try:
        return read_bytes(ignore_file).decode(errors="replace").splitlines()
    except SourceError:
        return []  # git, too, goes on without a .gitignore it cannot read


def _regular_file(path: Path) -> Path | None:
    """The resolved path of a regular file (through links) in a resolved folder; None for what
    is not one: a FIFO or a socket found in a folder is no source, and reading one would wait
    forever. Only a link needs resolving: anything else is itself in a resolved folder."""
    try:
        status = os.lstat(path)
        if stat.S_ISLNK(status.st_mode):
            status = os.stat(path)
            path = path.resolve()
    except OSError:
        return path.resolve()  # a broken link: reading it gives the one-line error
    return path if stat.S_ISREG(status.st_mode) else None


def _parent_gitignores(top: Path, root: Path) -> list[tuple[Path, pathspec.PathSpec]]:
    """The .gitignore files between the project root and the folder we start walking in."""
    chain = [folder for folder in [top, *top.parents] if folder == root or root in folder.parents]
    specs = []
    for folder in reversed(chain[1:]):
        ignore_file = folder / ".gitignore"
        if ignore_file.is_file():
            specs.append((folder, _spec(_lines(ignore_file))))
    return specs


def _repository_excludes(top: Path) -> list[tuple[Path, pathspec.PathSpec]]:
    """The repository's `.git/info/exclude` (git's per-clone ignore file), anchored at the
    repository's root, for the repository the walk starts in."""
    for folder in [top, *top.parents]:
        exclude = folder / ".git" / "info" / "exclude"
        if (folder / ".git").exists():
            return [(folder, _spec(_lines(exclude)))] if exclude.is_file() else []
    return []


def _gitignored(path: Path, ignores: list[tuple[Path, pathspec.PathSpec]], is_dir: bool) -> bool:
    for base, spec in ignores:
        relative = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        if spec.match_file(relative):
            return True
    return False
