"""Which project files can hold anything optlint's rules look at, decided from text alone.

A class in another project file matters to the rules only if it is an Equinox module, a Flax or
Haiku model (whose parameter paths a decay mask is checked against), or holds Equinox or Optax
objects, and each needs its file to mention one of those libraries, or to import a project file
that does (a base class, a layer it builds). Following imports by a regular
expression over the text costs a fraction of a parse, so a class lookup parses its file only when
the file reaches those libraries; in a large package that never uses them (most of jax's own tree)
no file is parsed for a lookup at all. The run's import graph (optlint/import_graph.py) applies
these scans to each file once and answers which files reach the libraries.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from optlint.patterns import compiled

# A file that names none of these, and imports no project file that does, is not worth a parse
# for a lookup (the import graph, optlint/import_graph.py, answers which files reach them).
REACH_WORDS = ("equinox", "optax", "flax", "haiku")
# `from .a.b import c, d` / `from pkg.mod import (c, d)` / `import pkg.mod as m, other`
# An import starts a line or follows `;` or `:` (`import os; from .base import Base`,
# `if TYPE_CHECKING: from .base import Base`): checked before each match (`_statements`), as a
# pattern that starts with its keyword is searched for by the keyword alone, many times faster
# than one that is tried at every position. Matches inside strings and comments only cost a
# file read. This module's patterns are compiled when first used (`optlint.patterns`): a one-file
# check whose project has no other file to follow reads no import line.
_FROM_IMPORT = r"from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w \t,]*))"
_IMPORT = r"import[ \t]+([\w. \t,]+)"
_NAME_SEPARATORS = r"[\s,]+"
# A configuration class: a dataclass or NamedTuple, whose field defaults ("lbfgs", 0.9) may
# choose what a factory in another file builds.
_SETTINGS_CLASS = r"^[ \t]*@(?:dataclasses\.)?dataclass\b|\bNamedTuple\b"


def imported_modules(text: str) -> list[str]:
    """Every module an import statement in `text` may name, relative ones with their dots.

    `from . import a, b` may import the submodules `.a` and `.b`, so both are listed with `.`;
    an over-approximation only costs a file read."""
    modules: list[str] = []
    separators = compiled(_NAME_SEPARATORS)
    for match in _statements(compiled(_FROM_IMPORT), text):
        module = match.group(1)
        modules.append(module)
        separator = "" if module.endswith(".") else "."
        names = match.group(2) or match.group(3) or ""
        for name in separators.split(names):
            if name and name != "as":
                modules.append(f"{module}{separator}{name}")
    for match in _statements(compiled(_IMPORT), text):
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


def declares_settings(text: str) -> bool:
    """Whether `text` declares a configuration class (see `_SETTINGS_CLASS`): worth a parse when
    one of its classes is looked up, though it never reaches the libraries."""
    return compiled(_SETTINGS_CLASS, re.MULTILINE).search(text) is not None
