"""OPT020 on a loop step that splits the key its carry holds and hands the new key back with
`carry.update(key=key)` (issue #25; CORL `algorithms/offline/rebrac.py:669` in
`benchmarks/repo_opt020_labels.tsv`): the update binds `carry["key"]` anew, as `carry["key"] =
key` would, so the next step splits a fresh key. A step whose update leaves the key as it was is
still found. Both run with JAX: the first step's carried keys differ from step to step, the
second's stay the same."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax


def step(i, carry):
    key, batch_key = jax.random.split(carry["key"])
    carry["total"] = carry["total"] + jax.random.normal(batch_key, ())
    carry.update(key=key)
    return carry


def step_kept(i, carry):
    key, batch_key = jax.random.split(carry["key"])
    carry["total"] = carry["total"] + jax.random.normal(batch_key, ())
    carry.update(total=carry["total"] * 2)
    return carry
'''


def test_an_update_setting_the_key_hands_back_a_new_one(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "carry.py", SOURCE) == [12]


def test_the_steps_when_run(tmp_path: Path) -> None:
    (tmp_path / "carry.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "carry.py"))
    for name, advances in (("step", True), ("step_kept", False)):
        carry = {"key": jax.random.key(0), "total": 0.0}
        keys = []
        for i in range(3):
            carry = namespace[name](i, dict(carry))
            keys.append(np.asarray(jax.random.key_data(carry["key"])))
        assert (not np.array_equal(keys[0], keys[1])) == advances
