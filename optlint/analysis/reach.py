"""Which project files can hold anything optlint's rules look at, decided from text alone.

A class in another project file matters to the rules only if it is an Equinox module, a Flax or
Haiku model (whose parameter paths a decay mask is checked against), or holds Equinox or Optax
objects, and each needs its file to mention one of those libraries, or to import a project file
that does (a base class, a layer it builds). Following imports by a regular
expression over the text costs a fraction of a parse, so a class lookup parses its file only when
the file reaches those libraries; in a large package that never uses them (most of jax's own tree)
no file is parsed for a lookup at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from optlint.source import SourceError, decode, read_bytes

_LIBRARY_WORDS = ("equinox", "optax", "flax", "haiku")
# `from .a.b import c, d` / `from pkg.mod import (c, d)` / `import pkg.mod as m, other`
# An import starts a line or follows `;` or `:` (`import os; from .base import Base`,
# `if TYPE_CHECKING: from .base import Base`): checked before each match (`_statements`), as a
# pattern that starts with its keyword is searched for by the keyword alone, many times faster
# than one that is tried at every position. Matches inside strings and comments only cost a
# file read.
_FROM_IMPORT = re.compile(
    r"from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w \t,]*))")
_IMPORT = re.compile(r"import[ \t]+([\w. \t,]+)")
_NAME_SEPARATORS = re.compile(r"[\s,]+")
# A configuration class: a dataclass or NamedTuple, whose field defaults ("lbfgs", 0.9) may
# choose what a factory in another file builds.
_SETTINGS_CLASS = re.compile(r"^[ \t]*@(?:dataclasses\.)?dataclass\b|\bNamedTuple\b",
                             re.MULTILINE)

# module name as written, importing file -> the project files it may name
CandidateFiles = Callable[[str, str], list[Path]]


def imported_modules(text: str) -> list[str]:
    """Every module an import statement in `text` may name, relative ones with their dots.

    `from . import a, b` may import the submodules `.a` and `.b`, so both are listed with `.`;
    an over-approximation only costs a file read."""
    modules: list[str] = []
    for match in _statements(_FROM_IMPORT, text):
        module = match.group(1)
        modules.append(module)
        separator = "" if module.endswith(".") else "."
        names = match.group(2) or match.group(3) or ""
        for name in _NAME_SEPARATORS.split(names):
            if name and name != "as":
                modules.append(f"{module}{separator}{name}")
    for match in _statements(_IMPORT, text):
        for part in match.group(1).split(","):
            words = part.split()
            if words:
                modules.append(words[0])
    return modules


def _statements(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern`'s matches that start a statement: at the start of a line or after `;` or `:`,
    past spaces and tabs (what `(?:^|[;:])[ \t]*` before the keyword would match, without
    trying that at every position of the text)."""
    position = 0
    while True:
        match = pattern.search(text, position)
        if match is None:
            return
        before = match.start() - 1
        while before >= 0 and text[before] in " \t":
            before -= 1
        if before < 0 or text[before] in "\n;:":
            yield match
            position = match.end()
        else:
            position = match.start() + 1


class LibraryReach:
    def __init__(self, candidate_files: CandidateFiles,
                 read: Callable[[Path], bytes] = read_bytes) -> None:
        self._candidate_files = candidate_files
        self._read = read
        self._reaches: dict[Path, bool] = {}
        self._facts: dict[Path, tuple[bool, list[Path]]] = {}

    def reaches(self, path: Path) -> bool:
        """Whether `path` mentions one of the libraries, or imports a project file that does
        (transitively)."""
        if path in self._reaches:
            return self._reaches[path]
        seen: set[Path] = set()
        pending = [path]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            mentions, imported = self._facts_of(current)
            if mentions or self._reaches.get(current):
                self._reaches[path] = True
                return True
            pending.extend(imported)
        # Nothing reachable from here mentions the libraries, so nothing reachable from any
        # file seen on the way does either.
        self._reaches.update(dict.fromkeys(seen, False))
        return False

    def declares_settings(self, path: Path) -> bool:
        """Whether the file declares a configuration class (see `_SETTINGS_CLASS`): worth a
        parse when one of its classes is looked up, though it never reaches the libraries."""
        try:
            text = decode(self._read(path), str(path)).text
        except (OSError, SourceError):
            return False
        return _SETTINGS_CLASS.search(text) is not None

    def _facts_of(self, path: Path) -> tuple[bool, list[Path]]:
        """Whether the file mentions the libraries, and the project files it imports."""
        if path not in self._facts:
            try:
                text = decode(self._read(path), str(path)).text
            except (OSError, SourceError):
                self._facts[path] = (False, [])
                return self._facts[path]
            mentions = any(word in text for word in _LIBRARY_WORDS)
            imported = [] if mentions else [
                candidate.resolve() for module in imported_modules(text)
                for candidate in self._candidate_files(module, str(path))]
            self._facts[path] = (mentions, imported)
        return self._facts[path]
