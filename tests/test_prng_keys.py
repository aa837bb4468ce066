"""OPT020's choices that fixtures cannot show: which files count as test code."""

from __future__ import annotations

import pytest

from optlint.rules.prng_key_reuse import is_test_code


@pytest.mark.parametrize(("filename", "expected"), [
    ("tests/test_model.py", True),
    ("pkg/tests/helpers.py", True),
    ("src/pkg/model_test.py", True),
    ("conftest.py", True),
    ("src/pkg/train.py", False),
    ("src/pkg/testing_utils.py", False),
    ("examples/contest.py", False),
])
def test_test_code(filename: str, expected: bool) -> None:
    assert is_test_code(filename) is expected
