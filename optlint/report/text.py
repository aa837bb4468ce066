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


def headline(diagnostic: Diagnostic, unsafe_fixes: bool, color: bool) -> str:
    """`path:line:col: CODE [*] message`, coloured as ruff colours it when `color`."""
    place, code = location(diagnostic), diagnostic.code
    mark = fix_mark(diagnostic, unsafe_fixes)
    if color:
        place = _style(place, bold=True)
        code = _style(code, fg="red", bold=True)
        mark = _style(mark, fg="cyan") if mark else mark
    return f"{place}: {code}{mark} {diagnostic.message}"


def _style(text: str, **style: object) -> str:
    import click  # the CLI's own dependency; only coloured output pays for the import here

    return click.style(text, **style)  # type: ignore[arg-type]


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = (),
           unsafe_fixes: bool = False, color: bool = False) -> str:
    return "".join(headline(d, unsafe_fixes, color) + "\n" for d in diagnostics)
