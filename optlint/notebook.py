"""The Jupyter notebook format: code cells read as one program, fixed cells written back.

Mapping findings to cells, and everything else a check does with a notebook, is
`optlint.notebook_file.NotebookFile`'s; this module knows the format, not the linter.

The code cells are joined into one program, so a name defined in cell 2 is known in cell 5.
A comment line with a per-run token separates the cells; it lets the fixed program be cut back
into cells even when a fix added a line. IPython syntax (`%magic`, `%%cell magic`, `!shell`,
`x = !cmd`, `obj?`) is replaced, line for line, by `pass` or `x = __ipython_magic__` carrying a
numbered token comment, so the program parses, line numbers stay the same and the original lines
are put back before anything is written.

Writing back touches only the `source` of the cells a fix changed: the new value is spliced into
the original JSON text in the layout the old one had (string or list of lines, the same
separators), so outputs, metadata, key order, indentation and the trailing newline stay as they
were, byte for byte.

Cells are numbered from 1 counting every cell of the notebook (markdown too), as editors show
them. A `%` or `!` line counts as IPython only where a statement may start (not inside brackets,
a string or after a backslash), which a small scanner tracks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from optlint.edits import source_lines
from optlint.patterns import compiled
from optlint.records import record
from optlint.source import SourceError

NOTEBOOK_SUFFIX = ".ipynb"
MYST_SUFFIX = ".md"  # a MyST Markdown notebook (optlint.myst), when its front matter says so
# How the comment line between two cells of the program starts (a per-run token follows).
CELL_BOUNDARY = "# optlint-cell-boundary-"
_BOM = b"\xef\xbb\xbf"
# Cell magics whose body is Python (only their first line is IPython syntax).
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug"}
# Compiled when first used (`optlint.patterns`): a run that reads no notebook never uses them.
_CELL_MAGIC = r"\s*%%(\w+)"
_LINE_MAGIC = (
    r"(?P<indent>[ \t]*)(?:"
    r"[%!]"  # %magic, !shell
    r"|(?P<target>[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[%!]"  # x = !cmd, x = %magic
    r"|\?{1,2}[\w.]+\s*$|[\w.]+\?{1,2}\s*$)")  # ?obj, obj?? (help)


class NotebookError(SourceError):
    """A notebook that cannot be read, or a fixed program that cannot go back into its cells;
    reported as one line, the run goes on."""


@record(frozen=False)
class CodeCell:
    position: int  # index in the notebook's "cells" list (0-based)
    text: str  # the source as written
    first_line: int  # where the cell starts in the program (1-based)
    line_count: int  # lines it has there

    @property
    def number(self) -> int:
        return self.position + 1


@record(frozen=False)
class Notebook:
    raw: str  # the file's JSON text
    data: bytes  # the file's bytes
    encoding: str
    cells: list[CodeCell]
    program: str
    boundary: str  # the separator line between cells in the program, without newline
    magic_token: str
    magic_lines: list[str]  # the original IPython lines, by placeholder number


# reading -------------------------------------------------------------------------------------
def parse_notebook(data: bytes, path: str) -> Notebook | None:
    """A notebook from its file's bytes (a file or standard input), None for a notebook in
    another language; `path` names it in errors."""
    encoding = "utf-8-sig" if data.startswith(_BOM) else "utf-8"
    try:
        raw = data.decode(encoding)
        content = json.loads(raw)
    except (ValueError, RecursionError) as error:  # bad UTF-8 or JSON, nested too deep, a
        # number with more digits than Python converts
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise NotebookError(f"{path}: not a valid notebook: {reason}") from None
    if not isinstance(content, dict) or not isinstance(content.get("cells"), list):
        raise NotebookError(f"{path}: not a valid notebook: no list of cells (nbformat 4)")
    if _language(content) not in ("python", None):
        return None
    notebook = new_notebook(raw, data, encoding)
    for position, cell in enumerate(content["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            text = "".join(source)
        elif isinstance(source, str):
            text = source
        else:
            raise NotebookError(f"{path}: not a valid notebook: cell {position + 1}'s source is "
                                f"not text")
        add_code_cell(notebook, CodeCell(position, text, 0, 0),
                      foreign=_cell_language(cell) not in ("python", None))
    return notebook


def new_notebook(raw: str, data: bytes, encoding: str) -> Notebook:
    """A notebook with no code cell yet, read from `data` (`raw` decoded)."""
    import uuid  # only a notebook pays for it

    token = uuid.uuid4().hex[:12]
    return Notebook(raw, data, encoding, [], "", f"{CELL_BOUNDARY}{token}",
                    f"optlint-ipython-{token}", [])


def add_code_cell(notebook: Notebook, cell: CodeCell, foreign: bool = False) -> None:
    """Adds the next code cell (its `position` and `text` set) to the notebook's program, and
    sets where it is there. A `foreign` cell (in another language) is all placeholders."""
    cell.first_line = 1
    if notebook.cells:
        notebook.program += notebook.boundary + "\n"
        last = notebook.cells[-1]
        cell.first_line = last.first_line + last.line_count + 1
    code = _without_magics(cell.text, notebook, foreign)
    if code and not code.endswith("\n"):
        code += "\n"
    cell.line_count = code.count("\n")
    notebook.cells.append(cell)
    notebook.program += code


def _language(content: dict[str, Any]) -> str | None:
    """The notebook's language, where its metadata says; malformed metadata says nothing."""
    metadata = content.get("metadata")
    for table, key in (("language_info", "name"), ("kernelspec", "language")):
        found = metadata.get(table) if isinstance(metadata, dict) else None
        value = found.get(key) if isinstance(found, dict) else None
        if isinstance(value, str):
            return value.lower()
    return None


