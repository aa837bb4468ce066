"""Output formats, one module each; `FORMATS` maps the --output-format name to its writer."""

from __future__ import annotations

from collections.abc import Callable

from optlint.diagnostics import Diagnostic
from optlint.report import json_format, text

Writer = Callable[[list[Diagnostic]], str]

FORMATS: dict[str, Writer] = {
    "text": text.render,
    "json": json_format.render,
}
