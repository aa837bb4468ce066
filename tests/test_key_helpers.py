"""Which functions of a file consume a key through one another (`key_helpers.py`): found
however long the chain of calls, through factories and transformed names, whatever the order
the functions are defined in. A function left out is never summarised, and its callers'
reuses are lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_optlint_in_process

# `f1` reaches the draw in `f3` only through `f2` (no name here reads as a key).
CHAIN = """\
import jax


def f1(x):
    return f2(x)


def f2(x):
    return f3(x)


def f3(x):
    return jax.random.normal(x, (3,))


k = jax.random.key(0)
a = f1(k)
b = f1(k)
print(a + b)
"""
# `f2` is a factory's closure bound to a name, then transformed (`jax.jit`).
MADE = """\
import jax


def f1(x):
    return step(x)


def make():
    def draw(x):
        return jax.random.normal(x, (3,))
    return draw


made = make()
step = jax.jit(made)
k = jax.random.key(0)
a = f1(k)
b = f1(k)
print(a + b)
"""


@pytest.mark.parametrize("text", [CHAIN, MADE], ids=["chain", "factory"])
def test_a_function_reaching_a_draw_through_others_is_summarised(text: str,
                                                                 tmp_path: Path) -> None:
    """Can fail: a helper set that stops at the functions drawing themselves loses `f1`."""
    (tmp_path / "main.py").write_text(text)
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--isolated", "--jobs",
                                    "1", "--no-cache", "--output-format", "json", cwd=tmp_path)
    lines = [finding["line"] for finding in json.loads(result.stdout or "[]")]
    assert lines == [text.splitlines().index("b = f1(k)") + 1]
