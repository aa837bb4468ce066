"""OPT020 on `fold_in` beside `split` of one key: `fold_in(key, i) == split(key, n)[i]`, but JAX's
key-reuse checker does not see `fold_in`, so the pair is a reuse only where the equal keys are
consumed alike (identical values). Where the folded key is split again, or drawn by another
consumer than the split keys, the finding goes to `--preview`. Each case is also run with JAX."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax.numpy as jnp
import numpy as np

from conftest import opt020_findings

FOLDS = '''\
import equinox as eqx
import jax


def per_step_keys(key, steps):
    init_key, data_key = jax.random.split(key)
    start = jax.random.normal(init_key, (3,))
    noise = []
    for i in range(steps):
        eps_key, drop_key = jax.random.split(jax.random.fold_in(key, i))
        noise.append(jax.random.normal(eps_key, (3,)) + jax.random.uniform(drop_key, (3,)))
    return start, jax.random.permutation(data_key, 3), noise


def readout(key):
    keys = jax.random.split(key, 2)
    first = eqx.nn.Linear(2, 2, key=keys[0])
    second = eqx.nn.Linear(2, 2, key=keys[1])
    scores = jax.random.normal(jax.random.fold_in(key, 1), (2, 2))
    return first, second, scores


def same_draws(key):
    keys = jax.random.split(key, 2)
    kept = jax.random.normal(keys[1], (3,))
    folded = jax.random.normal(jax.random.fold_in(key, 1), (3,))
    return kept, folded
'''


def _findings(tmp_path: Path, *extra: str) -> list[dict]:
    return opt020_findings(tmp_path, "folds.py", FOLDS, *extra)


def _row(finding: dict) -> int:
    return finding["location"]["row"] if "location" in finding else finding["line"]


def test_fold_in_drawn_apart_from_the_split_keys_is_preview(tmp_path: Path) -> None:
    assert [_row(f) for f in _findings(tmp_path)] == [26]
    preview = {_row(f): f["message"] for f in _findings(tmp_path, "--preview")}
    assert sorted(preview) == [10, 19, 26]
    assert "folded key is split again" in preview[10]
    assert "draw different things" in preview[19]
    assert "preview" not in preview[26]


def test_the_cases_run_as_their_findings_say(tmp_path: Path) -> None:
    """Run with JAX: only `same_draws` gives identical values."""
    (tmp_path / "folds.py").write_text(FOLDS)
    code = runpy.run_path(str(tmp_path / "folds.py"))
    import jax
    key = jax.random.key(0)
    kept, folded = code["same_draws"](key)
    assert bool(jnp.all(kept == folded))
    start, _, noise = code["per_step_keys"](key, 3)
    drawn = np.concatenate([np.asarray(start), *map(np.asarray, noise)])
    assert len(set(drawn.tolist())) == drawn.size
    first, second, scores = code["readout"](key)
    weights = np.concatenate([np.ravel(first.weight), np.ravel(second.weight)])
    assert not set(weights.tolist()) & set(np.ravel(scores).tolist())
