"""The bundle: the bytecode of optlint's modules in one file, read at once (optlint.bundled_imports
imports from it).

`optlint/__pycache__/modules.<cache tag>.bundle` holds, for each module of the package that had
valid bytecode when it was written, its source's path, size and mtime in nanoseconds, and its
code. A module's code may be used only while its source still has that size and mtime (a .pyc is
validated the same way, by seconds), and the whole file only where it was written for this
folder and this interpreter's bytecode (its magic number).

Why one file, and the code of a folder's modules in one marshalled tuple: unmarshalling is most
of what loading a module's bytecode costs, and most of that is its names (each string made,
hashed and interned again in every module that uses it). Unmarshalled together, a folder's
modules share one copy of each name: the 234 modules of a one-file check, 44M instructions one
by one, 16M in one tuple (valgrind). A folder's tuple is unmarshalled when the first of its
modules is needed, so a `check` never unmarshals the language server's or the verifier's.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER, cache_from_source
from types import CodeType

PACKAGE = "optlint"  # (not from __name__, which is "__main__" under `python -m`)
ROOT = os.path.dirname(os.path.abspath(__file__))
# this bytecode, and this layout of the file
_MAGIC = MAGIC_NUMBER + b"optlint-bundle-2"

# A module in the bundle: its source file, whether it is a package, the source's mtime (ns) and
# size its code was compiled from, the folder tuple holding its code and its place there.
Row = tuple[str, bool, int, int, int, int]


def bundle_path(root: str = ROOT) -> str:
    return os.path.join(root, "__pycache__", f"modules.{sys.implementation.cache_tag}.bundle")


class Bundle:
    """A bundle as read: its rows by module name, and its folders' code as it is needed."""

    def __init__(self, rows: dict[str, Row], sections: list[memoryview]) -> None:
        self.rows = rows
        self._sections = sections
        self._codes: dict[int, tuple[CodeType, ...]] = {}

    def current(self, name: str) -> Row | None:
        """`name`'s row, where its source is unchanged since the bundle was written."""
        row = self.rows.get(name)
        if row is None:
            return None
        try:
            stat = os.stat(row[0])
        except OSError:
            return None
        return row if stat.st_mtime_ns == row[2] and stat.st_size == row[3] else None

    def code(self, row: Row) -> CodeType:
        codes = self._codes.get(row[4])
        if codes is None:
            codes = self._codes[row[4]] = marshal.loads(self._sections[row[4]])
        return codes[row[5]]


def read(root: str = ROOT) -> Bundle | None:
    """The bundle written for `root` and this bytecode; None if there is none, or it cannot be
    read whole."""
    try:
        with open(bundle_path(root), "rb") as file:
            data = memoryview(file.read())
        size = int.from_bytes(data[:4], "little")
        magic, written_for, lengths, rows = marshal.loads(data[4:4 + size])
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if magic != _MAGIC or written_for != root or sum(lengths) != len(data) - 4 - size:
        return None
    sections, start = [], 4 + size
    for length in lengths:
        sections.append(data[start:start + length])
        start += length
    return Bundle(rows, sections)


def bytecode(path: str) -> CodeType | None:
    """The code of `path`'s .pyc where that is valid for the source as it is."""
    try:
        stat = os.stat(path)
        with open(cache_from_source(path), "rb") as file:
            data = file.read()
    except (OSError, ValueError):
        return None
    header = (MAGIC_NUMBER + bytes(4) + (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
              + (stat.st_size & 0xFFFFFFFF).to_bytes(4, "little"))
    if data[:16] != header:
        return None
    try:
        return marshal.loads(memoryview(data)[16:])  # type: ignore[no-any-return]
    except (ValueError, EOFError, TypeError):
        return None


def write(root: str = ROOT, *, compile_missing: bool = True) -> int:
    """Write the bundle of every module under `root`: from its .pyc where that is valid, else
    (with `compile_missing`) compiled from source. Returns how many modules it holds.

    The file: the length of its header; the header (the magic number, `root`, the length of
    each folder's code, the rows); then each folder's code, a marshalled tuple."""
    rows: dict[str, Row] = {}
    sections: list[bytes] = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        codes: list[CodeType] = []
        for file_name in sorted(name for name in files if name.endswith(".py")):
            path = os.path.join(folder, file_name)
            code = bytecode(path)
            if code is None and compile_missing:
                with open(path, "rb") as source:
                    code = compile(source.read(), path, "exec", dont_inherit=True)
            if code is None:
                continue
            parts = [PACKAGE, *os.path.relpath(path, root)[:-3].split(os.sep)]
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            stat = os.stat(path)
            rows[name] = (path, is_package, stat.st_mtime_ns, stat.st_size, len(sections),
                          len(codes))
            codes.append(code)
        if codes:
            sections.append(marshal.dumps(tuple(codes)))
    header = marshal.dumps((_MAGIC, root, [len(section) for section in sections], rows))
    target = bundle_path(root)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    partial = f"{target}.{os.getpid()}.tmp"
    with open(partial, "wb") as file:
        file.write(len(header).to_bytes(4, "little"))
        file.write(header)
        file.writelines(sections)
    os.replace(partial, target)  # another run reads the old bundle or the new, never half
    return len(rows)


if __name__ == "__main__":
    print(f"{write()} modules in {bundle_path()}")
