"""The import scan of optlint/analysis/reach.py (what the import graph, the prefilter and the
cache read of every file) finds what a pattern tried at every position of the text finds: an
import at a line's start or after `;` or `:`, nowhere else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from optlint.analysis.reach import imported_modules

# The scan as first written: one pattern tried at every position (slow, but plainly right).
_FROM = re.compile(r"(?:^|[;:])[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+"
                   r"(?:\(([^)]*)\)|([\w \t,]*))", re.MULTILINE)
_IMPORT = re.compile(r"(?:^|[;:])[ \t]*import[ \t]+([\w. \t,]+)", re.MULTILINE)


def reference(text: str) -> list[str]:
    modules: list[str] = []
    for match in _FROM.finditer(text):
        module = match.group(1)
        modules.append(module)
        separator = "" if module.endswith(".") else "."
        for name in re.split(r"[\s,]+", match.group(2) or match.group(3) or ""):
            if name and name != "as":
                modules.append(f"{module}{separator}{name}")
    for match in _IMPORT.finditer(text):
        modules.extend(part.split()[0] for part in match.group(1).split(",") if part.split())
    return modules


@pytest.mark.parametrize("text", [
    "import os; from .base import Base\n",
    "if TYPE_CHECKING: from .base import Base\n",
    "  \t import a.b as ab, c\n",
    "ximport y\nfromage import z\nx = 'from a import b'\n",
    "from a import (b;\nfrom c import d)\nimport e\n",
    "from a import b   \nimport c\n",
    "from a import b from c import d\n",
    "def f(): import inner\n",
    "from . import x, y as z\r\nimport w\r\n",
    "from\timport import q\n",
    "",
])
def test_the_scan_finds_what_the_pattern_tried_everywhere_finds(text: str) -> None:
    assert imported_modules(text) == reference(text)


def test_the_scan_agrees_on_optlint_and_its_tests() -> None:
    root = Path(__file__).resolve().parents[1]
    texts = [path.read_text(encoding="utf-8") for folder in ("optlint", "tests")
             for path in sorted((root / folder).rglob("*.py"))]
    assert len(texts) > 100
    for text in texts:
        assert imported_modules(text) == reference(text)
