"""Reading and writing source files without losing anything: encoding, BOM, line endings, mode."""

from __future__ import annotations

import os
import re
import stat
import tokenize
from collections.abc import Callable
from pathlib import Path

from optlint.records import record


class SourceError(Exception):
    """A file that cannot be read or decoded; reported as one line, the run goes on."""


@record
class SourceText:
    text: str
    encoding: str  # as tokenize names it: "utf-8", "utf-8-sig" (a BOM), "latin-1", ...
    data: bytes = b""  # the bytes it was decoded from


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
    return SourceText(text, encoding, data)


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


def read_head(path: Path, enough: Callable[[bytes], bool], chunk: int = 4096,
              limit: int = 65536) -> bytes:
    """A regular file's first bytes: a chunk at a time until `enough` says so, the file ends or
    `limit` bytes are read (a tree's `.md` files are looked at, not read whole)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise SourceError(f"{path}: cannot read: not a regular file")
            head = b""
            while len(head) < limit:
                more = handle.read(chunk)
                head += more
                if len(more) < chunk or enough(head):
                    break
            return head
    except OSError as error:
        raise SourceError(f"{path}: cannot read: {error.strerror or error}") from None


def read_source(path: Path) -> SourceText:
    return decode(read_bytes(path), str(path))


def write_fixes(path: Path, text: str, encoding: str, read: bytes) -> None:
    """Write the fixed `text` into the file `path` was read from, when it still holds `read`.

    The text is encoded as it was read (a BOM stays a BOM, latin-1 stays latin-1); line endings
    are never translated. Through a symbolic link the target is written, and the link stays.
    Usually a temporary file in the same folder is renamed over the file, so a crash leaves the
    old text or the new one, never half of it. A rename makes a new inode, though, which would
    break hard links and lose an owner we are not, extended attributes and ACLs: such a file is
    rewritten in place instead. Either way the file is read again first, and if it changed since
    `read` (an editor saved it, user code wrote it during `--verify`) nothing is written.
    """
    data = text.encode(encoding)
    target = Path(os.path.realpath(path))
    current = read_bytes(target)
    if current != read:
        raise SourceError(f"{path}: changed since it was read; fixes not written (run again)")
    status = target.stat()
    # A rename into a writable folder would replace a read-only file (0444) as if it were not;
    # its owner made it read-only (as root, `os.access` says yes: the mode bits decide).
    if not os.access(target, os.W_OK) or not status.st_mode & 0o222:
        raise SourceError(f"{path}: read-only; fixes not written (make it writable to fix it)")
    if _rename_would_lose(target, status):
        with open(target, "r+b") as handle:
            handle.write(data)
            handle.truncate()
        return
    import tempfile  # only a run that writes fixes pays for it (it imports `random`)

    handle_number, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                                suffix=".tmp")
    try:
        with os.fdopen(handle_number, "wb") as stream:
            stream.write(data)
            os.fchmod(stream.fileno(), stat.S_IMODE(status.st_mode))
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _rename_would_lose(target: Path, status: os.stat_result) -> bool:
    """Whether a new inode would differ from the file: other names for it, another owner or
    group, extended attributes (ACLs and security labels among them)."""
    if status.st_nlink > 1 or status.st_uid != os.geteuid() or status.st_gid != os.getegid():
        return True
    try:
        return bool(os.listxattr(target))
    except (OSError, AttributeError):  # a file system without them; a system without listxattr
        return False
