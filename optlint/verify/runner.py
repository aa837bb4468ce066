"""Running one harness: a subprocess in its own process group, killed as a group on timeout,
with JAX's persistent compilation cache in optlint's cache folder."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path
from typing import IO, Any

from optlint.records import record
from optlint.verify.processes import (TOKEN_VARIABLE, StopSignals, adopting_orphans,
                                      deferred_stop_signals, kill_harness, new_token)

RECORDS_VARIABLE = "OPTLINT_HARNESS_RECORDS"  # checks.py's name for it (it is not imported here)

MARK = "@@optlint-verify@@ "
MARK_BYTES = MARK.encode()
# What a harness may print before it is stopped: user code printing gigabytes must not fill the
# disk, nor optlint's memory when it is read back.
OUTPUT_CAP = 64 * 2**20
_LONGEST_RECORD = 4 * 2**20
_STDERR_TAIL = 64 * 2**10
_POLL_SECONDS = 0.25


def cache_dir() -> Path:
    """$OPTLINT_CACHE_DIR, else $XDG_CACHE_HOME/optlint, else ~/.cache/optlint."""
    configured = os.environ.get("OPTLINT_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "optlint"


def harness_env(device: str) -> dict[str, str]:
    jax_cache = cache_dir() / "jax"
    jax_cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ,
           "JAX_COMPILATION_CACHE_DIR": str(jax_cache),
           "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
           "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
           "TF_CPP_MIN_LOG_LEVEL": "3",
           "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    if device == "cpu":
        env["JAX_PLATFORMS"] = "cpu"
    elif device == "gpu":
        env["JAX_PLATFORMS"] = "cuda"
    return env


@contextlib.contextmanager
def private_folder() -> Iterator[Path]:
    """An empty folder only this user can read or write (mkdtemp makes it 0700), removed after:
    where optlint puts what it runs, so that nothing it did not write is importable from there."""
    with tempfile.TemporaryDirectory(prefix="optlint-verify-") as folder:
        os.chmod(folder, 0o700)
        yield Path(folder)


@record(frozen=False)
class HarnessRun:
    environment: dict[str, Any] | None = None
    records: dict[int, dict[str, Any]] = field(default_factory=dict)
    fatal: str | None = None  # the harness's own one-line error (no GPU, jax missing)
    timed_out: bool = False
    crash: str | None = None  # how the process ended when it ended early
    seconds: float = 0.0


def run_harness(program: str, python: str, device: str, timeout: float,
                cwd: Path) -> HarnessRun:
    result = HarnessRun()
    token = new_token()
    started = time.perf_counter()
    # Output goes to files, not pipes: a child the user's code started would hold a pipe open.
    # The harness script lives alone in a folder of its own (mkdtemp: mode 0700): Python puts a
    # script's folder first on sys.path, and the shared temporary folder (/tmp, writable by every
    # local user) would let anyone plant an `optax.py` that runs as the user who verifies.
    # The results come back in a file of their own (see checks.emit), never from what the code
    # under test prints.
    with private_folder() as folder, tempfile.TemporaryFile() as stdout, \
            tempfile.TemporaryFile() as stderr, tempfile.TemporaryFile() as written, \
            deferred_stop_signals() as stop, adopting_orphans() as ours:
        script = folder / "optlint_harness.py"
        script.write_text(program, encoding="utf-8")
        process: subprocess.Popen[bytes] | None = None
        try:
            # start_new_session: the harness and whatever the user's code starts form one group.
            process = subprocess.Popen([python, str(script)], cwd=cwd,
                                       env={**harness_env(device), TOKEN_VARIABLE: token,
                                            RECORDS_VARIABLE: str(written.fileno())},
                                       stdout=stdout, stderr=stderr, start_new_session=True,
                                       pass_fds=(written.fileno(),))
            _wait(process, timeout, (stdout, stderr, written), result, stop)
        finally:  # also on Ctrl-C or SIGTERM: nothing of the run is left behind
            if process is not None:
                kill_harness(process.pid, token)
                process.wait()
                ours.end_adopted()
        records = _marker_lines(written)
        err = _tail(stderr)
    result.seconds = time.perf_counter() - started
    _parse(records, result)
    if (not result.timed_out and result.crash is None and result.fatal is None
            and process.returncode != 0):
        result.crash = _describe_exit(process.returncode, err)
    return result


def _wait(process: subprocess.Popen[bytes], timeout: float, outputs: tuple[IO[bytes], ...],
          result: HarnessRun, stop: StopSignals) -> None:
    """Wait for the harness, up to `timeout`, while what it printed stays under the cap and no
    Ctrl-C or SIGTERM came (raised here, between two waits: see StopSignals)."""
    deadline = time.monotonic() + timeout
    while True:
        stop.raise_if_received()
        try:
            process.wait(timeout=max(0.0, min(_POLL_SECONDS, deadline - time.monotonic())))
            return
        except subprocess.TimeoutExpired:
            pass
        if sum(os.fstat(output.fileno()).st_size for output in outputs) > OUTPUT_CAP:
            result.crash = f"stopped: it printed more than {OUTPUT_CAP // 2**20} MiB"
            return
        if time.monotonic() >= deadline:
            result.timed_out = True
            return


def _marker_lines(stream: IO[bytes]) -> list[str]:
    """The harness's own lines from its standard output, read a bounded line at a time."""
    stream.seek(0)
    found = []
    while line := stream.readline(_LONGEST_RECORD):
        if line.startswith(MARK_BYTES) and line.endswith(b"\n"):
            found.append(line[len(MARK_BYTES):].decode("utf-8", errors="replace"))
        while not line.endswith(b"\n") and line:  # the rest of an overlong line
            line = stream.readline(_LONGEST_RECORD)
    return found


def _tail(stream: IO[bytes]) -> str:
    """The end of the harness's standard error (what says why it stopped); bytes that are not
    UTF-8 (user code printing anything) are replaced."""
    size = stream.seek(0, os.SEEK_END)
    stream.seek(max(0, size - _STDERR_TAIL))
    return stream.read().decode("utf-8", errors="replace")


def _parse(records: list[str], result: HarnessRun) -> None:
    """Records that are not what the harness writes (user code printing the marker) are skipped."""
    for text in records:
        try:
            record = json.loads(text)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        if isinstance(record.get("environment"), dict):
            result.environment = record["environment"]
        elif isinstance(record.get("fatal"), str):
            result.fatal = record["fatal"]
        elif isinstance(record.get("id"), int) and isinstance(record.get("variants"), dict):
            result.records[record["id"]] = record


def _describe_exit(code: int, stderr: str) -> str:
    if code < 0:
        try:
            how = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"killed by signal {-code}"
    else:
        how = f"exited with status {code}"
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return how + (f" ({lines[-1].strip()})" if lines else "")
