"""optlint.analysis.comments removes exactly what Python's tokenizer calls comments."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest

from optlint.analysis.comments import without_comments

REPO = Path(__file__).resolve().parents[1]


def tokenizer_comments_removed(text: str) -> str:
    """The reference: every COMMENT token cut out of its line, by the tokenize module."""
    lines = text.splitlines(keepends=True)
    for token in reversed(list(tokenize.generate_tokens(io.StringIO(text).readline))):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            line = lines[row - 1]
            lines[row - 1] = line[:column] + line[column + len(token.string):]
    return "".join(lines)


TEXTS = [
    "x = 1  # train_step(x)\n",
    "s = '# not a comment'  # a comment\n",
    's = "it\'s # still a string"\nt = 2  # it\'s a comment\n',
    "d = '''\n# inside a docstring\n'''  # after it\n",
    'd = """a "quoted" # word\n"" still"""\n# last\n',
    "r = r'\\'#' # raw string with an escaped quote\n",
    "s = 'line \\\n# continued' # comment\n",
    "s = 'line \\\r\n# continued' # comment\r\n",
    "f(a,  # one\n  b)  # two\n",
    "b = b'#' + rb\"#\"  # bytes\n",
    "x = f'{y}#{z}'  # f-string\n",
    "# only a comment",
    "no comment at all\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_as_the_tokenizer(text: str) -> None:
    assert without_comments(text) == tokenizer_comments_removed(text)


def test_comments_are_removed() -> None:
    assert without_comments("a = 1  # b\n") == "a = 1  \n"


SOURCES = sorted((REPO / "optlint").rglob("*.py")) + sorted((REPO / "benchmarks").rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES[::7], ids=lambda path: str(path.relative_to(REPO)))
def test_real_files_as_the_tokenizer(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert without_comments(text) == tokenizer_comments_removed(text)
