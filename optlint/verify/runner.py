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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MARK = "@@optlint-verify@@ "


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


@dataclass
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
    with tempfile.NamedTemporaryFile("w", suffix="_optlint_harness.py", delete=False,
                                     encoding="utf-8") as handle:
        handle.write(program)
    started = time.perf_counter()
    # Output goes to files, not pipes: a child the user's code started would hold a pipe open.
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        try:
            # start_new_session: the harness and whatever the user's code starts form one group.
            process = subprocess.Popen([python, handle.name], cwd=cwd, env=harness_env(device),
                                       stdout=stdout, stderr=stderr, text=True,
                                       start_new_session=True)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                result.timed_out = True
            # Kill the whole group: on timeout, and any child that outlived the harness.
            _kill_group(process.pid)
            process.wait()
        finally:
            os.unlink(handle.name)
        stdout.seek(0)
        stderr.seek(0)
        out, err = stdout.read(), stderr.read()
    result.seconds = time.perf_counter() - started
    _parse(out, result)
    if not result.timed_out and result.fatal is None and process.returncode != 0:
        result.crash = _describe_exit(process.returncode, err)
    return result


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _parse(stdout: str, result: HarnessRun) -> None:
    for line in stdout.splitlines():
        if not line.startswith(MARK):
            continue
        record = json.loads(line[len(MARK):])
        if "environment" in record:
            result.environment = record["environment"]
        elif "fatal" in record:
            result.fatal = record["fatal"]
        else:
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
