"""OPT020 on a key handed on inside `**kwargs` (issue #25, held-out set 6: signax b56d50e's
`get_bm_noise(num_samples, **kwargs)` built `[gen_bm_noise(**kwargs) for _ in range(n)]`, and
`gen_bm_noise(random_key, n_points=100)` drew from `random_key`: every path the same). The
callee's key parameter has no default and the call names it neither by place nor by keyword,
so every call that runs gives it the mapping's entry: the mapping is followed as the key.
Silent where each call's mapping holds a key of its own, and for a parameter with a default
(the mapping may or may not hold it). Run with JAX: every path is the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_findings, opt020_lines

PATHS = '''\
import jax
import jax.numpy as jnp


def paths(num_samples=4, **kwargs):
    return jnp.stack([path(**kwargs) for _ in range(num_samples)])


def path(random_key, n_points=10):
    return jax.random.normal(random_key, (n_points,)).cumsum()


def pair(**kwargs):
    first = path(**kwargs)
    second = path(**kwargs)
    return first, second
'''

OWN_KEYS = '''\
import jax


def path(random_key, n_points=10):
    return jax.random.normal(random_key, (n_points,)).cumsum()


def set_each(keys, **kwargs):
    out = []
    for k in keys:
        kwargs["random_key"] = k
        out.append(path(**kwargs))
    return out


def updated_each(keys, **kwargs):
    out = []
    for k in keys:
        kwargs.update(random_key=k)
        out.append(path(**kwargs))
    return out


def merged(keys, **kwargs):
    return [path(**{**kwargs, "random_key": k}) for k in keys]


def per_config(configs):
    return [path(**config) for config in configs]


def optional(n, **kwargs):
    return [scaled(**kwargs) for _ in range(n)]


def scaled(scale=1.0, random_key=None):
    return scale
'''


def test_one_mapping_given_in_a_loop_and_twice(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "paths.py", PATHS) == [6, 15]
    messages = [f["message"] for f in opt020_findings(tmp_path, "paths2.py", PATHS)]
    assert all(message.startswith("`kwargs[\"random_key\"]`") for message in messages)


def test_no_split_is_offered_for_a_mapping(tmp_path: Path) -> None:
    assert all(f.get("fix") is None for f in opt020_findings(tmp_path, "paths.py", PATHS,
                                                             "--unsafe-fixes"))


def test_a_key_of_its_own_each_time_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "own.py", OWN_KEYS) == []


def test_every_path_is_the_same() -> None:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {}
    exec(compile(PATHS, "paths.py", "exec"), namespace)
    drawn = namespace["paths"](4, random_key=jax.random.key(0))
    assert bool((drawn == drawn[0]).all())
