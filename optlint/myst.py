"""MyST Markdown notebooks: a `.md` file whose front matter declares it a notebook (jupytext's
`myst` format, MyST-NB), its ```` ```{code-cell} ```` blocks the code cells.

JAX's own documentation, QuantEcon's lectures and many tutorials are written this way (jupytext
pairs them with an .ipynb). A `.md` is a notebook only by its own declaration, read from the
front matter alone: a `jupytext:` section whose `text_representation` is the `myst` format, a
`kernelspec:` whose language is Python or not named, or MyST-NB's `file_format: mystnb`; either
may sit under `jupyter:`. Any other
`.md` (a README, prose) is never read as code. jupytext's plain `markdown` format (```` ```python
```` blocks) is read too, its cells found by `optlint.notebook_markdown`; its other formats are
not.

Cells are found as jupytext finds them (`jupytext.myst.myst_to_notebook`, read from jupytext
1.19.6 and compared with it: the same cells, numbers and code on all 197 MyST notebooks of
QuantEcon's lecture-jax and lecture-python-programming, JAX, Flax, jaxopt, learned_optimization,
blackjax, the sampling book, bonsai, jaqmc and jax-ai-stack at their mirrors' HEAD; the tricky
cases are in tests/test_myst.py): a fence at the top
level (```` ``` ```` or `~~~`, three or more) whose info string starts with `{code-cell}` is a
code cell, `{raw-cell}` a raw cell; the text between cells, split at `+++` lines, is a markdown
cell when it is not blank. Cells are numbered from 1 counting all of them, as Jupyter shows the
notebook jupytext opens. A code cell's MyST options (`:tags: [...]` lines, or a `---`-fenced YAML
block) are not code, nor is one blank line after them. A fence indented inside a list item is
not a cell (jupytext skips nested blocks; a list is followed as far as a line scanner can). A
code cell whose fence is indented (one to three spaces, outside a list), or whose lexer is not
Python's, is counted but not analysed, as a cell in another language is in an .ipynb: its code
is the file's lines less the indent, which would put findings and fixes in the wrong columns.

The code cells become an `optlint.notebook.Notebook` (one program, IPython lines replaced) whose
cells also know their lines in the file, so fixed cells go back into those lines and nothing else
of the file changes.
"""

from __future__ import annotations

import re
from pathlib import Path

from optlint.edits import source_lines
from optlint.notebook import Notebook, NotebookError, add_code_cell, new_notebook
from optlint.notebook_text import TextCell, front_matter
from optlint.records import record
from optlint.source import SourceError, read_head

