"""Skipping the walks that can report nothing (`key_walk_gate.py`) changes no finding: OPT020 on
its fixtures and on the recall benchmark's programs (`--preview` included) reports the same with
every function walked. The runs go through the real CLI, in this process; the gate's answers show
that it skipped walks and let others through, so the comparison covers both. The cases below
each hold one function `f` whose finding rests on what the gate must see (a second consumption,
also of the key under another name, from one literal seed or folded alike; a loop, a
comprehension, a broadcast; a key handed back consumed, returned or kept; a key the object
holds): skipping its walk would lose the finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import KEY_TREES, key_findings, run_optlint_in_process
from test_project_methods import BEHAVIOR, MAIN
import libcst as cst

from optlint.analysis import key_candidates, key_foreign_methods, key_walk_gate
from optlint.analysis.key_call_targets import CallTargets
from optlint.analysis.project_methods import defined_elsewhere
from optlint.analysis.index import Scope
from optlint.analysis.key_walk_gate import WalkGate

TREES = KEY_TREES
_findings = key_findings


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[bool]]:
    """The gate's answers, by the name of the function asked about ("" for a module)."""
    answered: dict[str, set[bool]] = {}
    may_find = WalkGate.may_find

    def noted_may_find(self: WalkGate, scope: Scope, *args: object, **kwargs: object) -> bool:
        answer = may_find(self, scope, *args, **kwargs)  # type: ignore[arg-type]
        name = scope.node.name.value if isinstance(scope.node, cst.FunctionDef) else ""
        answered.setdefault(name, set()).add(answer)
        return answer

    monkeypatch.setattr(WalkGate, "may_find", noted_may_find)
    return answered


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.name)
def test_skipping_walks_changes_no_finding(tree: Path, answers: dict[str, set[bool]],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    gated = _findings(tree)
    given = set().union(*answers.values())
    assert gated and given == {True, False}
    monkeypatch.setattr(key_walk_gate, "GATED", False)
    assert _findings(tree) == gated


# Each a function `f` with a finding the gate must let through. `make` draws once from a key it
# makes, keeping and returning nothing: its walk is skipped.
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
    "a key under two names": """
def f(key):
    k = key
    a = jax.random.normal(key, (3,))
    print(a, jax.random.normal(k, (3,)))
""",
    "two keys of one literal seed": """
def f():
    k1 = jax.random.PRNGKey(0)
    k2 = jax.random.PRNGKey(0)
    a = jax.random.normal(k1, (3,))
    print(a, jax.random.normal(k2, (3,)))
""",
    "two keys folded alike": """
def f(key):
    k1 = jax.random.fold_in(key, 7)
    k2 = jax.random.fold_in(key, 7)
    a = jax.random.normal(k1, (3,))
    print(a, jax.random.normal(k2, (3,)))
""",
    "a key held in a tuple": """
def f(key, x):
    carry = (x, key)
    a = jax.random.normal(key, (3,))
    _, k = carry
    print(a, jax.random.normal(k, (3,)))
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
    # Draws from keys of their own (`key_distinct_draws.py`), but for one thing the walk sees.
    "two keys of one split, the split key handed back": """
def f(key):
    k1, k2 = jax.random.split(key)
    a = jax.random.normal(k1, (3,))
    b = jax.random.normal(k2, (3,))
    return State(key=key, value=a + b)
""",
    "two keys of one split, one drawn in a comprehension": """
def f(key, xs):
    k1, k2 = jax.random.split(key)
    out = [x + jax.random.normal(k1, (3,)) for x in xs]
    print(out, jax.random.normal(k2, (3,)))
""",
    "two keys of one split, one drawn by a closure called twice": """
def f(key):
    k1, k2 = jax.random.split(key)

    def noise():
        return jax.random.normal(k1, (3,))

    print(noise(), noise(), jax.random.uniform(k2, (3,)))
""",
    "one draw, its key handed back in a state": """
def f(key):
    x = jax.random.normal(key, (3,))
    return State(key=key, value=x)
""",
    "a project function's key handed back in a state": """
def noise(key):
    return jax.random.normal(key, (3,))


def f(key):
    x = noise(key)
    return State(key=key, value=x)
""",
    "two keys of one split given to a project function, the split key handed back": """
def noise(key):
    return jax.random.normal(key, (3,))


def f(key):
    k1, k2 = jax.random.split(key)
    return State(key=key, value=noise(k1) + noise(k2))
""",
    "one key given to a project function twice": """
def noise(key):
    return jax.random.normal(key, (3,))


def f(key):
    k1, k2 = jax.random.split(key)
    print(noise(k1), noise(k1), jax.random.uniform(k2, (3,)))
""",
    "two keys of one seed, each split once": """
def f():
    k1 = jax.random.PRNGKey(0)
    k2 = jax.random.PRNGKey(0)
    a, b = jax.random.split(k1)
    c, d = jax.random.split(k2)
    print(jax.random.normal(a, (3,)), jax.random.normal(c, (3,)))
""",
    # Keys bound again by a split (`key_distinct_draws.rebound_apart`), but one value drawn twice.
    "a key bound again, its subkey drawn twice": """
def f(key):
    key, sub = jax.random.split(key)
    a = jax.random.normal(sub, (3,))
    b = jax.random.uniform(sub, (3,))
    return a + b, key
""",
    "a key drawn from, then split into itself": """
def f(key):
    a = jax.random.normal(key, (3,))
    key, sub = jax.random.split(key)
    return a + jax.random.normal(sub, (3,)), key
""",
    "a key bound again, the old value kept under another name": """
def f(key):
    old = key
    key, sub = jax.random.split(key)
    print(jax.random.normal(sub, (3,)), jax.random.normal(old, (3,)))
""",
    "a key bound again in a branch only": """
def f(key, fresh):
    a = jax.random.normal(key, (3,))
    if fresh:
        key, sub = jax.random.split(key)
    print(a, jax.random.normal(key, (3,)))
""",
    "a key bound again, then handed back consumed": """
def f(key):
    key, sub = jax.random.split(key)
    a = jax.random.normal(key, (3,))
    return State(key=key, value=a + jax.random.normal(sub, (3,)))
""",
    # Keys made in place (`WalkGate._made_in_place`), but from one literal seed or repeated.
    "two keys made in place from one literal seed": """
def f():
    print(jax.random.normal(jax.random.PRNGKey(0), (3,)),
          jax.random.uniform(jax.random.PRNGKey(0), (3,)))
""",
    "a key made in place from the literal seed of a named key": """
def f():
    key = jax.random.PRNGKey(3)
    print(jax.random.normal(key, (3,)), jax.random.uniform(jax.random.PRNGKey(3), (3,)))
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
                                                        answers: dict[str, set[bool]],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "m.py").write_text(HEADER + CASES[case])
    gated = _findings(tmp_path)
    assert gated, "the case has a finding"
    assert answers["make"] == {False}, "the gate skipped the walk of `make`"
    monkeypatch.setattr(key_walk_gate, "GATED", False)
    assert _findings(tmp_path) == gated


