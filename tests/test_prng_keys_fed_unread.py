"""OPT020 on a draw whose values only make names that nothing in the function reads
(`second = Observations(subkey, normal(key, s))  # noqa: F841`, a draw read afterwards only for
its `.nbytes`): inside a function those names end with it, so the draw reaches no result and is
no draw for a reuse. The same draw still counts where the name escapes: read later, declared
`global`, read by a nested function, or bound at module level outside a `__main__` block (a
script's or notebook's names outlive the statement). Each case also runs with JAX: the draws
the analysis finds unread (`jax.random.normal` in every case) drawing from another key change
no result where the finding goes, and change one where it stays."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import jax
import numpy as np
import pytest

from conftest import run_optlint_in_process as run_optlint

FED_UNREAD = '''\
import jax


class Observations:
    def __init__(self, key, values):
        self.key = key
        self.values = values


def profile_twice():
    key = jax.random.PRNGKey(2)
    key, subkey = jax.random.split(key)
    first = Observations(subkey, jax.random.uniform(key, (3,)))
    key = jax.random.PRNGKey(2)
    key, subkey = jax.random.split(key)
    second = Observations(subkey, jax.random.normal(key, (3,)))  # noqa: F841
    print("bytes of one sample", jax.random.normal(key, (3,)).nbytes)
    return first.values


def feeds_unread_name(key):
    x = jax.random.normal(key, (3,))
    kept_for_memory = x * 2  # noqa: F841
    return jax.random.uniform(key, (3,))
'''

STILL_REUSED = '''\
import jax


def fed_then_read(key):
    x = jax.random.normal(key, (3,))
    kept = x * 2
    y = jax.random.uniform(key, (3,))
    return kept + y


def fed_global(key):
    global kept
    x = jax.random.normal(key, (3,))
    kept = x * 2
    return jax.random.uniform(key, (3,))


def fed_closure(key):
    x = jax.random.normal(key, (3,))
    kept = x * 2
    y = jax.random.uniform(key, (3,))
    return lambda: kept + y


def fed_debugged(key):
    x = jax.random.normal(key, (3,))
    kept = x * 2
    y = jax.random.uniform(key, (3,))
    breakpoint()
    return y


key = jax.random.PRNGKey(0)
sample = jax.random.normal(key, (3,))
doubled = sample * 2
again = jax.random.uniform(key, (3,))
'''


def _rows(tmp_path: Path, name: str, source: str) -> list[int]:
    (tmp_path / name).write_text(source)
    result = run_optlint("check", name, "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_draws_feeding_unread_names_are_no_reuse(tmp_path: Path) -> None:
    assert _rows(tmp_path, "fed_unread.py", FED_UNREAD) == []


def test_draws_feeding_names_that_escape_still_reuse(tmp_path: Path) -> None:
    # Not fed_debugged (line 28): a debugger opened on `kept` shows it but makes no result of
    # it (the labelling rule: returned, printed, stored for a later read, trained on, asserted).
    assert _rows(tmp_path, "reused.py", STILL_REUSED) == [7, 15, 21, 36]


def _results(tmp_path: Path, name: str, source: str) -> list[np.ndarray]:
    """What each function of a case returns for one key (and the module's `doubled`, when it
    has one)."""
    path = tmp_path / name
    path.write_text(source)
    namespace = runpy.run_path(str(path))
    key = jax.random.PRNGKey(1)
    found = []
    for value in list(namespace.values()):
        if not callable(value) or isinstance(value, type) or getattr(
                value, "__module__", None) != "<run_path>":
            continue
        result = value(key) if value.__code__.co_argcount else value()
        if value.__name__ == "fed_global":
            result = namespace["kept"] if "kept" in namespace else value.__globals__["kept"]
        found.append(np.asarray(result() if callable(result) else result))
    found += [np.asarray(namespace["doubled"])] if "doubled" in namespace else []
    return found


def _with_other_first_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """`jax.random.normal` draws from another key."""
    normal = jax.random.normal
    monkeypatch.setattr(jax.random, "normal", lambda key, *args, **kwargs: normal(
        jax.random.fold_in(key, 7), *args, **kwargs))


def test_unread_names_reach_no_result_when_run(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    same = _results(tmp_path, "fed_unread.py", FED_UNREAD)
    _with_other_first_draw(monkeypatch)
    other = _results(tmp_path, "fed_unread.py", FED_UNREAD)
    # profile_twice's normal draws make only `second` and a size; feeds_unread_name's only
    # `kept_for_memory`.
    assert [np.array_equal(a, b) for a, b in zip(same, other, strict=True)] == [True, True]


def test_escaping_names_reach_results_when_run(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")
    same = _results(tmp_path, "reused.py", STILL_REUSED)
    _with_other_first_draw(monkeypatch)
    other = _results(tmp_path, "reused.py", STILL_REUSED)
    # Every first draw reaches a result: the sum, the global, the closure, the module's name;
    # fed_debugged's `kept` only for the debugger (not opened here): no result, no finding.
    assert [np.array_equal(a, b) for a, b in zip(same, other, strict=True)] == [
        False, False, False, True, False]


MAIN_DEMO = '''\
import pdb

import jax

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (3,))
    y = jax.random.uniform(key, (3,))
    out = x * y
    {last}
'''


def test_a_main_demo_left_for_the_debugger_reaches_no_result(tmp_path: Path) -> None:
    """generax's demos end in `pdb.set_trace()`: `out` is only there to be looked at, so the
    first draw reaches no result; printed, it does."""
    assert _rows(tmp_path, "demo.py", MAIN_DEMO.format(last="pdb.set_trace()")) == []
    assert _rows(tmp_path, "shown.py", MAIN_DEMO.format(last="print(out)")) == [8]
