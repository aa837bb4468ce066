"""`optlint verify` runs only what it means to run: a module planted in the temporary folder
(on most machines /tmp, writable by every local user) is never imported by the harness or by the
probe that reads an interpreter's library versions."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from conftest import run_optlint
from optlint.verify import interpreter, runner

# Writes RAN beside itself when imported.
PLANTED = ('import os\n'
           'open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "RAN"), "w")'
           '.write("x")\n')


@pytest.fixture
def shared_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A TMPDIR holding planted modules named as what the harness and the probe import."""
    folder = tmp_path / "t"
    folder.mkdir()
    for name in ("optax", "jax", "equinox", "json", "planted"):
        (folder / f"{name}.py").write_text(PLANTED)
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    return folder


def test_the_harness_does_not_import_from_the_temporary_folder(shared_tmp: Path,
                                                               tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    program = ("import sys\ntry:\n    import planted\nexcept ImportError:\n    pass\n"
               f"print({runner.MARK!r} + '{{\"environment\": {{}}}}')\n")
    run = runner.run_harness(program, sys.executable, "cpu", 60, work)
    assert run.crash is None and not run.timed_out, run
    assert not (shared_tmp / "RAN").exists()
    # Nothing of the run is left in the temporary folder.
    assert sorted(p.name for p in shared_tmp.iterdir()) == sorted(
        f"{n}.py" for n in ("optax", "jax", "equinox", "json", "planted"))


def test_the_private_folder_is_private() -> None:
    with runner.private_folder() as folder:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert list(folder.iterdir()) == []
    assert not folder.exists()


def test_the_version_probe_does_not_import_from_the_temporary_folder(shared_tmp: Path,
                                                                     tmp_path: Path) -> None:
    # A wrapper, so the probe runs (it is skipped for optlint's own interpreter).
    wrapper = tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    found = interpreter.installed_in(str(wrapper))
    assert found is not None
    assert not (shared_tmp / "RAN").exists()


TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    opt_state = optax.adam(1e-3).init(model)
""")


def test_verify_end_to_end_with_a_planted_optax(shared_tmp: Path, tmp_path: Path) -> None:
    pytest.importorskip("optax")
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(TRAIN)
    result = run_optlint("verify", "--device", "cpu", "train.py", cwd=project,
                         env={"TMPDIR": str(shared_tmp)}, timeout=300)
    assert "OPT003" in result.stdout, result.stdout + result.stderr
    assert not (shared_tmp / "RAN").exists()
    assert "RAN" not in os.listdir(project)
