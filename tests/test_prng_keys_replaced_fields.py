"""OPT020 on a layer whose every drawn field is replaced before any read (`eqx.tree_at(lambda
l: l.weight, linear, w)` on a `Linear(..., use_bias=False)`): the copy keeps nothing drawn from
the key, so building the layer is no draw for a reuse. A layer that keeps a drawn field (its
bias) still is. Both also run with Equinox: the copy changes with the key only where the
finding stays."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import run_optlint_in_process as run_optlint

LAYERS = '''\
import equinox as eqx
import jax
import jax.numpy as jnp


def weight_replaced(seed):
    key = jax.random.key(seed)
    first = eqx.nn.Linear(2, 2, key=key)
    layer = eqx.nn.Linear(2, 2, use_bias=False, key=key)
    fixed = eqx.tree_at(lambda l: l.weight, layer, jnp.eye(2))
    return first, fixed


def bias_kept(seed):
    key = jax.random.key(seed)
    first = eqx.nn.Linear(2, 2, key=key)
    layer = eqx.nn.Linear(2, 2, key=key)
    fixed = eqx.tree_at(lambda l: l.weight, layer, jnp.eye(2))
    return first, fixed
'''


def test_a_layer_with_its_drawn_fields_replaced_is_no_draw(tmp_path: Path) -> None:
    (tmp_path / "layers.py").write_text(LAYERS)
    result = run_optlint("check", "layers.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    rows = [f["location"]["row"] if "location" in f else f["line"]
            for f in json.loads(result.stdout)]
    assert rows == [17]


def test_the_replaced_copy_keeps_nothing_of_the_key_when_run(tmp_path: Path) -> None:
    (tmp_path / "layers.py").write_text(LAYERS)
    namespace = runpy.run_path(str(tmp_path / "layers.py"))
    def leaves(name: str, seed: int) -> list[np.ndarray]:
        return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(namespace[name](seed)[1])]

    same = [np.array_equal(a, b) for a, b in zip(*(leaves("weight_replaced", s) for s in (0, 1)),
                                                   strict=True)]
    kept = [np.array_equal(a, b) for a, b in zip(*(leaves("bias_kept", s) for s in (0, 1)),
                                                   strict=True)]
    assert same == [True]  # the weight only, replaced: nothing of the key
    assert kept == [True, False]  # the weight replaced, the bias drawn from the key
