"""The bundle: the bytecode of optlint's modules in one file (optlint.bundled_imports imports
from it).

`optlint/__pycache__/modules.<cache tag>.bundle` holds, for each module of the package that had
valid bytecode when it was written, its source's path, size and mtime in nanoseconds, and its
code. A module's code may be used only while its source still has that size and mtime (a .pyc is
validated the same way, by seconds), and the whole file only where it was written for this
folder and this interpreter's bytecode (its magic number).

Each module's code is there twice: alone, and in its folder's section, one marshalled tuple of
the folder's modules. Unmarshalled together, a folder's modules share one copy of each name and
constant they have in common (made, hashed and interned once): the 234 modules a one-file check
imports take 44M instructions to unmarshal one by one, 33M folder by folder (valgrind). But a
warm run imports 37 modules, 4 of them from `optlint/analysis`'s 146: unmarshalling whole folders
made it 3% slower (567M to 584M instructions). So a folder's modules are unmarshalled one by one
until a sixteenth of them (at least two) have been, and then the rest of the folder at once; the
file is read only where a run uses it.
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
_MAGIC = MAGIC_NUMBER + b"optlint-bundle-3"
_SHARE_ALONE = 16  # a folder's section is read once 1/16 of its modules have been read alone

# A module in the bundle: its source file, whether it is a package, the source's mtime (ns) and
# size its code was compiled from, where its code lies in the file (offset, length), and its
# folder's section (offset, length, modules) with its place there.
Row = tuple[str, bool, int, int, int, int, int, int]


def bundle_path(root: str = ROOT) -> str:
    return os.path.join(root, "__pycache__", f"modules.{sys.implementation.cache_tag}.bundle")


class Bundle:
    """A bundle as read: its rows by module name; the code as it is needed."""

    def __init__(self, fd: int, start: int, rows: dict[str, Row],
                 sections: list[tuple[int, int, int]]) -> None:
        self.rows = rows
        self._fd, self._start, self._sections = fd, start, sections
        self._codes: dict[int, tuple[CodeType, ...]] = {}  # the sections unmarshalled
        self._alone: dict[int, int] = {}  # section -> its modules unmarshalled one by one

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
        """The module's code (OSError, ValueError or EOFError where the file cannot give it)."""
        section = row[6]
        codes = self._codes.get(section)
        if codes is None:
            alone = self._alone[section] = self._alone.get(section, 0) + 1
            if alone <= max(2, self._sections[section][2] // _SHARE_ALONE):
                return marshal.loads(self._read(row[4], row[5]))  # type: ignore[no-any-return]
            codes = self._codes[section] = marshal.loads(self._read(*self._sections[section][:2]))
        return codes[row[7]]

    def _read(self, offset: int, length: int) -> bytes:
        data = os.pread(self._fd, length, self._start + offset)
        if len(data) != length:
            raise EOFError("the bundle is shorter than its header says")
        return data


def read(root: str = ROOT) -> Bundle | None:
    """The bundle written for `root` and this bytecode; None if there is none, or it is not
    whole. (The file stays open: a bundle written meanwhile replaces it, never changes it.)"""
    try:
        fd = os.open(bundle_path(root), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        size = int.from_bytes(os.pread(fd, 4, 0), "little")
        magic, written_for, length, rows, sections = marshal.loads(os.pread(fd, size, 4))
        if (magic == _MAGIC and written_for == root
                and os.fstat(fd).st_size == 4 + size + length):
            return Bundle(fd, 4 + size, rows, sections)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    os.close(fd)
    return None


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
    what follows, the rows, each section's offset and length); then each module's code alone,
    then each folder's section."""
    found: dict[str, dict[str, tuple[str, bool, os.stat_result, CodeType]]] = {}
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for file_name in sorted(name for name in files if name.endswith(".py")):
            path = os.path.join(folder, file_name)
            code = bytecode(path)
            if code is None and compile_missing:
                with open(path, "rb") as source:
                    code = compile(source.read(), path, "exec", dont_inherit=True)
            if code is not None:
                parts = [PACKAGE, *os.path.relpath(path, root)[:-3].split(os.sep)]
                is_package = parts[-1] == "__init__"
                name = ".".join(parts[:-1] if is_package else parts)
                found.setdefault(folder, {})[name] = (path, is_package, os.stat(path), code)
    rows: dict[str, Row] = {}
    pieces: list[bytes] = []
    end = 0
    for section, modules in enumerate(found.values()):
        for place, (name, (path, is_package, stat, code)) in enumerate(modules.items()):
            pieces.append(marshal.dumps(code))
            rows[name] = (path, is_package, stat.st_mtime_ns, stat.st_size, end,
                          len(pieces[-1]), section, place)
            end += len(pieces[-1])
    sections = []
    for modules in found.values():
        pieces.append(marshal.dumps(tuple(module[3] for module in modules.values())))
        sections.append((end, len(pieces[-1]), len(modules)))
        end += len(pieces[-1])
    header = marshal.dumps((_MAGIC, root, end, rows, sections))
    target = bundle_path(root)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    partial = f"{target}.{os.getpid()}.tmp"
    with open(partial, "wb") as file:
        file.write(len(header).to_bytes(4, "little"))
        file.write(header)
        file.writelines(pieces)
    os.replace(partial, target)  # another run reads the old bundle or the new, never half
    return len(rows)



if __name__ == "__main__":
    print(f"{write()} modules in {bundle_path()}")
