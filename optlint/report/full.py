"""Each finding with the source line it starts on and a caret under it, and its fix title (the
fix's, or advice where there is no fix) on a `help:` line, as ruff's default output. The source is
read again from disk (findings carry no text); an .ipynb's finding, or a file that changed since,
is shown without the snippet (a MyST notebook's, with the file's line)."""

from __future__ import annotations

from collections.abc import Sequence

from pathlib import Path

from optlint.diagnostics import Diagnostic, NotChecked
from optlint.edits import source_lines
from optlint.report.text import headline
from optlint.source import SourceError, read_source


def _lines(filename: str, cache: dict[str, list[str] | None]) -> list[str] | None:
    if filename not in cache:
        try:
            cache[filename] = source_lines(read_source(Path(filename)).text)
        except (OSError, SourceError):
            cache[filename] = None
    return cache[filename]


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = (),
           unsafe_fixes: bool = False, color: bool = False) -> str:
    blocks = []
    files: dict[str, list[str] | None] = {}
    for d in diagnostics:
        block = [headline(d, unsafe_fixes, color)]
        # A MyST notebook's cells are lines of the file: the snippet is the file's line.
        line = d.line if d.file_line is None else d.file_line
        lines = _lines(d.filename, files) if d.cell is None or d.file_line is not None else None
        if lines is not None and line <= len(lines):
            code = lines[line - 1].rstrip("\r\n").expandtabs(1)
            width = len(code) - d.column + 1 if d.end.line != d.line else d.end.column - d.column
            gutter = " " * len(str(line))
            block += [f"{gutter} |", f"{line} | {code}",
                      f"{gutter} | {' ' * (d.column - 1)}{'^' * max(1, width)}"]
        if d.fix_title is not None:
            safety = " (unsafe)" if d.fix is not None and d.fix.applicability == "unsafe" else ""
            block.append(f"  help: {d.fix_title}{safety}")
        blocks.append("\n".join(block) + "\n")
    return "\n".join(blocks)
