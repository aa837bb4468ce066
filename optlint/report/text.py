"""`path:line:col: CODE message`, one line per finding."""

from __future__ import annotations

from optlint.diagnostics import Diagnostic


def location(diagnostic: Diagnostic) -> str:
    cell = f"cell {diagnostic.cell}:" if diagnostic.cell is not None else ""
    return f"{diagnostic.filename}:{cell}{diagnostic.line}:{diagnostic.column}"


def render(diagnostics: list[Diagnostic]) -> str:
    lines = [f"{location(d)}: {d.code}{' [*]' if d.fix else ''} {d.message}" for d in diagnostics]
    return "".join(line + "\n" for line in lines)