def _cell_language(cell: dict[str, Any]) -> str | None:
    """A cell's own language, where an editor's cell metadata names one: VS Code lets a Python
    notebook hold an R, SQL or Markdown-as-code cell (`vscode.languageId`), as do .NET
    Interactive and Polyglot notebooks."""
    metadata = cell.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for table, key in (("vscode", "languageId"), ("dotnet_interactive", "language"),
                       ("polyglot_notebook", "kernelName")):
        found = metadata.get(table)
        value = found.get(key) if isinstance(found, dict) else None
        if isinstance(value, str):
            return value.lower()
    return None


def _without_magics(text: str, notebook: Notebook, foreign: bool = False) -> str:
    """The cell as Python: IPython lines become placeholders (kept to be restored); a cell in
    another language (`foreign`, or a cell magic such as `%%bash`) is all placeholders."""
    # Python's lines: a form feed, U+2028 or \x1c inside a line (`a \f!= b`, a string) does
    # not start one, so what follows it is never taken for a `!` or `%` line.
    lines = source_lines(text)
    cell_magic = compiled(_CELL_MAGIC).match(lines[0]) if lines else None
    whole_cell = foreign or (cell_magic is not None
                             and cell_magic.group(1) not in _PYTHON_CELL_MAGICS)
    scanner = _StatementScanner()
    out: list[str] = []
    continuation: str | None = None  # the indent of a magic continued with a backslash
    for number, line in enumerate(lines):
        content = line.rstrip("\r\n")
        ending = line[len(content):]
        match = compiled(_LINE_MAGIC).match(content) if scanner.at_statement_start() else None
        if whole_cell or (number == 0 and cell_magic is not None):
            placeholder = "pass"
        elif continuation is not None:
            placeholder = continuation + "pass"
        elif match is not None:
            target = match.group("target")
            placeholder = match.group("indent") + (
                f"{target} = __ipython_magic__" if target else "pass")
        else:
            scanner.feed(content)
            out.append(line)
            continue
        indent = placeholder[:len(placeholder) - len(placeholder.lstrip())]
        continuation = indent if content.endswith("\\") else None
        out.append(f"{placeholder}  # {notebook.magic_token}:{len(notebook.magic_lines)}{ending}")
        notebook.magic_lines.append(content)
    return "".join(out)


class _StatementScanner:
    """Just enough of Python's tokenizer to tell whether the next line starts a statement:
    a `%` or `!` inside brackets, a string or after a backslash is Python, not IPython."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None  # the open string's quote: ', ", ''' or """
        self.backslash = False

    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.backslash

    def feed(self, line: str) -> None:
        at, comment = 0, False
        while at < len(line):
            char = line[at]
            if self.quote is not None:
                if char == "\\":
                    at += 2
                    continue
                if line.startswith(self.quote, at):
                    at += len(self.quote)
                    self.quote = None
                    continue
            elif char == "#":
                comment = True
                break
            elif char in "\"'":
                self.quote = line[at:at + 3] if line[at:at + 3] in ('"""', "'''") else char
                at += len(self.quote)
                continue
            elif char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            at += 1
        continued = line.endswith("\\") and not comment
        self.backslash = self.quote is None and continued
        if self.quote in ("'", '"') and not continued:
            self.quote = None  # a one-line string cannot go on past the line's end


