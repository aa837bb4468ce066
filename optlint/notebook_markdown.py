"""jupytext's `markdown` format: a notebook kept as plain Markdown (`format_name: markdown` under
`jupyter: jupytext:` in the front matter), its code cells ```` ```python ```` blocks.

Cells are split as jupytext 1.19.6 splits them (`jupytext.cell_reader.MarkdownCellReader`,
format version 1.2 and later, read and followed here rule by rule; compared with it: the same
cells, numbers and code on the 18 such notebooks of Flax, wax-ml and blackjax at their mirrors'
HEAD, and on the tricky cases of tests/test_myst.py): a block at the start of a line whose info
string is a Jupyter language (`python`, `bash`, `R`, `html`, ...) is a code cell, ended by a fence
line that is not inside a string of its code; `<!-- #region -->` / `#md` / `#raw` ... `#end...`
comments enclose one cell; other text is markdown, split where two blank lines precede text, a
code cell or a region. The front matter is a raw cell first when it holds keys outside `jupyter:`.
A code cell in a language other than `python` is counted but not analysed (jupytext makes it a
`%%bash`, `%%html`, ... cell).
"""

from __future__ import annotations

import re

from optlint.edits import source_lines
from optlint.notebook_text import TextCell, front_matter

_BLANK = re.compile(r"\s*$")
# jupytext.languages._JUPYTER_LANGUAGES (1.19.6), and their upper case
_LANGUAGES = {
    "R", "bash", "c#", "c++", "clojure", "coconut", "cs", "csharp", "cython", "f#", "fs", "fsharp",
    "gnuplot", "go", "groovy", "haskell", "html", "idl", "java", "javascript", "jenner", "js",
    "julia", "latex", "logtalk", "lua", "markdown", "matlab", "maxima", "ocaml", "octave", "perl",
    "powershell", "pypy", "python", "python2", "python3", "q", "robotframework", "ruby", "rust",
    "sage", "sas", "scala", "scheme", "script", "sh", "sos", "spark", "sql", "stata", "svg", "tcl",
    "typescript", "wolfram language", "xonsh"}
_LANGUAGES |= {language.upper() for language in _LANGUAGES}
_CODE_START = re.compile(r"```(`*)(\s*)({})($|\s.*$)".format(
    "|".join(map(re.escape, sorted(_LANGUAGES, key=len, reverse=True)))))
_REGION_START = re.compile(r"<!--\s*#(region|markdown|md|raw)(.*)-->\s*$")
# The kernel's language: a block in any other (`python3` too) is run by a `%%` cell magic of
# that name once jupytext has made it a cell.
_PYTHON = {"python"}
# jupytext.languages._COMMENT (1.19.6): where a comment starts, by language; a quote after it is
# no string
_COMMENT = {
    "python": "#", "coconut": "#", "R": "#", "julia": "#", "c++": "//", "scheme": ";;",
    "clojure": ";;", "bash": "#", "powershell": "#", "q": "/", "matlab": "%",
    "wolfram language": "(*", "idl": ";", "javascript": "//", "typescript": "//", "scala": "//",
    "rust": "//", "robotframework": "#", "csharp": "//", "fsharp": "//", "sos": "#", "java": "//",
    "groovy": "//", "sage": "#", "ocaml": "(*", "haskell": "--", "tcl": "#", "maxima": "/*",
    "gnuplot": "#", "stata": "//", "sas": "/*", "jenner": "/*", "xonsh": "#", "logtalk": "%",
    "lua": "--", "go": "//"}


def markdown_cells(text: str) -> list[TextCell]:
    """The code cells of a notebook in jupytext's markdown format, each with its code and its
    place in the file (`program` positions are filled in by `add_code_cell`)."""
    with_endings = source_lines(text)
    lines = [line.rstrip("\r\n") for line in with_endings]
    size = front_matter(lines)
    # jupytext's `header_to_metadata_and_cell`: a line of the front matter outside `jupyter:`
    # (a blank one before it too) makes the front matter a raw cell of its own.
    inside, outside = False, False
    for line in lines[1:size - 1]:
        if re.match(r"jupyter\s*:\s*$", line):
            inside = True
        elif line and not line[0].isspace():
            inside = False
        outside = outside or not inside
    start = size + 1 if size < len(lines) and _BLANK.match(lines[size]) else size
    cells = _cells(lines, start, count=int(size > 0 and outside))
    for cell in cells:
        cell.text = "".join(with_endings[cell.file_start:cell.file_end])
    return cells


