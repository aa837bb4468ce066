"""Skipping the walks that can report nothing (`key_walk_gate.py`) changes no finding: OPT020 on
its fixtures and on the recall benchmark's programs (`--preview` included) reports the same with
every function walked. The runs go through the real CLI, in this process; the counts show that
the gate skipped walks and let others through, so the comparison covers both. The cases below
each hold one function whose reuse rests on what the gate must see (a second consumption, a loop,
a lambda, a repeated draw, a key handed back or kept, a key the object holds): skipping it would
lose its finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_optlint_in_process
from optlint.analysis import key_walk_gate
from optlint.analysis.key_walk_gate import WalkGate

ROOT = Path(__file__).resolve().parent.parent
TREES = [ROOT / "tests" / "fixtures" / "OPT020", ROOT / "benchmarks" / "recall" / "keys"]


def _findings(tree: Path) -> list[tuple[str, int, int, str]]:
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--no-cache", "--jobs",
                                    "1", "--isolated", "--preview", "--exit-zero",
                                    "--output-format", "json", cwd=tree)
    return sorted((f["filename"], f["line"], f["column"], f["message"])
                  for f in json.loads(result.stdout))


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> dict[bool, int]:
    """How many walks the gate let through (True) and skipped (False)."""
    counted = {True: 0, False: 0}
    may_find = WalkGate.may_find

    def counted_may_find(self: WalkGate, *args: object, **kwargs: object) -> bool:
        answer = may_find(self, *args, **kwargs)  # type: ignore[arg-type]
        counted[answer] += 1
        return answer

    monkeypatch.setattr(WalkGate, "may_find", counted_may_find)
    return counted


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.name)
def test_skipping_walks_changes_no_finding(tree: Path, counts: dict[bool, int],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    gated = _findings(tree)
    assert gated and counts[True] > 0 and counts[False] > 0
    monkeypatch.setattr(key_walk_gate, "GATED", False)
    assert _findings(tree) == gated


# Each a function with a finding the gate must let through; `make` draws once, keeps nothing and
# returns nothing: its walk is skipped.
CASES = {
    "two draws": """
def f(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.uniform(key, (3,))
    return a + b
""",
    "a draw in a loop": """
def f(key, xs):
    out = []
    for x in xs:
        out.append(x + jax.random.normal(key, (3,)))
    print(out)
""",
    "a draw in a comprehension": """
def f(key):
    print([jax.random.normal(key, (3,)) for _ in range(4)])
""",
    "a draw broadcast by vmap": """
def noise(x, key):
    return x + jax.random.normal(key, x.shape)


def f(xs, key):
    print(jax.vmap(noise, in_axes=(0, None))(xs, key))
""",
    "a key handed back": """
class Carry(NamedTuple):
    key: jax.Array
    params: jax.Array


def f(state: Carry):
    noise = jax.random.normal(state.key, (3,))
    return state._replace(params=state.params + noise)
""",
    "a key handed back consumed, kept": """
def step(x, key):
    return x + jax.random.normal(key, x.shape), key


def f(x, carry):
    (x, carry.key) = step(x, carry.key)
    print(x)
""",
    "a key kept in an attribute": """
class Holder:
    def reset(self, key):
        _, sub = jax.random.split(key)
        self.state = State(key=key, value=sub)

    def value(self):
        return self.state.key
""",
    "a key the module holds": """
class Noisy(eqx.Module):
    key: jax.Array

    def __init__(self, key):
        self.key = key

    def __call__(self, x):
        return x + jax.random.normal(self.key, x.shape)
""",
}
HEADER = """import jax
import equinox as eqx
from typing import NamedTuple


class State(NamedTuple):
    key: jax.Array
    value: jax.Array


def make(seed):
    print(jax.random.normal(jax.random.PRNGKey(seed), (3,)))
"""


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_gate_lets_through_a_function_with_a_finding(case: str, tmp_path: Path,
                                                        counts: dict[bool, int],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "m.py").write_text(HEADER + CASES[case])
    gated = _findings(tmp_path)
    assert gated, "the case has a finding"
    assert counts[False] > 0, "the gate skipped the walk of `make`"
    monkeypatch.setattr(key_walk_gate, "GATED", False)
    assert _findings(tmp_path) == gated
