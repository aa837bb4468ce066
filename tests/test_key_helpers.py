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


# `plot` calls a method named as `Sampler.draw`, on what the analysis cannot name, given no
# key: it reaches no draw. `step` calls the file's own `draw` on `self`: it does.
BY_NAME = """\
import jax


class Sampler:
    def draw(self, key):
        return jax.random.normal(key, (3,))

    def step(self, key):
        return self.draw(key) + self.fresh()

    def fresh(self):
        return self.draw(jax.random.key(1))


def plot(tree):
    return tree.draw()


def main(key, tree):
    a = plot(tree)
    b = Sampler().step(key)
    return a, b, Sampler().step(key)
"""


def _summarised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    """The functions OPT020 walks for a summary, by name, and its findings' lines."""
    from optlint.analysis import key_calls

    walked: list[str] = []
    summary = key_calls.FileKeyCalls.summary

    def noted(self, node):  # type: ignore[no-untyped-def]
        fresh = id(node) not in self.summaries
        flow = summary(self, node)
        if fresh and flow is not None:
            walked.append(node.name.value)
        return flow

    monkeypatch.setattr(key_calls.FileKeyCalls, "summary", noted)
    (tmp_path / "main.py").write_text(text)
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--isolated", "--jobs",
                                    "1", "--no-cache", "--output-format", "json", cwd=tmp_path)
    lines = [finding["line"] for finding in json.loads(result.stdout or "[]")]
    return sorted(walked) + [str(line) for line in lines]


def test_a_method_call_reaches_a_helper_only_where_it_runs_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Can fail: by name alone, `tree.draw()` makes `plot` a helper, summarised at
    `main`'s call of it though it draws nothing."""
    walked = _summarised(tmp_path, monkeypatch, BY_NAME)
    assert "plot" not in walked
    assert {"draw", "fresh", "step"} <= set(walked)


def test_each_scope_and_parameter_asked_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """Can fail: the pass over every call asked, per call, which function it is in and whose
    parameter its callee is; now once per scope, and once per (scope, name). The helpers found
    (`f1`, `f2`, `f3`: the findings) stay."""
    from optlint.analysis import key_helpers

    asked: list[str] = []
    enclosing, owner = key_helpers.enclosing_def, key_helpers.param_owner

    def enclosing_def(site):  # type: ignore[no-untyped-def]
        asked.append("enclosing")
        return enclosing(site)

    def param_owner(scope, name):  # type: ignore[no-untyped-def]
        asked.append(f"param {name.value}")
        return owner(scope, name)

    monkeypatch.setattr(key_helpers, "enclosing_def", enclosing_def)
    monkeypatch.setattr(key_helpers, "param_owner", param_owner)
    text = CHAIN.replace("    return f2(x)\n", "    print(x)\n    print(x)\n    return f2(x)\n")
    (tmp_path / "main.py").write_text(text)
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--isolated", "--jobs",
                                    "1", "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert [finding["line"] for finding in json.loads(result.stdout)] == [20]
    # Scopes: the module, `f1`, `f2`, `f3`; names called by plain name: `print` in `f1`
    # (twice), `f2`, `f3`, and at module level `f1` (twice) and `print`.
    assert asked.count("enclosing") == 4
    assert sorted(a for a in asked if a.startswith("param")) == [
        "param f2", "param f3", "param print"]