def test_the_gate_skips_draws_from_keys_of_their_own(tmp_path: Path,
                                                     answers: dict[str, set[bool]]) -> None:
    """Several draws (a library's, or a project function's), each from a key made for it and
    mentioned nowhere else: nothing to find, no walk; a key mentioned once more (`print(k1)`,
    `return ..., k1`) could be handed on: walked."""
    (tmp_path / "m.py").write_text(HEADER + """
def f():
    key = jax.random.PRNGKey(0)
    k1, k2 = jax.random.split(key)
    print(jax.random.normal(k1, (3,)), jax.random.uniform(k2, (3,)))


def g(key):
    k1, k2 = jax.random.split(key)
    print(jax.random.normal(k1, (3,)), jax.random.uniform(k2, (3,)), k1)


def h(key, shape):
    return jax.random.normal(key, shape)


def p(key):
    k1, k2 = jax.random.split(key)
    return h(k1, (3,)) + h(k2, (3,))


def q(key):
    k1, k2 = jax.random.split(key)
    return h(k1, (3,)) + h(k2, (3,)), k1
""")
    assert not _findings(tmp_path)
    assert answers["f"] == {False} and answers["g"] == {True} and answers["h"] == {False}
    # The same through a project function's calls (`key_distinct_draws._plain`).
    assert answers["p"] == {False} and answers["q"] == {True}


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.name)
def test_skipping_receivers_of_methods_no_project_file_defines_changes_no_finding(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup of another file's method evaluates no receiver whose method name no other
    project file defines (`project_methods.py`); with every receiver evaluated, the same
    findings. `test_project_methods.py` shows a finding this lookup makes, lost when it is
    skipped."""
    asked: dict[bool, int] = {True: 0, False: 0}

    def noted(*args: object) -> bool:
        answer = defined_elsewhere(*args)  # type: ignore[arg-type]
        asked[answer] += 1
        return answer

    monkeypatch.setattr(key_foreign_methods, "defined_elsewhere", noted)
    gated = _findings(tree)
    assert asked[False]  # skipped some (the recall programs also let some through)
    monkeypatch.setattr(key_foreign_methods, "defined_elsewhere", lambda *_: True)
    assert _findings(tree) == gated


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.name)
def test_asking_other_files_methods_once_per_scope_changes_no_finding(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call of another file's method is asked whether it draws (`key_candidates.py`)
    only in a scope no cheaper question found a candidate in; asked of every call, the same
    findings."""
    asked = {"calls": 0}
    draws = CallTargets.draws_by_foreign_method

    def counted(self: CallTargets, site: object) -> bool:
        asked["calls"] += 1
        return draws(self, site)  # type: ignore[arg-type]

    monkeypatch.setattr(CallTargets, "draws_by_foreign_method", counted)
    per_scope = _findings(tree)
    fewer = asked["calls"]
    monkeypatch.setattr(key_candidates, "FOREIGN_PER_SCOPE", False)
    asked["calls"] = 0
    assert _findings(tree) == per_scope
    assert fewer < asked["calls"]  # the shortcut skipped some


# `model` comes from `main.py`; its class's method draws from the key `state` holds. In `dream`
# the two calls of it are the only candidates; the module draws too, a scope of its own.
_DREAM = """\
import jax

NOISE = jax.random.normal(jax.random.key(1), (3,))


def dream(model, state, obs):
    a = model.sample_action(state, obs)
    b = model.sample_action(state, obs)
    return a + b
"""


@pytest.mark.parametrize("first", ["", "    print(jax.random.normal(jax.random.key(2), (3,)))\n"])
def test_a_scope_whose_only_candidates_run_another_files_method_is_walked(
        first: str, tmp_path: Path) -> None:
    """Can fail: a shortcut skipping the question where another scope of the file (the module)
    has a candidate would leave `dream` unwalked and lose the reuse; with a draw of its own in
    `dream` (`first`), its walk still finds the calls of the other file's method."""
    (tmp_path / "behavior.py").write_text(BEHAVIOR.format(name="sample_action"))
    dream = _DREAM.replace("    a =", first + "    a =")
    (tmp_path / "dream.py").write_text(dream)
    (tmp_path / "main.py").write_text(MAIN)
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--isolated", "--jobs",
                                    "1", "--no-cache", "--output-format", "json", cwd=tmp_path)
    lines = [finding["line"] for finding in json.loads(result.stdout or "[]")
             if finding["filename"].endswith("dream.py")]
    assert lines == [dream.splitlines().index("    b = model.sample_action(state, obs)") + 1]


