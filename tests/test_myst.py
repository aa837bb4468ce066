"""MyST Markdown notebooks (`.md` with ```` ```{code-cell} ```` blocks) read through the real
CLI: a `.md` is read only when its front matter declares a Python notebook, and its code cells are
one program placed by cell, found as jupytext finds them (fixing them: `test_myst_fixing.py`)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint
from myst_notebooks import FRONT, IMPORTS, MODEL, TRAIN, TRAINING, cell, findings, notebook, write

from optlint.myst import myst_cells, notebook_cells
from optlint.source import read_head


# reading --------------------------------------------------------------------------------------
def test_findings_name_the_cell_counted_as_jupytext_counts_cells(tmp_path: Path) -> None:
    write(tmp_path, TRAINING)
    result = run_optlint("check", "train.md", cwd=tmp_path)
    # Cells: 1 the title, 2 imports, 3 and 4 the text split at `+++`, 5 the model, 6 training.
    assert result.returncode == 1, result.stderr
    [finding] = findings(result.stdout)
    assert finding.startswith("train.md:cell 6:2:28: OPT003 [*] `init` is given Equinox module")
    [record] = json.loads(run_optlint("check", "train.md", "--output-format", "json",
                                      cwd=tmp_path).stdout)
    assert (record["cell"], record["line"], record["column"]) == (6, 2, 28)


def test_machine_readable_formats_give_the_files_own_line(tmp_path: Path) -> None:
    write(tmp_path, TRAINING)
    file_line = TRAINING.splitlines().index("opt_state = optimizer.init(model)") + 1
    [record] = json.loads(run_optlint("check", "train.md", "--output-format", "json",
                                      cwd=tmp_path).stdout)
    assert (record["line"], record["file_line"], record["file_end_line"]) == (2, file_line,
                                                                              file_line)
    sarif = json.loads(run_optlint("check", "train.md", "--output-format", "sarif",
                                   cwd=tmp_path).stdout)
    [result] = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == file_line
    assert (result["properties"]["cell"], result["properties"]["cellLine"]) == (6, 2)
    annotation = run_optlint("check", "train.md", "--output-format", "github",
                             cwd=tmp_path).stdout
    assert annotation.startswith(f"::error file=train.md,line={file_line},col=28,")
    assert "::cell 6, line 2: " in annotation
    full = run_optlint("check", "train.md", "--output-format", "full", cwd=tmp_path).stdout
    assert f"{file_line} | opt_state = optimizer.init(model)" in full


def test_options_are_not_code_and_a_key_is_followed_across_cells(tmp_path: Path) -> None:
    text = notebook(cell("import jax\n%matplotlib inline\n!nvidia-smi\n",
                         "---\ntags: [hide-cell]\nmystnb:\n  number_source_lines: true\n---\n"),
                    cell("key = jax.random.key(0)\na = jax.random.normal(key, (3,))\n",
                         ":tags: [hide-output]\n:load: no\n"),
                    "Sample again.\n",
                    cell("echo $HOME\n", lexer="bash"),
                    cell("b = jax.random.normal(key, (3,))\nprint(a + b)\n"))
    write(tmp_path, text)
    result = run_optlint("check", "train.md", cwd=tmp_path)
    [finding] = findings(result.stdout)
    assert finding.startswith("train.md:cell 5:1:5: OPT020 ")
    assert "(cell 2, line 2)" in finding, finding  # the first consumer, in its own cell
    assert "OPT000" not in result.stdout


def test_noqa_in_a_cell(tmp_path: Path) -> None:
    train = TRAIN.replace("init(model)", "init(model)  # noqa: OPT003")
    write(tmp_path, notebook(cell(IMPORTS), cell(MODEL), cell(train)))
    assert run_optlint("check", "train.md", cwd=tmp_path).returncode == 0


def test_only_markdown_that_declares_a_notebook_is_read_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    write(tmp_path / "docs", TRAINING)
    bad = IMPORTS + MODEL + TRAIN
    # The same cells without front matter, a README with a Python block, another language.
    write(tmp_path / "docs", notebook(cell(bad), front=""), name="prose.md")
    write(tmp_path, f"# Project\n\n```python\n{bad}```\n", name="README.md")
    write(tmp_path / "docs", notebook(cell(bad), front=FRONT.replace("language: python",
                                                                     "language: R")), name="r.md")
    # jupytext's markdown format before its version 1.2: cells split by other rules.
    write(tmp_path / "docs", notebook(f"```python\n{bad}```\n", front=FRONT.replace(
        "format_name: myst", "format_name: markdown").replace("format_version: 0.13",
                                                              "format_version: '1.1'")),
          name="plain.md")
    result = run_optlint("check", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in findings(result.stdout)] == ["docs/train.md"]
    assert run_optlint("check", ".", "--show-files", cwd=tmp_path).stdout.split() == [
        "docs/train.md"]
    named = run_optlint("check", "docs/plain.md", "docs/r.md", cwd=tmp_path)
    assert named.stderr.splitlines()[:2] == [
        "note: docs/plain.md: a notebook in jupytext's `markdown 1.1` format, which optlint does "
        "not read (MyST and jupytext's markdown format only); not checked",
        "note: docs/r.md: a notebook in another language (r); not checked"]
    assert run_optlint("check", ".", "--extend-exclude", "*.md", cwd=tmp_path).returncode == 0


def test_a_markdown_file_named_explicitly_that_is_no_notebook_is_skipped_with_a_note(
        tmp_path: Path) -> None:
    write(tmp_path, "# Notes\n\nNothing to run.\n", name="README.md")
    result = run_optlint("check", "README.md", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stderr.splitlines()[0] == (
        "note: README.md: not a notebook (its front matter declares no `jupytext:` MyST format "
        "and no Python `kernelspec:`); not checked")


def test_markdown_files_a_tool_names_are_left_out_quietly_unless_notebooks(
        tmp_path: Path) -> None:
    """`--force-exclude` (the pre-commit hooks', which pass every staged Markdown file): a `.md`
    that is no notebook, and a `.markdown` (never one), are left out as a folder's walk leaves
    them, with no note; a notebook among them is still checked."""
    write(tmp_path, "# Notes\n\n```python\nx = (\n```\n", name="README.md")
    write(tmp_path, "# Notes\n\nopt_state = optimizer.init(model)\n", name="NOTES.markdown")
    write(tmp_path, TRAINING)
    quiet = run_optlint("check", "--force-exclude", "README.md", "NOTES.markdown", cwd=tmp_path)
    output = quiet.stdout + quiet.stderr
    assert quiet.returncode == 0, output
    assert "note:" not in output and "README" not in output and "NOTES" not in output
    result = run_optlint("check", "--force-exclude", "README.md", "train.md", cwd=tmp_path)
    assert result.returncode == 1 and "README" not in result.stdout + result.stderr
    assert findings(result.stdout)[0].startswith("train.md:cell 6:2:28: OPT003")


def test_a_kernelspec_alone_or_under_jupyter_declares_a_notebook(tmp_path: Path) -> None:
    mystnb = "---\nfile_format: mystnb\nkernelspec:\n  name: python3\n---\n"  # MyST-NB's own
    nested = ("---\njupyter:\n  jupytext:\n    text_representation:\n      format_name: myst\n"
              "---\n")
    for number, front in enumerate([mystnb, nested]):
        write(tmp_path, notebook(cell(IMPORTS), cell(MODEL), cell(TRAIN), front=front),
              name=f"nb{number}.md")
    result = run_optlint("check", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in findings(result.stdout)] == ["nb0.md", "nb1.md"]


def test_cells_are_found_as_jupytext_finds_them() -> None:
    """The numbers and code jupytext 1.19.6 gives this text (`jupytext.myst.myst_to_notebook`,
    run in a scratch venv): code cells 2, 3, 6, 8, 9, 11; cell 8 is indented (counted, not
    analysed), the one inside the list and the one inside a four-backtick block are no cells."""
    text = notebook(
        "# Title\n", cell("import jax\n", ":tags: [hide-output]\n\n"),
        cell("key = jax.random.key(0)\n", "---\ntags: [remove-cell]\n---\n"),
        "Some text.\n\n+++\n\nMore text.\n\n````markdown\n" + cell("not_a_cell = 1\n")
        + "````\n", "~~~{code-cell} python\na = 1\n~~~\n", "```{raw-cell}\nraw\n```\n",
        "  ```{code-cell} ipython3\n  indented = 1\n  ```\n",
        "```{code-cell}\nb = 2\n```\n+++ {\"tags\": [\"x\"]}\n",
        "- a list item:\n\n  ```{code-cell} ipython3\n  in_a_list = 1\n  ```\n",
        cell("echo hi\n", lexer="bash"))
    cells = myst_cells(text)
    assert [(c.number, c.text.strip(), c.foreign) for c in cells] == [
        (2, "import jax", False), (3, "key = jax.random.key(0)", False), (6, "a = 1", False),
        (8, "indented = 1", True), (9, "b = 2", False), (11, "echo hi", True)]
    lines = text.splitlines()
    assert [lines[c.file_start] for c in cells][:3] == ["import jax", "key = jax.random.key(0)",
                                                       "a = 1"]


JUPYTEXT_MARKDOWN = """---
title: A notebook
jupyter:
  jupytext:
    text_representation:
      extension: .md
      format_name: markdown
      format_version: '1.3'
  kernelspec:
    display_name: Python 3
    language: python
    name: python3
---

# Title

Some text.


A second markdown cell after two blank lines.

```python
import jax
doc = \"\"\"
```
not the end
\"\"\"
key = jax.random.key(0)
```

```bash
echo hi
```
<!-- #region -->
A region.

```python
inside_region = 1
```
<!-- #endregion -->

```text
plain block
```

    indented code
    ```python
    not a cell
    ```



```python
a = jax.random.normal(key, (2,))
```


```python3
b = jax.random.normal(key, (2,))
```
```{note}
A note.
```

```python
c = jax.random.normal(key, (2,))
print(a, c)
```
"""


def test_cells_of_jupytexts_markdown_format_are_found_as_jupytext_finds_them() -> None:
    """jupytext 1.19.6 (`jupytext.reads(text, fmt="md")`, run in a scratch venv) makes 12 cells
    of this text: 1 the front matter (it has a key outside `jupyter:`), 2 and 3 markdown split by
    two blank lines, code 4 (a fence inside its string does not end it), 5 `%%bash`, 6 the
    region, 7 markdown with a text block and an indented block, code 8, 9 (`%%python3`), 10 the
    note, code 11."""
    cells = notebook_cells(JUPYTEXT_MARKDOWN)
    assert [(c.number, c.text.splitlines()[0], c.foreign) for c in cells] == [
        (4, "import jax", False), (5, "echo hi", True),
        (8, "a = jax.random.normal(key, (2,))", False),
        (9, "b = jax.random.normal(key, (2,))", True),
        (11, "c = jax.random.normal(key, (2,))", False)]


def test_a_jupytext_markdown_notebook_is_checked_and_fixed(tmp_path: Path) -> None:
    path = write(tmp_path, JUPYTEXT_MARKDOWN, name="keys.md")
    result = run_optlint("check", "keys.md", "--unsafe-fixes", cwd=tmp_path)
    [finding] = findings(result.stdout)
    assert finding.startswith("keys.md:cell 11:1:5: OPT020 ")
    assert "(cell 8, line 1)" in finding, finding
    assert run_optlint("check", "keys.md", "--fix", "--unsafe-fixes",
                       cwd=tmp_path).returncode == 0
    assert path.read_text(encoding="utf-8") == JUPYTEXT_MARKDOWN.replace(
        "a = jax.random.normal(key, (2,))",
        "key, subkey = jax.random.split(key)\na = jax.random.normal(subkey, (2,))")


def test_only_the_first_bytes_of_a_markdown_file_are_read_to_decide(tmp_path: Path) -> None:
    path = write(tmp_path, "# Long notes\n" + "text\n" * 100_000, name="notes.md")
    asked: list[int] = []

    def enough(head: bytes) -> bool:
        asked.append(len(head))
        return not head.startswith(b"---")

    assert len(read_head(path, enough)) == 4096 and asked == [4096]
