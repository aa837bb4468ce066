"""Which texts CPython screens before libcst parses them (`optlint.parsing.at_risk`): whatever
could be nested deep, not a comment's section rule or a message's `not -1`. The deep ones are
then parsed or reported as too deep through the real CLI (tests/test_reliability_inputs.py)."""

from __future__ import annotations

import pytest

from optlint.parsing import at_risk

RULE = "-" * 70
SCREENED = {
    "a run of 60 minus signs": "x = " + "-" * 60 + "1\n",
    "spaced unary operators": "x = " + "- + ~ " * 20 + "1\n",
    "a rule after code on its line": f"x = 1  # {RULE}\n",
    "code after a string that ends on a '#' line": f'x = """\n# """; y = {"- " * 60}1\n',
    "60 nots": "x = " + "not " * 60 + "1\n",
    "60 nots, one a line, in brackets": "x = (" + "not\n" * 60 + "1)\n",
    "60 nots, continued lines": "x = " + "not \\\n" * 60 + "1\n",
    "brackets 100 deep": "x = " + "(" * 100 + "1" + ")" * 100 + "\n",
    "a NUL byte": "x = '\0'\n",
}
PARSED_FIRST = {
    "a section rule": f"x = 1\n# {RULE}\ny = 2\n",
    "an indented section rule": f"def f():\n    # {RULE}\n    pass\n",
    "a section rule, CR line endings": f"x = 1\r# {RULE}\ry = 2\r",
    "not -1 in a message": 'raise ValueError("must be set (not -1)")\n',
    "not- inside a word": 'path = "file:///tmp/does-not-exist"\n',
    "30 nots": "x = " + "not " * 30 + "1\n",
    "brackets 99 deep": "x = " + "(" * 99 + "1" + ")" * 99 + "\n",
}


@pytest.mark.parametrize("name", sorted(SCREENED))
def test_what_could_be_deep_is_screened(name: str) -> None:
    assert at_risk(SCREENED[name])


@pytest.mark.parametrize("name", sorted(PARSED_FIRST))
def test_what_nests_shallow_is_parsed_first(name: str) -> None:
    assert not at_risk(PARSED_FIRST[name])


def _walked_depth(text: str) -> int:
    """The bracket depth as the screen measured it before: a step per bracket of every kind."""
    import itertools
    import re

    steps = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
    depths = list(itertools.accumulate(steps[bracket]
                                       for bracket in re.sub(r"[^()\[\]{}]", "", text)))
    return max(depths) - min(0, min(depths)) if depths else 0


def test_the_bracket_depth_is_the_walks_on_any_text() -> None:
    """Balanced, unbalanced (a bracket in a string), deep and shallow, ASCII or not: the rounds
    of removing pairs answer as the walk does."""
    import random

    from optlint.parsing import _bracket_depth

    chooser = random.Random(21)
    pieces = ["(", ")", "[", "]", "{", "}", "x", " ", "\n", "é", "字", "(((", ")))", "\"(\""]
    texts = [SCREENED[name] for name in SCREENED] + [PARSED_FIRST[name] for name in PARSED_FIRST]
    for _ in range(3000):
        body = "".join(chooser.choice(pieces) for _ in range(chooser.choice([0, 3, 40, 300])))
        deep = chooser.choice([0, 0, 50, 98, 99, 100, 101, 140])
        texts.append("{" * deep + body + "]" * chooser.choice([deep, deep, deep + 2, 0]))
    for text in texts:
        assert _bracket_depth(text) == _walked_depth(text), text
