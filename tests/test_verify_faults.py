"""Harnesses that hang, crash or exit, and bad interpreters/devices: each gives a verdict or a
one-line error, and no process of the harness's group survives."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from verify_helpers import verify, verify_json

# The model is built by a helper that starts a child process, records its pid, then misbehaves.
TEMPLATE = '''\
import subprocess
import equinox as eqx
import jax
import optax


def build(key):
    child = subprocess.Popen(["sleep", "300"])
    with open("child.pid", "w") as handle:
        handle.write(str(child.pid))
    {misbehave}
    return eqx.nn.MLP(2, 1, 8, 2, key=key)


model = build(jax.random.PRNGKey(0))
optimizer = optax.adam(1e-3)
state = optimizer.init(model)
'''


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (already dead, waiting for its parent) counts as gone.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def test_hanging_harness_times_out_and_leaves_no_process(tmp_path: Path) -> None:
    (tmp_path / "hang.py").write_text(TEMPLATE.format(misbehave="import time; time.sleep(600)"))
    started = time.monotonic()
    rows = verify_json("--timeout", "8", "hang.py", cwd=tmp_path)
    assert time.monotonic() - started < 60
    assert [row["verdict"] for row in rows] == ["timeout"]
    assert "--timeout" in rows[0]["reason"]
    pid = int((tmp_path / "child.pid").read_text())
    assert not alive(pid), "the harness's child process survived the timeout"


@pytest.mark.parametrize(("misbehave", "reason"), [
    ("import ctypes; ctypes.string_at(0)", "the harness killed by SIGSEGV"),
    ("import os; os._exit(7)", "the harness exited with status 7"),
])
def test_crashing_harness_is_unverifiable(tmp_path: Path, misbehave: str, reason: str) -> None:
    (tmp_path / "crash.py").write_text(TEMPLATE.format(misbehave=misbehave))
    rows = verify_json("crash.py", cwd=tmp_path)
    assert [row["verdict"] for row in rows] == ["unverifiable"]
    assert rows[0]["reason"].startswith(reason), rows[0]["reason"]
    assert not alive(int((tmp_path / "child.pid").read_text()))


def test_device_gpu_without_gpu_is_one_line_error(tmp_path: Path) -> None:
    if shutil.which("nvidia-smi"):
        pytest.skip("this machine has a GPU")
    (tmp_path / "ok.py").write_text(TEMPLATE.format(misbehave="pass"))
    done = verify("--device", "gpu", "ok.py", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --device gpu, but JAX finds no GPU")


def test_python_without_jax_is_one_line_error(tmp_path: Path) -> None:
    bare = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if bare is None or os.system(f"{bare} -c 'import jax' 2>/dev/null") == 0:
        pytest.skip("no interpreter without jax here")
    (tmp_path / "ok.py").write_text(TEMPLATE.format(misbehave="pass"))
    done = verify("--python", bare, "ok.py", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "not installed" in lines[0] and "pip install" in lines[0], lines


def test_missing_python_is_one_line_error(tmp_path: Path) -> None:
    done = verify("--python", str(tmp_path / "nope"), ".", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: --python {tmp_path / 'nope'}: no such executable"
