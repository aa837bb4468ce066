"""`check` killed with SIGKILL (the out-of-memory killer, `kill -9`, a CI step's timeout) must not
leave its worker processes running: each worker notices that its parent is gone and exits."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import optlint_executable

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

TRAIN = """\
import equinox as eqx
import jax
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey({number}))
opt_state = optax.adam(1e-3).init(model)
"""


def children_of(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_exit_when_check_is_killed(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    for number in range(600):
        (tmp_path / f"train_{number}.py").write_text(TRAIN.format(number=number) * 20)
    process = subprocess.Popen([*optlint_executable(), "check", "--no-cache", "-q", "--jobs", "2",
                                "."], cwd=tmp_path, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        workers = children_of(process.pid)
    if len(workers) < 2:
        process.kill()
        pytest.skip("this machine runs the check with fewer than two workers")
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # never leave them behind for the rest of the suite
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers still running after their parent was killed: {left}"
