"""Reading and writing source files without losing anything: encoding, BOM, line endings, mode."""

from __future__ import annotations

import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path


class SourceError(Exception):
    """A file that cannot be read or decoded; reported as one line, the run goes on."""


@dataclass(frozen=True)
class SourceText:
    text: str
    encoding: str  # as tokenize names it: "utf-8", "utf-8-sig" (a BOM), "latin-1", ...


_FIRST_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)?")


def decode(data: bytes, name: str) -> SourceText:
    # The coding cookie is looked for in the first two lines as Python counts them: a lone `\r`
    # ends a line too (tokenize's own readline would give an old Mac file as one line).
    matches = _FIRST_LINES.finditer(data)
    lines = iter([match.group() for match, _ in zip(matches, range(2), strict=False)])
    try:
        encoding, _ = tokenize.detect_encoding(lambda: next(lines, b""))
        text = data.decode(encoding)
    except (SyntaxError, LookupError, ValueError) as error:  # ValueError: UnicodeError too
        raise SourceError(f"{name}: cannot decode: {error}") from None
    return SourceText(text, encoding)


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes. Anything else is refused without waiting: opening a FIFO for
    reading blocks until a writer comes, so it is opened non-blocking and looked at first."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise SourceError(f"{path}: cannot read: not a regular file")
            return handle.read()
    except OSError as error:
        raise SourceError(f"{path}: cannot read: {error.strerror or error}") from None


def read_source(path: Path) -> SourceText:
    return decode(read_bytes(path), str(path))


def write_atomically(path: Path, text: str, encoding: str) -> None:
    """Write through a temporary file in the same folder and rename it over the original.

    The original's permission bits are kept, and the text is encoded as it was read (a BOM
    stays a BOM, latin-1 stays latin-1); line endings are never translated.
    """
    data = text.encode(encoding)
    mode = stat.S_IMODE(path.stat().st_mode)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
