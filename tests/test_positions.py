"""optlint.positions gives libcst's own PositionProvider ranges, without resolve's extra walk."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from optlint.positions import node_positions

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(REPO / "tests" / "fixtures").rglob("*.py"),
                  REPO / "benchmarks" / "latency_train.py"])


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(REPO)))
def test_positions_agree_with_libcst(path: Path) -> None:
    try:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
    except cst.ParserSyntaxError:
        pytest.skip("libcst cannot parse it (an OPT000 fixture)")
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert dict(node_positions(module)) == dict(expected)


def test_crlf_and_tabs() -> None:
    module = cst.parse_module("if x:\r\n\tf(a,\r\n\t  b)  # c\r\n")
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert dict(node_positions(module)) == dict(expected) and len(expected) > 10
