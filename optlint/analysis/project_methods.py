"""Which project files define a method of a given name, read from their texts without parsing
any: every indented `def` (a class's method, and a nested function besides, which only widens
the answer). A lookup that needs a class of another file to define `name` asks this first, and
evaluates nothing when no other file can (`key_foreign_methods.py`: `x.append(state)` on a
receiver the key analysis would otherwise evaluate, parsing the files it comes from).

No libcst here: the cache reads the same definitions (`method_word`) to tell when a file comes
to define a method that an earlier answer found defined nowhere else."""

from __future__ import annotations

import re
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Project

# An indented `def` (or `async def`): a method, never a module-level function. A class body
# is always indented, and `def` always starts its logical line.
_METHOD_DEF = re.compile(r"^[ \t\f]+(?:async[ \t\f]+)?def(?:[ \t\f]|\\\r?\n)+(\w+)",
                         re.MULTILINE)


def method_word(name: str) -> str:
    """The dependency word (`Dependencies.words`) standing for the files defining `name`."""
    return "def:" + name


def method_words(text: str) -> set[str]:
    """The dependency words of the methods `text` defines (see `method_word`)."""
    return {method_word(name) for name in _METHOD_DEF.findall(text)}


class ProjectMethods:
    """The project files defining each method name, from one reading of the project's texts."""

    def __init__(self, texts: dict[Path, str]) -> None:
        self.texts = texts  # what it was made from: made again for other texts
        self.files: dict[str, list[Path]] = {}
        for path, text in texts.items():
            if "def" in text:
                for name in set(_METHOD_DEF.findall(text)):
                    self.files.setdefault(name, []).append(path)

    def defined_besides(self, name: str, here: Path | None) -> bool:
        """Whether a project file other than `here` defines a method `name`."""
        files = self.files.get(name, ())  # each file once (`texts` is a dict)
        return len(files) > 1 or (len(files) == 1 and files[0] != here)


_MADE: weakref.WeakKeyDictionary[object, ProjectMethods] = weakref.WeakKeyDictionary()


def defined_elsewhere(project: Project | None, name: str, here: str | None) -> bool:
    """Whether a class of a project file other than `here` may define a method `name`: True
    when that cannot be told (no project, or one too large to read). A False answer rests on
    every project file's text, so the file being linted depends, for the cache, on the files
    defining `name` (none but itself now)."""
    if project is None:
        return True
    made = _methods_of(project)
    if made is None:
        return True
    if made.defined_besides(name, None if here is None else project.real_path(here)):
        return True
    project.depends_on(method_word(name))
    return False


def files_defining(project: Project, name: str) -> list[Path] | None:
    """The project files that may define a method `name` (None: the project is too large to
    read); the file being linted then depends on every file defining `name` (see
    `defined_elsewhere`)."""
    made = _methods_of(project)
    if made is None:
        return None
    project.depends_on(method_word(name))
    return list(made.files.get(name, ()))


def _methods_of(project: Project) -> ProjectMethods | None:
    """The project's method names, read once per reading of its texts (None: too large to read)."""
    texts = project.project_texts()
    if texts is None:
        return None
    made = _MADE.get(project)
    if made is None or made.texts is not texts:
        made = _MADE[project] = ProjectMethods(texts)
    return made
