"""The other project files whose text names a module-level function: where the key questions
that follow a function's uses past what the evaluator links (`key_factories_elsewhere`'s keys
given to a factory elsewhere, `key_step_callers`' loops of steps in other files) look."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Project


def files_naming(project: Project, function: cst.FunctionDef, path: str
                 ) -> tuple[dict[Path, str], list[Path]] | None:
    """Every project file's text, and the files other than `path` that name `function` as a
    word; None when the project is too large for its texts to be read."""
    # Asked first for what it records: the run depends on the files naming the function.
    project.invocations_elsewhere(function, path)
    texts = project.project_texts()
    if texts is None:
        return None
    name = function.name.value
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    here = Path(path).resolve()
    return texts, [file for file, text in texts.items()
                   if file.resolve() != here and name in text and pattern.search(text)]
