"""Verifier faults: odd output, fake result records, hangs, signals, children that leave the
harness's session, output floods, bad --timeout and --python. The harness here is a small plain
Python program (the runner does not care what it runs), so no JAX is needed; every test checks
that no process it started is left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from optlint.verify import interpreter, runner
from optlint.verify.command import VerifyRequest
from optlint.verify.session import VerifyError
from reliability_helpers import run_cli


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")  # a zombie is gone, only not yet reaped
    return not (status.exists() and "State:\tZ" in status.read_text())


def gone(pid: int, seconds: float = 10) -> bool:
    """Whether `pid` has ended within `seconds` (a SIGKILL takes effect asynchronously)."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def wait_for(path: Path, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().endswith("\n"):
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


# A harness that starts a child in a session of its own, records both pids, then hangs.
HANGING = textwrap.dedent("""\
    import os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c",
                              "import os, time; os.setsid(); time.sleep(300)"])
    with open({pids!r}, "w") as handle:
        handle.write(f"{{os.getpid()}} {{child.pid}}\\n")
    time.sleep(300)
""")


def test_output_that_is_not_utf8_is_read(tmp_path: Path) -> None:
    program = ("import sys\nsys.stdout.buffer.write(b'\\xff\\xfe\\n')\n"
               "sys.stderr.buffer.write(b'bad \\xff bytes\\n')\nsys.exit(3)\n")
    run = runner.run_harness(program, sys.executable, "cpu", 60, tmp_path)
    assert run.crash == "exited with status 3 (bad \ufffd bytes)"


def test_fake_result_records_are_skipped(tmp_path: Path) -> None:
    lines = ["{bad json", "[1, 2]", '{"id": 0}', '{"id": 0, "variants": []}', '"text"']
    program = "".join(f"print({runner.MARK + line!r})\n" for line in lines)
    run = runner.run_harness(program, sys.executable, "cpu", 60, tmp_path)
    assert (run.records, run.environment, run.fatal, run.crash) == ({}, None, None, None)


def test_timeout_kills_a_child_that_left_the_session(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    run = runner.run_harness(HANGING.format(pids=str(pids)), sys.executable, "cpu", 3, tmp_path)
    assert run.timed_out
    for pid in map(int, pids.read_text().split()):
        assert gone(pid), "a process of the harness survived the timeout"


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_signal_to_optlint_ends_the_harness_and_removes_its_file(tmp_path: Path,
                                                                signal_number: int) -> None:
    pids, temporary = tmp_path / "pids", tmp_path / "tmp"
    temporary.mkdir()
    driver = (f"from pathlib import Path\nfrom optlint.verify.runner import run_harness\n"
              f"run_harness({HANGING.format(pids=str(pids))!r}, {sys.executable!r}, 'cpu', 300, "
              f"Path({str(tmp_path)!r}))\n")
    process = subprocess.Popen([sys.executable, "-c", driver], env={**os.environ,
                               "TMPDIR": str(temporary)}, stderr=subprocess.DEVNULL)
    try:
        harness_pids = [int(pid) for pid in wait_for(pids).split()]
        process.send_signal(signal_number)
        process.wait(timeout=30)
    finally:
        process.kill()
    for pid in harness_pids:
        assert gone(pid), "a process of the harness survived optlint's end"
    assert list(temporary.iterdir()) == [], "the harness's temporary file was left behind"


# Run before the driver: Popen's private wait lock becomes one that, once the harness is up,
# takes itself and then has the signal land, the moment at which an exception raised by the
# handler would leave the lock held and the cleanup's own wait hanging on it.
SIGNAL_AFTER_LOCK = textwrap.dedent("""\
    import os, subprocess
    from pathlib import Path

    class Landing:
        def __init__(self, lock):
            self.lock, self.fired = lock, False
        def acquire(self, blocking=True, timeout=-1):
            taken = self.lock.acquire(blocking, timeout)
            if taken and not blocking and not self.fired and Path({pids!r}).exists():
                self.fired = True
                os.kill(os.getpid(), {signal_number})
            return taken
        def release(self):
            self.lock.release()
        def __enter__(self):
            self.acquire()
        def __exit__(self, *exc):
            self.release()

    original = subprocess.Popen.__init__
    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self._waitpid_lock = Landing(self._waitpid_lock)
    subprocess.Popen.__init__ = init
""")


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_just_after_the_wait_took_its_lock_still_ends_it(tmp_path: Path,
                                                                  signal_number: int) -> None:
    pids = tmp_path / "pids"
    driver = (SIGNAL_AFTER_LOCK.format(pids=str(pids), signal_number=int(signal_number))
              + f"from pathlib import Path\nfrom optlint.verify.runner import run_harness\n"
              f"run_harness({HANGING.format(pids=str(pids))!r}, {sys.executable!r}, 'cpu', 300, "
              f"Path({str(tmp_path)!r}))\n")
    process = subprocess.Popen([sys.executable, "-c", driver], stderr=subprocess.PIPE)
    try:
        harness_pids = [int(pid) for pid in wait_for(pids).split()]
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    if signal_number == signal.SIGINT:  # Python ends on an uncaught Ctrl-C by SIGINT itself
        assert process.returncode == -signal.SIGINT and b"KeyboardInterrupt" in stderr
    else:
        assert process.returncode == 143
    for pid in harness_pids:
        assert gone(pid), "a process of the harness survived optlint's end"


def test_output_flood_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "OUTPUT_CAP", 2**20)
    program = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
    started = time.monotonic()
    run = runner.run_harness(program, sys.executable, "cpu", 120, tmp_path)
    assert time.monotonic() - started < 60 and not run.timed_out
    assert run.crash == "stopped: it printed more than 1 MiB"


