"""MyST / jupytext Markdown notebooks in `optlint server`: a `.md` document whose front matter
declares a Python notebook is linted as `optlint check` reads the file, its findings, fixes and
`# noqa` edits in the `.md` file's own lines; any other `.md` gets nothing. A real LSP client
(pytest-lsp) drives a real server subprocess."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient
from lsp_session import vscode_session
from myst_notebooks import FIXED_TRAIN_LINE, FRONT, TRAINING
from test_server import actions, apply, change, published

# The finding `optlint check train.md` reports at cell 6, line 2, column 28 (tests/test_myst.py).
FINDING_LINE = TRAINING.splitlines().index("opt_state = optimizer.init(model)")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("myst")
    (root / "pyproject.toml").write_text("[tool.optlint]\n")
    return root


client = vscode_session  # a real server for this module (tests/lsp_session.py)


def open_markdown(client: LanguageClient, path: Path, text: str) -> str:
    path.write_text(text)
    client.diagnostics.pop(path.as_uri(), None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="markdown",
                                             version=1, text=text)))
    return path.as_uri()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_myst_notebook_gets_its_findings_in_the_files_own_lines(
        client: LanguageClient, project: Path):
    uri = open_markdown(client, project / "train.md", TRAINING)
    (diagnostic,) = await published(client, uri)
    assert diagnostic.code == "OPT003"
    assert diagnostic.range.start == types.Position(line=FINDING_LINE, character=27)

    fix, disable, fix_all = await actions(client, uri, diagnostic.range)
    fixed = TRAINING.replace("opt_state = optimizer.init(model)\n", FIXED_TRAIN_LINE)
    assert apply(TRAINING, fix.edit.changes[uri]) == fixed  # prose and fences kept as they are
    assert fix_all.kind == "source.fixAll.optlint"
    assert apply(TRAINING, fix_all.edit.changes[uri]) == fixed
    silenced = apply(TRAINING, disable.edit.changes[uri])
    assert silenced.splitlines()[FINDING_LINE].endswith("init(model)  # noqa: OPT003")
    assert silenced.replace("  # noqa: OPT003", "") == TRAINING

    change(client, uri, 2, silenced)
    assert await published(client, uri) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_md_that_stops_declaring_a_notebook_is_cleared(client: LanguageClient,
                                                               project: Path):
    uri = open_markdown(client, project / "draft.md", TRAINING)
    assert [d.code for d in await published(client, uri)] == ["OPT003"]
    change(client, uri, 2, TRAINING.replace(FRONT, "---\ntitle: Draft\n---\n"))
    assert await published(client, uri) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_plain_markdown_file_gets_nothing(client: LanguageClient, project: Path):
    readme = open_markdown(client, project / "README.md",
                           "# Notes\n\n```python\nopt_state = optimizer.init(model)\n```\n")
    notebook = open_markdown(client, project / "after.md", TRAINING)
    await published(client, notebook)  # the server has linted what was opened before it
    await asyncio.sleep(0.5)
    assert readme not in client.diagnostics
