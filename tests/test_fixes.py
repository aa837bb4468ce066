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


def test_overlapping_fixes_of_two_rules_both_apply() -> None:
    """The order the rules run in decides which of two overlapping fixes a round takes first:
    OPT014's (decay before the scaling), then OPT013's (freeze last) fixes both hazards."""
    from optlint.lint_options import lint_options
    from optlint.request import SettingsRequest, build_settings
    from optlint.engine import Linter

    settings = build_settings(SettingsRequest([], select=["OPT013", "OPT014"], isolated=True,
                                              versions={"optax": "0.2.8"}))
    linter = Linter(lint_options(settings, fix=True, unsafe_fixes=True, write=False))
    text = ("import optax\n\nparams = {'w': 1.0}\n"
            "explicit = optax.chain(optax.freeze({'w': True}), optax.sgd(0.1), "
            "optax.add_decayed_weights(1e-4))\nstate = explicit.init(params)\n")
    fixed = linter.fix_text(text, "train.py").fixed
    assert fixed is not None and ("optax.chain(optax.add_decayed_weights(1e-4), optax.sgd(0.1), "
                                  "optax.freeze({'w': True}))") in fixed
