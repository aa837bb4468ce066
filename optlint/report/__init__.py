"""Output formats, one module each, imported when first used: `optlint --version` or a run
with nothing to report does not pay for the SARIF writer's rule catalogue."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

from optlint.diagnostics import Diagnostic, NotChecked

# (findings, files that could not be checked) -> the report. The text formats leave the files
# out: their errors are already on standard error.
Writer = Callable[[list[Diagnostic], list[NotChecked]], str]

# --output-format name -> the module under optlint.report whose `render` writes it
# (`concise` is ruff's name for the one-line format)
_MODULES = {"text": "text", "concise": "text", "full": "full", "json": "json_format", "sarif": "sarif",
            "github": "github", "gitlab": "gitlab", "junit": "junit"}
FORMAT_NAMES = tuple(sorted(_MODULES))


# Formats that mark the findings `--fix` would fix: whether unsafe fixes count depends on the run.
_MARKING = {"text", "full"}


def writer(name: str, unsafe_fixes: bool = False) -> Writer:
    module = importlib.import_module(f"optlint.report.{_MODULES[name]}")
    if _MODULES[name] in _MARKING:
        marking: Writer = functools.partial(module.render, unsafe_fixes=unsafe_fixes)
        return marking
    render: Writer = module.render
    return render