# writing: cells back ----------------------------------------------------------------------
def fixed_cell_sources(notebook: Notebook, fixed_program: str) -> dict[int, str]:
    """The new source of each cell the fixed program changed, by the cell's position."""
    restored = _restore_magics(fixed_program, notebook)
    chunks = restored.split(notebook.boundary + "\n")
    if len(chunks) != len(notebook.cells):
        raise NotebookError("a fix moved a notebook cell boundary; nothing was written")
    changed: dict[int, str] = {}
    for cell, chunk in zip(notebook.cells, chunks, strict=True):
        if not cell.text.endswith("\n") and chunk.endswith("\n"):
            chunk = chunk[:-1]  # the newline the program needed, not the cell
        if chunk != cell.text:
            changed[cell.position] = chunk
    return changed


def _restore_magics(program: str, notebook: Notebook) -> str:
    placeholder = re.compile(rf"^[^\n]*# {notebook.magic_token}:(\d+)(?=\r?$)", re.MULTILINE)
    return placeholder.sub(lambda match: notebook.magic_lines[int(match.group(1))], program)


# writing: splice new sources into the original JSON text -------------------------------------
_decoder = json.JSONDecoder()
_SPACE = r"[ \t\n\r]*"
_NON_ASCII_ESCAPE = r"\\u(?!00[0-7])[0-9a-fA-F]{4}"


def splice_sources(raw: str, sources: dict[int, str]) -> str:
    """`raw` with the source of cell `position` replaced for each entry, all else untouched."""
    ensure_ascii = raw.isascii() and compiled(_NON_ASCII_ESCAPE).search(raw) is not None
    top = _skip(raw, 0)
    # A key given twice has its last value, as `json.loads` (and every JSON reader) takes it:
    # the cells that were analysed are the ones written.
    cells = [span for key, *span in _members(raw, top) if key == "cells"][-1]
    spans = []
    for position, (start, _) in enumerate(_items(raw, cells[0])):
        if position in sources:
            source = [span for key, *span in _members(raw, start) if key == "source"][-1]
            spans.append((source[0], source[1], sources[position]))
    pieces, done = [], 0
    for start, end, text in spans:
        pieces += [raw[done:start], _render_source(raw, start, end, text, ensure_ascii)]
        done = end
    return "".join(pieces) + raw[done:]


def _render_source(raw: str, start: int, end: int, text: str, ensure_ascii: bool) -> str:
    """`text` as a JSON value laid out like the old one at raw[start:end]."""
    if raw[start] == '"':
        return json.dumps(text, ensure_ascii=ensure_ascii)
    lines = re.findall(r"[^\n]*\n|[^\n]+$", text)
    if not lines:
        return "[]"
    items = list(_items(raw, start))
    if items:
        opening = raw[start + 1:items[0][0]]
        closing = raw[items[-1][1]:end - 1]
        separator = raw[items[0][1]:items[1][0]] if len(items) > 1 else "," + opening
    else:  # the old source was empty: indent one step deeper than the line holding the key
        line_start = raw.rfind("\n", 0, start) + 1
        indent = raw[line_start:_skip(raw, line_start)]
        step = raw[raw.find("\n") + 1:_skip(raw, raw.find("\n") + 1)] or " "
        opening, closing = "\n" + indent + step, "\n" + indent
        separator = "," + opening
    encoded = [json.dumps(line, ensure_ascii=ensure_ascii) for line in lines]
    return "[" + opening + separator.join(encoded) + closing + "]"


def _skip(text: str, at: int) -> int:
    match = compiled(_SPACE).match(text, at)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _members(text: str, start: int) -> Iterator[tuple[str, int, int]]:
    """(key, value start, value end) for each member of the object at text[start] == '{'."""
    at = _skip(text, start + 1)
    while text[at] != "}":
        key, at = _decoder.raw_decode(text, at)
        at = _skip(text, _skip(text, at) + 1)  # past the ':'
        end = _decoder.raw_decode(text, at)[1]
        yield key, at, end
        at = _skip(text, end)
        if text[at] == ",":
            at = _skip(text, at + 1)


def _items(text: str, start: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each element of the array at text[start] == '['."""
    at = _skip(text, start + 1)
    while text[at] != "]":
        end = _decoder.raw_decode(text, at)[1]
        yield at, end
        at = _skip(text, end)
        if text[at] == ",":
            at = _skip(text, at + 1)
