"""Output formats, one module each, imported when first used: `optlint --version` or a run
with nothing to report does not pay for the SARIF writer's rule catalogue."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from optlint.diagnostics import Diagnostic

Writer = Callable[[list[Diagnostic]], str]

# --output-format name -> the module under optlint.report whose `render` writes it
_MODULES = {"text": "text", "full": "full", "json": "json_format", "sarif": "sarif",
            "github": "github", "gitlab": "gitlab", "junit": "junit"}
FORMAT_NAMES = tuple(sorted(_MODULES))


def writer(name: str) -> Writer:
    render: Writer = importlib.import_module(f"optlint.report.{_MODULES[name]}").render
    return render
