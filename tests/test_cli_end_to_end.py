"""optlint as a process, started the way a user or a hook starts it (most CLI tests run in-process)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import REPO, run_optlint

MLP_INIT = ("import equinox as eqx\nimport optax\n\n"
            "model = eqx.nn.MLP(2, 1, 8, 2, key=None)\nstate = optax.adam(1e-3).init(model)\n")


def test_the_readme_example_project_exits_1_with_its_findings() -> None:
    done = run_optlint("check", "examples/", cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert re.search(r"Found \d+ problems \(\d+ fixable with --fix\)", done.stderr)
    assert "trainer/train.py:23:13: OPT003" in done.stdout


def test_full_output_shows_the_source_line_and_the_fix_title(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(MLP_INIT)
    done = run_optlint("check", "train.py", "--output-format", "full", "--no-cache", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "train.py:5:31: OPT003 [*] `init` is given Equinox module MLP, which holds non-array "
        "leaves (eqx.nn.MLP holds functions): `optax.adam` builds per-parameter state "
        "(`zeros_like`) over every leaf and raises TypeError on a function",
        "  |",
        "5 | state = optax.adam(1e-3).init(model)",
        "  | " + " " * 30 + "^^^^^",
        "  help: Filter with `eqx.filter(..., eqx.is_array)`",
    ]


def test_stdin_fix_writes_the_fixed_source_to_stdout(tmp_path: Path) -> None:
    done = run_optlint("check", "-", "--fix", "--stdin-filename", "train.py", cwd=tmp_path,
                       stdin=MLP_INIT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == MLP_INIT.replace(".init(model)", ".init(eqx.filter(model, eqx.is_array))")


def test_a_file_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_bytes(b"import optax\nx = '\xff'\n")
    done = run_optlint("check", "bad.py", cwd=tmp_path)
    assert done.returncode == 2
    assert "bad.py" in done.stderr and "Traceback" not in done.stderr


def test_version_and_help_do_not_import_libcst() -> None:
    import subprocess
    import sys

    for args in (["--version"], ["check", "--help"]):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "optlint", *args],
                              capture_output=True, text=True, cwd=REPO, timeout=60)
        assert done.returncode == 0, done.stderr[-500:]
        imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()
                    if line.startswith("import time:")}
        assert "optlint.launch" in imported and "libcst" not in imported  # the probe sees
        assert not any(name.startswith("optlint.rules") for name in imported)
        assert ("click" in imported) == (args != ["--version"])  # --version needs no click
