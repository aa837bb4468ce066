"""`carries_state` (key_step_loops.py): which loops run one computation step by step, where a
literal seed's draw repeated on every step is proven (key_literal_seeds.py)."""

from __future__ import annotations

import libcst as cst
import pytest

from optlint.analysis.key_step_loops import carries_state


def _loop(source: str) -> cst.For | cst.While:
    statement = cst.parse_module(source).body[0]
    assert isinstance(statement, (cst.For, cst.While))
    return statement


@pytest.mark.parametrize(("source", "steps"), [
    ("for step in range(n):\n    params = params - lr * grad(params)\n", True),
    ("for batch in data:\n    x = noise(x)\n", True),
    ("while i < n:\n    y = f(y)\n    i += 1\n", True),
    ("while not done:\n    obs = env.observe()\n    done = env.finished(obs)\n", True),
    ("for i in range(n):\n    if i:\n        total = total + 1\n", True),
    ("for i in range(n):\n    sample = draw(i)\n    assert sample.shape == (i,)\n", False),
    ("for case in cases:\n    d = make(case)\n    out.append(d.sample(key))\n", False),
    ("for x in xs:\n    y = f(x)\n    z = g(y)\n", False),
])
def test_loops_of_steps(source: str, steps: bool) -> None:
    assert carries_state(_loop(source)) is steps
