"""Jupyter notebooks through the real CLI: notebooks are written with `json`, checked and fixed by
`optlint check`, and read back with `json`."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_optlint as run_process
from conftest import run_optlint_in_process as run_optlint

IMPORTS = ["import equinox as eqx\n", "import jax\n", "import optax"]
MODEL = ["model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))"]
TRAIN = ["optimizer = optax.adam(1e-3)\n", "opt_state = optimizer.init(model)\n",
         "print(opt_state)"]
FIXED_TRAIN_LINE = "opt_state = optimizer.init(eqx.filter(model, eqx.is_array))\n"
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5E"


def code(source: list[str] | str, number: int | None = None,
         outputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": number, "id": f"c{number or 0}x",
            "metadata": {"tags": ["train"]} if number else {}, "outputs": outputs or [],
            "source": source}


def markdown(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": "md", "metadata": {}, "source": [text]}


def notebook(*cells: dict[str, Any], language: str = "python") -> dict[str, Any]:
    return {"cells": list(cells),
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": language,
                                        "name": "python3"},
                         "language_info": {"name": language, "version": "3.11.7"}},
            "nbformat": 4, "nbformat_minor": 5}


def dump(content: dict[str, Any], indent: int = 1, ensure_ascii: bool = False,
         sort_keys: bool = True, end: str = "\n") -> str:
    """As nbformat writes a notebook by default (indent 1, sorted keys, UTF-8, final newline)."""
    return json.dumps(content, indent=indent, ensure_ascii=ensure_ascii, sort_keys=sort_keys) + end


def write(folder: Path, content: dict[str, Any], name: str = "nb.ipynb", **style: Any) -> Path:
    path = folder / name
    path.write_text(dump(content, **style), encoding="utf-8")
    return path


def findings(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.strip()]


def position_in(source: list[str] | str, needle: str) -> tuple[int, int]:
    """1-based line and column of `needle` in a cell's source."""
    lines = "".join(source).splitlines()
    for number, line in enumerate(lines, start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in the cell")


# checking -----------------------------------------------------------------------------------
def test_code_cells_are_one_program_and_findings_name_the_cell(tmp_path: Path) -> None:
    write(tmp_path, notebook(markdown("# Training"), code(IMPORTS, 1), code(MODEL, 2),
                             markdown("Now train."), code(TRAIN, 3)))
    result = run_optlint("check", "nb.ipynb", cwd=tmp_path)
    line, column = position_in(TRAIN, "model)")
    assert result.returncode == 1, result.stderr
    # The model comes from cell 3, the call is in cell 5 (cells count markdown cells too).
    [finding] = findings(result.stdout)
    assert finding.startswith(f"nb.ipynb:cell 5:{line}:{column}: OPT003 [*] `init` is given "
                              f"Equinox module MLP")
    [record] = json.loads(run_optlint("check", "nb.ipynb", "--output-format", "json",
                                      cwd=tmp_path).stdout)
    assert (record["cell"], record["line"], record["column"]) == (5, line, column)
    assert (record["end_line"], record["end_column"]) == (line, column + len("model"))


MAGIC_CELLS = [
    code(["%matplotlib inline\n", "!pip install optax\n", *IMPORTS], 1),
    code(["%%bash\n", "  echo indented shell\n", "  ls -la\n"], 2),
    code(MODEL, 3),
    code(["%%time\n", "optimizer = optax.adam(1e-3)\n", "state = optimizer.init(model)\n",
          "for step in range(2):\n", "    %time print(step)\n", "files = !ls\n",
          "?optax.adam\n", "%load_ext \\\n", "    autoreload\n",
          "ratio = (7\n", "         % 2)\n", "text = '''\n", "!not a shell line\n", "'''"], 4),
]


def test_magics_and_shell_lines_do_not_break_analysis(tmp_path: Path) -> None:
    write(tmp_path, notebook(*MAGIC_CELLS))
    result = run_optlint("check", "nb.ipynb", cwd=tmp_path)
    line, column = position_in(MAGIC_CELLS[3]["source"], "model)")
    assert findings(result.stdout) == [
        f"nb.ipynb:cell 4:{line}:{column}: OPT003 [*] " + result.stdout.split(" [*] ", 1)[1]
        .splitlines()[0]]
    assert "OPT000" not in result.stdout and result.returncode == 1


def test_a_shell_assignment_rebinds_the_name(tmp_path: Path) -> None:
    # `model = !ls` makes `model` a list of strings: no longer the Equinox module.
    write(tmp_path, notebook(code(IMPORTS, 1), code(MODEL, 2), code(["model = !ls"], 3),
                             code(TRAIN, 4)))
    result = run_optlint("check", "nb.ipynb", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, ""), result.stdout


def test_noqa_and_unused_noqa_in_cells(tmp_path: Path) -> None:
    train = [TRAIN[0], TRAIN[1].replace("\n", "  # noqa: OPT003\n"), "unused = 1  # noqa: OPT003"]
    write(tmp_path, notebook(code(IMPORTS, 1), code(MODEL, 2), code(train, 3)))
    result = run_optlint("check", "nb.ipynb", cwd=tmp_path)
    [finding] = findings(result.stdout)
    assert finding.startswith("nb.ipynb:cell 3:3:13: OPT100 [*] unused `noqa` directive")


def test_syntax_error_is_reported_in_its_cell(tmp_path: Path) -> None:
    write(tmp_path, notebook(code(IMPORTS, 1), markdown("x"), code(["def broken(:\n", "    pass"])))
    result = run_optlint("check", "nb.ipynb", cwd=tmp_path)
    [finding] = findings(result.stdout)
    assert finding.startswith("nb.ipynb:cell 3:1:") and " OPT000 " in finding


def test_folders_are_walked_for_notebooks(tmp_path: Path) -> None:
    (tmp_path / "notebooks").mkdir()
    write(tmp_path / "notebooks", notebook(code(IMPORTS, 1), code(MODEL, 2), code(TRAIN, 3)))
    result = run_optlint("check", ".", cwd=tmp_path)
    assert result.returncode == 1
    assert findings(result.stdout)[0].startswith("notebooks/nb.ipynb:cell 3:2:")


def test_notebooks_in_other_languages_are_skipped(tmp_path: Path) -> None:
    write(tmp_path, notebook(code(["optimizer.init(model)"], 1), language="julia"))
    result = run_optlint("check", "nb.ipynb", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")


def test_invalid_notebook_is_one_line_and_others_are_checked(tmp_path: Path) -> None:
    (tmp_path / "bad.ipynb").write_text('{"cells": [', encoding="utf-8")
    write(tmp_path, notebook(code(IMPORTS, 1), code(MODEL, 2), code(TRAIN, 3)))
    result = run_optlint("check", ".", cwd=tmp_path)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: bad.ipynb: not a valid notebook")
    assert "Traceback" not in result.stderr
    assert findings(result.stdout)[0].startswith("nb.ipynb:cell 3:")


# fixing -------------------------------------------------------------------------------------
def _outputs() -> list[dict[str, Any]]:
    return [{"name": "stdout", "output_type": "stream", "text": ["loss: 0.25 → 0.12 ✓\n"]},
            {"data": {"image/png": PNG, "text/plain": ["<Figure>"]}, "metadata": {},
             "output_type": "display_data"}]


STYLES = {
    "nbformat": {},
    "indent 2, ascii, no final newline": {"indent": 2, "ensure_ascii": True, "end": ""},
    "indent 4, keys unsorted": {"indent": 4, "sort_keys": False},
}


@pytest.mark.parametrize("style", list(STYLES), ids=list(STYLES))
@pytest.mark.parametrize("as_string", [False, True], ids=["source-lines", "source-string"])
def test_fix_writes_back_into_the_right_cell_only(tmp_path: Path, style: str,
                                                 as_string: bool) -> None:
    train = ["%%time\n", *TRAIN[:2], "!nvidia-smi\n", TRAIN[2]]
    cells = [markdown("# Training ✓"), code(IMPORTS, 1, _outputs()), code(MODEL, 2, _outputs()),
             code(train, 3, _outputs()), code(["print('done')"], 4)]
    if as_string:
        for cell in cells:
            cell["source"] = "".join(cell["source"])
    original = notebook(*cells)
    path = write(tmp_path, original, **STYLES[style])

    result = run_optlint("check", "nb.ipynb", "--fix", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Found 1 problem (1 fixed, 0 remaining)." in result.stderr

    expected = copy.deepcopy(original)
    fixed_source = ["%%time\n", TRAIN[0], FIXED_TRAIN_LINE, "!nvidia-smi\n", TRAIN[2]]
    expected["cells"][3]["source"] = "".join(fixed_source) if as_string else fixed_source
    written = path.read_text(encoding="utf-8")
    assert json.loads(written) == expected
    # Byte for byte what the same writer makes of the expected content: indentation, key order,
    # escaping and the final newline are as they were.
    assert written == dump(expected, **STYLES[style])
    assert run_optlint("check", "nb.ipynb", cwd=tmp_path).returncode == 0


def test_fix_adds_the_import_to_the_cell_that_imports(tmp_path: Path) -> None:
    imports = ["import jax\n", "from equinox.nn import MLP\n", "import optax"]
    model = ["model = MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))"]
    original = notebook(code(imports, 1), code(model, 2), code(TRAIN, 3))
    path = write(tmp_path, original)
    assert run_optlint("check", "nb.ipynb", "--fix", cwd=tmp_path).returncode == 0
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    # Where isort puts it: among the plain third-party imports, by name.
    assert cells[0]["source"] == ["import equinox as eqx\n", "import jax\n",
                                  "from equinox.nn import MLP\n", "import optax"]
    assert cells[1] == original["cells"][1]
    assert cells[2]["source"] == [TRAIN[0], FIXED_TRAIN_LINE, TRAIN[2]]


def test_diff_is_per_cell_and_writes_nothing(tmp_path: Path) -> None:
    """End to end (a real process): one unified diff per changed cell, numbered as editors
    number cells (markdown counts), IPython lines as written; the file is left alone."""
    imports = ["import jax\n", "from equinox.nn import MLP\n", "import optax"]
    model = ["model = MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))"]
    train = ["%%time\n", TRAIN[0], "!nvidia-smi\n", *TRAIN[1:]]
    path = write(tmp_path, notebook(markdown("# Training"), code(imports, 1), code(model, 2),
                                    code(train, 3)), name="train.ipynb")
    before = path.read_bytes()
    result = run_process("check", "train.ipynb", "--diff", cwd=tmp_path)
    assert (result.returncode, path.read_bytes()) == (1, before), result.stderr
    assert result.stdout == (
        "--- train.ipynb:cell 2\n"
        "+++ train.ipynb:cell 2\n"
        "@@ -1,3 +1,4 @@\n"
        "+import equinox as eqx\n"
        " import jax\n"
        " from equinox.nn import MLP\n"
        " import optax\n"
        "\\ No newline at end of file\n"
        "--- train.ipynb:cell 4\n"
        "+++ train.ipynb:cell 4\n"
        "@@ -1,5 +1,5 @@\n"
        " %%time\n"
        " optimizer = optax.adam(1e-3)\n"
        " !nvidia-smi\n"
        "-opt_state = optimizer.init(model)\n"
        f"+{FIXED_TRAIN_LINE}"
        " print(opt_state)\n"
        "\\ No newline at end of file\n")


def test_diff_of_a_notebook_on_stdin_is_per_cell(tmp_path: Path) -> None:
    text = dump(notebook(code(IMPORTS, 1), code(MODEL, 2), code(TRAIN, 3)))
    result = run_optlint("check", "-", "--stdin-filename", "nb.ipynb", "--diff", stdin=text,
                         cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("--- nb.ipynb:cell 3\n+++ nb.ipynb:cell 3\n@@ ")
    assert f"-{TRAIN[1]}+{FIXED_TRAIN_LINE}" in result.stdout
    assert not list(tmp_path.iterdir())


def test_unchanged_notebook_is_not_rewritten(tmp_path: Path) -> None:
    path = write(tmp_path, notebook(code(IMPORTS, 1), code(["x = 1"], 2)), indent=3)
    before = path.stat().st_mtime_ns, path.read_bytes()
    assert run_optlint("check", "nb.ipynb", "--fix", cwd=tmp_path).returncode == 0
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before


# notebooks in the machine-readable formats -------------------------------------------------
def test_sarif_and_github_name_the_cell(tmp_path: Path) -> None:
    write(tmp_path, notebook(code(IMPORTS, 1), code(MODEL, 2), code(TRAIN, 3)))
    line, column = position_in(TRAIN, "model)")
    sarif = json.loads(run_optlint("check", "nb.ipynb", "--output-format", "sarif",
                                   cwd=tmp_path).stdout)
    [result] = sarif["runs"][0]["results"]
    assert result["properties"]["cell"] == 3 and "fixes" not in result
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (line, column)
    github = run_optlint("check", "nb.ipynb", "--output-format", "github", cwd=tmp_path).stdout
    assert github.startswith(f"::error file=nb.ipynb,title=optlint (OPT003)::cell 3, line {line}: "
                             "`init` is given Equinox module MLP")


# standard input -----------------------------------------------------------------------------
def test_a_notebook_on_stdin_is_read_as_a_notebook(tmp_path: Path) -> None:
    content = notebook(code(IMPORTS, 1), code(MODEL, 2), code(TRAIN, 3))
    text = dump(content)
    line, column = position_in(TRAIN, "model)")
    result = run_optlint("check", "-", "--stdin-filename", "nb.ipynb", stdin=text, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    [finding] = findings(result.stdout)
    assert finding.startswith(f"nb.ipynb:cell 3:{line}:{column}: OPT003 [*]")
    fixed = run_optlint("check", "-", "--stdin-filename", "nb.ipynb", "--fix", stdin=text,
                        cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    expected = copy.deepcopy(content)
    expected["cells"][2]["source"][1] = FIXED_TRAIN_LINE
    assert json.loads(fixed.stdout) == expected
    assert not list(tmp_path.iterdir())  # nothing written next to the name it was given


def test_an_unreadable_notebook_on_stdin_is_echoed_unchanged_by_fix(tmp_path: Path) -> None:
    broken = '{"cells": [ {"cell_type": "code", "source": "x = 1"'
    result = run_optlint("check", "-", "--stdin-filename", "nb.ipynb", "--fix", stdin=broken,
                         cwd=tmp_path)
    assert result.stdout == broken  # an editor replacing its buffer with this loses nothing
    assert result.returncode == 2
    [line] = result.stderr.splitlines()[:1]
    assert line.startswith("error: nb.ipynb: not a valid notebook")


R_CELL = "library(dplyr)\ndf %>% filter(x > 1) -> y\nfunction(x) { x + 1 }"
# Both draws are read: a notebook's names end with its last cell, so draws nothing reads are no reuse.
KEY_CELL = ("import jax\nkey = jax.random.PRNGKey(0)\na = jax.random.normal(key, (3,))\n"
            "b = jax.random.normal(key, (3,))\nprint(a + b)\n")


@pytest.mark.parametrize("metadata", [{"vscode": {"languageId": "r"}},
                                      {"dotnet_interactive": {"language": "sql"}}])
def test_a_cell_in_another_language_is_skipped_not_a_syntax_error(
        tmp_path: Path, metadata: dict[str, Any]) -> None:
    """VS Code and Polyglot notebooks mix languages: such a cell is left out, as ruff does, so it
    neither hides the notebook's findings behind OPT000 nor changes under --fix."""
    foreign = code(R_CELL, 1)
    foreign["metadata"] = metadata
    path = write(tmp_path, notebook(foreign, code(KEY_CELL, 2)))
    result = run_optlint("check", "--no-cache", "nb.ipynb", cwd=tmp_path)
    assert [line.split(": ")[1].split()[0] for line in findings(result.stdout)] == ["OPT020"]
    assert "cell 2:" in result.stdout
    run_optlint("check", "--no-cache", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    cells = json.loads(path.read_text())["cells"]
    assert cells[0]["source"] == R_CELL and "split" in "".join(cells[1]["source"])


def test_add_noqa_writes_into_the_cells_with_findings(tmp_path: Path) -> None:
    first = code("%matplotlib inline\nimport jax\n", 1)
    path = write(tmp_path, notebook(first, markdown("# notes"), code(KEY_CELL, 2)))
    before = json.loads(path.read_text())
    result = run_optlint("check", "--no-cache", "--add-noqa", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Added 1 noqa directive in 1 file." in result.stderr
    after = json.loads(path.read_text())
    assert after["cells"][:2] == before["cells"][:2]
    assert after["cells"][2]["source"].splitlines()[-2:] == [
        "b = jax.random.normal(key, (3,))  # noqa: OPT020", "print(a + b)"]
    assert run_optlint("check", "--no-cache", "nb.ipynb", cwd=tmp_path).returncode == 0
    again = run_optlint("check", "--no-cache", "--add-noqa", "nb.ipynb", cwd=tmp_path)
    assert "Added 0 noqa directives" in again.stderr
