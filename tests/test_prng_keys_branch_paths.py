"""OPT020 `--preview` on a key consumed on some paths only, then on every path after (issue
#25, held-out set 8: imalsky/vulcan_exojax_run a5a97e1 hands `key` to its pilot tuner in
`tune_step_size(pipe, key) if cfg.mcmc_auto_tune else ...`, then splits the same `key` for
the first SMC resampling: with the tuner on, the stage replays the tuner's noise). Whether the
branch runs is the program's input, so only `--preview` reports it, saying so. Silent: two
exclusive branches, a loop binding the key anew between the two, a branch that returns. Run
with JAX: the checker raises where the branch runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import raises_key_reuse, run_optlint_in_process

TUNER = """\
import jax


def tune(key):
    key, sub = jax.random.split(key)
    return float(jax.random.normal(sub))


def run(auto, key):
    step = tune(key) if auto else 1.0
    key, sub = jax.random.split(key)
    return step, jax.random.normal(sub)
"""

IN_A_BRANCH = """\
import jax


def run(auto, key):
    step = 1.0
    if auto:
        step = jax.random.normal(key)
    key, sub = jax.random.split(key)
    return step, jax.random.normal(sub)
"""

EXCLUSIVE = """\
import jax


def run(kind, key):
    x = 0.0
    if kind == "a":
        x = jax.random.normal(key)
    if kind == "b":
        x = jax.random.uniform(key)
    return x
"""

LOOP_BETWEEN = """\
import jax


def run(auto, key, n):
    step = jax.random.normal(key) if auto else 1.0
    for _ in range(n):
        key, sub = jax.random.split(key)
        step = step + jax.random.normal(sub)
    key, sub = jax.random.split(key)
    return step, jax.random.normal(sub)
"""

RETURNS = """\
import jax


def run(auto, key):
    if auto:
        return jax.random.normal(key)
    key, sub = jax.random.split(key)
    return jax.random.normal(sub)
"""


def _lines(tmp_path: Path, source: str, preview: bool) -> list[int]:
    (tmp_path / "run.py").write_text(source)
    extra = ["--preview"] if preview else []
    result = run_optlint_in_process("check", "run.py", "--select", "OPT020", "--no-cache",
                                    "--isolated", "--output-format", "json", *extra,
                                    cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


@pytest.mark.parametrize("source, line", [(TUNER, 11), (IN_A_BRANCH, 8)])
def test_a_consumption_after_a_branch_is_preview(tmp_path: Path, source: str,
                                                 line: int) -> None:
    assert _lines(tmp_path, source, preview=False) == []
    assert _lines(tmp_path, source, preview=True) == [line]


@pytest.mark.parametrize("source", [EXCLUSIVE, RETURNS])
def test_exclusive_paths_are_silent(tmp_path: Path, source: str) -> None:
    assert _lines(tmp_path, source, preview=True) == []


def test_after_a_loop_binding_the_key_anew_is_silent(tmp_path: Path) -> None:
    # The loop's first split shares the branch's key; the split after the loop would need the
    # loop not to run.
    assert _lines(tmp_path, LOOP_BETWEEN, preview=True) == [7]


def test_jax_raises_where_the_branch_runs() -> None:
    assert raises_key_reuse(TUNER, "run(True, jax.random.key(0))")
    assert not raises_key_reuse(TUNER, "run(False, jax.random.key(0))")
