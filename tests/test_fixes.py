"""The edit helpers the rules' fixes share (optlint/fixes.py), and that rules use them rather than
a copy of their own."""

from __future__ import annotations

import re
from pathlib import Path

import libcst as cst
import pytest

from optlint.fixes import with_keyword

RULES = Path(__file__).resolve().parents[1] / "optlint" / "rules"


@pytest.mark.parametrize(("call", "expected"), [
    ("f(a)", "f(a, k=(1,))"),
    ("f()", "f(k=(1,))"),
    ("f(a, b=2)", "f(a, b=2, k=(1,))"),
])
def test_with_keyword_adds_the_argument_last(call: str, expected: str) -> None:
    added = with_keyword(cst.parse_expression(call), "k", "(1,)")
    assert cst.Module([]).code_for_node(added) == expected


# What a rule once wrote for itself: a keyword argument built by hand, the call site of a call
# looked up by walking the file's calls (RuleContext.site_of).
COPIES = {"keyword argument built by hand": re.compile(r"keyword=cst\.Name\("),
          "call site looked up by hand": re.compile(r"site\.node is call\b")}


@pytest.mark.parametrize("rule", sorted(RULES.glob("*.py")), ids=lambda path: path.stem)
def test_rules_use_the_shared_helpers(rule: Path) -> None:
    text = rule.read_text()
    assert [what for what, pattern in COPIES.items() if pattern.search(text)] == []
