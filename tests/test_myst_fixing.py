"""MyST Markdown notebooks fixed through the real CLI: fixes, `--diff` and `--add-noqa` go back
into the file's lines, the rest kept byte for byte; read from standard input, from the cache, and
run by the verifier (reading them: `test_myst.py`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_optlint as run_process
from conftest import run_optlint_in_process as run_optlint
from myst_notebooks import (FIXED_TRAIN_LINE, IMPORTS, MODEL, TRAIN,
                            TRAINING, cell, findings, notebook, write)

from optlint.myst import splice_cells


# fixing -----------------------------------------------------------------------------------
def test_fix_writes_back_into_the_cell_and_keeps_the_rest_byte_for_byte(tmp_path: Path) -> None:
    text = "\ufeff" + TRAINING.replace("# Training", "# Training ✓ café")
    path = write(tmp_path, text, newline="\r\n")
    before = path.read_bytes()
    result = run_optlint("check", "train.md", "--fix", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Found 1 problem (1 fixed, 0 remaining)." in result.stderr
    old_line = b"opt_state = optimizer.init(model)\r\n"
    assert path.read_bytes() == before.replace(old_line, FIXED_TRAIN_LINE.replace(
        "\n", "\r\n").encode())
    assert run_optlint("check", "train.md", cwd=tmp_path).returncode == 0


def test_fix_adds_the_import_to_the_cell_that_imports(tmp_path: Path) -> None:
    imports = "import jax\nfrom equinox.nn import MLP\nimport optax\n"
    model = "model = MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
    path = write(tmp_path, notebook(cell(imports, ":tags: [imports]\n"), "Text.\n",
                                    cell(model), cell(TRAIN)))
    assert run_optlint("check", "train.md", "--fix", cwd=tmp_path).returncode == 0
    assert path.read_text(encoding="utf-8") == notebook(
        cell("import equinox as eqx\n" + imports, ":tags: [imports]\n"), "Text.\n", cell(model),
        cell(TRAIN.replace("opt_state = optimizer.init(model)\n", FIXED_TRAIN_LINE)))


def test_diff_is_the_files_own_and_writes_nothing(tmp_path: Path) -> None:
    """End to end (a real process): a unified diff of the `.md` in its own lines, as `git apply`
    takes it."""
    path = write(tmp_path, TRAINING)
    before = path.read_bytes()
    result = run_process("check", "train.md", "--diff", cwd=tmp_path)
    assert (result.returncode, path.read_bytes()) == (1, before), result.stderr
    fixed_at = TRAINING.splitlines().index("opt_state = optimizer.init(model)") + 1
    assert result.stdout.startswith(f"--- a/train.md\n+++ b/train.md\n@@ -{fixed_at - 3},")
    assert f"-opt_state = optimizer.init(model)\n+{FIXED_TRAIN_LINE}" in result.stdout


def test_add_noqa_writes_into_the_cell(tmp_path: Path) -> None:
    path = write(tmp_path, TRAINING)
    result = run_optlint("check", "--no-cache", "--add-noqa", "train.md", cwd=tmp_path)
    assert "Added 1 noqa directive in 1 file." in result.stderr, result.stderr
    assert path.read_text(encoding="utf-8") == TRAINING.replace(
        "init(model)\n", "init(model)  # noqa: OPT003\n")
    assert run_optlint("check", "--no-cache", "train.md", cwd=tmp_path).returncode == 0


def test_a_fix_that_would_write_a_fence_line_is_refused() -> None:
    notebook_text = notebook(cell("x = 1\n"), "Text.\n", cell("y = 2\n"))
    from optlint.myst import parse_myst
    from optlint.notebook import NotebookError

    parsed = parse_myst(notebook_text.encode(), "nb.md")
    assert parsed is not None
    first = parsed.cells[0].position
    with pytest.raises(NotebookError, match="would change the Markdown notebook's cells"):
        splice_cells(parsed, {first: "x = 1\n```\n"})
    assert splice_cells(parsed, {first: "x = 10\n"}) == notebook_text.replace("x = 1\n",
                                                                              "x = 10\n")


def test_a_cell_left_open_at_the_end_of_the_file_is_fixed_in_place(tmp_path: Path) -> None:
    text = notebook(cell(IMPORTS), cell(MODEL), f"```{{code-cell}} ipython3\n{TRAIN}")
    path = write(tmp_path, text.rstrip("\n"))
    assert run_optlint("check", "train.md", "--fix", cwd=tmp_path).returncode == 0
    assert path.read_text(encoding="utf-8") == text.replace(
        "opt_state = optimizer.init(model)\n", FIXED_TRAIN_LINE).rstrip("\n")


# standard input and the cache -------------------------------------------------------------------
def test_a_markdown_notebook_on_stdin_is_read_by_its_name(tmp_path: Path) -> None:
    result = run_optlint("check", "-", "--stdin-filename", "train.md", stdin=TRAINING,
                         cwd=tmp_path)
    assert findings(result.stdout)[0].startswith("train.md:cell 6:2:28: OPT003")
    fixed = run_optlint("check", "-", "--stdin-filename", "train.md", "--fix", stdin=TRAINING,
                        cwd=tmp_path)
    assert fixed.stdout == TRAINING.replace("opt_state = optimizer.init(model)\n",
                                            FIXED_TRAIN_LINE)
    prose = "# Notes\n\n```python\nimport optax\n```\n"
    echoed = run_optlint("check", "-", "--stdin-filename", "README.md", "--fix", stdin=prose,
                         cwd=tmp_path)
    assert (echoed.returncode, echoed.stdout) == (0, prose)


def test_a_markdown_notebook_is_read_from_the_cache(tmp_path: Path) -> None:
    path = write(tmp_path, TRAINING)
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    # Written an hour ago: a stamp that recent writes could share is not trusted (cache.py).
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns - 3600 * 10**9))
    first = run_optlint("check", ".", "--verbose", cwd=tmp_path)
    second = run_optlint("check", ".", "--verbose", cwd=tmp_path)
    assert first.stdout == second.stdout and "train.md:cell 6:2:28" in second.stdout
    assert "cache: 1 of 1 files unchanged since the last run" in second.stderr, second.stderr


# the verifier ------------------------------------------------------------------------------
def test_verify_runs_a_markdown_notebook_and_fix_verify_writes_into_its_cell(
        tmp_path: Path) -> None:
    from verify_helpers import CACHE, verify_json

    key_cells = notebook(cell("import jax\nkey = jax.random.key(0)\n"
                              "a = jax.random.normal(key, (3,))\n", ":tags: [hide-output]\n"),
                         "Again:\n", cell("b = jax.random.normal(key, (3,))\nprint(a + b)\n"))
    write(tmp_path, key_cells, name="keys.md")
    verdicts = verify_json("keys.md", cwd=tmp_path)
    assert [(v["code"], v["cell"], v["line"], v["verdict"]) for v in verdicts] == [
        ("OPT020", 3, 1, "confirmed")], verdicts
    path = write(tmp_path, TRAINING)
    done = run_process("check", "train.md", "--fix", "--verify", cwd=tmp_path,
                       env={"OPTLINT_CACHE_DIR": str(CACHE)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert path.read_text(encoding="utf-8") == TRAINING.replace(
        "opt_state = optimizer.init(model)\n", FIXED_TRAIN_LINE)