def _cells(lines: list[str], at: int, count: int) -> list[TextCell]:
    cells: list[TextCell] = []
    while at < len(lines):
        count += 1
        rest = lines[at:]
        code = _CODE_START.match(rest[0])
        region = _REGION_START.match(rest[0])
        if region is not None:
            end = re.compile(rf"<!--\s*#end{region.group(1)}\s*-->\s*$")
            marker = next((i for i, line in enumerate(rest) if end.match(line)), None)
            next_start, explicit = ((marker + 1, True) if marker is not None
                                    else (len(rest), False))
        elif code is not None:
            end_marker, next_start, explicit = _code_end(rest, "```" + code.group(1),
                                                         code.group(3))
            cells.append(TextCell(count - 1, "", 0, 0, file_start=at + 1,
                                  file_end=at + end_marker,
                                  foreign=code.group(3) not in _PYTHON))
        else:
            next_start, explicit = _markdown_end(rest)
        at += _next_cell(rest, next_start, explicit)
    return cells


def _code_end(lines: list[str], closing: str, language: str) -> tuple[int, int, bool]:
    strings = _Strings(python=language != "R", comment=_COMMENT.get(language))
    for index, line in enumerate(lines[1:], start=1):
        if strings.quoted():
            strings.read(line)
            continue
        strings.read(line)
        if line.startswith(closing):
            return index, index + 1, True
    return len(lines), len(lines), False


def _markdown_end(lines: list[str]) -> tuple[int, bool]:
    """Where the cell after a markdown cell starts, and whether an explicit end (two blank lines)
    ends it (jupytext's `MarkdownCellReader.find_cell_end`)."""
    blank_before = 0
    fence_close: str | None = None  # in a block that is no cell: what closes it
    indented = False
    for index, line in enumerate(lines):
        if fence_close is not None and re.match(fence_close, line):
            fence_close = None
            continue
        if blank_before and line.startswith("    ") and not _BLANK.match(line):
            indented, blank_before = True, 0
            continue
        if indented and not _BLANK.match(line) and not line.startswith("    "):
            indented = False
        if indented or fence_close is not None:
            continue
        if _REGION_START.match(line) or _CODE_START.match(line):
            return index, False
        if line.startswith("```"):
            if blank_before >= 2 and not line.startswith("```{"):
                return index, True
            fence_close, blank_before = r"```\s*$", 0
            continue
        if _BLANK.match(line):
            blank_before += 1
        elif blank_before >= 2:
            return index, True
        else:
            blank_before = 0
    return len(lines), False


def _next_cell(lines: list[str], start: int, explicit: bool) -> int:
    """Where the next cell starts: past one blank line before text, or two after an explicit
    end (jupytext's `find_cell_content`)."""
    if start + 1 < len(lines) and _BLANK.match(lines[start]) and not _BLANK.match(lines[start + 1]):
        return start + 1
    if (explicit and start + 2 < len(lines) and _BLANK.match(lines[start])
            and _BLANK.match(lines[start + 1]) and not _BLANK.match(lines[start + 2])):
        return start + 2
    return start


class _Strings:
    """jupytext's `StringParser`: whether a line starts inside a string, so that a fence line
    inside a triple-quoted string does not end a code cell."""

    def __init__(self, python: bool, comment: str | None) -> None:
        self.python, self.comment = python, comment
        self.single: str | None = None
        self.triple: str | None = None

    def quoted(self) -> bool:
        return bool(self.single or self.triple)

    def read(self, line: str) -> None:
        comment = self.comment
        if not self.quoted() and comment is not None and line.lstrip().startswith(comment):
            return
        triple_start = -1
        for index, char in enumerate(line):
            if (self.single is None and self.triple is None and comment is not None
                    and line.startswith(comment, index)):
                break
            if char not in "\"'" or line[index - 1:index] == "\\":
                continue
            if self.single == char:
                self.single = None
                continue
            if self.single is not None or not self.python:
                continue
            if line[index - 2:index + 1] == 3 * char and index >= triple_start + 3:
                if self.triple == char:
                    self.triple, triple_start = None, index
                elif self.triple is None:
                    self.triple, triple_start = char, index
                continue
            if self.triple is not None:
                continue
            self.single = char
        if self.python:
            self.single = None
