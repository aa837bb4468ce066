"""OPT020 on two parts of one model initialised from one key (issue #25: a network whose hidden
and output layers, `self.hidden` and `self.output`, drew their initial weights from one key and
started equal). One method called on two separate objects with one key stays unreported: that
is how code compares two objects on the same draw. The program also runs with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

NETWORK = '''\
import jax
import jax.numpy as jnp


class Dense:
    def __init__(self, size):
        self.size = size

    def init_parameters(self, key):
        return jax.random.normal(key, (self.size,))


class Network:
    def __init__(self, size):
        self.hidden = Dense(size)
        self.output = Dense(size)

    def init_parameters(self, seed):
        key = jax.random.key(seed)
        hidden = self.hidden.init_parameters(key)
        output = self.output.init_parameters(key)
        return jnp.concatenate([hidden, output])


def compare(seed):
    key = jax.random.key(seed)
    small, large = Dense(3), Dense(3)
    return small.init_parameters(key), large.init_parameters(key)
'''


def test_parts_of_one_model_from_one_key(tmp_path: Path) -> None:
    (tmp_path / "network.py").write_text(NETWORK)
    result = run_optlint("check", "network.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout)) == [21]


def test_parts_of_one_model_when_run(tmp_path: Path) -> None:
    (tmp_path / "network.py").write_text(NETWORK)
    namespace = runpy.run_path(str(tmp_path / "network.py"))
    params = namespace["Network"](3).init_parameters(0)
    assert np.array_equal(params[:3], params[3:])  # both layers start equal
