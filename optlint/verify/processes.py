"""Ending everything a harness started, and only that, whatever happens to optlint meanwhile.

The harness runs in a session of its own, so killing its process group ends it and the processes
it started. A process that started a session of its own leaves that group; it still carries the
harness's environment, where a per-run token marks it, and is found by that token (Linux, through
/proc). One that also drops that environment (`env={}`) is found as an orphan: while a harness
runs, optlint is a child subreaper (Linux), so whatever the harness started and left behind
becomes optlint's child when its parent ends, and is ended with the harness. A Ctrl-C or SIGTERM
to optlint while it waits is held until the wait can stop cleanly, then raised, so the same
cleanup runs for both.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

TOKEN_VARIABLE = "OPTLINT_HARNESS_TOKEN"
_PROC = Path("/proc")


def new_token() -> str:
    return uuid.uuid4().hex


def kill_harness(pgid: int, token: str) -> None:
    """SIGKILL the harness's process group, then every process marked with its token."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    marker = f"{TOKEN_VARIABLE}={token}".encode()
    for _ in range(3):  # a marked process may have forked while the first ones were killed
        marked = list(_marked_processes(marker))
        if not marked:
            return
        for pid in marked:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def _marked_processes(marker: bytes) -> Iterator[int]:
    if not _PROC.is_dir():
        return
    for entry in _PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:  # gone already, or another user's
            continue
        if marker in environment.split(b"\0"):
            yield int(entry.name)


class StopSignals:
    """The first SIGINT or SIGTERM that came while a harness ran, held until raising it is safe.

    Raised from the signal handler, the exception lands wherever the main thread is, and that
    can be inside `Popen.wait(timeout=...)` just after it took its private lock and before the
    `try` that releases it: the cleanup's own `Popen.wait()` then waits on that lock forever
    (CI saw this hang once, on SIGTERM). So the handler only records the signal; the waiting
    loop raises it between two waits, and leaving `deferred_stop_signals` raises it if no one
    did."""

    def __init__(self) -> None:
        self.number: int | None = None

    def record(self, number: int, frame: FrameType | None) -> None:
        if self.number is None:
            self.number = number

    def raise_if_received(self) -> None:
        """Ctrl-C as KeyboardInterrupt, SIGTERM as SystemExit(143): what Python would raise (or
        do) without us, except that `finally` blocks run."""
        if self.number == signal.SIGINT:
            raise KeyboardInterrupt
        if self.number is not None:
            raise SystemExit(128 + self.number)


@contextlib.contextmanager
def deferred_stop_signals() -> Iterator[StopSignals]:
    """While inside, SIGINT and SIGTERM are recorded in the yielded StopSignals, not raised where
    they land; a signal that was ignored before (a job started with `&`) stays ignored."""
    stop = StopSignals()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # only the main thread can set handlers, and only it receives signals
        return
    previous = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(number) is not signal.SIG_IGN:
            previous[number] = signal.signal(number, stop.record)
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    stop.raise_if_received()


def reap(process: subprocess.Popen[bytes]) -> None:
    """Wait for a process already sent SIGKILL, without `Popen.wait`: a Ctrl-C that landed inside
    an earlier `Popen.wait(timeout=...)` can leave its private lock held (see StopSignals), and
    the cleanup would then wait on that lock forever."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ChildProcessError):  # reaped already
        _, status = os.waitpid(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)


_PR_SET_CHILD_SUBREAPER = 36


class _Adopted:
    """The children optlint had before a harness started; any other child is one it adopted."""

    def __init__(self, before: set[int]) -> None:
        self.before = before

    def end_adopted(self) -> None:
        """SIGKILL and reap every child optlint adopted; their own children are adopted as
        they end, so this repeats until none is left (bounded)."""
        for _ in range(10):
            adopted = [pid for pid in _children(os.getpid()) if pid not in self.before]
            if not adopted:
                return
            for pid in adopted:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)


@contextlib.contextmanager
def adopting_orphans() -> Iterator[_Adopted]:
    """While inside, orphans of optlint's descendants become its children (Linux only: elsewhere
    nothing is adopted and `end_adopted` finds nothing)."""
    enabled = _set_subreaper(True)
    try:
        yield _Adopted(set(_children(os.getpid())) if enabled else set())
    finally:
        if enabled:
            _set_subreaper(False)


def _set_subreaper(on: bool) -> bool:
    if not _PROC.is_dir():
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children(parent: int) -> list[int]:
    found = []
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == parent:
            found.append(int(entry.name))
    return found
