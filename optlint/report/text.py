"""`path:line:col: CODE message`, one line per finding."""

from __future__ import annotations

from collections.abc import Sequence

from optlint.diagnostics import Diagnostic, NotChecked


def location(diagnostic: Diagnostic) -> str:
    cell = f"cell {diagnostic.cell}:" if diagnostic.cell is not None else ""
    return f"{diagnostic.filename}:{cell}{diagnostic.line}:{diagnostic.column}"


def fix_mark(diagnostic: Diagnostic, unsafe_fixes: bool) -> str:
    """` [*]` when `--fix` would apply the finding's fix (an unsafe one only with
    `--unsafe-fixes`), as ruff marks them; nothing otherwise."""
    fix = diagnostic.fix
    applies = fix is not None and (fix.applicability == "safe" or unsafe_fixes)
    return " [*]" if applies else ""


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = (),
           unsafe_fixes: bool = False) -> str:
    lines = [f"{location(d)}: {d.code}{fix_mark(d, unsafe_fixes)} {d.message}"
             for d in diagnostics]
    return "".join(line + "\n" for line in lines)