def test_timeout_nan_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "train.py").write_text("import optax\n")
    run = run_cli(monkeypatch, tmp_path, "verify", "--timeout", "nan", "train.py")
    assert run.exit_code == 2 and "nan is not a number of seconds" in run.stderr


def test_relative_python_is_run_from_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "py").symlink_to(sys.executable)
    monkeypatch.chdir(tmp_path)
    python = VerifyRequest(["."], python="./py").python
    assert python == str(tmp_path / "py")
    found = interpreter.installed_in(python)
    assert found is not None and set(found) == {"optax", "equinox", "jax"}


def test_probe_timeout_ends_what_the_interpreter_started(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    wrapper = tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {tmp_path / 'pids'}\nwait\n")
    wrapper.chmod(0o755)
    monkeypatch.setattr(interpreter, "_PROBE_SECONDS", 2)
    with pytest.raises(VerifyError, match="no answer in 2 s"):
        interpreter.installed_in(str(wrapper))
    assert gone(int(wait_for(tmp_path / "pids")))


def test_ctrl_c_just_after_the_probes_wait_took_its_lock_still_ends_it(tmp_path: Path) -> None:
    """The --python probe: its wrapper closes its output, then hangs, so that the probe's
    `communicate` reaches `Popen.wait(timeout=...)`, where the Ctrl-C lands."""
    pids, wrapper = tmp_path / "pids", tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nexec >/dev/null 2>&1\necho $$ > {pids}\nexec sleep 300\n")
    wrapper.chmod(0o755)
    driver = (SIGNAL_AFTER_LOCK.format(pids=str(pids), signal_number=int(signal.SIGINT))
              + f"from optlint.verify import interpreter\n"
              f"interpreter.installed_in({str(wrapper)!r})\n")
    process = subprocess.Popen([sys.executable, "-c", driver], stderr=subprocess.PIPE)
    try:
        probe = int(wait_for(pids))
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGINT and b"KeyboardInterrupt" in stderr
    assert gone(probe), "the probe's interpreter survived optlint's end"
