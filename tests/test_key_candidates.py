"""`key_candidates.candidate_calls`: which calls of a file may consume a key. Its readers ask per
scope (has the scope, or the function holding it, a candidate?), so a scope's calls after its
first candidate are asked nothing; what a walk asks of them, it asks then. Switched off
(`PER_SCOPE`), the same findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import KEY_TREES, key_findings, opt020_findings
from optlint.analysis import key_candidates

# The draw is the function's first call: its other calls are asked nothing; the module's
# calls are a scope of their own, asked until their first candidate.
DRAW_FIRST = '''\
import jax
import jax.numpy as jnp


def noisy(key, x):
    noise = jax.random.normal(key, x.shape)
    total = jnp.sum(x)
    return jnp.mean(x) + noise + total


print(noisy(jax.random.key(0), jnp.ones(3)))
'''


def test_a_scopes_calls_after_its_first_candidate_are_asked_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Can fail: asked of every call, `jnp.sum(x)` and `jnp.mean(x)` are asked whether they
    pass a key (the draw is a candidate without that question)."""
    asked: list[str] = []
    passes = key_candidates.passes_key

    def counted(call):  # type: ignore[no-untyped-def]
        asked.append(call.func.attr.value if hasattr(call.func, "attr") else call.func.value)
        return passes(call)

    monkeypatch.setattr(key_candidates, "passes_key", counted)
    assert opt020_findings(tmp_path, "noisy.py", DRAW_FIRST, "--jobs", "1") == []
    # (`print` is the module's first call: `noisy(...)` given a key is its candidate)
    assert asked == ["print", "noisy"]


@pytest.mark.parametrize("tree", KEY_TREES, ids=lambda tree: tree.name)
def test_asking_each_scope_until_its_first_candidate_changes_no_finding(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    per_scope = key_findings(tree)
    monkeypatch.setattr(key_candidates, "PER_SCOPE", False)
    assert key_findings(tree) == per_scope


# No draw: every call is asked every question. `predictive(key, 3)` draws only where the file
# imports numpyro (`Predictive`'s row in `key_consumers.py`).
CALLED_OBJECT = '''\
import jax
{imports}

def model(n):
    return n


def run(key):
    predictive = Predictive(model, num_samples=4)
    first = predictive(key, 3)
    second = predictive(key, 3)
    return first, second
'''


@pytest.mark.parametrize("imports", ["from numpyro.infer import Predictive", ""])
def test_what_made_a_called_object_is_asked_only_where_a_library_of_such_objects_is_imported(
        imports: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Can fail: asked of every call, `Predictive(...)` and `predictive(key, 3)` are asked what
    made what they call though no import names `Predictive`'s library."""
    from optlint.analysis.key_library_calls import LibraryKeyCalls

    asked: list[str] = []
    made_by = LibraryKeyCalls._made_by

    def counted(self, receiver, site):  # type: ignore[no-untyped-def]
        asked.append(getattr(receiver, "value", "?"))
        return made_by(self, receiver, site)

    monkeypatch.setattr(LibraryKeyCalls, "_made_by", counted)
    lines = [finding["line"] for finding in opt020_findings(
        tmp_path, "run.py", CALLED_OBJECT.format(imports=imports), "--jobs", "1")]
    assert lines == ([11] if imports else [])
    assert bool(asked) is bool(imports)