def test_the_gate_skips_keys_bound_again_and_keys_made_in_place(
        tmp_path: Path, answers: dict[str, set[bool]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Draws from keys bound again by a split or fold before anything else reads them
    (`rebound_apart`), returned only unconsumed, and draws from keys made in place that no
    other draw is given (`_made_in_place`): nothing to find, no walk. Can fail: each was
    walked before (a key bound twice, a key that is a call)."""
    from optlint.analysis.key_flow import KeyFlow

    walked: list[object] = []
    run = KeyFlow.run

    def counted(self: KeyFlow, body: object, *args: object, **kwargs: object) -> None:
        walked.append(body)
        return run(self, body, *args, **kwargs)  # type: ignore[arg-type]

    source = HEADER + """
def rebound(key, n):
    key, sub = jax.random.split(key)
    a = jax.random.normal(sub, (n,))
    key, sub = jax.random.split(key)
    b = jax.random.uniform(sub, (n,))
    key = jax.random.fold_in(key, n)
    return a + b, key


def in_place(self_key, getkey):
    x = jax.random.normal(getkey(), (3,))
    y = jax.random.normal(jax.random.PRNGKey(4), (3,))
    z = jax.random.normal(jax.random.PRNGKey(5), (3,))
    return x + y + z


def read_between(key):
    key, sub = jax.random.split(key)
    print(key)
    return jax.random.normal(sub, (3,)), key
"""
    (tmp_path / "m.py").write_text(source)
    monkeypatch.setattr(KeyFlow, "run", counted)
    assert not _findings(tmp_path)
    assert answers["rebound"] == {False} and answers["in_place"] == {False}
    assert answers["read_between"] == {True}  # `print(key)` may hand it on: walked
    assert len(walked) == 1  # `read_between`'s walk, no other
