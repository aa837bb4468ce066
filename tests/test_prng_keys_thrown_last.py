"""OPT020 on a last call made as a statement, its result thrown away (issue #25: both draws
must reach a result; evojax's SNN notebook warms a simulation up with `run_sim(key, ...);`).
A project function whose draws reach only what it returns keeps none of them when its result
is thrown away, as a `jax.random` sampler as a statement keeps none. One that stores a draw
(appends it to a list it is given) is made for that, and the finding stays. Each case also
runs: the thrown-away call drawing from another key changes the result only where the finding
stays."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax


def sample(key, scale):
    noise = jax.random.normal(key, (3,))
    return scale * noise


def record(key, log):
    log.append(jax.random.normal(key, (3,)))
    return len(log)


def warmed(key):
    first = sample(key, 1.0)
    sample(key, 2.0)
    return first


def recorded(key):
    log = []
    first = sample(key, 1.0)
    record(key, log)
    return first, log
'''


def test_a_last_call_thrown_away_keeps_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "thrown.py", SOURCE) == [23]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "thrown.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "thrown.py"))
    key, other = jax.random.key(0), jax.random.key(7)
    normal = jax.random.normal
    calls = []

    def second_from_other(given, *args, **kwargs):  # the second draw of each case
        calls.append(given)
        return normal(other if len(calls) == 2 else given, *args, **kwargs)

    for name, changes in (("warmed", False), ("recorded", True)):
        written = _flat(namespace[name](key))
        calls.clear()
        jax.random.normal = second_from_other
        try:
            moved = _flat(namespace[name](key))
        finally:
            jax.random.normal = normal
        assert len(calls) == 2
        assert (not np.array_equal(written, moved)) == changes, name


def _flat(result: object) -> np.ndarray:
    if isinstance(result, (tuple, list)):
        return np.concatenate([_flat(item) for item in result])
    return np.ravel(np.asarray(result, dtype=float))