_BOM = b"\xef\xbb\xbf"
_FENCE = re.compile(r"(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_BLOCK_BREAK = re.compile(r" {0,3}\+[ \t]*\+[ \t]*\+")  # mdit-py-plugins' myst block break
_OPTIONS_END = re.compile(r"-{3,}")
_LIST_ITEM = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_PYTHON_LEXER = re.compile(r"(?:i?python[23]?|py3?)?", re.IGNORECASE)
_KEY = re.compile(r"(?P<indent> *)(?P<key>[\w-]+|\"[^\"]*\"|'[^']*')[ \t]*:(?:[ \t]+(?P<value>.*))?$")


@record
class Declaration:
    """What a `.md` file's front matter says it is."""

    notebook: bool
    language: str | None  # the kernel's, lowercase, where it is named
    format: str | None = None  # jupytext's `format_name`, where it is named

    @property
    def read(self) -> bool:
        return self.notebook and self.language in ("python", None) and self.format in (
            "myst", "markdown", None)

    def reason(self) -> str:
        """Why a `.md` is not read, for the notice given when it was named explicitly."""
        if self.notebook and self.language not in ("python", None):
            return f"a notebook in another language ({self.language}); not checked"
        if self.notebook:
            return (f"a notebook in jupytext's `{self.format}` format, which optlint does not "
                    f"read (MyST and jupytext's markdown format only); not checked")
        return ("not a notebook (its front matter declares no `jupytext:` MyST format and no "
                "Python `kernelspec:`); not checked")


# the front matter ----------------------------------------------------------------------------
def declaration(text: str) -> Declaration:
    """What the front matter of `text` (the file, or its first lines) declares."""
    lines = text.splitlines()
    size = front_matter(lines)
    values = _scalars(lines[1:size - 1]) if size else {}

    def value(path: str) -> str | None:
        found = values.get(path, values.get("jupyter." + path))
        return found.lower() if found is not None else None

    language = value("kernelspec.language")
    # MyST-NB's own header may name the kernel only (`kernelspec: {name: python3}`): a notebook
    # whose language is not said, read as Python as an .ipynb without language metadata is (a
    # cell in another language says so by its lexer).
    kernel = any(path.startswith(("kernelspec.", "jupyter.kernelspec.")) for path in values)
    form = value("jupytext.text_representation.format_name")
    version = value("jupytext.text_representation.format_version")
    if form == "markdown" and version in ("1.0", "1.1"):
        form = f"markdown {version}"  # its cells were split by other rules
    notebook = form is not None or kernel or value("file_format") == "mystnb"
    return Declaration(notebook, language, form)


def declares_python_notebook(path: Path) -> bool:
    """Whether the `.md` at `path` is a Python notebook by its front matter, reading only the
    file's first bytes (discovery asks this of every `.md` in a tree). False for a file that
    cannot be read: named explicitly, reading it says why."""
    try:
        head = read_head(path, _head_size)
    except SourceError:
        return False
    return declaration(_decoded(head)).read


def _head_size(head: bytes) -> bool:
    """Whether `head`, the file's first bytes, holds its whole front matter (or has none)."""
    text = _decoded(head)
    return not text.startswith("---") or front_matter(text.splitlines()) > 0


def _decoded(data: bytes) -> str:
    return data[len(_BOM):].decode("utf-8", errors="replace") if data.startswith(_BOM) \
        else data.decode("utf-8", errors="replace")


def _scalars(lines: list[str]) -> dict[str, str]:
    """The scalar values of a block-style YAML mapping, by dotted path (`kernelspec.language`);
    flow mappings (`{language: python}`) one level deep. Enough for the keys jupytext and
    MyST-NB write, without a YAML parser."""
    values: dict[str, str] = {}
    parents: list[tuple[int, str]] = []
    for line in lines:
        match = _KEY.match(line)
        if match is None:
            continue  # a comment, a list item, a continued value
        indent, key = len(match["indent"]), match["key"].strip("\"'")
        while parents and parents[-1][0] >= indent:
            parents.pop()
        path = ".".join([name for _, name in parents] + [key])
        value = _without_comment(match["value"] or "")
        if not value:
            parents.append((indent, key))
        elif value.startswith("{") and value.endswith("}"):
            for item in value[1:-1].split(","):
                name, _, inner = item.partition(":")
                values[f"{path}.{name.strip().strip(chr(34) + chr(39))}"] = _unquoted(inner)
        else:
            values[path] = _unquoted(value)
    return values


def _without_comment(value: str) -> str:
    return re.sub(r"(^|\s)#.*$", "", value).strip() if not value.startswith(("'", '"')) \
        else value.strip()


def _unquoted(value: str) -> str:
    value = value.strip()
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'" \
        else value


# reading -------------------------------------------------------------------------------------
def parse_myst(data: bytes, name: str) -> Notebook | None:
    """The MyST notebook in `data`, its cells `TextCell`s; None when the front matter does not
    declare a Python notebook. Raises NotebookError for bytes that are not UTF-8."""
    encoding = "utf-8-sig" if data.startswith(_BOM) else "utf-8"
    try:
        raw = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise NotebookError(f"{name}: cannot decode: {error}") from None
    if not declaration(raw).read:
        return None
    notebook = new_notebook(raw, data, encoding)
    for cell in notebook_cells(raw):
        add_code_cell(notebook, cell, cell.foreign)
    return notebook


def notebook_cells(text: str) -> list[TextCell]:
    """The code cells of a Markdown notebook: MyST's, or jupytext's markdown format's."""
    if declaration(text).format == "markdown":
        from optlint.notebook_markdown import markdown_cells

        return markdown_cells(text)
    return myst_cells(text)


def myst_cells(text: str) -> list[TextCell]:
    """The code cells of a MyST notebook's text, each with its code and its place in the file
    (`program` positions are filled in by `add_code_cell`)."""
    lines = source_lines(text)
    cells: list[TextCell] = []
    count = 0  # cells of every kind so far
    pending = False  # markdown text since the last cell or `+++`
    in_list = after_blank = False  # a fence indented inside a list item is not a cell
    at = front_matter(lines)
    while at < len(lines):
        content = lines[at].rstrip("\r\n")
        fence = _FENCE.match(content)
        if fence is not None and not (fence["fence"][0] == "`" and "`" in fence["info"]):
            close = _closing(lines, at + 1, fence["fence"])
            info = fence["info"].strip()
            nested = in_list and bool(fence["indent"])
            kind = next((kind for kind in ("{code-cell}", "{raw-cell}")
                         if info.startswith(kind) and not nested), None)
            if kind is not None:
                count += 1 + pending
                pending = False
            if kind == "{code-cell}":
                cell = _code_cell(lines, count - 1, at + 1, close)
                # An indented fence's code is dedented by its indent: not the file's columns.
                cell.foreign = bool(fence["indent"]) or not _PYTHON_LEXER.fullmatch(
                    info[len(kind):].strip())
                cells.append(cell)
            pending = pending or kind is None
            in_list, after_blank = in_list and nested, False
            at = close + 1
            continue
        block_break = _BLOCK_BREAK.match(content) is not None
        if _LIST_ITEM.match(content):
            in_list = True
        elif content[:1].strip() and (after_blank or block_break):
            in_list = False  # not indented, and not a lazy continuation of the item's text
        if block_break and not in_list:
            count += pending
            pending = False
        elif content.strip():
            pending = True
        after_blank = not content.strip()
        at += 1
    return cells


def _closing(lines: list[str], start: int, opening: str) -> int:
    """The index of the line closing a fence opened by `opening` (CommonMark: the same
    character, at least as many, nothing but spaces after); the file's length when none does."""
    closing = re.compile(rf" {{0,3}}{re.escape(opening[0])}{{{len(opening)},}}[ \t]*$")
    for index in range(start, len(lines)):
        if closing.match(lines[index].rstrip("\r\n")):
            return index
    return len(lines)


def _code_cell(lines: list[str], position: int, start: int, end: int) -> TextCell:
    """A code cell whose fence's content is lines[start:end], without its MyST options."""
    first = lines[start].rstrip("\r\n") if start < end else ""
    if first.startswith("---"):
        closing = next((index for index in range(start + 1, end)
                        if _OPTIONS_END.match(lines[index])), None)
        start = end if closing is None else closing + 1
    elif first.lstrip().startswith(":"):
        while start < end and lines[start].lstrip().startswith(":"):
            start += 1
    if start < end and not lines[start].strip():
        start += 1  # the blank line jupytext writes after the options (or instead of them)
    text = "".join(lines[start:end])
    return TextCell(position, text, 0, 0, file_start=start, file_end=end)


# writing -------------------------------------------------------------------------------------
def splice_cells(notebook: Notebook, sources: dict[int, str]) -> str:
    """The notebook's text with the code of the cell at each position replaced, everything else
    (front matter, prose, options, fences, line endings) as it was. Raises NotebookError when
    the new text would not read back as the same cells with the new code (a fix that wrote a
    fence line)."""
    lines = source_lines(notebook.raw)
    pieces, done = [], 0
    cells = [cell for cell in notebook.cells if isinstance(cell, TextCell)]
    for cell in cells:
        if cell.position not in sources:
            continue
        new = sources[cell.position]
        if new and not new.endswith(("\n", "\r")) and cell.file_end < len(lines):
            new += _ending(lines[cell.file_end - 1] if cell.file_end else "\n")
        pieces += ["".join(lines[done:cell.file_start]), new]
        done = cell.file_end
    text = "".join(pieces) + "".join(lines[done:])
    again = {cell.position: cell.text for cell in notebook_cells(text)}
    wanted = {cell.position: sources.get(cell.position, cell.text) for cell in cells}
    if {position: _line_ended(code) for position, code in again.items()} != \
            {position: _line_ended(code) for position, code in wanted.items()}:
        raise NotebookError("a fix would change the Markdown notebook's cells; nothing was "
                            "written")
    return text


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")):] or "\n"


def _line_ended(code: str) -> str:
    return code if not code or code.endswith(("\n", "\r")) else code + "\n"
