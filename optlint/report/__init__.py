"""Output formats, one module each; `FORMATS` maps the --output-format name to its writer."""

from __future__ import annotations

from collections.abc import Callable

from optlint.diagnostics import Diagnostic
from optlint.report import github, json_format, sarif, text

Writer = Callable[[list[Diagnostic]], str]

FORMATS: dict[str, Writer] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
}
